// A random Croupier bot in C++: plays a seeded random legal action in any of the four games,
// and reads each game's typed observation on the way (a field per game, summed up on stderr at
// the end, which goes to the seat log).
//
//   cmake -S clients/cpp -B build/cpp && cmake --build build/cpp -j2
//   croupier check-bot build/cpp/croupier-random-bot --game scauver
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

#include "croupier/bot.h"

namespace v1 = croupier::v1;

class RandomBot : public croupier::Bot {
 public:
  explicit RandomBot(uint64_t seed) : rng_(seed) {}

  void on_welcome(const v1::Welcome& welcome) override {
    game_ = welcome.game();
    seat_ = welcome.seat();
  }

  uint32_t act(const v1::DecisionRequest& decision) override {
    observe(decision.observation());
    // every legal action alike: a run of bets is one entry on the wire and many actions here,
    // counted and indexed by arithmetic on its run (croupier::legal_runs), never listed
    const std::vector<croupier::LegalRun> runs = croupier::legal_runs(decision);
    size_t total = 0;
    for (const auto& run : runs) total += run.count;
    std::uniform_int_distribution<size_t> pick(0, total - 1);
    size_t k = pick(rng_);
    for (const auto& run : runs) {
      if (k < run.count) return run.id_at(static_cast<uint32_t>(k));
      k -= run.count;
    }
    return runs.front().first;  // not reached: k < total
  }

  void on_event(const v1::Event& event) override {
    if (event.kind_case() == v1::Event::kDealEnded) deals_++;
  }

  void on_match_end(const v1::MatchEnd& end) override {
    for (const auto& result : end.results()) {
      if (result.seat() != seat_) continue;
      std::cerr << "cpp-random: " << game_ << ", seat " << seat_ << ", " << decisions_
                << " decisions over " << deals_ << " deals; " << what_ << " " << largest_
                << "; place " << result.place() << std::endl;
    }
  }

 private:
  // One typed field per game: the largest value seen, to show the observation is read.
  void observe(const v1::Observation& obs) {
    decisions_++;
    uint64_t value = 0;
    switch (obs.game_case()) {
      case v1::Observation::kAsNas:
        what_ = "largest As-Nas pot";
        value = obs.as_nas().pot();
        break;
      case v1::Observation::kFipsen:
        what_ = "largest Fipsen hand";
        value = static_cast<uint64_t>(obs.fipsen().hand_size());
        break;
      case v1::Observation::kFelduz:
        what_ = "largest Felduz pot";
        value = obs.felduz().table().pot();
        break;
      case v1::Observation::kScauver:
        what_ = "most Scauver cards in the stock";
        value = obs.scauver().stock_size();
        break;
      case v1::Observation::GAME_NOT_SET:
        break;
    }
    if (value > largest_) largest_ = value;
  }

  std::mt19937_64 rng_;
  std::string game_;
  uint32_t seat_ = 0;
  uint64_t decisions_ = 0, deals_ = 0, largest_ = 0;
  std::string what_ = "nothing";
};

int main() {
  const char* seed = std::getenv("CROUPIER_SEED");
  RandomBot bot(seed ? std::strtoull(seed, nullptr, 10) : 0);
  return croupier::play(bot, "cpp-random", "1");
}

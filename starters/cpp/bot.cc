// A Croupier bot in C++ (the C++ kit, found as the CMake package croupier_bot): plays a random
// legal action in any of the four games. It picks one entry of decision.legal_actions() at
// random; an entry with amounts() (lowest, highest, step) is a run of bets or raises, and the bot
// picks an amount among the run's 20 smallest and answers its id by arithmetic:
// id + amount - lowest (it never lists a run one by one). Seeded from CROUPIER_SEED.
// Change act() to make it play better.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "croupier/bot.h"

namespace v1 = croupier::v1;

class StarterBot : public croupier::Bot {
 public:
  explicit StarterBot(uint64_t seed) : rng_(seed) {}

  uint32_t act(const v1::DecisionRequest& decision) override {
    const auto& entries = decision.legal_actions();  // ascending by id, never empty
    const v1::LegalAction& entry = entries[pick(static_cast<uint64_t>(entries.size()))];
    if (!entry.has_amounts()) return entry.id();  // a single action (fold, call, a card...)
    const auto& run = entry.amounts();
    const uint64_t step = std::max<uint64_t>(run.step(), 1);
    const uint64_t count = (run.highest() - run.lowest()) / step + 1;
    const uint64_t amount = run.lowest() + step * pick(std::min<uint64_t>(count, 20));
    return static_cast<uint32_t>(entry.id() + amount - run.lowest());
  }

 private:
  uint64_t pick(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  std::mt19937_64 rng_;
};

int main() {
  const char* seed = std::getenv("CROUPIER_SEED");
  StarterBot bot(seed ? std::strtoull(seed, nullptr, 10) : 0);
  return croupier::play(bot, "starter-cpp", "1.0");
}

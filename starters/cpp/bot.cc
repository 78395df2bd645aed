// A Croupier bot in C++ (the C++ kit, found as the CMake package croupier_bot): plays a random
// legal action in any of the four games. It picks one of the decision's legal runs at random
// (croupier::legal_runs: one per entry of decision.legal_actions(), a run of bets or raises one
// run with its amounts: lowest, highest, step); of a run of bets or raises it picks an amount
// among the 20 smallest and answers that bet's id (croupier::id_for_amount: it never lists a run
// one by one). Seeded from CROUPIER_SEED.
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
    const auto runs = croupier::legal_runs(decision);  // ascending by id, never empty
    const croupier::LegalRun& run = runs[pick(runs.size())];
    if (!run.amounts) return run.first;  // a single action (fold, call, a card...)
    const croupier::AmountRange& chips = *run.amounts;  // bets or raises of these many chips
    const uint64_t k = pick(std::min<uint64_t>(run.count, 20));  // one of the 20 smallest
    const uint32_t amount = chips.lowest + chips.step * static_cast<uint32_t>(k);
    return croupier::id_for_amount(decision, amount).value();  // the run offers `amount`
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

// A test bot of the C++ kit: plays the first legal action, logging each decision on stdout as
// "decision <n> request_id=<id>" (like the Python and Node test bots), and spends
// CROUPIER_SLOW_MS (default 800) over its CROUPIER_SLOW_ON-th decision (default 2), so a test can
// cut its connection while it thinks; with CROUPIER_DELAY_MS every decision takes that long.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "croupier/bot.h"

namespace {

long env_number(const char* name, long fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtol(value, nullptr, 10) : fallback;
}

class SlowBot : public croupier::Bot {
 public:
  uint32_t act(const croupier::v1::DecisionRequest& decision) override {
    count_++;
    std::cout << "decision " << count_ << " request_id=" << decision.request_id() << std::endl;
    long ms = count_ == on_ ? slow_ms_ : delay_ms_;
    if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return croupier::legal_ids(decision).front();
  }

 private:
  long count_ = 0;
  long on_ = env_number("CROUPIER_SLOW_ON", 2);
  long slow_ms_ = env_number("CROUPIER_SLOW_MS", 800);
  long delay_ms_ = env_number("CROUPIER_DELAY_MS", 0);
};

}  // namespace

int main() {
  SlowBot bot;
  return croupier::play(bot, "cpp-slow", "test");
}

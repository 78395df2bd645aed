// croupier/bot.h: write a Croupier bot in C++ by overriding one function.
//
//   struct MyBot : croupier::Bot {
//     uint32_t act(const croupier::v1::DecisionRequest& d) override {
//       return croupier::legal_runs(d).front().first;  // a legal id
//     }
//   };
//   int main() { MyBot bot; return croupier::play(bot, "my-bot", "1"); }
//
// play() dials the arbiter at CROUPIER_ADDRESS (plaintext), says Hello with CROUPIER_TOKEN,
// answers every DecisionRequest with act(), calls the hooks for everything else, and returns 0
// after MatchEnd. If the stream drops and the Welcome gave a reconnect window, it dials in again
// with the same token within that window (the pending decision comes again). If the arbiter
// refuses the bot or the stream is lost, it prints one line on stderr (with the stable
// croupier-reason) and returns 2. The messages are those of
// proto/croupier/v1/*.proto (docs/protocol.md).
//
// Launched in session mode (CROUPIER_SESSION_TOKEN set: a tournament keeps the process up
// across matches), play() serves the session instead, for a bot class that can be copied: every
// seat the arbiter hands the process is played by its own copy of the bot as it was before the
// first match, all of them on the session's one stream (protocol 3, multiplexed), until the
// arbiter ends the session (then 0). A bot class that cannot be copied plays one match per
// process, as before sessions.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "croupier/v1/bot.pb.h"

namespace croupier {

namespace v1 = ::croupier::v1;

//: The protocol version this kit speaks (Hello.protocol_version): 3, seats multiplexed on a
//: session's stream; a Play stream is the same in 2 and 3.
inline constexpr uint32_t kProtocolVersion = 3;

class Bot {
 public:
  virtual ~Bot() = default;
  // The bot was admitted to a seat (match id, seat, game, parameters, clock rules).
  virtual void on_welcome(const v1::Welcome& welcome) { (void)welcome; }
  // Return a legal id: one of legal_ids(decision) (an entry of decision.legal_actions() may
  // stand for a run of amounts: see legal_runs, id_for_amount and expand_legal_actions). Called
  // for every decision, in order.
  virtual uint32_t act(const v1::DecisionRequest& decision) = 0;
  // A public event; events come before the message they ride with, in table order.
  virtual void on_event(const v1::Event& event) { (void)event; }
  // A reply was not accepted.
  virtual void on_rejected(const v1::ActionRejected& rejected) { (void)rejected; }
  // The match is over.
  virtual void on_match_end(const v1::MatchEnd& end) { (void)end; }
};

// Where to dial and what to say; empty address/token mean CROUPIER_ADDRESS/CROUPIER_TOKEN.
struct Options {
  std::string name = "cpp-bot";
  std::string version = "0";
  std::string address;
  std::string token;
  int connect_timeout_s = 30;
  // In a session: how many matches at a time at most (0: as CROUPIER_SESSION_CAPACITY says, else
  // 1), and how long to dial a broken session again, in seconds (negative: as
  // CROUPIER_SESSION_RECONNECT_S says, else 300; 0: not at all).
  int capacity = 0;
  double reconnect_s = -1;
};

// The legal actions of a decision one per action, ascending by id. On the wire a run of bets or
// raises is one entry with `amounts` (lowest, highest, step): the action of amount a has id
// entry.id() + a - lowest, label "<Bet|Raise>:<a>" and the entry's typed fields with
// chip.amount = a. Entries without `amounts` are copied as they are.
std::vector<v1::LegalAction> expand_legal_actions(const v1::DecisionRequest& decision);

// The legal action ids of a decision, ascending, ranges expanded (no message built; legal_runs,
// is_legal and id_for_amount answer without expanding).
std::vector<uint32_t> legal_ids(const v1::DecisionRequest& decision);

// The amounts of a run of bets or raises (LegalAction.amounts): every multiple-of-`step` offset
// from `lowest` up to `highest`, chips.
struct AmountRange {
  uint32_t lowest = 0;
  uint32_t highest = 0;
  uint32_t step = 1;  // at least 1
};

// One entry of decision.legal_actions() as the ids it stands for, without listing them: the
// `count` ids first, first + step, ..., last(). A run of bets or raises has `amounts` (the
// action of amount a has id first + a - amounts->lowest); any other entry is a run of one id
// (count 1, step 1, no amounts).
struct LegalRun {
  uint32_t first = 0;
  uint32_t count = 1;
  uint32_t step = 1;
  std::optional<AmountRange> amounts;

  // The highest id of the run.
  uint64_t last() const { return first + static_cast<uint64_t>(step) * (count - 1); }
  // The k-th id of the run (k < count).
  uint32_t id_at(uint32_t k) const { return first + step * k; }
  // Whether `id` is one of the run's ids (arithmetic).
  bool holds(uint64_t id) const {
    return count > 0 && id >= first && id <= last() && (id - first) % step == 0;
  }
};

// The legal actions of a decision as runs, one per entry of decision.legal_actions() and in its
// order (ascending by id): runs[i] is entry i. Lists no id: a betting step at stack 1000 is two
// or three runs however many amounts it offers.
std::vector<LegalRun> legal_runs(const v1::DecisionRequest& decision);

// Whether `id` is a legal id of the decision, by arithmetic on its entries (as the arbiter checks
// it); expands no range.
bool is_legal(const v1::DecisionRequest& decision, uint64_t id);

// The id of the bet or raise of `amount` chips (`kind` "Bet" or "Raise", the label's prefix, when
// given): entry.id() + amount - lowest on the entry whose range offers that amount (or the id of
// the entry labelled "<Bet|Raise>:<amount>", a lone bet or raise the wire sends without a
// range), or an empty optional when no entry offers that amount. Expands no range.
std::optional<uint32_t> id_for_amount(const v1::DecisionRequest& decision, uint32_t amount,
                                      const std::string& kind = "");

// Play one match; 0 after MatchEnd, 2 (after one line on stderr) on refusal or a broken stream.
int play(Bot& bot, const Options& options);

// Makes a fresh bot for each seat of a session.
using BotFactory = std::function<std::unique_ptr<Bot>()>;

// Serve a bot session with CROUPIER_SESSION_TOKEN (protocol 3: every seat on the session's
// stream, each played by its own bot from `make`); 0 once the arbiter ends the session, 2 after
// one line on stderr if it refuses it or it broke and did not come back within the reconnect
// window (3 if the arbiter speaks only protocol 2: call play() per match instead).
int serve(const BotFactory& make, const Options& options);

// Whether the environment says session mode (CROUPIER_SESSION_TOKEN is set).
bool session_mode();

// play() for the bot's own class: in session mode, a class that can be copied serves the session
// with a copy of `bot` (as it is now) per seat; otherwise one match, as play(Bot&) does.
template <class B, std::enable_if_t<std::is_base_of_v<Bot, B>, int> = 0>
int play(B& bot, const Options& options) {
  if constexpr (std::is_copy_constructible_v<B>) {
    if (session_mode()) {
      const B pristine = bot;
      const int served = serve([&pristine] { return std::make_unique<B>(pristine); }, options);
      if (served != 3) return served;  // 3: an arbiter from before protocol 3
    }
  }
  return play(static_cast<Bot&>(bot), options);
}

template <class B, std::enable_if_t<std::is_base_of_v<Bot, B>, int> = 0>
int play(B& bot, const std::string& name, const std::string& version) {
  Options options;
  options.name = name;
  options.version = version;
  return play(bot, options);
}

}  // namespace croupier

// croupier/bot.h: write a Croupier bot in C++ by overriding one function.
//
//   struct MyBot : croupier::Bot {
//     uint32_t act(const croupier::v1::DecisionRequest& d) override {
//       return croupier::legal_ids(d).front();  // any legal id
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
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "croupier/v1/bot.pb.h"

namespace croupier {

namespace v1 = ::croupier::v1;

//: The protocol version this kit speaks (Hello.protocol_version).
inline constexpr uint32_t kProtocolVersion = 2;

class Bot {
 public:
  virtual ~Bot() = default;
  // The bot was admitted to a seat (match id, seat, game, parameters, clock rules).
  virtual void on_welcome(const v1::Welcome& welcome) { (void)welcome; }
  // Return a legal id: one of legal_ids(decision) (an entry of decision.legal_actions() may
  // stand for a run of amounts: see expand_legal_actions). Called for every decision, in order.
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
};

// The legal actions of a decision one per action, ascending by id. On the wire a run of bets or
// raises is one entry with `amounts` (lowest, highest, step): the action of amount a has id
// entry.id() + a - lowest, label "<Bet|Raise>:<a>" and the entry's typed fields with
// chip.amount = a. Entries without `amounts` are copied as they are.
std::vector<v1::LegalAction> expand_legal_actions(const v1::DecisionRequest& decision);

// The legal action ids of a decision, ascending, ranges expanded (no message built).
std::vector<uint32_t> legal_ids(const v1::DecisionRequest& decision);

// Play one match; 0 after MatchEnd, 2 (after one line on stderr) on refusal or a broken stream.
int play(Bot& bot, const Options& options);
inline int play(Bot& bot, const std::string& name, const std::string& version) {
  Options options;
  options.name = name;
  options.version = version;
  return play(bot, options);
}

}  // namespace croupier

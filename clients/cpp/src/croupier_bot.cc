// The C++ kit's one loop: dial, Hello, answer decisions, return after MatchEnd (dialling in
// again within the seat's reconnect window if the stream drops).
#include "croupier/bot.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>
#include <algorithm>

#include "croupier/v1/bot.grpc.pb.h"

namespace croupier {
namespace {

std::string env_or(const std::string& value, const char* name) {
  if (!value.empty()) return value;
  const char* found = std::getenv(name);
  return found ? found : "";
}

const char* code_name(grpc::StatusCode code) {
  static const char* const names[] = {
      "OK",        "CANCELLED",         "UNKNOWN",          "INVALID_ARGUMENT",
      "DEADLINE_EXCEEDED", "NOT_FOUND",  "ALREADY_EXISTS",   "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
      "UNIMPLEMENTED", "INTERNAL",      "UNAVAILABLE",      "DATA_LOSS",
      "UNAUTHENTICATED"};
  int i = static_cast<int>(code);
  return i >= 0 && i <= 16 ? names[i] : "UNKNOWN";
}

int fail(const Options& options, const std::string& message) {
  std::cerr << options.name << ": " << message << std::endl;
  return 2;
}

bool read_pem(const char* variable, std::string* out, std::string* error) {
  const char* file = std::getenv(variable);
  if (file == nullptr || *file == '\0') return true;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    *error = std::string("cannot read the TLS file ") + file + " (" + variable + ")";
    return false;
  }
  *out = text.str();
  return true;
}

// TLS when CROUPIER_TLS_CA names a PEM file to trust (or CROUPIER_TLS=1: the system's roots),
// with CROUPIER_TLS_CERT/CROUPIER_TLS_KEY for mutual TLS and CROUPIER_TLS_SERVER_NAME when the
// certificate names the arbiter differently; plaintext otherwise, and always to a unix: address.
std::shared_ptr<grpc::ChannelCredentials> credentials(const std::string& address,
                                                      grpc::ChannelArguments* args,
                                                      std::string* error) {
  const std::string ca = env_or("", "CROUPIER_TLS_CA");
  const std::string on = env_or("", "CROUPIER_TLS");
  if ((ca.empty() && on != "1" && on != "true" && on != "yes") ||
      address.rfind("unix:", 0) == 0) {
    return grpc::InsecureChannelCredentials();
  }
  grpc::SslCredentialsOptions ssl;
  if (!read_pem("CROUPIER_TLS_CA", &ssl.pem_root_certs, error) ||
      !read_pem("CROUPIER_TLS_CERT", &ssl.pem_cert_chain, error) ||
      !read_pem("CROUPIER_TLS_KEY", &ssl.pem_private_key, error)) {
    return nullptr;
  }
  if (ssl.pem_cert_chain.empty() != ssl.pem_private_key.empty()) {
    *error = "mutual TLS needs both CROUPIER_TLS_CERT and CROUPIER_TLS_KEY";
    return nullptr;
  }
  const std::string name = env_or("", "CROUPIER_TLS_SERVER_NAME");
  if (!name.empty()) args->SetSslTargetNameOverride(name);
  return grpc::SslCredentials(ssl);
}

}  // namespace

std::vector<v1::LegalAction> expand_legal_actions(const v1::DecisionRequest& decision) {
  std::vector<v1::LegalAction> out;
  for (const auto& entry : decision.legal_actions()) {
    if (!entry.has_amounts()) {
      out.push_back(entry);
      continue;
    }
    const auto& range = entry.amounts();
    const uint32_t step = range.step() > 0 ? range.step() : 1;
    const std::string label = entry.label();
    const std::string prefix = label.substr(0, label.rfind(':'));
    for (uint32_t amount = range.lowest(); amount <= range.highest(); amount += step) {
      v1::LegalAction action = entry;
      action.clear_amounts();
      action.set_id(entry.id() + amount - range.lowest());
      action.set_label(prefix + ":" + std::to_string(amount));
      if (action.has_felduz()) action.mutable_felduz()->mutable_chip()->set_amount(amount);
      if (action.has_scauver()) action.mutable_scauver()->mutable_chip()->set_amount(amount);
      out.push_back(std::move(action));
    }
  }
  return out;
}

std::vector<uint32_t> legal_ids(const v1::DecisionRequest& decision) {
  std::vector<uint32_t> ids;
  for (const auto& entry : decision.legal_actions()) {
    if (!entry.has_amounts()) {
      ids.push_back(entry.id());
      continue;
    }
    const auto& range = entry.amounts();
    const uint32_t step = range.step() > 0 ? range.step() : 1;
    for (uint32_t amount = range.lowest(); amount <= range.highest(); amount += step) {
      ids.push_back(entry.id() + amount - range.lowest());
    }
  }
  return ids;
}

namespace {

// How one Play stream of a seat ended.
struct StreamEnd {
  bool ended = false;     // MatchEnd was read
  bool welcomed = false;  // a Welcome came on this stream
  grpc::Status status;
  std::string reason;     // the croupier-reason trailer, if any
};

// Refusals worth another try while the seat's reconnect window lasts: the arbiter has not yet
// noticed that the old stream is gone (SEAT_TAKEN), or cannot be reached for a moment ("").
bool worth_retrying(const StreamEnd& end) {
  return end.reason.empty() || end.reason == "SEAT_TAKEN";
}

// One Play stream of the seat: Hello, then every message until MatchEnd or the stream breaks.
// `match` holds the first Welcome; a Welcome again (back after a drop) is the same seat, so the
// bot's on_welcome is not called twice.
StreamEnd play_stream(v1::BotService::Stub& stub, const v1::PlayRequest& hello, Bot& bot,
                      v1::Welcome* match, bool* have_match) {
  StreamEnd out;
  grpc::ClientContext context;
  auto stream = stub.Play(&context);
  stream->Write(hello);
  v1::PlayResponse response;
  while (!out.ended && stream->Read(&response)) {
    for (const auto& event : response.events()) bot.on_event(event);
    switch (response.kind_case()) {
      case v1::PlayResponse::kWelcome:
        out.welcomed = true;
        if (!*have_match) {
          *match = response.welcome();
          *have_match = true;
          bot.on_welcome(response.welcome());
        }
        break;
      case v1::PlayResponse::kDecision: {
        v1::PlayRequest reply;
        reply.mutable_action()->set_request_id(response.decision().request_id());
        reply.mutable_action()->set_action_id(bot.act(response.decision()));
        stream->Write(reply);  // false only when the stream is gone: Read() then tells us
        break;
      }
      case v1::PlayResponse::kRejected:
        bot.on_rejected(response.rejected());
        break;
      case v1::PlayResponse::kMatchEnd:
        bot.on_match_end(response.match_end());
        out.ended = true;
        break;
      case v1::PlayResponse::KIND_NOT_SET:  // events only
        break;
    }
  }
  stream->WritesDone();
  out.status = stream->Finish();
  const auto& trailers = context.GetServerTrailingMetadata();
  auto found = trailers.find("croupier-reason");
  if (found != trailers.end()) out.reason.assign(found->second.data(), found->second.size());
  return out;
}

}  // namespace

int play(Bot& bot, const Options& options) {
  const std::string address = env_or(options.address, "CROUPIER_ADDRESS");
  const std::string token = env_or(options.token, "CROUPIER_TOKEN");
  if (address.empty()) return fail(options, "no arbiter address: set CROUPIER_ADDRESS");

  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);  // roomy: decisions are bounded (protocol 2)
  // Dial again quickly after a dropped connection (gRPC's default first backoff is a second,
  // a good part of a short reconnect window).
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  std::string error;
  auto creds = credentials(address, &args, &error);
  if (!creds) return fail(options, error);
  auto channel = grpc::CreateCustomChannel(address, creds, args);
  auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(options.connect_timeout_s);
  if (!channel->WaitForConnected(deadline)) {
    return fail(options, "cannot reach the arbiter at " + address);
  }
  auto stub = v1::BotService::NewStub(channel);

  v1::PlayRequest hello;
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_bot_name(options.name);
  hello.mutable_hello()->set_bot_version(options.version);
  hello.mutable_hello()->set_protocol_version(kProtocolVersion);

  // If the stream drops after the Welcome and the seat has a reconnect window
  // (Welcome.reconnect_grace_ms), dial in again with the same token until the window has
  // passed: the arbiter sends the Welcome and the pending decision again.
  v1::Welcome match;
  bool have_match = false;
  bool retrying = false;
  std::chrono::steady_clock::time_point give_up;
  while (true) {
    StreamEnd end = play_stream(*stub, hello, bot, &match, &have_match);
    if (end.ended) return 0;
    const bool lost = end.welcomed || (retrying && worth_retrying(end));
    const auto now = std::chrono::steady_clock::now();
    if (end.welcomed) {  // a new drop, not a refused retry: a window of its own
      give_up = now + std::chrono::milliseconds(match.reconnect_grace_ms());
      retrying = true;
    }
    if (!lost || now >= give_up) {
      if (end.status.ok()) {
        return fail(options, "the arbiter closed the stream before the match ended");
      }
      const std::string reason = end.reason.empty() ? "" : " [" + end.reason + "]";
      return fail(options, std::string(code_name(end.status.error_code())) + ": " +
                               end.status.error_message() + reason);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto left = give_up - std::chrono::steady_clock::now();
    channel->WaitForConnected(std::chrono::system_clock::now() +
                              std::max(left, std::chrono::steady_clock::duration(
                                                 std::chrono::milliseconds(10))));
  }
}

}  // namespace croupier

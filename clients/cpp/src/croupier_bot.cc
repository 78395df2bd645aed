// The C++ kit's loops: one match (dial, Hello, answer decisions, return after MatchEnd, dialling
// in again within the seat's reconnect window if the stream drops), and a multiplexed session
// (every seat on the Session stream, protocol 3; or, launched with one, on the session pipe:
// the same messages without gRPC).
#include "croupier/bot.h"

#include <fcntl.h>
#include <grpcpp/grpcpp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

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

// The chip amount of an action's typed fields: `chip.amount` of the game's detail message (the
// set entry of LegalAction.detail), read by name from the descriptors, so that a new chip game
// needs no line here; nullptr when the game's detail has no chip (not a betting action).
google::protobuf::Message* chip_of(v1::LegalAction* action) {
  const auto* reflection = action->GetReflection();
  const auto* detail_field = reflection->GetOneofFieldDescriptor(
      *action, v1::LegalAction::descriptor()->FindOneofByName("detail"));
  if (detail_field == nullptr || detail_field->message_type() == nullptr) return nullptr;
  auto* detail = reflection->MutableMessage(action, detail_field);
  const auto* chip_field = detail->GetDescriptor()->FindFieldByName("chip");
  if (chip_field == nullptr || chip_field->message_type() == nullptr) return nullptr;
  return detail->GetReflection()->MutableMessage(detail, chip_field);
}

void set_chip_amount(v1::LegalAction* action, uint32_t amount) {
  auto* chip = chip_of(action);
  if (chip == nullptr) return;
  const auto* field = chip->GetDescriptor()->FindFieldByName("amount");
  if (field == nullptr || field->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_UINT32) {
    return;
  }
  chip->GetReflection()->SetUInt32(chip, field, amount);
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
      set_chip_amount(&action, amount);
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

std::vector<LegalRun> legal_runs(const v1::DecisionRequest& decision) {
  std::vector<LegalRun> runs;
  runs.reserve(static_cast<size_t>(decision.legal_actions_size()));
  for (const auto& entry : decision.legal_actions()) {
    LegalRun run;
    run.first = entry.id();
    if (entry.has_amounts()) {
      const auto& range = entry.amounts();
      const uint32_t step = range.step() > 0 ? range.step() : 1;
      run.step = step;
      run.count =
          range.highest() < range.lowest() ? 0 : (range.highest() - range.lowest()) / step + 1;
      run.amounts = AmountRange{range.lowest(), range.highest(), step};
    }
    runs.push_back(run);
  }
  return runs;
}

bool is_legal(const v1::DecisionRequest& decision, uint64_t id) {
  for (const auto& entry : decision.legal_actions()) {
    if (!entry.has_amounts()) {
      if (id == entry.id()) return true;
      continue;
    }
    const auto& range = entry.amounts();
    if (range.highest() < range.lowest() || id < entry.id()) continue;
    const uint64_t offset = id - entry.id();  // = amount - lowest
    const uint32_t step = range.step() > 0 ? range.step() : 1;
    if (offset <= range.highest() - range.lowest() && offset % step == 0) return true;
  }
  return false;
}

std::optional<uint32_t> id_for_amount(const v1::DecisionRequest& decision, uint32_t amount,
                                      const std::string& kind) {
  const std::string suffix = ":" + std::to_string(amount);
  for (const auto& entry : decision.legal_actions()) {
    if (!entry.has_amounts()) {  // a lone bet or raise (its only amount) is an entry of its own
      const std::string& label = entry.label();
      if (kind.empty() ? label == "Bet" + suffix || label == "Raise" + suffix
                       : label == kind + suffix) {
        return entry.id();
      }
      continue;
    }
    const auto& range = entry.amounts();
    if (amount < range.lowest() || amount > range.highest()) continue;
    const uint32_t step = range.step() > 0 ? range.step() : 1;
    if ((amount - range.lowest()) % step != 0) continue;
    if (!kind.empty() && entry.label().rfind(kind + ":", 0) != 0) continue;
    return entry.id() + (amount - range.lowest());
  }
  return std::nullopt;
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

namespace {

// A channel to `address` as play() and serve() dial it (TLS from the environment).
std::shared_ptr<grpc::Channel> dial(const std::string& address, std::string* error) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);  // roomy: decisions are bounded (protocol 2)
  // Dial again quickly after a dropped connection (gRPC's default first backoff is a second,
  // a good part of a short reconnect window).
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  auto creds = credentials(address, &args, error);
  if (!creds) return nullptr;
  return grpc::CreateCustomChannel(address, creds, args);
}

}  // namespace

int play(Bot& bot, const Options& options) {
  const std::string address = env_or(options.address, "CROUPIER_ADDRESS");
  const std::string token = env_or(options.token, "CROUPIER_TOKEN");
  if (address.empty()) return fail(options, "no arbiter address: set CROUPIER_ADDRESS");

  std::string error;
  auto channel = dial(address, &error);
  if (!channel) return fail(options, error);
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


bool session_mode() { return !env_or("", "CROUPIER_SESSION_TOKEN").empty(); }

namespace {

// One seat of a multiplexed session: its own bot, and its Welcome once it came.
struct SessionSeat {
  std::unique_ptr<Bot> bot;
  bool have_match = false;
};

// How one Session stream ended.
struct SessionEnd {
  bool welcomed = false;  // its SessionWelcome came
  grpc::Status status;
  std::string reason;  // the croupier-reason trailer, if any
};

// A seat's message (its PlayResponse, as a Play stream would carry it) to its bot; true and the
// action id in `action` when it held a decision.
bool handle(SessionSeat& seat, const v1::PlayResponse& response, uint32_t* action) {
  Bot& bot = *seat.bot;
  for (const auto& event : response.events()) bot.on_event(event);
  switch (response.kind_case()) {
    case v1::PlayResponse::kWelcome:
      if (!seat.have_match) {  // (again after a broken session: the same seat)
        seat.have_match = true;
        bot.on_welcome(response.welcome());
      }
      return false;
    case v1::PlayResponse::kDecision:
      *action = bot.act(response.decision());
      return true;
    case v1::PlayResponse::kRejected:
      bot.on_rejected(response.rejected());
      return false;
    case v1::PlayResponse::kMatchEnd:
      bot.on_match_end(response.match_end());
      return false;
    case v1::PlayResponse::KIND_NOT_SET:  // events only
      return false;
  }
  return false;
}

// The replies to one SessionResponse's seat messages, each seat's to its own bot (a seat first
// seen with its assignment gets a fresh bot from `make`; one whose bot throws is given up).
// `refs` maps this stream's seat_refs to the seats' tokens.
v1::SessionRequest answer(const v1::SessionResponse& response, const BotFactory& make,
                          const Options& options, std::map<uint32_t, std::string>* refs,
                          std::map<std::string, SessionSeat>* seats, int* played) {
  v1::SessionRequest replies;
  for (const auto& item : response.seat_messages()) {
    if (item.has_assignment()) {
      const std::string& token = item.assignment().token();
      (*refs)[item.seat_ref()] = token;
      if (seats->find(token) == seats->end()) (*seats)[token].bot = make();
    }
    auto found = seats->find((*refs)[item.seat_ref()]);
    if (found == seats->end()) continue;  // a seat that failed here
    uint32_t action = 0;
    bool decided = false;
    try {
      decided = handle(found->second, item.message(), &action);
    } catch (const std::exception& err) {  // the bot's own code failed: it leaves this seat
      std::cerr << options.name << ": a match failed: " << err.what() << std::endl;
      seats->erase(found);
      ++*played;
      auto* reply = replies.add_replies();
      reply->set_seat_ref(item.seat_ref());
      reply->set_leave(true);
      continue;
    }
    if (item.message().kind_case() == v1::PlayResponse::kMatchEnd) {
      seats->erase(found);
      refs->erase(item.seat_ref());
      ++*played;
    }
    if (decided) {
      auto* reply = replies.add_replies();
      reply->set_seat_ref(item.seat_ref());
      reply->mutable_action()->set_request_id(item.message().decision().request_id());
      reply->mutable_action()->set_action_id(action);
    }
  }
  return replies;
}

// One Session stream: SessionHello, then every seat's messages until the arbiter ends it. The
// seats live in `seats` by token, so a seat handed again on the next stream is the same one.
SessionEnd session_stream(v1::BotService::Stub& stub, const v1::SessionRequest& hello,
                          const BotFactory& make, const Options& options,
                          std::map<std::string, SessionSeat>* seats, int* played) {
  SessionEnd out;
  grpc::ClientContext context;
  auto stream = stub.Session(&context);
  stream->Write(hello);
  std::map<uint32_t, std::string> refs;  // seat_ref on this stream -> token
  v1::SessionResponse response;
  while (stream->Read(&response)) {
    if (response.kind_case() == v1::SessionResponse::kWelcome) {
      out.welcomed = true;
      continue;
    }
    // the answers to every decision of the message, in one message (false only when the
    // stream is gone: Read() then tells us)
    v1::SessionRequest replies = answer(response, make, options, &refs, seats, played);
    if (replies.replies_size() > 0) stream->Write(replies);
  }
  stream->WritesDone();
  out.status = stream->Finish();
  const auto& trailers = context.GetServerTrailingMetadata();
  auto found = trailers.find("croupier-reason");
  if (found != trailers.end()) out.reason.assign(found->second.data(), found->second.size());
  return out;
}

// The session pipe (CROUPIER_SESSION_FD): the same messages as the Session stream, each framed
// by a 4-byte big-endian length, on a socket the arbiter made for this process alone.
bool read_exactly(int fd, char* out, size_t size) {
  size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, out + got, size - got);
    if (n == 0) return false;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    got += static_cast<size_t>(n);
  }
  return true;
}

// The largest frame taken from the arbiter: what the kit accepts on gRPC (dial()).
constexpr size_t kMaxFrame = 64 << 20;

// The next frame's bytes into `data`: 1, or 0 at the pipe's end (or a frame cut short: the
// arbiter is gone), or -1 for a frame longer than kMaxFrame.
int read_frame(int fd, std::string* data) {
  unsigned char header[4];
  if (!read_exactly(fd, reinterpret_cast<char*>(header), 4)) return 0;
  const size_t size = (size_t{header[0]} << 24) | (size_t{header[1]} << 16) |
                      (size_t{header[2]} << 8) | size_t{header[3]};
  if (size > kMaxFrame) return -1;
  data->resize(size);
  return size == 0 || read_exactly(fd, data->data(), size) ? 1 : 0;
}

bool write_frame(int fd, const google::protobuf::Message& message) {
  std::string data;
  message.SerializeToString(&data);
  const uint32_t size = static_cast<uint32_t>(data.size());
  const char header[4] = {static_cast<char>(size >> 24), static_cast<char>(size >> 16),
                          static_cast<char>(size >> 8), static_cast<char>(size)};
  data.insert(0, header, 4);
  size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

// How a session on the pipe ended.
enum class PipeEnd { kRefused, kOver, kBadFrame };

// The session on its pipe until the arbiter ends it (the pipe's end): kOver; kRefused if the
// arbiter closed the pipe without welcoming the session (gRPC then says why); kBadFrame for a
// frame too long or that is no SessionResponse.
PipeEnd pipe_session(int fd, const v1::SessionRequest& hello, const BotFactory& make,
                     const Options& options, std::map<std::string, SessionSeat>* seats,
                     int* played) {
  std::string data;
  v1::SessionResponse response;
  if (!write_frame(fd, hello) || read_frame(fd, &data) != 1 ||
      !response.ParseFromString(data) ||
      response.kind_case() != v1::SessionResponse::kWelcome) {
    ::close(fd);
    return PipeEnd::kRefused;
  }
  std::map<uint32_t, std::string> refs;
  PipeEnd end = PipeEnd::kOver;
  while (true) {
    const int got = read_frame(fd, &data);
    if (got == 0) break;
    if (got < 0 || !response.ParseFromString(data)) {
      end = PipeEnd::kBadFrame;
      break;
    }
    v1::SessionRequest replies = answer(response, make, options, &refs, seats, played);
    if (replies.replies_size() > 0) write_frame(fd, replies);  // (a closed pipe: read says so)
  }
  ::close(fd);
  return end;
}

// The descriptor of this process's session pipe, taken once (-1: none, or not a socket).
int take_session_pipe() {
  const std::string raw = env_or("", "CROUPIER_SESSION_FD");
  ::unsetenv("CROUPIER_SESSION_FD");  // (its number may be reused once it is closed)
  if (raw.empty()) return -1;
  char* end = nullptr;
  const long fd = std::strtol(raw.c_str(), &end, 10);
  struct stat info {};
  if (end == nullptr || *end != '\0' || fd < 0 || ::fstat(static_cast<int>(fd), &info) != 0 ||
      !S_ISSOCK(info.st_mode)) {
    return -1;
  }
  ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);  // not handed on to what the bot starts
  return static_cast<int>(fd);
}

double reconnect_window_s(const Options& options) {
  if (options.reconnect_s >= 0) return options.reconnect_s;
  const std::string raw = env_or("", "CROUPIER_SESSION_RECONNECT_S");
  if (raw.empty()) return 300;
  char* end = nullptr;
  const double value = std::strtod(raw.c_str(), &end);
  return end != nullptr && *end == '\0' && value >= 0 ? value : 300;
}

}  // namespace

int serve(const BotFactory& make, const Options& options) {
  const std::string address = env_or(options.address, "CROUPIER_ADDRESS");
  const std::string token = env_or("", "CROUPIER_SESSION_TOKEN");
  int capacity = options.capacity;
  if (capacity <= 0) capacity = std::atoi(env_or("", "CROUPIER_SESSION_CAPACITY").c_str());
  v1::SessionRequest hello;
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_bot_name(options.name);
  hello.mutable_hello()->set_bot_version(options.version);
  hello.mutable_hello()->set_protocol_version(kProtocolVersion);
  hello.mutable_hello()->set_capacity(static_cast<uint32_t>(std::max(1, capacity)));
  std::map<std::string, SessionSeat> seats;
  int played = 0;
  // launched with a session pipe (and no address of the bot's own): the session there
  if (const int fd = options.address.empty() ? take_session_pipe() : -1; fd >= 0) {
    const PipeEnd end = pipe_session(fd, hello, make, options, &seats, &played);
    if (end == PipeEnd::kBadFrame) {
      return fail(options, "the arbiter sent a frame that is no SessionResponse");
    }
    if (end == PipeEnd::kOver) {
      if (!seats.empty()) std::cerr << options.name << ": the session ended with seats unfinished\n";
      std::cerr << "session over; matches=" << played << std::endl;
      return 0;
    }
    std::cerr << options.name << ": the arbiter closed the session pipe unwelcomed: dialling gRPC"
              << std::endl;
  }
  if (address.empty()) return fail(options, "no arbiter address: set CROUPIER_ADDRESS");
  std::string error;
  auto channel = dial(address, &error);
  if (!channel) return fail(options, error);
  auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(options.connect_timeout_s);
  if (!channel->WaitForConnected(deadline)) {
    return fail(options, "cannot reach the arbiter at " + address);
  }
  auto stub = v1::BotService::NewStub(channel);

  // A broken session (any error without a croupier-reason, or SESSION_TAKEN and
  // TOO_MANY_ATTEMPTS while dialling again) is dialled again with backoff (0.1 s doubled up to
  // 5 s, each pause drawn between half and all of it) while the drop's window lasts.
  const double window_s = reconnect_window_s(options);
  std::mt19937 jitter(std::random_device{}());
  int sessions = 0;
  bool dropped = false;
  std::chrono::steady_clock::time_point give_up;
  double pause_s = 0.1;
  while (true) {
    SessionEnd end = session_stream(*stub, hello, make, options, &seats, &played);
    if (end.welcomed) ++sessions;
    if (end.welcomed && end.status.ok()) {
      if (!seats.empty()) std::cerr << options.name << ": the session ended with seats unfinished\n";
      std::cerr << "session over; matches=" << played << std::endl;
      return 0;
    }
    if (!end.welcomed && sessions == 0 && end.reason == "PROTOCOL_VERSION") return 3;
    const auto now = std::chrono::steady_clock::now();
    const bool again =
        end.welcomed || (dropped && (end.reason.empty() || end.reason == "SESSION_TAKEN" ||
                                     end.reason == "TOO_MANY_ATTEMPTS"));
    if (end.welcomed) {  // a new drop: a window of its own
      dropped = true;
      pause_s = 0.1;
      give_up = now + std::chrono::milliseconds(static_cast<int64_t>(window_s * 1000));
      if (window_s > 0) {
        std::cerr << options.name << ": session dropped (" << code_name(end.status.error_code())
                  << "); dialling again for up to " << window_s << "s" << std::endl;
      }
    }
    if (!again || !dropped || now >= give_up) {
      if (end.status.ok()) return fail(options, "the arbiter did not welcome the session");
      const std::string reason = end.reason.empty() ? "" : " [" + end.reason + "]";
      return fail(options, std::string(code_name(end.status.error_code())) + ": " +
                               end.status.error_message() + reason);
    }
    std::uniform_real_distribution<double> draw(pause_s / 2, pause_s);
    const auto pause = std::chrono::milliseconds(static_cast<int64_t>(draw(jitter) * 1000));
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, give_up - now));
    pause_s = std::min(pause_s * 2, 5.0);
  }
}

}  // namespace croupier

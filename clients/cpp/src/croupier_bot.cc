// The C++ kit's one loop: dial, Hello, answer decisions, return after MatchEnd.
#include "croupier/bot.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

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

int play(Bot& bot, const Options& options) {
  const std::string address = env_or(options.address, "CROUPIER_ADDRESS");
  const std::string token = env_or(options.token, "CROUPIER_TOKEN");
  if (address.empty()) return fail(options, "no arbiter address: set CROUPIER_ADDRESS");

  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);  // decision messages grow with the match
  std::string error;
  auto creds = credentials(address, &args, &error);
  if (!creds) return fail(options, error);
  auto channel = grpc::CreateCustomChannel(address, creds, args);
  auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(options.connect_timeout_s);
  if (!channel->WaitForConnected(deadline)) {
    return fail(options, "cannot reach the arbiter at " + address);
  }
  auto stub = v1::BotService::NewStub(channel);
  grpc::ClientContext context;
  auto stream = stub->Play(&context);

  v1::PlayRequest hello;
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_bot_name(options.name);
  hello.mutable_hello()->set_bot_version(options.version);
  hello.mutable_hello()->set_protocol_version(kProtocolVersion);
  stream->Write(hello);

  bool ended = false;
  v1::PlayResponse response;
  while (!ended && stream->Read(&response)) {
    for (const auto& event : response.events()) bot.on_event(event);
    switch (response.kind_case()) {
      case v1::PlayResponse::kWelcome:
        bot.on_welcome(response.welcome());
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
        ended = true;
        break;
      case v1::PlayResponse::KIND_NOT_SET:  // events only
        break;
    }
  }
  stream->WritesDone();
  grpc::Status status = stream->Finish();
  if (ended) return 0;
  if (status.ok()) return fail(options, "the arbiter closed the stream before the match ended");
  std::string reason;
  const auto& trailers = context.GetServerTrailingMetadata();
  auto found = trailers.find("croupier-reason");
  if (found != trailers.end()) reason = " [" + std::string(found->second.data(), found->second.size()) + "]";
  return fail(options, std::string(code_name(status.error_code())) + ": " +
                           status.error_message() + reason);
}

}  // namespace croupier

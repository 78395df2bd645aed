// croupier-bot: the Node.js SDK for Croupier bots.
//
//   const { run } = require("croupier-bot");
//   run((decision) => decision.legalActions[0].id, { name: "first-legal" });
//
// `run` dials the arbiter (CROUPIER_ADDRESS), says Hello with the seat token (CROUPIER_TOKEN),
// answers every DecisionRequest with the id your function returns, and resolves with the
// MatchEnd message. The protocol is documented in docs/protocol.md; the messages are those of
// proto/croupier/v1/bot.proto, loaded at run time (field names as in the .proto, enums as
// strings, 64-bit integers as strings).
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const loader = require("@grpc/proto-loader");

const PROTOCOL_VERSION = 1;
const REASON_KEY = "croupier-reason";

function protoDir() {
  return process.env.CROUPIER_PROTO_DIR || path.join(__dirname, "..", "..", "proto");
}

function loadService() {
  const definition = loader.loadSync("croupier/v1/bot.proto", {
    includeDirs: [protoDir()],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).croupier.v1.BotService;
}

class BotError extends Error {
  constructor(message, reason = "", code = "") {
    super(message);
    this.reason = reason;
    this.code = code;
  }
}

// Play one match. `act(decision)` returns a legal action id; `decision` has requestId,
// observation (a croupier.v1.Observation), legalActions (ascending by id), clocks and match
// (from the Welcome). Optional hooks: onWelcome(match), onEvent(event), onRejected(rejected),
// onMatchEnd(end).
function play(act, options = {}) {
  const address = options.address || process.env.CROUPIER_ADDRESS;
  const token = options.token !== undefined ? options.token : process.env.CROUPIER_TOKEN || "";
  if (!address) {
    return Promise.reject(new BotError("no arbiter address: set CROUPIER_ADDRESS"));
  }
  const BotService = loadService();
  const client = new BotService(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    let match = null;
    let ended = false;
    const stream = client.Play();
    stream.write({
      hello: {
        token,
        bot_name: options.name || "node-bot",
        bot_version: options.version || "0",
        protocol_version: PROTOCOL_VERSION,
      },
    });
    stream.on("data", (message) => {
      for (const event of message.events || []) {
        if (options.onEvent) options.onEvent(event);
      }
      switch (message.kind) {
        case "welcome":
          match = message.welcome;
          if (options.onWelcome) options.onWelcome(match);
          break;
        case "decision": {
          const d = message.decision;
          const id = act({
            requestId: d.request_id,
            observation: d.observation,
            legalActions: d.legal_actions,
            clocks: d.clocks,
            match,
          });
          stream.write({ action: { request_id: d.request_id, action_id: id } });
          break;
        }
        case "rejected":
          if (options.onRejected) options.onRejected(message.rejected);
          break;
        case "match_end":
          ended = true;
          if (options.onMatchEnd) options.onMatchEnd(message.match_end);
          stream.end();
          client.close();
          resolve(message.match_end);
          break;
        default: // events only
      }
    });
    stream.on("error", (err) => {
      if (ended) return;
      const reason = (err.metadata && err.metadata.get(REASON_KEY)[0]) || "";
      const code = grpc.status[err.code] || String(err.code);
      client.close();
      reject(new BotError(`${code}: ${err.details}`, String(reason), code));
    });
    stream.on("end", () => {
      if (!ended) {
        client.close();
        reject(new BotError("the arbiter closed the stream before the match ended"));
      }
    });
  });
}

// Play one match; on refusal or a broken stream print one line and exit with status 2.
function run(act, options = {}) {
  return play(act, options).catch((err) => {
    const reason = err.reason ? ` [${err.reason}]` : "";
    console.error(`${options.name || "node-bot"}: ${err.message}${reason}`);
    process.exit(2);
  });
}

module.exports = { run, play, BotError, PROTOCOL_VERSION };

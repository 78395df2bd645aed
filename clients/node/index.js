// croupier-bot: the Node.js SDK for Croupier bots.
//
//   const { run } = require("croupier-bot");
//   run((decision) => decision.legalActions[0].id, { name: "first-legal" });
//
// `run` dials the arbiter (CROUPIER_ADDRESS), says Hello with the seat token (CROUPIER_TOKEN),
// answers every DecisionRequest with the id your function returns, and resolves with the
// MatchEnd message; launched in session mode (CROUPIER_SESSION_TOKEN), it plays every seat the
// arbiter hands it instead, all on the session's one stream (protocol 3). The protocol is documented in docs/protocol.md; the messages are
// those of proto/croupier/v1/*.proto (the core bot.proto, one file per game, chips.proto,
// score.proto, control.proto), all loaded at run time (field names as in the .proto, enums as
// strings, 64-bit integers as strings). `npm pack` bundles the folder into the package.
"use strict";

const fs = require("fs");
const net = require("net");
const path = require("path");
const loader = require("@grpc/proto-loader");

// @grpc/grpc-js, required at the first gRPC dial: a bot on its session pipe never needs it.
let grpcJs = null;
function grpc() {
  if (grpcJs === null) grpcJs = require("@grpc/grpc-js");
  return grpcJs;
}

const PROTOCOL_VERSION = 3;
// The oldest protocol version the SDK speaks: 2, to an arbiter that refuses 3 (from before
// multiplexed sessions; a Play stream is the same in both).
const OLDEST_PROTOCOL_VERSION = 2;
const REASON_KEY = "croupier-reason";

const PROTO_PACKAGE = path.join("croupier", "v1");
const PROTO_FILE = path.join(PROTO_PACKAGE, "bot.proto");

// The folder holding croupier/v1/bot.proto: CROUPIER_PROTO_DIR if set; else, running from a
// checkout (this file in clients/node), the repository's proto/; else the copy that npm pack
// bundled into this package.
function protoDir() {
  const fromEnv = process.env.CROUPIER_PROTO_DIR;
  const checkout = path.basename(path.dirname(__dirname)) === "clients";
  const bundled = path.join(__dirname, "proto");
  const repository = path.join(__dirname, "..", "..", "proto");
  const candidates = fromEnv ? [fromEnv] : checkout ? [repository, bundled] : [bundled];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, PROTO_FILE)));
  if (found) return found;
  const where = fromEnv ? `CROUPIER_PROTO_DIR=${fromEnv}` : candidates.join(" or ");
  throw new BotError(
    `cannot find ${PROTO_FILE} in ${where}: set CROUPIER_PROTO_DIR to the folder that holds ` +
      "croupier/v1/bot.proto (the repository's proto/), or install the SDK from its npm pack"
  );
}

// Every .proto of the package, so no file of the contract is missed (the core imports the
// games' files, but the control API's is imported by none).
let definitionLoaded = null;
function loadDefinition() {
  if (definitionLoaded !== null) return definitionLoaded;
  const dir = protoDir();
  const files = fs
    .readdirSync(path.join(dir, PROTO_PACKAGE))
    .filter((name) => name.endsWith(".proto"))
    .sort()
    .map((name) => path.join(PROTO_PACKAGE, name));
  const definition = loader.loadSync(files, {
    includeDirs: [dir],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  pastFields(definition);
  definitionLoaded = definition;
  return definition;
}

// The BotService client class (gRPC).
function loadService() {
  return grpc().loadPackageDefinition(loadDefinition()).croupier.v1.BotService;
}

// The channel dials again quickly after a dropped connection (the default first backoff is a
// second, a good part of a short reconnect window).
const CHANNEL_OPTIONS = {
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 1000,
};

// The observation field that holds the finished rounds, per game (Observation.game). A decision
// carries the current round only (protocol 2); each finished round comes once, in its round-end
// event (DealEnded.<game>_past), and the SDK puts them all back here for bot code. Read from the
// DealEnded.past oneof when the contract is loaded: its entry <game>_past is a <Game>Past<Unit>
// message (AsNasPastDeal, FelduzPastRound), kept as past_<unit>s (past_deals, past_rounds).
const PAST_FIELD = {};
let contractLoaded = false;

function pastFields(definition) {
  contractLoaded = true;
  const type = definition["croupier.v1.DealEnded"].type;
  const past = type.oneofDecl.findIndex((oneof) => oneof.name === "past");
  for (const entry of type.field) {
    if (entry.oneofIndex !== past) continue;
    const unit = entry.typeName.slice(entry.typeName.lastIndexOf("Past") + 4);
    const snake = unit.replace(/(?<!^)(?=[A-Z])/g, "_").toLowerCase();
    PAST_FIELD[entry.name.replace(/_past$/, "")] = `past_${snake}s`;
  }
}

// The observation field (past_deals, past_rounds) in which the SDK hands bot code a game's
// finished rounds; undefined for a game the contract does not know.
function pastField(game) {
  if (!contractLoaded) loadDefinition();
  return PAST_FIELD[game];
}

// The legal actions one per action, ascending by id: an entry with `amounts` (a run of bets or
// raises) stands for the amounts lowest, lowest + step, ..., highest; the one of amount a has id
// entry.id + a - lowest, label "<Bet|Raise>:<a>" and the entry's typed fields with chip.amount a.
function expandLegalActions(entries) {
  const out = [];
  for (const entry of entries) {
    const range = entry.amounts;
    if (!range) {
      out.push(entry);
      continue;
    }
    const step = Math.max(range.step, 1);
    const prefix = entry.label.slice(0, entry.label.lastIndexOf(":"));
    const kind = entry.detail;
    for (let amount = range.lowest; amount <= range.highest; amount += step) {
      const action = { ...entry, id: entry.id + amount - range.lowest, label: `${prefix}:${amount}` };
      action.amounts = null;
      if (kind) action[kind] = { ...entry[kind], chip: { ...entry[kind].chip, amount } };
      out.push(action);
    }
  }
  return out;
}

// The legal ids as the runs they came as, never expanded: one { start, stop, step } per entry
// (ids start, start + step, ..., below stop; an entry with `amounts` is the run of its
// amounts' ids, stepping by the amount step; any other entry is the run of its one id), with
// `amounts` ({ lowest, highest, step }) on a run of bets or raises, ascending by first id.
function legalRuns(entries) {
  return entries.map((entry) => {
    const range = entry.amounts;
    if (!range) return { start: entry.id, stop: entry.id + 1, step: 1, amounts: null };
    const step = Math.max(range.step, 1);
    const span = range.highest - range.lowest;
    return { start: entry.id, stop: entry.id + span + 1, step, amounts: { ...range, step } };
  });
}

// Whether `id` is one of `runs`' ids: arithmetic, no list.
function runsHold(runs, id) {
  if (!Number.isInteger(id)) return false;
  return runs.some((r) => id >= r.start && id < r.stop && (id - r.start) % r.step === 0);
}

// The id of the bet or raise of `amount` chips in `runs` (of `kind`, "Bet" or "Raise", when
// given: the label's prefix), or null if nothing offers that amount. A step that allows one
// amount sends that bet or raise without a range: the entry labelled `<kind>:<amount>`.
function idForAmount(entries, amount, kind) {
  const lone = (kind ? [kind] : ["Bet", "Raise"]).map((k) => `${k}:${amount}`);
  for (const entry of entries) {
    const range = entry.amounts;
    if (!range) {
      if (lone.includes(entry.label)) return entry.id;
      continue;
    }
    if (amount < range.lowest || amount > range.highest) continue;
    if ((amount - range.lowest) % Math.max(range.step, 1) !== 0) continue;
    if (kind && !entry.label.startsWith(`${kind}:`)) continue;
    return entry.id + amount - range.lowest;
  }
  return null;
}

// What `act` gets for a decision: `legalActions` is expanded (one action per amount) only when
// bot code reads it, once; `legalEntries` (the wire's entries, ranges as sent), `legalRuns`,
// `isLegal(id)` and `idForAmount(amount, kind)` never expand a range.
function decisionView(d, observation, match) {
  const entries = d.legal_actions;
  let expanded = null;
  let runs = null;
  return {
    requestId: d.request_id,
    observation,
    clocks: d.clocks,
    match,
    legalEntries: entries,
    get legalActions() {
      if (expanded === null) expanded = expandLegalActions(entries);
      return expanded;
    },
    get legalRuns() {
      if (runs === null) runs = legalRuns(entries);
      return runs;
    },
    isLegal(id) {
      if (runs === null) runs = legalRuns(entries);
      return runsHold(runs, id);
    },
    idForAmount(amount, kind) {
      return idForAmount(entries, amount, kind);
    },
  };
}

// The observation as bot code reads it: the wire's, with every finished round in
// past_deals / past_rounds (oldest first).
function withPast(observation, past) {
  const field = observation && PAST_FIELD[observation.game];
  if (!field || !observation[observation.game]) return observation;
  return { ...observation, [observation.game]: { ...observation[observation.game], [field]: past } };
}

// The channel's credentials: TLS when CROUPIER_TLS_CA names a PEM file to trust (or
// CROUPIER_TLS=1: the system's roots), with CROUPIER_TLS_CERT and CROUPIER_TLS_KEY for mutual TLS
// and CROUPIER_TLS_SERVER_NAME when the certificate names the arbiter differently; plaintext
// otherwise, and always to a unix: address (the arbiter's local socket). docs/protocol.md,
// "Remote bots over TLS".
function channel(address) {
  const env = process.env;
  const on = env.CROUPIER_TLS_CA || ["1", "true", "yes"].includes(env.CROUPIER_TLS || "");
  if (!on || address.startsWith("unix:")) {
    return { credentials: grpc().credentials.createInsecure(), options: { ...CHANNEL_OPTIONS } };
  }
  const read = (file, what) => {
    if (!file) return null;
    try {
      return fs.readFileSync(file);
    } catch (err) {
      throw new BotError(`cannot read the TLS ${what} ${file}: ${err.message}`);
    }
  };
  if (!env.CROUPIER_TLS_CERT !== !env.CROUPIER_TLS_KEY) {
    throw new BotError("mutual TLS needs both CROUPIER_TLS_CERT and CROUPIER_TLS_KEY");
  }
  const credentials = grpc().credentials.createSsl(
    read(env.CROUPIER_TLS_CA, "CA"),
    read(env.CROUPIER_TLS_KEY, "key"),
    read(env.CROUPIER_TLS_CERT, "certificate")
  );
  const name = env.CROUPIER_TLS_SERVER_NAME;
  const options = { ...CHANNEL_OPTIONS };
  if (name) options["grpc.ssl_target_name_override"] = name;
  return { credentials, options };
}

class BotError extends Error {
  constructor(message, reason = "", code = "") {
    super(message);
    this.reason = reason;
    this.code = code;
  }
}

// A BotService client of `address` on the channel channel() describes; throws a BotError when
// there is no address, the contract cannot be loaded, a TLS file cannot be read or the client
// cannot be made.
function botClient(address) {
  if (!address) {
    throw new BotError("no arbiter address: set CROUPIER_ADDRESS");
  }
  try {
    const BotService = loadService();
    const dial = channel(address);
    return new BotService(address, dial.credentials, dial.options);
  } catch (err) {
    throw err instanceof BotError ? err : new BotError(String(err.message));
  }
}

// Play one match. `act(decision)` returns a legal action id; `decision` has requestId,
// observation (a croupier.v1.Observation, with every finished round in past_deals/past_rounds),
// legalActions (one per action, ascending by id, amount ranges expanded, built only when read),
// legalEntries, legalRuns, isLegal(id) and idForAmount(amount, kind) (ranges kept: see
// decisionView), clocks and match
// (from the Welcome, plus `seed`: CROUPIER_SEED, or the seat assignment's seed in a session).
// Optional hooks: onWelcome(match), onEvent(event), onRejected(rejected), onMatchEnd(end).
function play(act, options = {}) {
  const token = options.token !== undefined ? options.token : process.env.CROUPIER_TOKEN || "";
  let client;
  try {
    client = botClient(options.address || process.env.CROUPIER_ADDRESS);
  } catch (err) {
    return Promise.reject(err);
  }
  const seed = process.env.CROUPIER_SEED;
  return playSeat(client, act, options, token, seed === undefined ? null : Number(seed)).finally(
    () => client.close(),
  );
}

// One seat, driven by its PlayResponses (from its Play stream or its multiplexed session's
// SeatMessages): handle(message) calls the hooks and returns the action id to send back for a
// decision, else null. `match` is set by the first Welcome (a second one, back after a drop, is
// the same seat); `end` by the MatchEnd.
class SeatState {
  constructor(act, options, seed) {
    this.act = act;
    this.options = options;
    this.seed = seed;
    this.match = null;
    this.end = null;
    this.past = Object.freeze([]); // the finished rounds, a new frozen array per round
  }

  handle(message) {
    const options = this.options;
    for (const event of message.events || []) {
      const dealEnded = event.deal_ended;
      if (dealEnded && dealEnded.past) {
        this.past = Object.freeze([...this.past, dealEnded[dealEnded.past]]);
      }
      if (options.onEvent) options.onEvent(event);
    }
    switch (message.kind) {
      case "welcome":
        if (this.match === null) {
          this.match = { ...message.welcome, seed: this.seed };
          if (options.onWelcome) options.onWelcome(this.match);
        }
        return null;
      case "decision": {
        const d = message.decision;
        return this.act(decisionView(d, withPast(d.observation, this.past), this.match));
      }
      case "rejected":
        if (options.onRejected) options.onRejected(message.rejected);
        return null;
      case "match_end":
        this.end = message.match_end;
        if (options.onMatchEnd) options.onMatchEnd(message.match_end);
        return null;
      default: // events only
        return null;
    }
  }
}

function rpcError(err) {
  const reason = (err.metadata && err.metadata.get(REASON_KEY)[0]) || "";
  const code = grpc().status[err.code] || String(err.code);
  return new BotError(`${code}: ${err.details}`, String(reason), code);
}


// Refusals worth another try while the seat's reconnect window lasts: the arbiter has not yet
// noticed that the old stream is gone (SEAT_TAKEN), or cannot be reached for a moment.
const RETRY_REASONS = new Set(["SEAT_TAKEN", ""]);
const RETRY_PAUSE_MS = 100;
// The arbiter's per-peer limits refused a stream before reading its Hello ("try again later":
// the address is flooded, or many bots behind it dialled at once); a stream that says Hello with
// a valid token gets in once there is room, so a first dial is tried again, with backoff, for up
// to BUSY_RETRY_MS (as the Python SDK's BUSY_RETRY_S).
const BUSY = "TOO_MANY_ATTEMPTS";
const BUSY_RETRY_MS = 30000;
const BUSY_PAUSE_CAP_MS = 5000;

// The pause before the next try after `pause` ms: between half and all of it.
function jitter(pause) {
  return pause / 2 + (Math.random() * pause) / 2;
}

// Play the seat `token` admits on a Play stream of `client`; resolve with the MatchEnd. If the
// stream drops after the Welcome and the seat has a reconnect window (Welcome
// reconnect_grace_ms), dial in again with the same token until the window has passed: the
// arbiter sends the Welcome (onWelcome is not called again) and the pending decision again.
// Each drop has a window of its own, as in the arbiter.
function playSeat(client, act, options, token, seed) {
  return new Promise((resolve, reject) => {
    const seat = new SeatState(act, options, seed);
    let giveUp = 0;
    const busyUntil = Date.now() + BUSY_RETRY_MS; // (before its first Welcome)
    let busyPause = RETRY_PAUSE_MS;
    const hello = {
      token,
      bot_name: options.name || "node-bot",
      bot_version: options.version || "0",
      protocol_version: PROTOCOL_VERSION,
    };

    function attempt(retrying) {
      let welcomed = false;
      let settled = false;
      const stream = client.Play();

      function lost(error, refusal) {
        if (seat.end || settled) return;
        settled = true;
        const older = refusal === "PROTOCOL_VERSION" && hello.protocol_version > OLDEST_PROTOCOL_VERSION;
        if (!welcomed && older) {
          hello.protocol_version = OLDEST_PROTOCOL_VERSION; // an arbiter from before protocol 3
          attempt(retrying);
          return;
        }
        const window = seat.match ? Number(seat.match.reconnect_grace_ms || 0) : 0;
        const now = Date.now();
        if (!welcomed && !seat.match && refusal === BUSY && now < busyUntil) {
          setTimeout(() => attempt(retrying), jitter(busyPause)); // refused for room
          busyPause = Math.min(busyPause * 2, BUSY_PAUSE_CAP_MS);
          return;
        }
        if (welcomed) giveUp = now + window; // a new drop (not a refused retry): its own window
        const again = welcomed || (retrying && refusal !== undefined && RETRY_REASONS.has(refusal));
        if (!again || window <= 0 || now >= giveUp) {
          reject(error);
          return;
        }
        setTimeout(() => attempt(true), RETRY_PAUSE_MS);
      }

      stream.write({ hello });
      stream.on("data", (message) => {
        if (message.kind === "welcome") welcomed = true;
        const id = seat.handle(message);
        if (message.kind === "decision") {
          stream.write({ action: { request_id: message.decision.request_id, action_id: id } });
        } else if (seat.end) {
          stream.end();
          resolve(seat.end);
        }
      });
      stream.on("error", (err) => {
        const error = rpcError(err);
        lost(error, error.reason);
      });
      stream.on("end", () => {
        lost(new BotError("the arbiter closed the stream before the match ended"));
      });
    }

    attempt(false);
  });
}

// How many matches at a time a session plays: the smaller of options.capacity and
// CROUPIER_SESSION_CAPACITY (the organiser's wish), 1 if neither is set.
function sessionCapacity(options) {
  const wanted = [options.capacity, Number(process.env.CROUPIER_SESSION_CAPACITY)].filter(
    (c) => Number.isInteger(c) && c > 0,
  );
  return wanted.length ? Math.min(...wanted) : 1;
}

// How long a session dials again after its Session stream breaks, in seconds:
// options.reconnectS, else CROUPIER_SESSION_RECONNECT_S (a tournament that launches the bot sets
// it to 0, so that it does not outlive its arbiter), else 300 (a bot that connects by itself).
const ENV_SESSION_RECONNECT = "CROUPIER_SESSION_RECONNECT_S";
const DEFAULT_SESSION_RECONNECT_S = 300;
// The pause before dialling a broken session again: doubled after each failed try up to the
// cap, each drawn between half and all of it (the bots of a restarted server do not all dial at
// once). The refusals of a session dialled again worth another try: the server still holds the
// old session (it has not noticed the drop yet), limits attempts for a moment, or is not there.
const SESSION_BACKOFF_FIRST_MS = 100;
const SESSION_BACKOFF_CAP_MS = 5000;
const SESSION_RETRY_REASONS = new Set(["", "SESSION_TAKEN", "TOO_MANY_ATTEMPTS"]);

function sessionReconnectS(options) {
  if (options.reconnectS !== undefined && options.reconnectS !== null) {
    const given = Number(options.reconnectS);
    if (!(given >= 0)) {
      throw new BotError(`reconnectS must be 0 or more seconds, got ${options.reconnectS}`);
    }
    return given;
  }
  const raw = process.env[ENV_SESSION_RECONNECT];
  if (raw === undefined || raw === "") return DEFAULT_SESSION_RECONNECT_S;
  const value = Number(raw);
  if (!(value >= 0)) {
    throw new BotError(`${ENV_SESSION_RECONNECT} must be a number of seconds, got "${raw}"`);
  }
  return value;
}

// The largest frame taken from the arbiter on the session pipe (a decision is a few KiB).
const MAX_PIPE_FRAME = 64 << 20;

// Serve a bot session (the process stays up across matches): open BotService.Session with the
// session token (CROUPIER_SESSION_TOKEN), then play every seat the arbiter hands over, each with
// its own state, concurrently up to the capacity, until the arbiter ends the session. The seats
// come multiplexed on the session's stream (protocol 3), the decisions of each message answered
// in one message; an arbiter from before protocol 3 hands each out to be played on a Play stream
// of its own. If the Session stream breaks (the network, or the server was killed and
// restarted), a new session is dialled with the same token, with backoff, for
// options.reconnectS seconds (sessionReconnectS; each drop its own window); the seats held are
// handed again on it within their reconnect window (protocol 3) or go on on their Play streams.
// Resolves with { sessionId, matches, failed, sessions } (matches and failed count every
// session; sessionId is the last one's); rejects with a BotError if the arbiter refuses the
// session, or it broke and did not come back in time.
function serve(act, options = {}) {
  const token =
    options.token !== undefined ? options.token : process.env.CROUPIER_SESSION_TOKEN || "";
  const name = options.name || "node-bot";
  let client = null; // (made at the first gRPC dial: a bot on its session pipe needs none)
  let windowS;
  const pipeFd = options.address ? "" : process.env.CROUPIER_SESSION_FD || "";
  delete process.env.CROUPIER_SESSION_FD; // taken once: its number may be reused
  try {
    windowS = sessionReconnectS(options);
    if (!/^[0-9]+$/.test(pipeFd)) {
      client = botClient(options.address || process.env.CROUPIER_ADDRESS);
    }
  } catch (err) {
    return Promise.reject(err);
  }
  return new Promise((resolve, reject) => {
    const seats = [];
    let sessionId = "";
    let sessions = 0;
    let matches = 0;
    let failed = 0;
    let over = false;
    let droppedAt = null; // when the session being dialled again broke
    let pause = SESSION_BACKOFF_FIRST_MS;
    const busyUntil = Date.now() + BUSY_RETRY_MS; // (before the first Welcome)
    const hello = {
      token,
      bot_name: name,
      bot_version: options.version || "0",
      protocol_version: PROTOCOL_VERSION,
      capacity: sessionCapacity(options),
    };
    const finish = (err) => {
      if (over) return;
      over = true;
      // the seats already handed out are played to the end (protocol 2); those a
      // multiplexed session still held are lost with it
      if (byToken.size) {
        matches += byToken.size;
        failed += byToken.size;
        console.error(`${name}: the session ended with seats unfinished`);
        byToken.clear();
      }
      Promise.allSettled(seats).then(() => {
        if (client) client.close();
        if (err) reject(err);
        else resolve({ sessionId, matches, failed, sessions });
      });
    };

    // protocol 3: every seat on the session's stream, by token (the same seat on any stream
    // of the session) and by its seat_ref on the current stream
    const byToken = new Map();
    let refs = new Map();

    // One SeatMessage: the reply to send (a SeatReply), or null.
    function seatMessage(item) {
      if (item.assignment) {
        const token = item.assignment.token;
        refs.set(item.seat_ref, token);
        if (!byToken.has(token)) {
          byToken.set(token, new SeatState(act, options, Number(item.assignment.seed)));
        }
      }
      const token = refs.get(item.seat_ref);
      const seat = byToken.get(token);
      if (!seat) return null; // a seat that failed here
      let id;
      try {
        id = seat.handle(item.message);
      } catch (err) {
        // the bot's own code failed: it leaves this seat only
        byToken.delete(token);
        matches += 1;
        failed += 1;
        console.error(`${name}: a match failed: ${err && err.stack ? err.stack : err}`);
        return { seat_ref: item.seat_ref, leave: true };
      }
      if (seat.end) {
        byToken.delete(token);
        refs.delete(item.seat_ref);
        matches += 1;
      }
      if (item.message.kind !== "decision") return null;
      const request_id = item.message.decision.request_id;
      return { seat_ref: item.seat_ref, action: { request_id, action_id: id } };
    }

    function open() {
      if (!client) {
        try {
          client = botClient(options.address || process.env.CROUPIER_ADDRESS);
        } catch (err) {
          finish(err);
          return;
        }
      }
      const again = droppedAt !== null;
      const multiplexed = hello.protocol_version > OLDEST_PROTOCOL_VERSION;
      let welcomed = false;
      let settled = false;
      const stream = client.Session();
      refs = new Map();
      stream.write({ hello });
      stream.on("data", (message) => {
        if (message.kind === "welcome") {
          welcomed = true;
          sessionId = message.welcome.session_id;
          sessions += 1;
          if (droppedAt !== null) {
            const away = ((Date.now() - droppedAt) / 1000).toFixed(1);
            console.error(`${name}: session back after ${away}s (${sessionId})`);
            droppedAt = null;
          }
        } else if (message.kind === "seat") {
          const seat = message.seat;
          const played = playSeat(client, act, options, seat.token, Number(seat.seed)).then(
            () => {
              matches += 1;
            },
            (err) => {
              matches += 1;
              failed += 1;
              console.error(`${name}: a match failed: ${err.message}`);
            },
          );
          seats.push(played);
        }
        if (multiplexed && message.seat_messages && message.seat_messages.length) {
          // the replies to every decision of the message, in one message
          const replies = [];
          for (const item of message.seat_messages) {
            const reply = seatMessage(item);
            if (reply) replies.push(reply);
          }
          if (replies.length) stream.write({ replies });
        }
      });
      stream.on("error", () => {}); // (what it says comes with the status, below)
      // the call's status decides: OK, the arbiter ended the session; else it broke or refused
      stream.on("status", (status) => {
        if (settled) return;
        settled = true;
        if (status.code === grpc().status.OK) {
          if (welcomed) finish(null);
          else finish(new BotError("the arbiter did not welcome the session"));
          return;
        }
        const error = rpcError(status);
        if (!welcomed && sessions === 0 && error.reason === "PROTOCOL_VERSION" && multiplexed) {
          hello.protocol_version = OLDEST_PROTOCOL_VERSION; // an arbiter from before protocol 3
          settled = false;
          open();
          return;
        }
        if (!welcomed && sessions === 0 && error.reason === BUSY && Date.now() < busyUntil) {
          const wait = jitter(pause); // refused for room: the first dial is tried again
          pause = Math.min(pause * 2, SESSION_BACKOFF_CAP_MS);
          setTimeout(open, wait);
          return;
        }
        if (!welcomed && !(again && SESSION_RETRY_REASONS.has(error.reason))) {
          finish(error); // a refusal
          return;
        }
        const now = Date.now();
        if (welcomed) {
          droppedAt = now; // a new drop: its own window
          pause = SESSION_BACKOFF_FIRST_MS;
          if (windowS > 0) {
            console.error(
              `${name}: session dropped (${error.message}); dialling again for up to ${windowS}s`,
            );
          }
        }
        const left = droppedAt + windowS * 1000 - now;
        if (left <= 0) {
          finish(error);
          return;
        }
        const wait = Math.min(left, pause / 2 + (Math.random() * pause) / 2);
        pause = Math.min(pause * 2, SESSION_BACKOFF_CAP_MS);
        setTimeout(open, wait);
      });
    }

    // The session pipe (CROUPIER_SESSION_FD, launched by a tournament): the same messages as
    // the Session stream without gRPC, each framed by a 4-byte big-endian length, on a socket
    // the arbiter made for this process alone. Its end is the session's end; a pipe closed
    // before the welcome (a refusal) sends the bot to gRPC, which says why.
    function openPipe(fd) {
      // (the contract's own (de)serializers: no gRPC library on the pipe)
      const method = loadDefinition()["croupier.v1.BotService"].Session;
      const { requestSerialize, responseDeserialize } = method;
      const pipe = new net.Socket({ fd, readable: true, writable: true });
      let welcomed = false;
      let buffered = Buffer.alloc(0);
      const send = (message) => {
        const data = requestSerialize(message);
        const header = Buffer.alloc(4);
        header.writeUInt32BE(data.length, 0);
        if (!pipe.destroyed) pipe.write(Buffer.concat([header, data]));
      };
      pipe.on("data", (chunk) => {
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
        while (buffered.length >= 4) {
          const size = buffered.readUInt32BE(0);
          if (size > MAX_PIPE_FRAME) {
            pipe.destroy();
            finish(new BotError(`the arbiter sent a frame of ${size} bytes: more than 64 MiB`));
            return;
          }
          if (buffered.length < 4 + size) break;
          let message;
          try {
            message = responseDeserialize(buffered.subarray(4, 4 + size));
          } catch (err) {
            pipe.destroy();
            finish(new BotError("the arbiter sent a frame that is no SessionResponse"));
            return;
          }
          buffered = buffered.subarray(4 + size);
          if (message.kind === "welcome") {
            welcomed = true;
            sessionId = message.welcome.session_id;
            sessions += 1;
            continue;
          }
          const replies = [];
          for (const item of message.seat_messages || []) {
            const reply = seatMessage(item);
            if (reply) replies.push(reply);
          }
          if (replies.length) send({ replies });
        }
      });
      pipe.on("error", () => {}); // (its end follows)
      pipe.on("close", () => {
        if (over) return;
        if (welcomed) finish(null);
        else {
          console.error(`${name}: the arbiter closed the session pipe unwelcomed: to gRPC`);
          open();
        }
      });
      send({ hello });
    }

    if (/^[0-9]+$/.test(pipeFd)) {
      try {
        openPipe(Number(pipeFd));
        return;
      } catch (err) {
        console.error(`${name}: CROUPIER_SESSION_FD=${pipeFd} is not usable (${err.message})`);
      }
    }
    open();
  });
}

// Play one match; on refusal or a broken stream print one line and exit with status 2. Launched
// to stay up across matches (CROUPIER_SESSION_TOKEN set), serve the session instead.
function run(act, options = {}) {
  const playing = process.env.CROUPIER_SESSION_TOKEN ? serve(act, options) : play(act, options);
  return playing.catch((err) => {
    const reason = err.reason ? ` [${err.reason}]` : "";
    console.error(`${options.name || "node-bot"}: ${err.message}${reason}`);
    process.exit(2);
  });
}

module.exports = {
  run,
  play,
  serve,
  expandLegalActions,
  legalRuns,
  decisionView,
  pastField,
  BotError,
  PROTOCOL_VERSION,
};

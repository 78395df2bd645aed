"""Spy: an As-Nas session bot (Python SDK) that tries to learn a duplicate set's deals from its
own process. The SDK plays each seat with a fresh copy of the bot, but module-level state is
shared by every seat the process plays, so the spy keeps there:

* every hand it sees: its own (it looks at once, every deal) and those shown at a showdown, by
  (set, deal, seat) with the match they were seen in;
* the seeds revealed at the end of its matches, by set;
* the seatings of each set it is playing now and has played.

A set is the match id less its ``-sNN`` seating (``t-r001-t001-s02`` and ``ladder-t000007-s03``
alike). It prints one line per finding (the launcher copies stdout into the process's log; a
registered bot's owner reads it), each starting ``SPY`` and naming its process (``pid``: a
random name drawn when the process starts):

* ``SPY seating pid=P match=M set=S seat=N``: it was seated (``live=K``: other seatings of the
  set it holds now, ``played=K``: seatings of the set it had played before this one);
* ``SPY leak pid=P match=M deal=D seat=N ranks=R from=M2``: deciding in match M, it knows the
  hand of another seat of the same deal, seen in seating M2 of the set;
* ``SPY early-seed pid=P match=M seed=X salt=Y from=M2``: seated in M, it knows the seed of
  its set, revealed by seating M2 (or fetched from the control API: ``from=watch:M2``);
* ``SPY reveal pid=P match=M seed=X salt=Y``: what a MatchEnd told it;
* ``SPY hand pid=P match=M deal=D seat=N ranks=R``: its own hand (the truth a leak is checked
  against).

With ``CROUPIER_CONTROL`` set (a registered bot on ``croupier serve``), at each seating it also
asks the control API, with its own key, to watch the set's other seatings (the public view and
each seat's view) and notes any seed an end frame gives before its own seating is over.
It plays passively (HOLD, else CALL) so every deal reaches a showdown.
"""

from __future__ import annotations

import os
import re
import secrets
import sys
from typing import Any

from croupier_bot import Bot, Decision, MatchInfo, run

LOOK, FOLD, CALL, HOLD = 0, 1, 2, 3
#: This process, in every line (a sandbox's PID namespace gives every bot the same small pid).
PID = secrets.token_hex(6)

#: (set, deal, seat) -> (ranks, the match they were seen in): every hand this process saw.
HANDS: dict[tuple[str, int, int], tuple[tuple[int, ...], str]] = {}
#: set -> (seed, salt, the match that revealed it)
SEEDS: dict[str, tuple[int, str, str]] = {}
#: set -> the matches of it this process holds now / has played
LIVE: dict[str, set[str]] = {}
PLAYED: dict[str, set[str]] = {}


#: ``spy.py REPORT``: every line goes to the file REPORT too (appended; for runs whose logs do
#: not outlive them, such as a Ray worker's: then the bot must run unsandboxed to write it).
REPORT = sys.argv[1] if len(sys.argv) > 1 else ""


def say(*parts: object) -> None:
    line = " ".join(map(str, ("SPY", *parts)))
    print(line, flush=True)
    if REPORT:
        with open(REPORT, "a") as f:  # one write per line: appends do not interleave
            f.write(line + "\n")


def set_of(match_id: str) -> str:
    return re.sub(r"-s\d+$", "", match_id)


class Spy(Bot):
    name = "spy"
    version = "1"
    capacity = 8

    def __init__(self) -> None:
        self.match = ""
        self.set = ""
        self.seat = -1
        self.told: set[tuple[int, int]] = set()  # (deal, seat) leaks already printed

    def on_welcome(self, match: MatchInfo) -> None:
        self.match, self.seat, self.set = match.match_id, match.seat, set_of(match.match_id)
        live = LIVE.setdefault(self.set, set())
        played = PLAYED.setdefault(self.set, set())
        say(
            f"seating pid={PID} match={self.match} set={self.set} seat={self.seat} "
            f"live={len(live)} played={len(played - live)}"
        )
        live.add(self.match)
        played.add(self.match)
        if self.set in SEEDS:
            seed, salt, source = SEEDS[self.set]
            say(f"early-seed pid={PID} match={self.match} seed={seed} salt={salt} from={source}")
        if os.environ.get("CROUPIER_CONTROL"):
            self._watch_siblings(match.num_seats)

    def _watch_siblings(self, seats: int) -> None:
        """Ask the control API for the other seatings' views, with this bot's own key."""
        import grpc

        from croupier_proto.v1 import control_pb2, control_pb2_grpc

        key = os.environ["CROUPIER_SESSION_TOKEN"]
        metadata = (("authorization", f"Bearer {key}"),)
        with grpc.insecure_channel(os.environ["CROUPIER_CONTROL"]) as channel:
            stub = control_pb2_grpc.ControlServiceStub(channel)
            for k in range(25):  # (a ladder numbers seatings from 0, a tournament from 1)
                other = f"{self.set}-s{k:02d}"
                if other == self.match:
                    continue
                for seat in (None, *range(seats)):
                    request = control_pb2.WatchMatchRequest(match_id=other)
                    if seat is not None:
                        request.seat = seat
                    try:
                        for message in stub.WatchMatch(request, metadata=metadata, timeout=5):
                            if message.WhichOneof("kind") == "end" and message.end.salt:
                                end = message.end
                                say(
                                    f"early-seed pid={PID} match={self.match} seed={end.seed} "
                                    f"salt={end.salt} from=watch:{other}"
                                )
                    except grpc.RpcError:
                        pass  # refused, or no such match: nothing learnt

    def on_event(self, event: Any) -> None:
        if event.WhichOneof("kind") != "deal_ended":
            return
        ended = event.deal_ended
        for shown in ended.as_nas.shown:
            self._keep(ended.deal_index, shown.seat, tuple(shown.ranks))

    def _keep(self, deal: int, seat: int, ranks: tuple[int, ...]) -> None:
        HANDS.setdefault((self.set, deal, seat), (ranks, self.match))

    def act(self, decision: Decision) -> int:
        legal = decision.legal_ids
        if LOOK in legal:
            return LOOK
        obs = decision.observation.as_nas
        deal = obs.deal_index
        key = (self.set, deal, self.seat)
        if obs.hand and (key not in HANDS or HANDS[key][1] != self.match):
            HANDS[key] = (tuple(obs.hand), self.match)
            ranks = ",".join(map(str, obs.hand))
            say(f"hand pid={PID} match={self.match} deal={deal} seat={self.seat} ranks={ranks}")
        for seat in range(decision.match.num_seats):
            seen = HANDS.get((self.set, deal, seat))
            if seat == self.seat or seen is None or seen[1] == self.match:
                continue
            if (deal, seat) not in self.told:
                self.told.add((deal, seat))
                ranks = ",".join(map(str, seen[0]))
                say(
                    f"leak pid={PID} match={self.match} deal={deal} seat={seat} "
                    f"ranks={ranks} from={seen[1]}"
                )
        return HOLD if HOLD in legal else CALL

    def on_match_end(self, end: Any) -> None:
        LIVE.get(self.set, set()).discard(self.match)
        say(f"reveal pid={PID} match={self.match} seed={end.seed} salt={end.salt}")
        if end.salt:
            SEEDS.setdefault(self.set, (end.seed, end.salt, self.match))


if __name__ == "__main__":
    sys.exit(0 if run(Spy()) is not None else 1)

"""Bounds on what one peer may do before it has shown a valid token (issue 19: honest seats
under attack).

A *peer* is what one party controls: an IPv4 address, an IPv6 /64 (one host's usual share),
every loopback address at once (a local process may bind any of 127/8), one launched bot (its
own gate to the arbiter's unix socket, :mod:`._gate`), or the arbiter's unix socket itself
(only this user's processes reach it: not limited). The limits hold on loopback too. What keeps
honest bots working is that a stream whose first message is a ``Hello`` (or ``SessionHello``)
with a valid token is never refused for its peer's limits: over a limit, a new stream is *on
probation* (it must say Hello within :attr:`PeerLimits.probation_s`, and only a valid token
admits it), so bots behind one NAT, or the many seats of one session process, get in while an
attacker at the same address is turned away.
"""

from __future__ import annotations

import collections
import contextlib
import ipaddress
import urllib.parse
from dataclasses import dataclass
from typing import Any

from croupier.transport._gate import GATE_PREFIX


@dataclass(frozen=True, slots=True)
class PeerLimits:
    """The per-peer limits of a bot port (documented in docs/protocol.md, "Limits")."""

    #: Streams (``Play`` and ``Session``) one peer may hold open before their Hello is read.
    pending: int = 8
    #: Further streams on probation at once (over a limit). A new one takes the place of the
    #: oldest (which is refused) once that has waited :attr:`probation_min_s`; before that, the
    #: new stream is refused at once.
    probation: int = 64
    #: How long a stream stays on probation before a newer one may take its place.
    probation_min_s: float = 0.25
    #: How long a stream on probation has to say Hello with a valid token.
    probation_s: float = 1.0
    #: Refused Hellos (unknown token, seat taken, ...) per :attr:`window_s` before the peer's
    #: new streams are on probation.
    failed_hellos: int = 32
    #: The window of :attr:`failed_hellos`, in seconds.
    window_s: float = 10.0

    def check(self) -> None:
        """``ValueError`` for a limit that would refuse every stream."""
        if self.pending < 1 or self.probation < 0 or self.failed_hellos < 1:
            raise ValueError("per-peer limits must be at least 1 (probation: 0 or more)")
        if self.probation_s <= 0 or self.window_s <= 0:
            raise ValueError("per-peer times must be positive")


def shown_peer(peer: str) -> str:
    """``peer`` as a replay records it: a launched bot's gate (:mod:`._gate`) is shown as the
    arbiter's unix socket it stands for (``unix:``), as before gates existed."""
    return "unix:" if peer.startswith(f"unix-abstract:{GATE_PREFIX}") else peer


def peer_key(peer: str) -> str:
    """The peer that gRPC's ``context.peer()`` string belongs to (see the module docstring):
    ``ipv4:203.0.113.7``, ``ipv6:2001:db8:1:2::/64``, ``loopback``, ``gate:TOKEN`` (a launched
    bot, through its own gate: :mod:`._gate`) or ``unix`` (the arbiter's socket itself)."""
    gate = peer.removeprefix(f"unix-abstract:{GATE_PREFIX}")
    if gate != peer:
        return f"gate:{gate.rpartition('-')[0]}"
    if peer.startswith("unix"):
        return "unix"
    kind, _, rest = urllib.parse.unquote(peer).partition(":")  # ipv6:%5B::1%5D:80 in new gRPC
    host = rest.rpartition(":")[0] if kind in ("ipv4", "ipv6") else rest
    host = host.strip("[]") or rest
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return peer  # another transport: the whole string
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return "loopback"
    if isinstance(address, ipaddress.IPv6Address):
        return f"ipv6:{ipaddress.IPv6Network((address, 64), strict=False)}"
    return f"ipv4:{address}"


class PeerBook:
    """Per-peer counts: streams waiting for their Hello, streams on probation, refused Hellos
    in the window, and refusals not logged (one line per peer per window, not one a stream)."""

    def __init__(self, limits: PeerLimits) -> None:
        self.limits = limits
        self.pending: collections.Counter[str] = collections.Counter()
        #: Per peer, its streams on probation, oldest first: ``[started, timeout scope]``.
        self.waiting: dict[str, collections.deque[list[Any]]] = {}
        self._failures: dict[str, collections.deque[float]] = {}
        self._logged: dict[str, float] = {}
        self.unlogged: collections.Counter[str] = collections.Counter()

    def failures(self, key: str, now: float) -> int:
        """Refused Hellos of ``key`` within the window."""
        queue = self._failures.get(key)
        if queue is None:
            return 0
        while queue and queue[0] < now - self.limits.window_s:
            queue.popleft()
        if not queue:
            del self._failures[key]
            return 0
        return len(queue)

    def over(self, key: str, now: float, seats: int = 0) -> bool:
        """Is ``key`` over a limit (a new stream of it goes on probation)? ``seats``: the
        seats the sessions on the stream's connection may be handed at once, each a stream
        that may wait for its Hello too."""
        limits = self.limits
        return (
            self.pending[key] >= limits.pending + seats
            or self.failures(key, now) >= limits.failed_hellos
        )

    def failed(self, key: str, now: float) -> None:
        self._failures.setdefault(key, collections.deque()).append(now)

    def make_room(self, key: str, now: float) -> bool:
        """Room for one more stream of ``key`` on probation? Full, the oldest one makes room
        (its wait ends now: it is refused) if it has waited long enough; else ``False``."""
        waiting = self.waiting.get(key)
        if len(waiting or ()) < self.limits.probation:
            return True
        if not waiting:  # (no probation at all: probation = 0)
            return False
        started, scope = waiting[0]
        if now - started < self.limits.probation_min_s:
            return False
        waiting.popleft()
        scope.reschedule(now)
        return True

    def leave(self, key: str, place: list[Any]) -> None:
        """The stream at ``place`` is off probation (read, refused or made room)."""
        waiting = self.waiting.get(key)
        if waiting is not None and place:
            with contextlib.suppress(ValueError):
                waiting.remove(place)
            if not waiting:
                del self.waiting[key]

    def add(self, counter: collections.Counter[str], key: str, n: int) -> None:
        counter[key] += n
        if counter[key] <= 0:
            del counter[key]

    def should_log(self, key: str, now: float) -> bool:
        """Log this refusal of ``key``? The first in each window; the others are counted in
        :attr:`unlogged` and reported with the next line logged."""
        last = self._logged.get(key)
        if last is not None and now - last < self.limits.window_s:
            self.unlogged[key] += 1
            return False
        self._logged[key] = now
        if len(self._logged) > 4096:  # forget the quiet peers
            cutoff = now - self.limits.window_s
            self._logged = {k: t for k, t in self._logged.items() if t >= cutoff}
        return True

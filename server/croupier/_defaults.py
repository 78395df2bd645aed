"""Every default a user meets in more than one place, written once (issue 21, "defaults
once"): ``croupier match`` and ``check-bot``'s flags, the tournament file
(``croupier.ladder``), the server's config (``croupier.serve``) and the arbiter's own types
read these; ``tests/docs/test_defaults.py`` keeps the docs' tables and examples equal to them.

A leaf module: it imports nothing, so any layer may read it (and ``croupier --version`` stays
lean)."""

from __future__ import annotations

#: Time per decision (ms): ``--move-ms``, ``[clock] move_ms``, the server's ``move_ms``.
MOVE_MS = 2000
#: The time bank for overruns (ms): ``--bank-ms``, ``[clock] bank_ms``, the server's ``bank_ms``.
BANK_MS = 30000
#: ``croupier check-bot``'s bank (ms): stricter than a match's, so a slow bot shows.
CHECK_BOT_BANK_MS = 5000
#: Grace for a small overrun before it is a timeout (ms): ``--margin-ms``.
MARGIN_MS = 50
#: How long the bots of a match have to dial in (s): ``--connect-timeout``,
#: ``[clock] connect_timeout_s``, the server's ``connect_timeout_s``.
CONNECT_TIMEOUT_S = 15.0
#: How long a public event may wait for its seat's next message before it goes alone (ms):
#: ``--event-flush-ms``, the tournament's and the server's ``event_flush_ms``.
EVENT_FLUSH_MS = 50
#: How long a remote bot whose connection drops may take to come back (s): ``croupier match
#: --reconnect-grace`` and the server's ``reconnect_grace_s``. A tournament's
#: ``[clock] reconnect_grace_s`` is 0 by default (:data:`TOURNAMENT_RECONNECT_GRACE_S`): its
#: launched bots cannot come back on another connection.
RECONNECT_GRACE_S = 10.0
TOURNAMENT_RECONNECT_GRACE_S = 0.0
#: Matches a server plays at once (``serve.max_matches``, ``--max-matches``).
SERVER_MAX_MATCHES = 256

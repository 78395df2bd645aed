"""The long-running competition server (``croupier serve``, docs/server.md): the control API,
live spectating and the web page."""

from croupier.serve._watch import MatchFeed, SeatPolicy, match_info, watch_match

__all__ = ["MatchFeed", "SeatPolicy", "match_info", "watch_match"]

"""``run`` and ``main``: one match, or the session the environment asks for, as a bot script
runs it."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

from croupier_bot._bot import Bot, BotError, Decision, _FunctionBot
from croupier_bot._pipe import serve
from croupier_bot._seats import SessionSummary


def run(
    bot: Bot | Callable[[Decision], int], *, name: str = "python-bot", version: str = "0"
) -> Any:
    """Play one match with ``bot`` (a :class:`Bot` or a function); exit with status 2 and one
    line on stderr if the arbiter refuses it or the stream breaks.

    When the environment says session mode (``CROUPIER_SESSION_TOKEN``: the bot was launched to
    stay up across matches), serve the session instead (:func:`serve`) and return its
    :class:`SessionSummary`."""
    if not isinstance(bot, Bot):
        bot = _FunctionBot(bot, name, version)
    try:
        if os.environ.get("CROUPIER_SESSION_TOKEN"):
            return serve(bot)
        from croupier_bot._client import play  # (gRPC: imported only when dialled)

        return play(bot)
    except BotError as exc:
        reason = f" [{exc.reason}]" if exc.reason else ""
        print(f"{bot.name}: {exc}{reason}", file=sys.stderr)
        raise SystemExit(2) from None


def main(bot: Bot | Callable[[Decision], int], **kwargs: Any) -> None:
    """Entry point for a bot script: ``if __name__ == "__main__": main(MyBot())``."""
    started = time.monotonic()
    end = run(bot, **kwargs)
    seconds = time.monotonic() - started
    if isinstance(end, SessionSummary):
        print(f"session over after {seconds:.1f}s; matches={end.matches}", file=sys.stderr)
    else:
        print(f"match over after {seconds:.1f}s; cancelled={end.cancelled}", file=sys.stderr)

"""What every command prints goes through here: text made safe for a terminal, and the exit
statuses the commands share (the ``croupier`` docstring lists them)."""

from __future__ import annotations

import unicodedata

#: Exit statuses: 0 success; 1 a check failed (replay verify, check-bot); 2 a user error (one
#: ``croupier: error:`` line); 3 the match was cancelled (Ctrl-C, SIGTERM, --match-time-cap-s).
EXIT_CHECK_FAILED = 1
EXIT_USER_ERROR = 2
EXIT_CANCELLED = 3


def printable(text: str) -> str:
    """``text`` safe for a terminal: every control or format character (ESC, CR, LF, DEL, C1,
    bidirectional overrides) written as a visible escape (``\\x1b``), so nothing that came from
    a bot or a replay file can move the cursor, retitle the terminal or forge a line."""
    return "".join(
        c if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co") else _escape(c) for c in text
    )


def _escape(c: str) -> str:
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def say(text: str = "") -> None:
    """Print one line of output, escaped (see :func:`printable`)."""
    print(printable(text))

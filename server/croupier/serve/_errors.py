"""What every part of the competition server shares: the errors its control API answers with a
status of their own, the stable reason an error carries (``control.proto``'s
``ControlErrorReason``), and what a name (a bot's, a batch's, a tournament's) is made of."""

from __future__ import annotations

from typing import TypeVar

from croupier.errors import CroupierError

#: A registered bot's name: letters, digits, ``-``, ``_``, ``.``, 1 to 64 of them.
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


class NotFoundError(CroupierError):
    """No such match, bot or tournament (NOT_FOUND)."""


class StateError(CroupierError):
    """The request does not fit the thing's state (FAILED_PRECONDITION)."""


class ExistsError(StateError):
    """A match id (or bot name) that is used already (ALREADY_EXISTS)."""


E = TypeVar("E", bound=BaseException)


def with_reason(exc: E, reason: str) -> E:
    """``exc`` carrying the stable reason the control API sends with it (``croupier-reason``:
    a ``ControlErrorReason`` name without its prefix, e.g. ``BOT_NOT_FOUND``)."""
    exc.croupier_reason = reason  # type: ignore[attr-defined]
    return exc


def reason_of(exc: BaseException) -> str:
    """The stable reason :func:`with_reason` gave ``exc`` (``""``: none)."""
    return str(getattr(exc, "croupier_reason", ""))

"""The log lines of the commands that run matches or a server, and of the helper processes a
tournament starts: structlog on stderr."""

from __future__ import annotations

import sys


def configure_logging(verbosity: int) -> None:
    """Log lines at ``verbosity`` (0: warnings, 1: info, 2: debug) on stderr: for a person on a
    terminal, JSON otherwise."""
    import contextlib
    import logging

    import structlog

    class _LogLines(structlog.PrintLogger):
        """Writes log lines to a stream (stderr); a line that cannot be written (a full disk
        under a redirected stderr) is dropped, never raised into the work it describes."""

        def msg(self, message: str) -> None:
            with contextlib.suppress(OSError):
                super().msg(message)

        log = debug = info = warn = warning = msg
        fatal = failure = err = error = critical = exception = msg

    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(verbosity, 2)]
    renderer = (
        structlog.dev.ConsoleRenderer(colors=False)
        if sys.stderr.isatty()
        else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=lambda *_: _LogLines(sys.stderr),
        cache_logger_on_first_use=True,
    )

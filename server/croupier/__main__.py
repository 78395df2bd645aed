"""``python -m croupier`` is the ``croupier`` command (the console script calls :func:`run`)."""

import os
import signal
import sys

#: The exit status of a run cancelled by Ctrl-C (``croupier.cli.EXIT_CANCELLED``; not imported
#: from there, since Ctrl-C may come while that module is still being imported).
EXIT_CANCELLED = 3


def run() -> None:
    """Import the CLI and run it; Ctrl-C at any moment ends in one line, never a traceback."""
    # A command started in the background of a non-interactive shell (CI, nohup, `cmd &`)
    # inherits SIGINT ignored, and Python leaves it so: a SIGINT before the event loop's own
    # handler was installed was lost. And a KeyboardInterrupt raised inside a C extension's
    # initialisation (grpc's) comes out as an ImportError with a traceback. So a SIGINT during
    # the imports is only noted, and acted on once they are done.
    interrupted: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: interrupted.append(signum))
    try:
        from croupier.cli import main
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if interrupted:
            raise KeyboardInterrupt
        code = main()
    except KeyboardInterrupt:
        print("croupier: interrupted", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        # not sys.exit: CPython may then end the process by SIGINT itself (status -2), having
        # seen the KeyboardInterrupt; the status is documented as 3
        os._exit(EXIT_CANCELLED)
    sys.exit(code)


if __name__ == "__main__":
    run()

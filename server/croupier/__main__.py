"""``python -m croupier`` is the ``croupier`` command."""

import sys

from croupier.cli import main

sys.exit(main())

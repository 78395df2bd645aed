"""Croupier's bundled reference bots. Each module is a standalone program using only the
``croupier_bot`` SDK: run it as ``python -m croupier_bots.<name>`` or ``python bots/<name>.py``."""

"""``python -m cardkit``: the ``cardkit`` command, for the Python cardkit is installed in."""

import sys

try:
    from .cli import main
except ModuleNotFoundError as missing:  # a Python without cardkit's libraries
    sys.exit(f"cardkit: this Python ({sys.executable}) lacks {missing.name}, which cardkit "
             "needs; run 'make build' in cardkit's folder, then '.venv/bin/cardkit' or "
             "'.venv/bin/python -m cardkit' (or 'source .venv/bin/activate' first)")

main()

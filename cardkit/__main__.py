"""``python -m cardkit``: the ``cardkit`` command, for the Python cardkit is installed in."""

import sys

# `python -m` puts the current folder first on sys.path. Run in a shared deck's folder, the
# deck's own click.py, yaml.py or PIL/ would then be imported by commands that promise never
# to run a deck's code; cardkit itself is already imported, so the folder is not needed.
if not sys.flags.safe_path and sys.path:
    del sys.path[0]

try:
    from .cli import main  # noqa: E402  (after sys.path is made safe)
except ModuleNotFoundError as missing:  # a Python without cardkit's libraries
    from .common.errors import lacking_library  # late: `--help` has no use for it

    sys.exit(lacking_library(missing.name))

main()

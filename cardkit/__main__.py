"""``python -m cardkit``: the ``cardkit`` command, for the Python cardkit is installed in."""

import sys

from .common.errors import lacking_library

try:
    from .cli import main
except ModuleNotFoundError as missing:  # a Python without cardkit's libraries
    sys.exit(lacking_library(missing.name))

main()

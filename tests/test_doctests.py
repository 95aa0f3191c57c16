"""The examples in cardkit's docstrings (``>>>``) give what they show: each module's, as
doctest runs them (ELLIPSIS on, as pytest's doctests have it).

One test a module, named from the package's files without importing them: a module and the
libraries it uses are imported only in the worker that runs its examples, not in every
worker at collection (as ``--doctest-modules`` did: about a second of CPU time a worker).
``pytest --doctest-modules cardkit/deck/model.py`` still runs one file's examples.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import cardkit

PACKAGE = Path(cardkit.__file__).parent
# a new deck's files, copied as they are: not cardkit's code
TEMPLATE = PACKAGE / "starter" / "template"


def modules_with_examples() -> list[str]:
    """The dotted names of cardkit's modules whose text holds an example (``>>>``), read
    from the files; ``__main__`` is left out (importing it runs the command)."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if TEMPLATE in path.parents or path.name == "__main__.py" \
                or ">>>" not in path.read_text(encoding="utf-8"):
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@pytest.mark.parametrize("name", modules_with_examples())
def test_the_module_s_examples_give_what_they_show(name):
    module = importlib.import_module(name)
    examples = [test for test in doctest.DocTestFinder().find(module, name) if test.examples]
    assert examples, f"{name}: its text has '>>>' but doctest finds no example in it"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    said: list[str] = []
    for test in examples:
        runner.run(test, out=said.append)
    if runner.failures:
        pytest.fail(f"{name}: {runner.failures} of {runner.tries} examples failed\n"
                    + "".join(said), pytrace=False)

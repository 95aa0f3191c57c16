"""Example files: situations written in YAML with the result the rules must give.

    examples:
      - name: a king counts as a jack for hearts when the hearts foundation is a 4
        value: {card: KC, suit: hearts, foundations: "4H 7C 9D QS"}
        expect: {value: 11}

Each example has a ``name``, one situation keyed by its kind (the kinds each game knows are
in its module's ``EXAMPLES``) and ``expect``: the parts of the result to check. Each kind
first puts its situation through the game's ``check_situation`` (the check ``cardkit
score`` uses too), so an example that cannot happen in the game is an error with its
file:line, not an outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..common.errors import Problems, Where, did_you_mean
from ..sources.yamlfile import Map, Seq, load_yaml
from . import blofa, bullet, ragusa, rise_up, shapes
from .errors import RulesError

GAMES = {"blofa": blofa, "bullet": bullet, "ragusa": ragusa, "rise-up": rise_up,
         "shapes": shapes}
EXAMPLES_FILE = "examples.yaml"


@dataclass(frozen=True)
class Outcome:
    name: str
    where: Where
    ok: bool
    reason: str
    expected: dict
    actual: dict


def plain(value):
    """YAML containers as plain dicts and lists, for comparing and printing."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def read_examples(path: Path) -> Seq:
    """The list under ``examples:`` of an examples file; InputError, with file:line, if
    the file is not such a mapping."""
    data = load_yaml(path)
    if not isinstance(data, Map) or not isinstance(data.get("examples"), Seq):
        problems = Problems()
        problems.add(getattr(data, "where", Where(path)), "an examples file is a mapping with "
                     "a list under 'examples:'", "start with 'examples:'")
        problems.check()
    return data["examples"]


def run_examples(game: str, path: Path) -> list[Outcome]:
    """Run every example in ``path`` with ``game``'s rules. Raises InputError (with
    file:line) for examples that cannot be read; a wrong expectation is an Outcome."""
    module = GAMES[game]
    examples = read_examples(path)
    problems = Problems()
    outcomes = []
    for example, where in zip(examples, examples.item_where):
        outcome = _run_one(module, example, where, problems)
        if outcome is not None:
            outcomes.append(outcome)
    problems.check()
    return outcomes


def _run_one(module, example, where, problems: Problems) -> Outcome | None:
    if not isinstance(example, Map):
        problems.add(where, "an example must be a mapping", "give it name, a situation, expect")
        return None
    name = str(example.get("name", "?"))
    kinds = [k for k in example if k not in ("name", "expect")]
    if len(kinds) != 1 or kinds[0] not in module.EXAMPLES or "expect" not in example \
            or not isinstance(example["expect"], Map):
        wrong = [k for k in kinds if k not in module.EXAMPLES]
        problems.add(example.key_at(wrong[0]) if wrong else example.where,
                     f"example '{name}' needs one situation and 'expect:'"
                     + (f"; '{wrong[0]}' is not a kind of example" if wrong else ""),
                     did_you_mean(wrong[0] if wrong else "", module.EXAMPLES) if wrong
                     else "kinds: " + ", ".join(module.EXAMPLES))
        return None
    kind = kinds[0]
    try:
        actual, reason = module.EXAMPLES[kind](example[kind])
    except RulesError as error:
        problems.add(example.at(kind), f"example '{name}': {error.what}", error.fix)
        return None
    except KeyError as missing:
        problems.add(example.at(kind), f"example '{name}': the {kind} situation has no "
                     f"{missing}", f"add {missing}")
        return None
    except (TypeError, ValueError, AttributeError, IndexError) as error:
        problems.add(example.at(kind), f"example '{name}': cannot read this {kind} situation "
                     f"({error})", "compare it with the other examples of this kind")
        return None
    expected = plain(example["expect"])
    unknown = [k for k in expected if k not in actual]
    if unknown:
        problems.add(example["expect"].key_at(unknown[0]), f"example '{name}' expects "
                     f"'{unknown[0]}', which a {kind} result does not have",
                     did_you_mean(unknown[0], actual))
        return None
    actual = plain(actual)
    ok = all(actual[k] == v for k, v in expected.items())
    return Outcome(name, example.where, ok, reason, expected,
                   {k: actual[k] for k in expected})


def check_deck(game: str, cards: list[dict]) -> list[str]:
    """What is wrong with a deck's cards for ``game``'s rules ([] when all is right)."""
    return GAMES[game].check_deck(cards)

"""``cardkit simulate GAME --tune --target ... --vary ...``: search what may vary for
settings that meet the targets, then check the best few with fresh games
(:mod:`cardkit.playtest.tune`)."""

from __future__ import annotations

import sys
import time
from dataclasses import replace

import click

from ..common.errors import printable
from .output import progress_bar
from .run_end import refuse, rules_failed, stop_cause, write_report_to


def tune(setup, rules, deck_file: str, rules_path, target_texts, vary_texts, trials: int,
         games: int, workers: int, report_dir, executor) -> None:
    """Search, check the finalists with fresh games, print the suggestions, write the
    report."""
    from ..playtest.executors import ExecutorError
    from ..playtest.rules_file import RulesFileError
    from ..playtest.runner import Stopped
    from ..playtest.tune import tune_and_check
    from ..playtest.tune_targets import TuneError, parse_target, parse_vary

    if not target_texts or not vary_texts:
        refuse("--tune needs --target (what to aim at) and --vary (what may change)",
               "e.g. --tune --target seats=5 --vary HAND=3..6")
    try:
        targets = list({t.name: t for t in map(parse_target, target_texts)}.values())
        knobs = [parse_vary(text) for text in vary_texts]
        settings = _Settings(setup, rules, deck_file, rules_path, knobs, targets)
    except TuneError as error:
        refuse(error.what, error.fix)
    from ..playtest.tune import RUNGS

    click.echo(printable(f"{setup.game}: tuning {', '.join(k.what for k in knobs)} toward "
                         f"{len(targets)} target{'s' * (len(targets) > 1)}: {trials} points "
                         f"tried, each {RUNGS[0]} games, the best third of a batch "
                         f"{RUNGS[1]} more, the best third of those {RUNGS[2]} more"))
    started = time.perf_counter()
    try:
        result = tune_and_check(settings.setups, settings.today, knobs, targets, trials,
                                games, settings.setup, workers, executor, progress_bar)
    except (RulesFileError, ExecutorError) as error:
        rules_failed(error)
    except Stopped:
        click.echo(f"cardkit: stopped ({stop_cause()[0]}) before the search was done; "
                   "nothing to suggest yet", err=True)
        sys.exit(stop_cause()[1])
    result["seconds"] = round(time.perf_counter() - started, 1)
    for suggestion in result["suggestions"]:
        suggestion["breaks"] = settings.breaks(
            tuple(suggestion["values"][knob.what] for knob in knobs))
    for line in tune_lines(result):
        click.echo(printable(line))
    if report_dir:
        from ..playtest.report_runs import write_tune_report

        write_report_to(report_dir, write_tune_report, result)


class _Settings:
    """The runs of each setting (a value a knob), made once: the game's setup with the
    constants, bot parameters and card counts it asks for."""

    def __init__(self, setup, rules, deck_file, rules_path, knobs, targets):
        from ..playtest.run_setup import BotSpec
        from ..playtest.sweep import SweepError, point_setup
        from ..playtest.tune_targets import SKILL_BOT, TuneError

        self.setup, self.rules, self.deck_file, self.rules_path = setup, rules, deck_file, \
            rules_path
        self.knobs, self.made = knobs, {}
        self.skill = any(t.name == "skill" for t in targets)
        if self.skill and "search" not in rules.bots:
            raise TuneError(f"--target skill: {rules.title} has no search bot",
                            "leave out the skill target")
        self.skill_bots = (BotSpec(*SKILL_BOT),) + (BotSpec("random"),) * (setup.players - 1)
        fields = self._fields() if any(k.kind == "count" for k in knobs) else []
        today = []
        for knob in knobs:
            try:
                if knob.kind == "count":
                    from ..playtest.sweep import copies_of, with_count

                    with_count(fields, knob.key, 0)  # a card it finds, and one only
                    today.append(copies_of(fields, knob.key))
                else:
                    point_setup(setup, _sweep(knob), knob.values[0], rules)
                    today.append(self._today_param(knob))
            except SweepError as error:
                raise TuneError(f"--vary {knob.text!r}: {error.what}", error.fix) from None
        self.today = tuple(today)
        for k, knob in enumerate(knobs):  # each range's ends can be dealt, with today's rest
            for end in (min(knob.values), max(knob.values)):
                self.setups(self.today[:k] + (end,) + self.today[k + 1:])

    def _deck(self):
        from ..deck.loader import load_deck
        from ..sources.bundled import find_deck

        return load_deck(find_deck(self.deck_file))

    def _fields(self):
        return self._deck().for_rules()

    def breaks(self, values: tuple) -> str | None:
        """What the setting ``values`` breaks of what the deck keeps to: 'the 18-card
        contest: 19 cards (it asks for 18)', its composition's counts (None: nothing)."""
        from functools import reduce

        from ..playtest.sweep import with_count
        from .game_cards import broken_by

        counts = [(knob.key, value) for knob, value in zip(self.knobs, values)
                  if knob.kind == "count"]
        if not counts:
            return None
        return "; ".join(broken_by(self.deck_file, lambda fields: reduce(
            lambda changed, count: with_count(changed, *count), counts, fields))) or None

    def _today_param(self, knob):
        if knob.key in self.rules.constants:
            return self.rules.constants[knob.key]
        for spec in self.setup.bots:
            params = self.rules.bots[spec.name].PARAMS
            if knob.key in params:
                return dict(spec.params).get(knob.key, params[knob.key])
        return None

    def setups(self, values: tuple) -> list:
        """The setting's runs: the game's, and with a skill target search against random."""
        key = tuple(None if v is None else float(v) for v in values)
        if key not in self.made:
            self.made[key] = self._make(values)
        return self.made[key]

    def _make(self, values: tuple) -> list:
        from functools import reduce

        from ..playtest.sweep import point_setup, with_count
        from .game_cards import dealable, deck_cards

        run, constants, counts = self.setup, [], []
        for knob, value in zip(self.knobs, values):
            if knob.kind == "count":
                counts.append((knob.key, value))
                continue
            run = point_setup(run, _sweep(knob), value, self.rules)
            constants += run.constants
        run = replace(run, constants=tuple(constants))
        said = ", ".join(f"{k.what}={v:g}" for k, v in zip(self.knobs, values) if v is not None)
        if counts:
            _, cards = deck_cards(self.rules, self.deck_file, lambda fields: reduce(
                lambda deck, count: with_count(deck, *count), counts, fields), said)
            run = replace(run, cards=cards)
        dealable(self.rules, run.players, run.seed, run.cards, f"{self.deck_file} ({said})",
                  self.rules_path)
        return [run] + ([replace(run, bots=self.skill_bots, rotate=True)] if self.skill
                        else [])


def _sweep(knob):
    from ..playtest.sweep import Sweep

    return Sweep(knob.kind, knob.key, knob.values)


def distance_said(distance: float, result: dict) -> str:
    """How far a setting falls outside the targets, with its unit: '0.6 points outside
    the targets'; where its figures are only within chance of them, that.

    >>> result = {"targets": [{"target": "seats"}], "length_unit": "turns"}
    >>> distance_said(0.6, result), distance_said(0.0, result)
    ('0.6 points outside the targets', 'within chance of the targets')
    >>> distance_said(2.0, {"targets": [{"target": "seats"}, {"target": "length"}],
    ...                     "length_unit": "turns"})
    '2.0 outside the targets (points and turns added up)'
    """
    if distance == 0:
        return "within chance of the targets"
    units = sorted({result["length_unit"] if t["target"] == "length" else "points"
                    for t in result["targets"]})
    if len(units) == 1:
        return f"{distance:.1f} {units[0]} outside the targets"
    return f"{distance:.1f} outside the targets ({' and '.join(units)} added up)"


def tune_lines(result: dict) -> list[str]:
    """The answer in the terminal: today's figures, then each suggestion with its fresh
    figures and one-step check."""
    from ..playtest.tune import step_said

    def figures(found: dict) -> str:
        return "; ".join(f"{f['said']} {f['verdict']}" for f in found.values())

    lines = [f"  searched {len(result['points'])} settings in {result['games_searched']:,} "
             f"games; checked with {result['fresh_games']:,} fresh games each (seed "
             f"{result['seed']}, unused by the search), {result['seconds']:g} s",
             "  targets: " + "; ".join(t["said"] for t in result["targets"]),
             "  today (" + ", ".join(f"{k} {v:g}" if v is not None else f"{k} mixed"
                                     for k, v in result["today"]["values"].items())
             + "): " + figures(result["today"]["figures"])]
    if result["today"]["within"]:
        lines.append("Today's setting already meets every target: nothing needs to change "
                     "(the settings below meet them too, or come closest).")
    for number, suggestion in enumerate(result["suggestions"], 1):
        lines.append(f"Suggestion {number}: {', '.join(suggestion['changes'])}"
                     + ("  (meets every target)" if suggestion["within"] else
                        "  (" + distance_said(suggestion["distance"], result) + ")"))
        lines.append(f"  {figures(suggestion['figures'])}")
        if suggestion.get("breaks"):
            lines.append(f"  breaks {suggestion['breaks']}")
        for step in suggestion["one_step"]:
            lines.append(f"  one step back, {step_said(step)}")
    if not result["suggestions"]:
        lines.append("No setting the search tried changes anything from today.")
    return lines

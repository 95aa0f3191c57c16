"""The verdicts are calibrated on games written on the toolkit whose answer is known
(issue 38, item 5): a small version of ``make calibrate`` (bench/calibrate.py), which runs
each check many more times and prints the rates the docs record.

Each check runs a verdict many times from fixed seeds and counts its false alarms against
what a 5% rate allows (exceeded by chance once in a thousand checks), or counts how often
it finds what was planted."""

from __future__ import annotations

from known_games.verdicts import (coin_flip_setup, compare_verdicts, most_false_alarms,
                                  nim_setup, seat_and_card_verdicts, skill_verdicts)


def test_a_fair_game_of_chance_names_no_seat_and_no_card_beyond_the_stated_rate():
    named = seat_and_card_verdicts(coin_flip_setup(), runs=40, games=200)
    assert named["seat"] <= most_false_alarms(40), named
    assert named["card"] <= most_false_alarms(40), named


def test_the_planted_card_is_found_at_the_readme_s_game_count():
    """The Dragon takes a win fate gave another seat one time in twelve (0.08): at 2,000
    games the verdict names it in every run."""
    named = seat_and_card_verdicts(coin_flip_setup(boost=0.08), runs=3, games=2000)
    assert named["dragon"] == named["card"] == 3, named


def test_a_game_of_pure_chance_says_skill_matters_at_most_at_the_stated_rate():
    said = skill_verdicts(coin_flip_setup(2), ladders=30, games=200, budgets=())
    assert said <= most_false_alarms(30), said


def test_nim_s_skill_is_found():
    assert skill_verdicts(nim_setup(), ladders=3, games=200, budgets=()) == 3


def test_a_deck_dealt_differently_changes_nothing_beyond_the_stated_rate():
    """The coin flip's deck in the reverse order deals other games from the same seeds:
    the paired intervals are as wide as two separate runs', and honest."""
    said = compare_verdicts(coin_flip_setup(), runs=30, games=200)
    assert said <= most_false_alarms(30), said

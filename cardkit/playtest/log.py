"""One game of a run, move by move: who played what, having seen what, and how it ended.

Game ``index`` is played exactly as the run plays it (the same seed, bots and chance), so
a figure, a checker's finding or a bot's odd move can be looked at in the game it came
from.
"""

from __future__ import annotations

from .game_loop import play_one
from .game_text import seen, shown
from .run_setup import Setup, seat_bots


def game_log(setup: Setup, index: int, say) -> None:
    """Tell game ``index`` of the run ``setup``, a line at a time, to ``say``: as it is
    played, so that a game that fails shows its moves up to the failure."""
    bots = ", ".join(str(bot) for bot in seat_bots(setup, index))
    say(f"{setup.game}: game {index}, seed {setup.seed}, {setup.players} "
        f"player{'s' * (setup.players != 1)} ({bots})")

    def watch(state, seat, move):
        say(f"{state.moves_made + 1}. seat {seat} sees "
            f"{seen(state.observation(seat), getattr(state, 'piles', None))}")
        say(f"   and plays {shown(move)}")

    result = play_one(setup, index, watch)
    won = [seat for seat, share in enumerate(result.returns) if share]
    turns = "" if result.turns is None else f" ({result.turns} turns)"
    say(f"over after {result.moves} moves{turns}: scores {_number_list(result.scores)}; "
        + ("nobody won" if not won else f"seat {won[0]} won" if len(won) == 1 else
           "seats " + ", ".join(map(str, won)) + " share the win"))


def _number_list(values) -> str:
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"

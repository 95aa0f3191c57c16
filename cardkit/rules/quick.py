"""`cardkit score`: a quick answer from the rules for cards typed on the command line.

Each scorer parses the words, then the whole situation goes through its game's
``check_situation`` (the check the example files use too), directly or through the rule
function that starts with it (``rise_up.fight``, ``blofa.challenge``, ``ragusa.showdown``),
so anything that cannot happen in the game is a RulesError before any scoring.
"""

from __future__ import annotations

from . import blofa, bullet, ragusa, rise_up, shapes
from .errors import RulesError


def score(game: str, args: tuple[str, ...], players: int | None = None,
          foundations: str | None = None, room: str | None = None,
          declared: int | None = None, owner: int = 0) -> list[str]:
    """Lines of answer; RulesError for input that cannot happen in the game."""
    if not args:
        raise RulesError("nothing to score", f"see 'cardkit score --help' for {game}")
    return SCORERS[game](list(args), players=players, foundations=foundations, room=room,
                         declared=declared, owner=owner)


def _bullet(args, players, **_):
    players = 5 if players is None else players
    hands = [bullet.parse_values(a, players) for a in args]
    bullet.check_situation(hands, players)
    lines = [f"{' '.join(map(str, h))}: {bullet.describe(h)}" for h in hands]
    if len(hands) > 1:
        best = bullet.compare(hands)
        lines.append("tie between hands " + ", ".join(str(i + 1) for i in best)
                     if len(best) > 1 else f"hand {best[0] + 1} wins")
    return lines


def _ragusa(args, foundations, **_):
    if not foundations:
        raise RulesError("Ragusa needs the Foundation Cards", "add --foundations '4H 7C 9D QS'")
    table = ragusa.parse_foundations(foundations)
    players = []
    for arg in args:
        suit, sep, cards = arg.partition(":")
        if not sep:
            raise RulesError(f"'{arg}' does not name the player's suit",
                             "write 'hearts: KC KD 5H 5S 9C' (and '/ 5 more' to break ties)")
        shown, _, other = cards.partition("/")
        player = {"suit": ragusa.parse_suit(suit), "shown": ragusa.parse_hand(shown)}
        if other.strip():
            player["other"] = ragusa.parse_hand(other)
        players.append(player)
    if len(players) == 1:
        ragusa.check_situation(players, table)
        player = players[0]
        return [f"{ragusa.describe(player['shown'], player['suit'], table)}"]
    winners, reason = ragusa.showdown(players, table)
    verdict = f"player {winners[0]} wins the pot" if len(winners) == 1 else \
        f"players {', '.join(map(str, winners))} split the pot"
    return reason.split("; ") + [verdict]


def _rise_up(args, room, **_):
    if not room:
        raise RulesError("Rise Up needs the room's cards", "add --room '7C 9D'")
    outcome = rise_up.fight(rise_up.parse_abilities(args),
                            [rise_up.parse_card(c) for c in room.split()])
    verdict = "you win the room" if outcome["win"] else "you lose the game"
    return [f"invested {outcome['invested']} against the room's {outcome['room']}: {verdict}"]


def _blofa(args, declared, **_):
    if declared is None:
        raise RulesError("a Blófa challenge needs the declared sum", "add --declared N")
    played = blofa.parse_played(args)
    outcome = blofa.challenge(played, declared, declarer=0, challenger=1)
    return [("a lie: the challenger wins the clash" if outcome["lie"] else
             "the truth: the declarer wins the clash") +
            f" (the cards add up to {sum(played)}, declared {declared})"]


def _shapes(args, players, owner, **_):
    cards = [shapes.parse_card(a) for a in args]
    shapes.check_situation([cards], players)
    lines = [f"{shapes.score_triplet(cards)} points: " + ", ".join(
        f"{p} {shapes.property_points(cards, p)}" for p in shapes.PROPERTIES)]
    if players is not None:
        lines.append(f"scored by seat {shapes.destination(cards, owner, players)} "
                     f"(owner: seat {owner} of {players})")
    return lines


SCORERS = {"blofa": _blofa, "bullet": _bullet, "ragusa": _ragusa, "rise-up": _rise_up,
           "shapes": _shapes}

"""What ``cardkit simulate`` prints about a run: a few lines a designer reads in the
terminal (the report has the rest)."""

from __future__ import annotations

from ..common.words import counted


def card_lines(cards: list[dict] | None, most: int = 3) -> list[str]:
    """The strongest and weakest cards by how a seat that drew one fares (the report has
    them all), those the card verdict names marked."""
    from ..playtest.per_card import shown as shown_card

    judged = [card for card in cards or () if card["drawn"]["judged"]]
    if not judged:
        return []
    picked = judged if len(judged) <= 2 * most else judged[:most] + judged[-most:]
    lines = ["  cards: a seat that drew it, against the other cards of its games"]
    for card in picked:
        lines.append(f"    {card['card']}: {shown_card(card['drawn'])}"
                     + ("  beyond chance" if card["drawn"]["significant"] else ""))
    if len(judged) > len(picked):
        lines.insert(1 + most, f"    ... {len(judged) - len(picked)} more in the report")
    return lines


def winner_lines(found: dict, left_out: list[str] = ()) -> list[str]:
    """Each seat figure: the winners' mean against the others', marked beyond chance; then
    the figures left out as the score."""
    lines = []
    for name, figure in found.items():
        if figure["winners"] is None:
            continue
        low, high = figure["interval"]
        lines.append(f"    {name.replace('_', ' ')}: {figure['winners']:.2f} against "
                     f"{figure['others']:.2f} ({figure['change']:+.2f}, 95%: {low:+.2f} to "
                     f"{high:+.2f})" + ("  beyond chance" if figure["significant"] else ""))
    if not lines:
        return []
    if left_out:
        from ..playtest.summary import score_left_out

        lines.append(f"    ({score_left_out(left_out)})")
    return ["  what winners do, a seat a game (winners against the others):"] + lines


def outcome_lines(summary: dict) -> list[str]:
    """How often nobody won and how often the win was shared, both of all games; the base
    of the seats' shares; the verdict on the seats (and, rotated, on the bots)."""
    fair = f"a fair share of them is {summary['fair_share']:.0%}"
    lines = [f"  nobody won {summary['nobody_won']:.1%} of all games; the other "
             f"{summary['decided']:,} are the decided games, {fair}" if summary["nobody_won"]
             else f"  every game had a winner, so all are decided games; {fair}"]
    if summary.get("tied"):
        lines.append(f"  tied {summary['tied']:.1%} of all games (several winners shared "
                     "the win)")
    lines += [f"  {sentence[0].upper()}{sentence[1:]}." for sentence in summary["edges"]]
    if not summary["edges"]:
        lines.append("  No seat is further from a fair share than chance explains "
                     f"({summary['players']} seats tested together).")
    for bot in summary.get("bot_shares") or ():
        low, high = bot["interval"]
        lines.append(f"  bot {bot['bot']}: won {bot['share']:.1%} of the decided games "
                     f"(95%: {low:.1%}-{high:.1%}), a fair share {bot['fair_share']:.0%}")
    bots = summary.get("bot_shares") or ()
    lines += [f"  {bot['edge'][0].upper()}{bot['edge'][1:]}." for bot in bots if bot["edge"]]
    if bots and not any(bot["edge"] for bot in bots):
        lines.append(f"  No bot is further from a fair share than chance explains ({len(bots)}"
                     " bots tested together).")
    return lines


def pace(games: int, seconds: float) -> str:
    """How fast games went, in a unit that shows it: games a second, else a minute, else
    minutes a game (a slow search bot).

    >>> pace(1000, 2), pace(30, 120), pace(2, 300)
    ('500 games/s', '15 games/min', '2.5 min a game')
    """
    per_second = games / seconds if seconds else 0
    if per_second >= 1 or not games:
        return f"{per_second:,.0f} games/s"
    if per_second * 60 >= 1:
        return f"{per_second * 60:,.0f} games/min"
    return f"{seconds / games / 60:,.1f} min a game"


def summary_lines(summary: dict) -> list[str]:
    """The run in a few lines for the terminal."""
    from ..playtest.summary import length_sentence

    lines = [f"{summary['game']}: {counted(summary['games'], 'game')}, "
             f"{counted(summary['players'], 'player')}, {summary['deck']}, seed "
             f"{summary['seed']} ({summary['seconds']:.1f} s, "
             f"{pace(summary['games'], summary['seconds'])})"]
    lines += [f"  {note}" for note in (summary.get("bots_note"), summary.get("random_play"))
              if note]
    if summary.get("card_verdict"):
        from ..playtest.per_card import verdict_sentences

        first, *rest = verdict_sentences(summary["card_verdict"])
        lines += [f"  {first}", *(f"    {sentence}" for sentence in rest)]
    alone = summary["players"] == 1
    base = "of all games" if alone else "of the decided games"
    for seat in summary["seats"]:
        low, high = seat["share_interval"]
        lines.append(f"  seat {seat['seat']} ({seat['bot']}): won {seat['share']:.1%} {base} "
                     f"(95%: {low:.1%}-{high:.1%}), mean score ({summary['score_unit']}) "
                     f"{seat['score']['mean']:.2f}")
    if not alone:
        lines += outcome_lines(summary)
    lines.append(f"  length: {length_sentence(summary)}")
    lines += winner_lines(summary.get("what_winners_do") or {},
                          summary.get("score_figures") or [])
    lines += card_lines(summary.get("cards"))
    for name, figure in summary["figures"].items():
        shown = name.replace("_", " ")
        if figure["kind"] == "number":
            lines.append(f"  {shown}: {figure['mean']:.2f} a game")
        else:
            total = sum(figure["counts"].values())
            lines.append(f"  {shown}: " + ", ".join(
                f"{value} {count / total:.0%}" for value, count in figure["counts"].items()))
    return lines

"""What ``cardkit simulate`` prints about a run: a few lines a designer reads in the
terminal (the report has the rest)."""

from __future__ import annotations


def card_lines(cards: list[dict] | None, most: int = 3) -> list[str]:
    """The strongest and weakest cards by how a seat that drew one fares (the report has
    them all), those the card verdict names marked."""
    from ..playtest.per_card import shown as shown_card

    judged = [card for card in cards or () if card["drawn"]["judged"]]
    if not judged:
        return []
    picked = judged if len(judged) <= 2 * most else judged[:most] + judged[-most:]
    lines = ["  cards: a seat that drew it, against one that drew another card"]
    for card in picked:
        lines.append(f"    {card['card']}: {shown_card(card['drawn'])}"
                     + ("  beyond chance" if card["drawn"]["significant"] else ""))
    if len(judged) > len(picked):
        lines.insert(1 + most, f"    ... {len(judged) - len(picked)} more in the report")
    return lines


def winner_lines(found: dict) -> list[str]:
    """Each seat figure: the winners' mean against the others', marked beyond chance."""
    lines = []
    for name, figure in found.items():
        if figure["winners"] is None:
            continue
        low, high = figure["interval"]
        lines.append(f"    {name.replace('_', ' ')}: {figure['winners']:.2f} against "
                     f"{figure['others']:.2f} ({figure['change']:+.2f}, 95%: {low:+.2f} to "
                     f"{high:+.2f})" + ("  beyond chance" if figure["significant"] else ""))
    return ["  what winners do, a seat a game (winners against the others):"] + lines \
        if lines else []


def summary_lines(summary: dict) -> list[str]:
    """The run in a few lines for the terminal."""
    from ..playtest.summary import length_sentence

    per_second = summary["games"] / summary["seconds"] if summary["seconds"] else 0
    lines = [f"{summary['game']}: {summary['games']:,} games, {summary['players']} "
             f"player{'s' * (summary['players'] != 1)}, {summary['deck']}, seed "
             f"{summary['seed']} ({summary['seconds']:.1f} s, {per_second:,.0f} games/s)"]
    if summary.get("card_verdict"):
        from ..playtest.per_card import verdict_sentences

        first, *rest = verdict_sentences(summary["card_verdict"])
        lines += [f"  {first}", *(f"    {sentence}" for sentence in rest)]
    alone = summary["players"] == 1
    for seat in summary["seats"]:
        low, high = seat["share_interval"]
        lines.append(f"  seat {seat['seat']} ({seat['bot']}): won {seat['share']:.1%} "
                     f"(95%: {low:.1%}-{high:.1%}), mean {summary['score_unit']} "
                     f"{seat['score']['mean']:.2f}")
    if not alone:
        fair = f"a fair share is {summary['fair_share']:.0%}"
        lines.append(f"  nobody won {summary['nobody_won']:.1%} of the games; the shares are "
                     f"of the other {summary['decided']:,}, {fair}" if summary["nobody_won"]
                     else f"  every game had a winner; {fair}")
        lines += [f"  {sentence[0].upper()}{sentence[1:]}." for sentence in summary["edges"]]
        if not summary["edges"]:
            lines.append("  No seat is further from a fair share than chance explains.")
    lines.append(f"  length: {length_sentence(summary)}")
    lines += winner_lines(summary.get("what_winners_do") or {})
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

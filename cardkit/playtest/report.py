"""The report of a simulation run: a folder a designer opens in a browser.

- ``report.html``: one self-contained page (plots embedded as PNG), readable offline;
- ``summary.json``: the figures the page shows, for scripts;
- ``games.csv``: one row a game (returns, scores, turns, moves and the game's own figures), for
  a spreadsheet.

matplotlib is loaded only to draw a report (load_pyplot): ``cardkit simulate`` without
``--report`` never loads it. The reports of runs side by side are in :mod:`.report_runs`.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import math
from pathlib import Path

from ..common.atomic import atomic_folder
from ..toolkit.state import param_text
from .per_card import TOO_RARE, verdict_sentences
from .stats import box
from .summary import score_left_out
from .tally import Tally, outcome


REPORT_FILES = ("report.html", "summary.json", "games.csv")


def why_not_a_report_folder(folder: Path) -> str | None:
    """Why ``folder`` may not take a report, or None. A report replaces its folder whole,
    so the folder must be new, empty, or a report cardkit wrote (only its files): never a
    folder of the user's, the current one or one above it.

    >>> why_not_a_report_folder(Path("/"))
    'it is the folder you are in, one above it, or the root'
    """
    folder, here = Path(folder).resolve(), Path.cwd()
    if folder == here or folder in here.parents or folder.parent == folder:
        return "it is the folder you are in, one above it, or the root"
    if folder.exists() and not folder.is_dir():
        return "it is a file"
    if folder.is_dir():
        others = sorted(p.name for p in folder.iterdir() if p.name not in REPORT_FILES)
        if others:
            shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3
                                             else "")
            return f"it holds files that are not a report's ({shown}), which a report " \
                "would replace"
    return None


def report_folder(folder: Path):
    """The report's :func:`atomic_folder`, checked again just before it takes the place:
    files saved into the folder while the games were played are not replaced, and the
    new report is kept beside it (NotReplaced says where)."""
    return atomic_folder(Path(folder), why_not_a_report_folder)


def write_report(folder: Path, summary: dict, tally: Tally) -> None:
    """Write the report folder atomically: a failed run leaves the previous report. The
    caller has checked the folder with :func:`why_not_a_report_folder`; ``tally`` kept
    the games' rows."""
    with report_folder(folder) as temporary:
        (temporary / "summary.json").write_text(json.dumps(summary, indent=2) + "\n",
                                                encoding="utf-8")
        write_games(temporary / "games.csv", summary, ((None, r) for r in tally.rows))
        (temporary / "report.html").write_text(_page(summary, tally), encoding="utf-8")








def write_games(path: Path, summary: dict, results, decks: bool = False) -> None:
    """One row a game from (deck, Result) pairs, the deck (A or B) a column if ``decks``."""
    seats = range(summary["players"])
    names = list(summary["figures"])
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        per_seat = [*(summary.get("what_winners_do") or {}), *summary.get("score_figures", ())]
        writer.writerow([*(["deck"] if decks else []), "game", "outcome",
                         *(f"return_{s}" for s in seats), *(f"score_{s}" for s in seats),
                         "turns", "moves", *names,
                         *(f"{name}_{s}" for name in per_seat for s in seats)])
        for deck, r in results:
            writer.writerow([*([deck] if decks else []), r.index,
                             outcome(r, summary["players"]),
                             *(f"{x:g}" for x in r.returns), *(f"{x:g}" for x in r.scores),
                             "" if r.turns is None else r.turns, r.moves,
                             *(r.figures.get(name, "") for name in names),
                             *(r.seat_figures[s].get(name, "") if r.seat_figures else ""
                               for name in per_seat for s in seats)])


# -- the page ------------------------------------------------------------------------------

def load_pyplot():
    """matplotlib's pyplot, drawing into files only (no display)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot
    return pyplot


def png(figure) -> str:
    """The figure as a base64 PNG; the figure is closed."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    load_pyplot().close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def whole_number_bins(values: list[int], most: int = 40) -> list[float]:
    """Histogram bin edges for whole numbers: each bin holds the same count of them (at
    most ``most`` bins), edges half-way between. Bins that split the integers unevenly
    draw a comb of spikes and gaps where the games have none.

    >>> whole_number_bins([3, 5, 4])
    [2.5, 3.5, 4.5, 5.5]
    >>> whole_number_bins(list(range(100)))[:3], len(whole_number_bins(list(range(100))))
    ([-0.5, 2.5, 5.5], 35)
    """
    low, high = min(values), max(values)
    step = max(1, math.ceil((high - low + 1) / most))
    return [low - 0.5 + step * i for i in range(math.ceil((high - low + 1) / step) + 1)]


def _plots(summary: dict, tally: Tally) -> dict[str, list[tuple[str, str]]]:
    """(caption, base64 PNG) for each plot of the page, by where it goes: ``seats``,
    ``length`` and ``figures`` (the scores and the game's counted figures)."""
    pyplot = load_pyplot()

    seats = summary["seats"]
    players = summary["players"]
    figure, axes = pyplot.subplots(figsize=(6, 3.2))
    rates = [s["share"] * 100 for s in seats]
    errors = [[r - s["share_interval"][0] * 100 for r, s in zip(rates, seats)],
              [s["share_interval"][1] * 100 - r for r, s in zip(rates, seats)]]
    off = [s.get("off", False) for s in seats]  # named by the verdict, all seats together
    axes.bar(["the player"] if players == 1 else [f"seat {s['seat']}" for s in seats], rates,
             yerr=errors, capsize=6, color=["#d08a2e" if o else "#4a7ab5" for o in off])
    if players > 1:
        axes.axhline(100 / players, color="#c0392b", linestyle="--", linewidth=1,
                     label=f"fair share ({100 / players:.0f}%)")
        axes.legend(loc="upper right", fontsize=8)
        axes.set_ylabel("games won, of those\nsomeone won (%)")
        axes.set_ylim(0, min(100, max(100 / players * 2, max(rates) * 1.3)))
        caption = ("Share of the decided games each seat won, with 95% intervals (in orange: "
                   "further from a fair share than chance explains)")
    else:
        axes.set_ylabel("games won (%)")
        axes.set_ylim(0, 100)
        caption = "Games won, with the 95% interval"
    plots = {"seats": [(caption, png(figure))], "length": [], "figures": []}

    figure, axes = pyplot.subplots(figsize=(6, 3.2))
    lengths = list(tally.lengths)
    axes.hist(lengths, bins=whole_number_bins(lengths), weights=list(tally.lengths.values()),
              color="#6a9f58")
    axes.set_xlabel(f"{summary['length_unit']} in the game")
    axes.set_ylabel("games")
    plots["length"].append((f"{summary['length_unit'].capitalize()} a game", png(figure)))

    figure, axes = pyplot.subplots(figsize=(6, 3.2))
    axes.bxp([{**box(tally.scores[s["seat"]]), "label": f"seat {s['seat']}"}
              for s in seats])
    axes.set_ylabel(summary["score_unit"])
    plots["figures"].append((f"{summary['score_unit'].capitalize()} by seat", png(figure)))

    for name, figure_summary in summary["figures"].items():
        if figure_summary["kind"] != "count":
            continue
        counts = figure_summary["counts"]
        figure, axes = pyplot.subplots(figsize=(6, 0.5 + 0.35 * len(counts)))
        axes.barh(list(counts)[::-1], list(counts.values())[::-1], color="#8e6bb0")
        axes.set_xlabel("games")
        plots["figures"].append((name.replace("_", " ").capitalize(), png(figure)))
    return plots


STYLE = """body{font:15px/1.45 system-ui,sans-serif;max-width:52rem;margin:2rem auto;
padding:0 1rem;color:#222}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
td,th{border-bottom:1px solid #ddd;padding:.25rem .8rem;text-align:right}
th:first-child,td:first-child{text-align:left;white-space:nowrap}
figure{margin:1rem 0 2rem}
figcaption{font-weight:600;margin-bottom:.3rem}.note{color:#666}"""


def number(value) -> str:
    return f"{value:,.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else f"{value:,}"


def _page(summary: dict, tally: Tally) -> str:
    """The report: the verdict, who wins, how long, what decides a game, the cards, then
    the bots, the game's own figures and the rulings."""
    e = html.escape
    alone = summary["players"] == 1
    rows = "".join(
        f"<tr><td>seat {s['seat']}</td><td>{e(s['bot'])}</td><td>{s['share']:.1%}</td>"
        f"<td>{s['share_interval'][0]:.1%} – {s['share_interval'][1]:.1%}</td>"
        f"<td>{s['score'].get('mean', 0.0):.2f}</td></tr>" for s in summary["seats"])
    length = summary["length"]
    numbers = "".join(
        f"<tr><td>{e(name.replace('_', ' '))}</td>" + "".join(
            f"<td>{number(f[key])}</td>" for key in ("mean", "median", "p10", "p90", "total"))
        + "</tr>" for name, f in summary["figures"].items() if f["kind"] == "number")
    reader = ("your rules file reads it as listed below (its rulings)"
              if summary.get("rulings_from") == "rules file" else
              "cardkit reads it as listed below (the game's code applies these readings)")
    rulings = ("<h2>Rulings these figures rest on</h2>\n<p class=\"note\">Where the game's "
               f"text leaves a question open, {reader}; they move the figures above.</p>\n<ul>"
               + "".join(f"<li>{e(r)}</li>" for r in summary.get("rulings", ())) + "</ul>"
               ) if summary.get("rulings") else ""
    plots = _plots(summary, tally)

    def shown(where: str) -> str:
        return "".join(f'<figure><figcaption>{e(caption)}</figcaption>'
                       f'<img alt="{e(caption)}" src="data:image/png;base64,{data}"></figure>'
                       for caption, data in plots[where])

    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(summary['title'])}: {summary['games']:,} simulated games</title>
<style>{STYLE}</style></head><body>
<h1>{e(summary['title'])}: {summary['games']:,} simulated games</h1>
<p>{summary['players']} player{'s' * (summary['players'] != 1)}, {e(summary['deck'])},
seed {summary['seed']}, played in {summary['seconds']:.1f} s.</p>
{_bot_notes(summary)}
{_card_headline(summary.get("card_verdict"))}
{_headline(summary)}
<h2>Who wins</h2>
{shown("seats")}
<table><tr><th>seat</th><th>bot</th><th>won, of {'all' if alone else 'the decided'} games</th>
<th>95% interval</th><th>mean score ({e(summary['score_unit'])})</th></tr>
{rows}</table>
{_bots_table(summary)}
<p class="note">{'The share of the games won.' if alone else
'A share is of the games someone won, a tied win counting as a share of one; games nobody '
'won are left out, so that a fair share is one in the number of players.'} The interval is
where the true rate lies with 95% confidence (Wilson){'' if alone else '. A seat is named '
'above, and in orange, when its wins are off the fair share beyond chance with every seat '
'tested together (Holm): a game where no seat has an edge names one in at most 5% of runs'}.</p>
<h2>How long games last</h2>
<p>{number(length['mean'])} {summary['length_unit']} on average (median {length['median']},
10% of games under {length['p10']}, 10% over {length['p90']}; shortest {length['min']},
longest {length['max']}).{_rounds_and_moves(summary)}</p>
{shown("length")}
{_deciders_section(summary)}
{_cards_section(summary.get("cards"))}
<h2>The bots</h2>
<ul>{"".join(f"<li><b>{e(k['bot'])}</b>: {e(k['about'])}"
             + (" Played with " + e(", ".join(f"{n} {param_text(v)}" for n, v in k['params'].items()))
                + "." if k['params'] else "") + "</li>" for k in summary['bot_kinds'])}</ul>
<h2>The game's own figures, a game</h2>
<table><tr><th>figure</th><th>mean</th><th>median</th><th>10%</th><th>90%</th><th>total</th></tr>
{numbers}</table>
{shown("figures")}
{rulings}
</body></html>
"""


def _deciders_section(summary: dict) -> str:
    """What decides a game: each seat figure for winners against the others and by seat,
    and the game's own figures by who won."""
    e = html.escape
    seats = range(summary["players"])
    parts = []
    found = {name: f for name, f in (summary.get("what_winners_do") or {}).items()
             if f["winners"] is not None}
    if found:
        left_out = (" L" + e(score_left_out(summary["score_figures"]))[1:] + "."
                    if summary.get("score_figures") else "")
        def change(f):
            low, high = f["interval"]
            text = f"{f['change']:+.2f}"
            return (f'<td title="95%: {low:+.2f} to {high:+.2f}">'
                    + (f"<b>{text}</b>" if f["significant"] else text) + "</td>")
        rows = "".join(
            f"<tr><td>{e(name.replace('_', ' '))}</td><td>{f['winners']:.2f}</td>"
            f"<td>{f['others']:.2f}</td>{change(f)}"
            + "".join(f"<td>{v:.2f}</td>" for v in f["by_seat"]) + "</tr>"
            for name, f in found.items())
        parts.append(f"""<h3>What winners do</h3>
<table><tr><th>a seat, a game</th><th>winners</th><th>the others</th><th>difference</th>
{''.join(f'<th>seat {s}</th>' for s in seats)}</tr>
{rows}</table>
<p class="note">Each seat's own figures, averaged over the seats that won a game and over
those that did not, then per seat. A difference in bold has a 95% interval (on hovering)
that leaves out 0. It shows what goes with winning in these bots' games, not what causes
it.{left_out}</p>""")
    outcomes = summary.get("by_outcome") or {"games": {}, "figures": {}}
    if outcomes["figures"]:
        keys = list(outcomes["games"])
        rows = "".join(
            f"<tr><td>{e(name.replace('_', ' '))}</td>" + "".join(
                f"<td>{'' if values.get(key) is None else f'{values[key]:.2f}'}"
                "</td>" for key in keys) + "</tr>"
            for name, values in outcomes["figures"].items())
        parts.append(f"""<h3>The game's own figures by who won</h3>
<table><tr><th>a game</th>{''.join(
            f'<th>{e(key)}<br><span class="note">{outcomes["games"][key]:,} games</span></th>'
            for key in keys)}</tr>
{rows}</table>""")
    return "<h2>What decides a game</h2>\n" + "\n".join(parts) if parts else ""


def _rounds_and_moves(summary: dict) -> str:
    if summary["length_unit"] == "moves":
        return ""
    rounds = (f" That is {number(summary['rounds']['mean'])} rounds, every seat having a "
              "turn," if summary["rounds"] else "")
    return (f"{rounds} {number(summary['moves']['mean'])} moves counting each claim, answer "
            "and pass apart.")


def _cards_section(cards: list[dict] | None) -> str:
    """Every card: how often a seat drew, played and held it, and how such a seat fared
    against its usual rate; strongest first."""
    if not cards:
        return ""
    e = html.escape

    def cell(figure: dict) -> str:
        if not figure["judged"]:
            rare = f'too rare ({figure["seat_games"]})' if figure["seat_games"] else "never"
            return (f'<td class="note">{figure["a_game"]:.2f}</td><td class="note">{rare}'
                    '</td>')
        low, high = figure["interval"]
        mark = "<b>" if figure["significant"] else ""
        return (f'<td>{figure["a_game"]:.2f}</td><td title="95%: {low * 100:+.1f} to '
                f'{high * 100:+.1f}">{mark}{figure["change"] * 100:+.1f}'
                f'{"</b>" if mark else ""}</td>')

    rows = "".join(f"<tr><td>{e(card['card'])}</td>" + "".join(
        cell(card[event]) for event in ("drawn", "played", "held")) + "</tr>"
        for card in cards)
    return f"""<h2>Cards</h2>
<table><tr><th>card</th><th>drawn a game</th><th>its seat wins</th><th>played a game</th>
<th>its seat wins</th><th>held at the end</th><th>its seat wins</th></tr>
{rows}</table>
<p class="note">For each card: how often a seat drew it (it came into the seat's hand or
the cards in front of it), played it (it left the seat's hand) and held it at the end, a
game, and by how many percentage points more (or fewer) of its games such a seat won
than the other cards the seats of the same games did so with (each card a seat drew
taking that seat's result; the game is the unit, so seat order and a game's length
cancel out). In bold: the
figures the verdict at the top names, every figure tested together with the false
discovery rate held to 5% (Benjamini-Hochberg); the 95% interval of each is shown on
hovering. Strongest first. Under {TOO_RARE} seat-games a card is too rare to judge. These figures
show what goes with a card in these bots' games, not what it causes: a card that a
leading seat can afford, or that comes late to a winner, looks strong too.</p>"""


def _card_headline(verdict: dict | None) -> str:
    """The card verdict: the cards that stand out, a sentence each, or that none does."""
    if not verdict:
        return ""
    e = html.escape
    first, *cards = verdict_sentences(verdict)
    listed = ("<ul>" + "".join(f"<li>{e(card)}</li>" for card in cards) + "</ul>"
              if cards else "")
    return f"<p><strong>{e(first)}</strong></p>{listed}"


def _bot_notes(summary: dict) -> str:
    """What the bots make of every figure below: random play, bots that differ by seat."""
    return "\n".join(f"<p>{html.escape(note)}</p>" for note in
                     (summary.get("bots_note"), summary.get("random_play")) if note)


def _headline(summary: dict) -> str:
    """The sentences on the seats: is any seat (or bot) off its fair share, and how often
    nobody wins or the win is shared."""
    e = html.escape
    if summary["players"] == 1:
        seat = summary["seats"][0]
        low, high = seat["interval"]
        sentences = [f"The player wins {seat['win_rate']:.1%} of all games (95%: {low:.1%} "
                     f"to {high:.1%})."]
    else:
        sentences = [f"{s[0].upper()}{s[1:]}." for s in summary["edges"]] or [
            f"No seat is further from a fair share ({summary['fair_share']:.0%} of the games "
            f"someone won) than chance explains ({summary['players']} seats tested "
            "together)."]
        bots = summary.get("bot_shares") or ()
        sentences += [f"{b['edge'][0].upper()}{b['edge'][1:]}." for b in bots if b["edge"]]
        if bots and not any(b["edge"] for b in bots):
            sentences.append("No bot is further from a fair share than chance explains "
                             f"({len(bots)} bots tested together).")
        if summary["nobody_won"]:
            sentences.append(f"Nobody won {summary['nobody_won']:.1%} of all games; the "
                             f"shares are of the other {summary['decided']:,}, the decided "
                             "games.")
        if summary.get("tied"):
            sentences.append(f"Tied {summary['tied']:.1%} of all games: several winners "
                             "shared the win.")
    return "<p><strong>" + "</strong></p>\n<p><strong>".join(map(e, sentences)) + \
        "</strong></p>"


def _bots_table(summary: dict) -> str:
    """With the bots rotated over the seats: each bot's share of the decided games."""
    bots = summary.get("bot_shares")
    if not bots:
        return ""
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(b['bot'])}</td><td>{b['seats']}</td><td>{b['share']:.1%}</td>"
        f"<td>{b['interval'][0]:.1%} – {b['interval'][1]:.1%}</td>"
        f"<td>{b['fair_share']:.0%}</td></tr>" for b in bots)
    return f"""<table><tr><th>bot</th><th>seats a game</th><th>won, of the decided games</th>
<th>95% interval</th><th>fair share</th></tr>
{rows}</table>
<p class="note">The bots moved round the seats from game to game, so each bot played every
seat equally often: a bot's share is set against the seats it takes a game, every bot tested
together (Holm).</p>"""

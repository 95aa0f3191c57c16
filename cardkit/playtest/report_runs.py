"""The reports of runs set side by side: two decks compared (``--compare``), a sweep's
points (``--sweep``), a skill ladder's rungs (``--skill``) and a tuning run's suggestions
(``--tune``). Each is a folder, written
atomically as a run's report is (:mod:`.report`), whose page shares its look."""

from __future__ import annotations

import html
import json
from pathlib import Path

from .report import STYLE, load_pyplot, number, png, report_folder, write_games


def write_skill_report(folder: Path, ladder: dict) -> None:
    """Write the report of a skill ladder (``cardkit simulate --skill``): ``report.html``
    with its plot and table, and ``summary.json``; atomically, as :func:`write_report`."""
    with report_folder(folder) as temporary:
        (temporary / "summary.json").write_text(json.dumps(ladder, indent=2) + "\n",
                                                encoding="utf-8")
        (temporary / "report.html").write_text(_skill_page(ladder), encoding="utf-8")


def write_compare_report(folder: Path, comparison: dict, runs: dict) -> None:
    """Write the report of two decks compared (``cardkit simulate --compare``):
    ``summary.json`` with both runs and what changes, ``games.csv`` with a ``deck`` column
    (A or B), ``report.html``; atomically, as :func:`write_report`. ``runs`` maps "A" and
    "B" to (summary, Tally that kept the games' rows)."""
    with report_folder(folder) as temporary:
        saved = {"comparison": comparison, **{deck: summary for deck, (summary, _) in
                                              runs.items()}}
        (temporary / "summary.json").write_text(json.dumps(saved, indent=2) + "\n",
                                                encoding="utf-8")
        write_games(temporary / "games.csv", runs["A"][0],
                     ((deck, r) for deck, (_, tally) in runs.items() for r in tally.rows),
                     decks=True)
        (temporary / "report.html").write_text(_compare_page(comparison, runs),
                                               encoding="utf-8")


def write_sweep_report(folder: Path, sweep: dict) -> None:
    """Write the report of a sweep (``cardkit simulate --sweep``): ``summary.json`` with
    each point's summary, and ``report.html`` with the table and a plot; atomically."""
    with report_folder(folder) as temporary:
        (temporary / "summary.json").write_text(json.dumps(sweep, indent=2) + "\n",
                                                encoding="utf-8")
        (temporary / "report.html").write_text(_sweep_page(sweep), encoding="utf-8")


def _compare_page(comparison: dict, runs: dict) -> str:
    from .compare import pairing, shown_change

    e = html.escape
    first, second = runs["A"][0], runs["B"][0]

    def value(row, x):
        return f"{x:.1%}" if row["unit"] == "share" else number(x)

    rows = "".join(
        f"<tr><td>{e(row['what'])}</td><td>{value(row, row['a'])}</td>"
        f"<td>{value(row, row['b'])}</td><td>{e(shown_change(row))}</td>"
        f"<td>{'beyond chance' if row['significant'] else ''}</td></tr>"
        for row in comparison["rows"])
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(first['title'])}: two decks compared</title>
<style>{STYLE}</style></head><body>
<h1>{e(first['title'])}: two decks compared</h1>
<p>A: {e(first['deck_name'])}; B: {e(second['deck_name'])}. {first['games']:,} games each,
{first['players']} player{'s' * (first['players'] != 1)}, the same seeds (from
{first['seed']}) and bots ({e(', '.join(first['bots']))}).{
    f" B plays its own rules ({e(comparison['variant'])}): a rule variant."
    if comparison.get("variant") else ""}</p>
<p><strong>{e(comparison['verdict'])}</strong></p>
<table><tr><th>what</th><th>A</th><th>B</th><th>B less A</th><th></th></tr>
{rows}</table>
<p class="note">A seat's share is of the games someone won; a share moves by percentage
points. Each change has a 95% interval from the games paired by seed (game <i>i</i> of A
with game <i>i</i> of B, which start from the same seed): what a pair shares cancels out.
{e(pairing(comparison))} When the decks deal the same games, the intervals are narrow
and a real change is found with fewer games; when they deal differently (another number
of cards: the same seed shuffles them to other deals), they are about as wide as two
separate runs'.
A change whose interval leaves out 0 is marked: chance is unlikely to explain it. At 95%,
about one unchanged figure in twenty still looks changed, so read a lone borderline mark
with care; the verdict tests every figure together. These figures show what goes with
the change in these bots' games, not why.</p>
<figure><figcaption>Seat shares, A and B, with 95% intervals</figcaption>
<img alt="Seat shares, A and B" src="data:image/png;base64,{_compare_plot(runs)}"></figure>
</body></html>
"""


def _sweep_page(sweep: dict) -> str:
    e = html.escape
    first = sweep["points"][0]["summary"]
    what = sweep["sweep"].rsplit("=", 1)[0]
    seats = max(len(point["summary"]["seats"]) for point in sweep["points"])
    rows = "".join(  # a seat a point does not have (a sweep of players): an empty cell
        f"<tr><td>{point['value']:g}</td>" + "".join(
            f"<td>{s['share']:.1%}</td>" for s in point["summary"]["seats"])
        + "<td></td>" * (seats - len(point["summary"]["seats"]))
        + f"<td>{point['summary']['nobody_won']:.1%}</td>"
        f"<td>{number(point['summary']['length']['mean'])}</td></tr>"
        for point in sweep["points"])
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(first['title'])}: a sweep of {e(what)}</title>
<style>{STYLE}</style></head><body>
<h1>{e(first['title'])}: a sweep of {e(what)}</h1>
<p>{first['games']:,} games at each value, seed {first['seed']}. <strong>The fairest:
{e(what)} = {sweep['fairest']:g}.</strong></p>
<table><tr><th>{e(what)}</th>{''.join(f'<th>seat {s}</th>' for s in range(seats))}
<th>nobody won, of all games</th><th>{e(first['length_unit'])}</th></tr>
{rows}</table>
<p class="note">A seat's share is of the games someone won (the decided games); how often
nobody won is of all games. Each value is a full run with the same seeds and bots.</p>
<figure><figcaption>Each seat's share at each value</figcaption>
<img alt="Each seat's share at each value" src="data:image/png;base64,{_sweep_plot(sweep)}">
</figure>
</body></html>
"""


def _sweep_plot(sweep: dict) -> str:
    pyplot = load_pyplot()

    figure, axes = pyplot.subplots(figsize=(6, 3.2))
    seats = max(len(point["summary"]["seats"]) for point in sweep["points"])
    for seat in range(seats):
        found = [(point["value"], point["summary"]["seats"][seat]) for point in sweep["points"]
                 if seat < len(point["summary"]["seats"])]
        axes.plot([v for v, _ in found], [s["share"] * 100 for _, s in found], marker="o",
                  label=f"seat {seat}")
    axes.plot([p["value"] for p in sweep["points"]],
              [p["summary"]["fair_share"] * 100 for p in sweep["points"]], color="#c0392b",
              linestyle="--", linewidth=1, label="fair share")
    axes.set_xlabel(sweep["sweep"].rsplit("=", 1)[0])
    if all(float(point["value"]).is_integer() for point in sweep["points"]):
        from matplotlib.ticker import MaxNLocator

        axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # no 2.5 players
    axes.set_ylabel("games won, of those\nsomeone won (%)")
    axes.legend(fontsize=7, ncol=2)
    return png(figure)


def _compare_plot(runs: dict) -> str:
    pyplot = load_pyplot()

    figure, axes = pyplot.subplots(figsize=(6, 3.2))
    for offset, (deck, (summary, _)) in zip((-0.2, 0.2), runs.items()):
        seats = summary["seats"]
        rates = [s["share"] * 100 for s in seats]
        axes.bar([s["seat"] + offset for s in seats], rates, width=0.4, label=deck,
                 yerr=[[r - s["share_interval"][0] * 100 for r, s in zip(rates, seats)],
                       [s["share_interval"][1] * 100 - r for r, s in zip(rates, seats)]],
                 capsize=4, color="#4a7ab5" if deck == "A" else "#d08a2e")
    players = runs["A"][0]["players"]
    if players > 1:
        axes.axhline(100 / players, color="#c0392b", linestyle="--", linewidth=1)
    axes.set_xticks(range(players), [f"seat {s}" for s in range(players)])
    axes.set_ylabel("games won (%)" if players == 1 else "games won, of those\nsomeone won (%)")
    axes.legend(fontsize=8)
    return png(figure)


def _skill_plot(ladder: dict) -> str:
    """The ladder as a base64 PNG: each rung's share of the wins, with its interval."""
    pyplot = load_pyplot()

    rungs = ladder["rungs"]
    figure, axes = pyplot.subplots(figsize=(6.5, 3.4))
    rates = [rung["won"] * 100 for rung in rungs]
    errors = [[r - rung["interval"][0] * 100 for r, rung in zip(rates, rungs)],
              [rung["interval"][1] * 100 - r for r, rung in zip(rates, rungs)]]
    names = [rung["bot"].replace("search:iterations=", "search ").split(",")[0]
             for rung in rungs]
    axes.errorbar(names, rates, yerr=errors, marker="o", capsize=5, color="#4a7ab5")
    if ladder["players"] > 1:
        fair = 100 / ladder["players"]
        axes.axhline(fair, color="#c0392b", linestyle="--", linewidth=1,
                     label=f"chance alone ({fair:.0f}%)")
        axes.legend(loc="upper left", fontsize=8)
        axes.set_ylabel("won against the rung below,\nof the decided games (%)")
    else:
        axes.set_ylabel("games won (%)")
    axes.set_ylim(0, 100)
    axes.tick_params(axis="x", labelsize=8)
    data = png(figure)
    return data


def _skill_page(ladder: dict) -> str:
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(rung['bot'])}</td><td>{e(rung['against'] or '-')}</td>"
        f"<td>{rung['won']:.1%}</td><td>{rung['interval'][0]:.1%} – "
        f"{rung['interval'][1]:.1%}</td><td>{rung['games']:,}</td></tr>"
        for rung in ladder["rungs"])
    caption = "How the share of the wins climbs with skill"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(ladder['game'])}: skill ladder</title>
<style>{STYLE}</style></head><body>
<h1>{e(ladder['game'])}: does skill matter?</h1>
<p><strong>{e(ladder['verdict'])}</strong></p>
<p>{ladder['players']} player{'s' * (ladder['players'] != 1)}, seed {ladder['seed']}. Each
rung plays every seat in turn against the rung below it in the other seats.</p>
<p>The bots, weakest first:</p>
<ul>{"".join(f"<li>{e(line)}</li>" for line in ladder.get("bots", ()))}</ul>
<figure><figcaption>{caption}</figcaption>
<img alt="{caption}" src="data:image/png;base64,{_skill_plot(ladder)}"></figure>
<table><tr><th>bot</th><th>against</th><th>won, of {'all' if ladder['players'] == 1 else
'the decided'} games</th><th>95% interval</th><th>games</th></tr>
{rows}</table>
</body></html>
"""


def write_tune_report(folder: Path, answer: dict) -> None:
    """Write the report of a tuning run (``cardkit simulate --tune``): ``summary.json``
    with the answer under ``tune``, and ``report.html`` with the suggestions first and a
    plot of the points searched; atomically."""
    with report_folder(folder) as temporary:
        (temporary / "summary.json").write_text(json.dumps({"tune": answer}, indent=2) + "\n",
                                                encoding="utf-8")
        (temporary / "report.html").write_text(_tune_page(answer), encoding="utf-8")


def _tune_page(answer: dict) -> str:
    from .tune import step_said

    e = html.escape

    def figures(found: dict) -> str:
        return "".join(f"<li>{e(f['said'])}: {'met' if f['met'] else '<b>missed</b>'}</li>"
                       for f in found.values())

    suggestions = "".join(
        f"<h2>Suggestion {n}: {e(', '.join(s['changes']))}</h2>"
        f"<p>{'Meets every target' if s['within'] else _outside(s['distance'])}"
        f" in {answer['fresh_games']:,} fresh games.</p><ul>{figures(s['figures'])}</ul>"
        "<p>One step back, each changed value moved back alone:</p><ul>" + "".join(
            f"<li>{e(step_said(step))}</li>" for step in s["one_step"]) + "</ul>"
        for n, s in enumerate(answer["suggestions"], 1))
    today = ", ".join(f"{k} {v:g}" if v is not None else f"{k} mixed"
                      for k, v in answer["today"]["values"].items())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(answer['game'])}: balance suggestions</title>
<style>{STYLE}</style></head><body>
<h1>{e(answer['game'])}: balance suggestions</h1>
<p>Targets: {e('; '.join(t['said'] for t in answer['targets']))}.</p>
{suggestions or '<p>No setting the search tried changes anything from today.</p>'}
<h2>Today ({e(today)})</h2><ul>{figures(answer['today']['figures'])}</ul>
<p class="note">Each setting's figures and 95% intervals are from {answer['fresh_games']:,}
fresh games (seed {answer['seed']}), which the search never played. The search tried
{len(answer['points'])} settings ({answer['trials']} points asked of optuna's TPE
sampler, {answer['games_searched']:,} games): every point {answer['rungs'][0]} games, the
best third of a batch {answer['rungs'][1]} more, the best third of those
{answer['rungs'][2]} more. Bots: {e(', '.join(answer['bots']))}.</p>
<figure><figcaption>Distance from the targets of each setting searched, against each
value varied (at the far end of its interval; larger dots: more games)</figcaption>
<img alt="Distance from the targets against each varied value"
src="data:image/png;base64,{_tune_plot(answer)}"></figure>
</body></html>
"""


def _outside(distance: float) -> str:
    return f"{distance:.1f} outside the targets"


def _tune_plot(answer: dict) -> str:
    """A panel a varied value: each point's distance from the targets against it."""
    pyplot = load_pyplot()

    names = list(answer["today"]["values"])
    figure, panels = pyplot.subplots(1, len(names), figsize=(3.2 * len(names), 3),
                                     squeeze=False, sharey=True)
    best = answer["suggestions"][0]["values"] if answer["suggestions"] else {}
    for axes, name in zip(panels[0], names):
        points = [p for p in answer["points"] if p["values"][name] is not None]
        axes.scatter([p["values"][name] for p in points], [p["distance"] for p in points],
                     s=[8 + p["games"] / 10 for p in points], alpha=0.5, color="#4a7ab5")
        if answer["today"]["values"][name] is not None:
            axes.axvline(answer["today"]["values"][name], color="#888", linestyle=":",
                         linewidth=1, label="today")
        if name in best:
            axes.axvline(best[name], color="#c0392b", linestyle="--", linewidth=1,
                         label="suggestion 1")
        axes.set_xlabel(name)
        axes.legend(fontsize=7)
    panels[0][0].set_ylabel("distance from the targets")
    return png(figure)

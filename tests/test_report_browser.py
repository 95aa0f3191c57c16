"""The simulation report as a designer sees it: opened in headless Chromium (issue 29)."""

from __future__ import annotations

from click.testing import CliRunner

from cardkit.cli import main


def test_the_report_reads_in_a_browser(tmp_path, browser_page):
    outcome = CliRunner().invoke(main, ["simulate", "bullet", "--games", "400", "--workers",
                                        "1", "--bots", "heuristic", "--bots", "random",
                                        "--bots", "random", "--bots", "random",
                                        "--report", str(tmp_path / "r")])
    assert outcome.exit_code == 0, outcome.output
    page = browser_page
    page.goto((tmp_path / "r" / "report.html").as_uri())
    assert page.title() == "Bluff the Bullet: 400 simulated games"
    # the verdict first, then the sections in the order a designer reads them
    headings = page.eval_on_selector_all("h2", "hs => hs.map(h => h.textContent)")
    assert headings[:4] == ["Who wins", "How long games last", "What decides a game", "Cards"]
    # what the bots make of the figures, the card verdict, then the seats'
    note, cards, seats = page.eval_on_selector_all(
        "body > p", "ps => ps.map(p => p.textContent)")[1:4]
    assert note.startswith("The seats have different bots (seat 0 heuristic, seat 1 random")
    assert "beyond chance" in cards and "(72 card figures tested together" in cards
    assert seats.startswith("Seat 0 (heuristic) wins") and "more often than a fair share" in seats
    # every plot decoded and drawn, none wider than the page
    sizes = page.eval_on_selector_all(
        "img", "imgs => imgs.map(i => [i.naturalWidth, i.getBoundingClientRect().right])")
    assert len(sizes) >= 4 and all(width > 300 for width, _ in sizes)
    assert all(right <= 1100 for _, right in sizes)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1100
    # nothing is fetched from anywhere: the page is one offline file
    assert page.evaluate("performance.getEntriesByType('resource').length") == 0
    # the winners' table reads what the games said: seat 0 (the heuristic) wins most
    winners = page.evaluate("[...document.querySelector('h3 + table').rows]"
                            ".map(row => [...row.cells].map(cell => cell.textContent))")
    assert winners[0][:4] == ["a seat, a game", "winners", "the others", "difference"]
    assert winners[1][0] == "cards played" and len(winners[1]) == 4 + 4

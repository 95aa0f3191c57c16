"""One deck in several languages (issue 31): translations beside the originals, layouts'
words from the strings, one output per language, and each language checked on its own
(translations missing, glyphs the fonts lack), read back from the built PDFs."""

from __future__ import annotations

import csv
import io
import re
import shutil
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from cardkit.common.errors import InputError
from cardkit.deck.languages import in_language
from cardkit.deck.loader import load_deck
from test_stamps import run

ROOT = Path(__file__).resolve().parent.parent
# Polish, in the example's font (Gentium Basic, which has no 'ą' or 'ę')
POLISH = {"Silk Bolt": ("Bela jedwabiu", "Warta **2 {coin}** więcej na koniec targu."),
          "Festival": ("Festyn", "Towary kosztują w tej rundzie 1 {coin} mniej.")}


def lantern(tmp_path: Path) -> Path:
    deck = tmp_path / "lantern-market"
    shutil.copytree(ROOT / "examples" / "lantern-market", deck)
    return deck


def rows_of(deck: Path) -> list[dict]:
    with (deck / "cards.csv").open(newline="", encoding="utf-8") as rows:
        return list(csv.DictReader(rows))


def write_rows(deck: Path, rows: list[dict]) -> None:
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (deck / "cards.csv").write_text(text.getvalue(), encoding="utf-8")


def texts(pdf: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(pdf).pages]


def test_every_language_is_built_into_its_own_file(tmp_path):
    deck = lantern(tmp_path)
    output = run("build", deck, "--lang", "all", "--out", tmp_path / "out")
    folder = tmp_path / "out" / "lantern-market"
    assert "lantern-market-en-pnp-a4.pdf" in output and "lantern-market-de-pnp-a4.pdf" in output
    english = texts(folder / "lantern-market-en-pnp-a4.pdf")
    german = texts(folder / "lantern-market-de-pnp-a4.pdf")
    # fronts: each card's name and words, in its language; the back's words from strings
    assert english[0].count("Silk Bolt") == 3 and "Seidenballen" not in english[0]
    assert german[0].count("Seidenballen") == 3 and "Silk Bolt" not in german[0]
    assert "Bringt 2" in german[0] and "Markt schließt." in german[0]
    assert german[0].count("Ware") == 9  # the kind of every good on the sheet, translated
    assert german[1].count("Laternenmarkt") == 18 and "Lantern Market\n" not in german[1]
    assert english[1].count("Lantern Market") >= 18
    # no --lang: the deck as written, named as before
    run("build", deck, "--out", tmp_path / "plain")
    assert [p.name for p in (tmp_path / "plain" / "lantern-market").iterdir()] == \
        ["lantern-market-pnp-a4.pdf"]


def test_a_missing_translation_is_named_with_its_card(tmp_path):
    deck = lantern(tmp_path)
    rows = rows_of(deck)
    rows[3]["text_de"] = ""  # Golden Lamp, the spreadsheet's row 5
    write_rows(deck, rows)
    output = run("build", deck, "--lang", "all", "--out", tmp_path / "out", code=2)
    problems = [line for line in output.splitlines() if line.startswith(str(deck))]
    assert len(problems) == 1 and output.rstrip().endswith("nothing was written")
    assert "cards.csv:5" in problems[0] and "has no 'text_de', the 'de' text of 'text'" \
        in problems[0]
    assert not (tmp_path / "out" / "lantern-market").exists()
    run("build", deck, "--out", tmp_path / "out")  # English needs no German
    # a deck that lets the original stand in: a warning, and the English words printed
    deck_yaml = deck / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text().replace(
        "languages: [en, de]", "languages: [en, de]\nmissing_translation: original"))
    output = run("build", deck, "--lang", "de", "--out", tmp_path / "out")
    assert "warning: " in output and "the original is printed" in output
    german = texts(tmp_path / "out" / "lantern-market" / "lantern-market-de-pnp-a4.pdf")
    assert "Only one Golden Lamp" in "".join(german) and "Goldene Lampe" in "".join(german)


def test_a_font_without_a_language_s_letters_is_named(tmp_path):
    deck = lantern(tmp_path)
    deck_yaml = deck / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text()
                         .replace("languages: [en, de]", "languages: [en, de, pl]")
                         .replace("de: Laternenmarkt}", "de: Laternenmarkt, pl: Targ latarni}"))
    rows = rows_of(deck)
    for row in rows:
        row["name_pl"], row["text_pl"] = POLISH.get(row["name"], (row["name"], row["text"]))
        row["kind_pl"] = row["kind"]
    write_rows(deck, rows)
    german = run("validate", deck, "--lang", "de", "--strict")
    assert german.strip() == "lantern-market (de): 21 cards, 8 distinct, OK"
    polish = run("build", deck, "--lang", "pl", "--out", tmp_path / "out")
    glyphs = [line for line in polish.splitlines() if "has no glyph" in line]
    assert glyphs and all("font GenBasR has no glyph" in line for line in glyphs)
    assert any("'ę'" in line for line in glyphs) and any("'ą'" in line for line in glyphs)
    strict = run("validate", deck, "--lang", "all", "--strict", code=2)
    # the languages without problems are named below them, not said OK above them
    assert strict.rstrip().endswith(f"problems in {deck}; the en, de cards are OK")
    assert "21 cards, 8 distinct, OK" not in strict
    assert "has no glyph for 'ę'" in strict and "(an error with --strict)" in strict
    # every language is made but the one whose cards fail, and the message says so
    made = run("build", deck, "--lang", "all", "--strict", "--out", tmp_path / "all", code=2)
    assert made.rstrip().endswith("only the en, de outputs were written")
    assert sorted(p.name for p in (tmp_path / "all" / "lantern-market").iterdir()) == [
        "lantern-market-de-pnp-a4.pdf", "lantern-market-en-pnp-a4.pdf"]


def test_a_language_the_deck_does_not_have_is_refused(tmp_path):
    deck = lantern(tmp_path)
    output = run("build", deck, "--lang", "fr", "--out", tmp_path / "out", code=2)
    assert "--lang: the deck is not in 'fr'" in output and "en, de" in output
    output = run("build", "blofa", "--lang", "de", "--out", tmp_path / "out", code=2)
    assert "add 'languages: [en, de]'" in output


def test_strings_must_be_known_and_given_in_every_language(tmp_path):
    deck = lantern(tmp_path)
    back = deck / "layouts" / "market-back.yaml"
    back.write_text(back.read_text().replace("{strings.title}", "{strings.titel}", 1))
    output = run("validate", deck, code=2)
    assert "'{strings.titel}'" in output and "strings.title" in output
    shutil.copy(ROOT / "examples" / "lantern-market" / "layouts" / "market-back.yaml", back)
    deck_yaml = deck / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text().replace(", de: Laternenmarkt", ""))
    output = run("build", deck, "--lang", "de", "--out", tmp_path / "out", code=2)
    assert "string 'title' has no 'de' text" in output
    deck_yaml.write_text(deck_yaml.read_text().replace("{en: Lantern Market}",
                                                       "{en: Lantern Market, fr: Marché}"))
    output = run("validate", deck, code=2)
    assert "'fr', which is not one of the deck's languages" in output


# A property: whichever translations are left out, exactly those are reported
@settings(max_examples=25, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 7), st.sampled_from(["name_de", "text_de"]))))
def test_exactly_the_translations_left_out_are_reported(tmp_path_factory, left_out):
    deck = lantern(tmp_path_factory.mktemp("lang"))
    rows = rows_of(deck)
    for row, key in left_out:
        rows[row][key] = ""
    write_rows(deck, rows)
    loaded = load_deck(deck / "deck.yaml")
    try:
        german = in_language(loaded, "de", each_card=True)
        reported = set()
    except InputError as error:
        german = None
        reported = {(problem.where.line - 2, key) for problem in error.problems
                     for key in re.findall(r"'(\w+_de)'", problem.what)}
    assert reported == left_out
    if german is not None:
        assert [card.fields["name"] for card in german.cards] == \
            [row["name_de"] for row in rows]


def test_the_starter_deck_in_a_second_language_as_its_readme_says(tmp_path):
    run("new", tmp_path / "my-game")
    deck = tmp_path / "my-game"
    readme = (deck / "README.md").read_text()
    assert "languages: [en, de]" in readme and "`name_de` and `text_de`" in readme
    deck_yaml = deck / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text().replace("cards:\n", "languages: [en, de]\ncards:\n"))
    rows = rows_of(deck)
    for row in rows:
        row["name_de"], row["text_de"] = f"{row['name']}-de", f"Text von {row['name']}"
    rows[-1]["text_de"] = ""  # Truce: not translated yet
    write_rows(deck, rows)
    output = run("build", deck, "--lang", "all", "--out", tmp_path / "out", code=2)
    assert "card 8 (name Truce, kind event) has no 'text_de'" in output
    rows[-1]["text_de"] = "Niemand kämpft bis zu deinem nächsten Zug."
    write_rows(deck, rows)
    run("build", deck, "--lang", "all", "--out", tmp_path / "out")
    german = texts(tmp_path / "out" / "my-game" / "my-game-de-pnp-a4.pdf")
    assert "Scout-de" in german[0] and "Text von Scout" in german[0]
    assert "Scout-de" not in texts(tmp_path / "out" / "my-game" / "my-game-en-pnp-a4.pdf")[0]


def test_validate_checks_every_language_and_advises_only_what_is_not_set(tmp_path):
    """Without --lang, validate checks the deck in each of its languages (it checked the
    original only, and said OK to a German missing a text); the fix of a missing
    translation offers 'missing_translation: original' only where it is not set."""
    deck = lantern(tmp_path)
    rows = rows_of(deck)
    rows[3]["text_de"] = ""  # Golden Lamp, the spreadsheet's row 5
    write_rows(deck, rows)
    output = run("validate", deck, code=2)
    problem = f"{deck}/cards.csv:5: card 4 (name Golden Lamp, kind good) has no 'text_de', " \
        "the 'de' text of 'text'"
    fix = "write it in 'text_de' beside 'text'"
    assert output.splitlines()[0] == f"{problem}; {fix}, or let the original print with " \
        "'missing_translation: original'"
    deck_yaml = deck / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text().replace(
        "languages: [en, de]", "languages: [en, de]\nmissing_translation: original"))
    output = run("validate", deck)
    assert f"warning: {problem}; the original is printed; {fix}" in output.splitlines()
    assert "lantern-market (en): 21 cards, 8 distinct, OK" in output
    assert "lantern-market (de): 21 cards, 8 distinct, OK (1 warning)" in output


def test_a_missing_translation_is_said_once_a_language_outside_validate(tmp_path):
    """Three cards without German text: validate lists each card (one message a card,
    whichever of its fields lack one); build and the other commands say it once for the
    language, naming the first cards, where each card's message was repeated on every
    command (20 lines for 10 cards)."""
    deck = lantern(tmp_path)
    rows = rows_of(deck)
    for row in rows[1:4]:  # Spice Jar, Lantern Oil, Golden Lamp: rows 3 to 5
        row["text_de"] = ""
    rows[1]["name_de"] = ""
    write_rows(deck, rows)
    fix = ("write their 'name_de' and 'text_de' (validate lists each card), or let the "
           "original print with 'missing_translation: original'")
    output = run("build", deck, "--lang", "de", "--out", tmp_path / "out", code=2)
    assert output.splitlines() == [
        f"{deck}/cards.csv:3: 3 cards have no 'de' text of 'name' or 'text': Spice Jar, "
        f"Lantern Oil and Golden Lamp; {fix}", f"cardkit: 1 problem in {deck}; nothing was "
        "written"]
    output = run("validate", deck, "--lang", "de", code=2)
    assert output.splitlines()[:3] == [
        f"{deck}/cards.csv:3: card 2 (name Spice Jar, kind good) has no 'name_de' or "
        "'text_de', the 'de' texts of 'name' and 'text'; write them in 'name_de' and "
        "'text_de' beside 'name' and 'text', or let the original print with "
        "'missing_translation: original'",
        f"{deck}/cards.csv:4: card 3 (name Lantern Oil, kind good) has no 'text_de', the "
        "'de' text of 'text'; write it in 'text_de' beside 'text', or let the original "
        "print with 'missing_translation: original'",
        f"{deck}/cards.csv:5: card 4 (name Golden Lamp, kind good) has no 'text_de', the "
        "'de' text of 'text'; write it in 'text_de' beside 'text', or let the original "
        "print with 'missing_translation: original'"]
    deck_yaml = deck / "deck.yaml"
    deck_yaml.write_text(deck_yaml.read_text().replace(
        "languages: [en, de]", "languages: [en, de]\nmissing_translation: original"))
    output = run("build", deck, "--lang", "all", "--out", tmp_path / "out")
    assert [line for line in output.splitlines() if line.startswith("warning")] == [
        f"warning: {deck}/cards.csv:3: 3 cards have no 'de' text of 'name' or 'text': Spice "
        "Jar, Lantern Oil and Golden Lamp; the original is printed; write their 'name_de' "
        "and 'text_de' (validate lists each card)"]
    output = run("validate", deck)
    assert len([line for line in output.splitlines() if "the original is printed" in line]) == 3
    assert "lantern-market (de): 21 cards, 8 distinct, OK (3 warnings)" in output


def test_validate_says_no_language_is_ok_when_another_has_a_problem(tmp_path):
    """A text that fits in German but not in English: validate printed 'lantern-market
    (de): ... OK' above the English problem and exited 2."""
    deck = lantern(tmp_path)
    rows = rows_of(deck)
    rows[0]["text"] = " ".join(["Worth more when the market closes."] * 12)
    write_rows(deck, rows)
    output = run("validate", deck, "--strict", code=2)
    assert output.startswith(f"{deck}/cards.csv:2: ") and "does not fit" in output
    assert output.splitlines()[-1] == f"cardkit: 1 problem in {deck}; the de cards are OK"
    assert "(de): 21 cards" not in output

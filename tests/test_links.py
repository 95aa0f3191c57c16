"""Cards from a sheet's link (issue 45), against a local HTTPS server only: 127.0.0.1, a
certificate of a test authority (trustme), let through by the test-only
``links.TEST_ONLY_LOOPBACK_CA``. No test reaches the internet: the refused addresses are
refused before any connection is made."""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import io
import json
import os
import signal
import socket
import stat
import ssl
import threading
import time
from pathlib import Path

import pytest
import trustme
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.deck.loader import load_deck
from cardkit.pipeline import watch as watching
from cardkit.sources import links
from conftest import PATIENCE, id_deck

CSV = "colour,count\n#102030,1\n#405060,2\n"


@pytest.fixture(scope="module")
def authority(tmp_path_factory):
    """A test certificate authority (its PEM file) and a server certificate for 127.0.0.1."""
    ca = trustme.CA()
    pem = tmp_path_factory.mktemp("ca") / "ca.pem"
    ca.cert_pem.write_to_path(str(pem))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "docs.google.com").configure_cert(context)
    return str(pem), context


class Served:
    """What the test server answers: path -> (status, headers, body), and the requests
    it was sent (path, headers)."""

    def __init__(self):
        self.routes: dict[str, tuple[int, dict, bytes]] = {}
        self.requests: list[tuple[str, dict]] = []
        self.stall = 0.0

    def handler(self):
        served = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                served.requests.append((self.path, dict(self.headers)))
                time.sleep(served.stall)
                status, headers, body = served.routes.get(self.path, (404, {}, b"no"))
                etag = headers.get("ETag")
                if etag and self.headers.get("If-None-Match") == etag:
                    status, body = 304, b""
                self.send_response(status)
                for key, value in headers.items():
                    if key != "No-Length":
                        self.send_header(key, value)
                if "No-Length" not in headers:  # else the body ends when the connection does
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass
        return Handler


@pytest.fixture
def server(authority, monkeypatch):
    """A served sheet at https://127.0.0.1:PORT/cards.csv, the test CA trusted."""
    pem, context = authority
    served = Served()
    served.routes["/cards.csv"] = (200, {"Content-Type": "text/csv", "ETag": '"1"'},
                                   CSV.encode())
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), served.handler())
    httpd.daemon_threads = True
    httpd.handle_error = lambda request, address: None  # a client that gave up early
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    served.url = f"https://127.0.0.1:{httpd.server_address[1]}"
    served.httpd = httpd
    monkeypatch.setattr(links, "TEST_ONLY_LOOPBACK_CA", pem)
    monkeypatch.setattr(links, "NETWORK", links.Network())
    yield served
    httpd.shutdown()
    httpd.server_close()


def linked_deck(folder: Path, link: str, extra: str = "") -> Path:
    return id_deck(folder, 0, cards=f'  - {{from: "{link}"{extra}}}')


def build(deck: Path, *options: str):
    return CliRunner().invoke(main, ["build", str(deck), "--out",
                                     str(deck.parent.parent / "out"), *options])


def test_a_deck_builds_from_a_served_sheet_and_keeps_a_copy(server, tmp_path):
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    result = build(deck, "--allow-network")
    assert result.exit_code == 0, result.output
    assert "ids: 3 cards" in result.output
    kept = list((tmp_path / "deck" / ".cardkit-cache").glob("*.csv"))
    assert [path.read_text() for path in kept] == [CSV]
    assert server.requests[0][1].get("User-Agent", "").startswith("python-httpx")


def test_without_the_users_leave_the_build_exits_2_saying_how(server, tmp_path):
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    result = build(deck)
    assert result.exit_code == 2
    assert "the network is not allowed" in result.output
    assert "--allow-network" in result.output
    assert server.requests == []


def test_offline_a_build_reads_the_copy_and_says_how_old_it_is(server, tmp_path,
                                                             monkeypatch):
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert build(deck, "--allow-network").exit_code == 0
    server.httpd.shutdown()
    server.httpd.server_close()
    pdf = tmp_path / "out" / "ids" / "ids-pnp-a4.pdf"
    first = pdf.read_bytes()
    offline = build(deck, "--allow-network")  # the server is gone
    assert offline.exit_code == 0, offline.output
    assert "cannot fetch it" in offline.output
    assert "read the copy fetched less than a minute ago" in offline.output
    assert pdf.read_bytes() == first  # the same bytes from the copy
    unallowed = build(deck)
    assert unallowed.exit_code == 0, unallowed.output
    assert "deck.yaml:10:12: read the copy fetched less than a minute ago (" in \
        unallowed.output
    assert " UTC); --allow-network fetches it again" in unallowed.output
    assert pdf.read_bytes() == first
    refreshed = build(deck, "--refresh")  # must fetch: no copy stands in
    assert refreshed.exit_code == 2
    assert "cannot fetch it" in refreshed.output


def test_the_copy_is_asked_with_its_etag_and_refresh_fetches_again(server, tmp_path):
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    assert build(deck, "--allow-network").exit_code == 0
    # the server changes the sheet but not its ETag: an ordinary build keeps the copy
    server.routes["/cards.csv"] = (200, {"ETag": '"1"'}, b"colour\n#102030\n")
    kept = build(deck, "--allow-network")
    assert "ids: 3 cards" in kept.output
    assert server.requests[1][1]["If-None-Match"] == '"1"'
    refreshed = build(deck, "--refresh")
    assert "ids: 1 card," in refreshed.output
    assert "If-None-Match" not in server.requests[2][1]


def test_a_cells_mistake_names_the_link_and_the_cell(server, tmp_path):
    server.routes["/cards.csv"] = (200, {}, b"colour,count\n#102030,1\n#405060,lots\n")
    link = server.url + "/cards.csv"
    deck = linked_deck(tmp_path / "deck", link)
    result = build(deck, "--allow-network")
    assert result.exit_code == 2
    assert result.output.startswith(f"{link} B3: column 'count': 'lots' is not a whole "
                                    "number; write a number such as 4\n")
    offline = build(deck)  # the problem is in the copy: the message says which one
    assert offline.output.startswith(f"warning: {deck}:10:12: read the copy fetched ")
    assert f"{link} B3: column 'count'" in offline.output


def test_a_workbooks_tab_is_chosen_by_its_title_and_named_in_messages(server, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.title = "Other"
    sheet = book.create_sheet("Cards")
    for row in (["count", "colur"], [1, "#102030"]):
        sheet.append(row)
    body = io.BytesIO()
    book.save(body)
    server.routes["/book.xlsx"] = (200, {}, body.getvalue())
    link = server.url + "/book.xlsx"
    result = build(linked_deck(tmp_path / "deck", link, ", sheet: Cards"),
                   "--allow-network")
    assert result.exit_code == 2
    assert f"{link} Cards!B1: unknown column 'colur'; did you mean 'colour'?" in \
        result.output


@pytest.mark.parametrize("link, why", [
    ("http://127.0.0.1:9/cards.csv", "is not an https link"),
    ("https://10.1.2.3/cards.csv", "10.1.2.3, a local network"),
    ("https://192.168.0.1/cards.csv", "a local network"),
    ("https://169.254.169.254/latest", "a link-local address"),
    ("https://[::1]/cards.csv", "this computer"),
    ("https://[::ffff:127.0.0.2]/cards.csv", "this computer"),
    ("https://user:secret@example.org/cards.csv", "a user name or password"),
])
def test_unsafe_links_are_refused_before_any_connection(server, link, why):
    with pytest.raises(links.LinkError, match=why.replace("[", r"\[")):
        links.fetch(link)


def test_loopback_and_names_resolving_to_it_are_refused_without_the_test_setting(
        server, monkeypatch):
    monkeypatch.setattr(links, "TEST_ONLY_LOOPBACK_CA", None)
    for link in (server.url + "/cards.csv", server.url.replace("127.0.0.1", "localhost")):
        with pytest.raises(links.LinkError, match="this computer"):
            links.fetch(link)
    assert server.requests == []


@pytest.mark.parametrize("target, why", [
    ("https://10.0.0.7/cards.csv", "a local network"),
    ("https://127.0.0.2/cards.csv", "this computer"),
    ("http://example.org/cards.csv", "not an https link"),
    ("https://accounts.google.com/ServiceLogin?continue=x", "a sign-in page"),
])
def test_a_redirect_is_checked_as_the_link_is(server, target, why):
    server.routes["/moved"] = (302, {"Location": target, "Set-Cookie": "id=1"}, b"")
    with pytest.raises(links.LinkError, match=why):
        links.fetch(server.url + "/moved")


def test_three_redirects_are_followed_without_cookies_and_four_are_refused(server):
    for hop in range(1, 5):
        server.routes[f"/r{hop}"] = (302, {"Location": f"/r{hop + 1}",
                                           "Set-Cookie": f"hop={hop}; Path=/"}, b"")
    server.routes["/r5"] = server.routes["/cards.csv"]
    assert links.fetch(server.url + "/r2").body == CSV.encode()
    assert all("Cookie" not in headers and "Authorization" not in headers
               for _, headers in server.requests)
    with pytest.raises(links.LinkError, match="redirects more than 3 times"):
        links.fetch(server.url + "/r1")


@pytest.mark.parametrize("headers", [{}, {"No-Length": "1"}])
def test_a_sheet_over_the_size_limit_is_refused(server, monkeypatch, headers):
    monkeypatch.setattr(links, "MAX_BYTES", 1000)
    server.routes["/big.csv"] = (200, headers, b"colour\n" + b"#102030\n" * 200)
    with pytest.raises(links.LinkError, match="larger than"):
        links.fetch(server.url + "/big.csv")


def test_a_server_too_slow_is_given_up(server, monkeypatch):
    monkeypatch.setattr(links, "FETCH_SECONDS", 0.2)
    server.stall = 0.6
    with pytest.raises(links.Unreachable, match="did not answer within 0.2 s"):
        links.fetch(server.url + "/cards.csv")


def test_a_private_sheet_says_to_publish_or_share_it(server, tmp_path):
    server.routes["/login"] = (200, {"Content-Type": "text/html"}, b"<html>Sign in</html>")
    result = build(linked_deck(tmp_path / "deck", server.url + "/login"), "--allow-network")
    assert result.exit_code == 2
    assert "it gives a web page, not a spreadsheet" in result.output
    assert "'Anyone with the link'" in result.output


def test_watch_rebuilds_when_the_served_sheet_changes(server, tmp_path, monkeypatch):
    monkeypatch.setattr(watching, "POLL_SECONDS", 0.1)
    server.routes["/cards.csv"] = (200, {"Last-Modified": "Thu, 26 Nov 2026 10:00:00 GMT"},
                                   CSV.encode())
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    links.NETWORK.allowed = True
    built, stop = [], threading.Event()

    def rebuild(changed):
        built.append((changed, load_deck(deck).total()))
        if len(built) == 2:
            stop.set()

    runner = threading.Thread(target=watching.watch, args=(deck, tmp_path / "out", rebuild,
                                                           stop), daemon=True)
    runner.start()
    deadline = time.monotonic() + PATIENCE
    while not built and time.monotonic() < deadline:
        time.sleep(0.02)
    server.routes["/cards.csv"] = (200, {"Last-Modified": "Thu, 26 Nov 2026 10:05:00 GMT"},
                                   b"colour\n#102030\n")
    runner.join(PATIENCE)
    assert built == [([], 3), ([server.url + "/cards.csv"], 1)]
    asked = [headers.get("If-Modified-Since") for _, headers in server.requests]
    assert "Thu, 26 Nov 2026 10:00:00 GMT" in asked


def test_a_google_edit_link_fetches_the_csv_export_of_its_tab(server, tmp_path,
                                                               monkeypatch):
    """docs.google.com is this test's server: the name resolves to 127.0.0.1 here."""
    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *rest, **named: real(
        "127.0.0.1" if host == "docs.google.com" else host, *rest, **named))
    port = server.url.rsplit(":", 1)[1]
    export = "/spreadsheets/d/1AbC-d_9/export?format=csv&gid=7"
    server.routes[export] = server.routes["/cards.csv"]
    link = f"https://docs.google.com:{port}/spreadsheets/d/1AbC-d_9/edit#gid=7"
    result = build(linked_deck(tmp_path / "deck", link), "--allow-network")
    assert result.exit_code == 0, result.output
    assert [path for path, _ in server.requests] == [export]


def test_the_address_checked_is_the_address_connected_to(server, monkeypatch):
    """A name that resolves to another address the second time (DNS rebinding) is not
    asked again: cardkit connects to the address it checked."""
    monkeypatch.setattr(links, "FETCH_SECONDS", 2)  # a connection to 10.0.0.1 hangs
    answers = iter(["127.0.0.1", "10.0.0.1", "10.0.0.1"])
    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *rest, **named: real(
        next(answers) if host == "docs.google.com" else host, *rest, **named))
    port = server.url.rsplit(":", 1)[1]
    fetched = links.fetch(f"https://docs.google.com:{port}/cards.csv")
    assert fetched.body == CSV.encode()
    assert next(answers) == "10.0.0.1"  # resolved once


def test_the_studio_redraws_from_a_changed_sheet_link(server, tmp_path):
    from cardkit.studio.images import Studio

    link = server.url + "/cards.csv"
    links.NETWORK.allowed = True
    studio = Studio(linked_deck(tmp_path / "deck", link))
    assert len(studio.view()["cards"]) == 2
    server.routes["/cards.csv"] = (200, {"ETag": '"2"'}, b"colour\n#102030\n")
    studio.files_changed([link])
    assert len(studio.view()["cards"]) == 1


def test_validate_takes_the_choice_too_and_an_http_link_is_refused_before_it(server,
                                                                           tmp_path):
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    refused = CliRunner().invoke(main, ["validate", str(deck)])
    assert refused.exit_code == 2 and "--allow-network" in refused.output
    allowed = CliRunner().invoke(main, ["validate", str(deck), "--allow-network"])
    assert allowed.exit_code == 0, allowed.output
    plain = linked_deck(tmp_path / "plain", "http://example.org/cards.csv")
    result = CliRunner().invoke(main, ["validate", str(plain)])
    assert result.exit_code == 2
    assert "http://example.org/cards.csv is not an https link" in result.output


def test_a_kept_copy_that_links_out_of_the_deck_is_not_read(server, tmp_path):
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    assert build(deck, "--allow-network").exit_code == 0
    (kept,) = (tmp_path / "deck" / ".cardkit-cache").glob("*.csv")
    secret = tmp_path / "secret.csv"
    secret.write_text("colour\n#ffffff\n")
    kept.unlink()
    kept.symlink_to(secret)
    result = build(deck)
    assert result.exit_code == 2
    assert f".cardkit-cache/{kept.name} (the copy kept of it): it is a symbolic link, which " \
        "cardkit never follows" in result.output
    assert f"remove .cardkit-cache/{kept.name}" in result.output


# -- a shared deck's .cardkit-cache, malformed links and damaged notes (issue 54) ----------

def kept_names(link: str) -> tuple[str, str]:
    """The names the copy of ``link`` and its note are kept under in .cardkit-cache/."""
    key = hashlib.sha256(link.encode()).hexdigest()[:24]
    return f"{key}.csv", f"{key}.json"


@pytest.fixture
def home(tmp_path) -> Path:
    """Files outside the deck standing in for the user's own."""
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / ".bashrc").write_bytes(b"export PATH=/usr/bin\n")
    (folder / ".profile").write_bytes(b"umask 022\n")
    return folder


def snapshot(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@contextlib.contextmanager
def no_hang(seconds: int = PATIENCE):
    """Fail instead of hanging for ever (a FIFO opened with no writer): SIGALRM interrupts
    the blocking call with an exception. On the clock, as a blocked call uses no CPU time;
    PATIENCE, as a busy machine stretches the clock."""
    def hung(signum, frame):
        raise TimeoutError("hung on a FIFO")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("planted", ["the copy", "the note", "both", "the folder"])
def test_the_cache_is_never_written_through_a_link_the_deck_ships(server, tmp_path, home,
                                                                  planted):
    """Finding 2: the fetched sheet (bytes the sheet's owner chooses) and the note were
    written over the link targets."""
    link = server.url + "/cards.csv"
    deck = linked_deck(tmp_path / "deck", link)
    cache = tmp_path / "deck" / ".cardkit-cache"
    copy, note = kept_names(link)
    before = snapshot(home)
    if planted == "the folder":
        cache.symlink_to(home)
    else:
        cache.mkdir()
        if planted in ("the copy", "both"):
            (cache / copy).symlink_to(home / ".bashrc")
        if planted in ("the note", "both"):
            (cache / note).symlink_to(home / ".profile")
    for command in (build, lambda d, *o: CliRunner().invoke(main, ["validate", str(d), *o])):
        result = command(deck, "--allow-network")
        assert result.exit_code == 2, result.output
        assert "it is a symbolic link, which cardkit never follows" in result.output
        assert "deck.yaml:10:12: cannot read the sheet" in result.output
    assert snapshot(home) == before
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("which", [0, 1])
def test_a_fifo_in_the_cache_is_refused_not_opened(server, tmp_path, which):
    """Finding 8: build and validate --allow-network blocked for ever."""
    link = server.url + "/cards.csv"
    deck = linked_deck(tmp_path / "deck", link)
    fifo = tmp_path / "deck" / ".cardkit-cache" / kept_names(link)[which]
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    with no_hang():
        result = CliRunner().invoke(main, ["validate", str(deck), "--allow-network"])
    assert result.exit_code == 2, result.output
    assert f"{fifo.name} (the copy kept of it): it is a FIFO (named pipe)" in result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_cache_folder_that_is_a_file_is_a_problem_at_the_line(server, tmp_path):
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    (tmp_path / "deck" / ".cardkit-cache").write_bytes(b"not a folder")
    for result in (build(deck, "--allow-network"),
                   CliRunner().invoke(main, ["validate", str(deck), "--allow-network"])):
        assert result.exit_code == 2, result.output
        assert ".cardkit-cache (the copy kept of it): it is a file, where cardkit writes a " \
            "folder; remove .cardkit-cache" in result.output
        assert "Traceback" not in result.output and "internal error" not in result.output
    assert (tmp_path / "deck" / ".cardkit-cache").read_bytes() == b"not a folder"


@pytest.mark.parametrize("link, why", [
    ("https://[::1/x.csv", "Invalid IPv6 URL"),
    ("https://0177.0.0.1/x.csv", "Invalid IPv4 address"),
    ("https://exa\\0mple.org/x.csv", "non-printable ASCII character"),
    ("https://xn--a.example/x.csv", "not allowed"),
    ("https://ex\u2000ample.org/x.csv", "Invalid IDNA hostname"),
    ("https://example.org:99999/x.csv", "Port out of range"),
])
def test_a_malformed_link_is_a_problem_at_its_line(server, tmp_path, link, why):
    """Finding 10: each ended in 'internal error' (exit 1); no connection is tried."""
    deck = linked_deck(tmp_path / "deck", link)
    for allowed in ((), ("--allow-network",)):
        result = build(deck, *allowed)
        assert result.exit_code == 2, result.output
        assert "deck.yaml:10:12: cannot read the sheet" in result.output
        assert "it is not a valid web address" in result.output and why in result.output
        assert "copy the link again from the browser's address bar" in result.output
    assert server.requests == []


@pytest.mark.parametrize("damage", [{"checked": "yesterday"},
                                    {"checked": "2026-11-26T21:40:00"},
                                    {"etag": 7}, {"etag": "\"caf\u00e9\""},
                                    {"last_modified": ["x"]}, {"file": "../secret.csv"},
                                    None])
def test_a_damaged_note_is_a_warning_and_the_sheet_is_fetched_again(server, tmp_path, damage):
    """Finding 10: 'internal error' for each; now the note is written afresh."""
    link = server.url + "/cards.csv"
    deck = linked_deck(tmp_path / "deck", link)
    assert build(deck, "--allow-network").exit_code == 0
    note = tmp_path / "deck" / ".cardkit-cache" / kept_names(link)[1]
    about = json.loads(note.read_text())
    note.write_text("{not json" if damage is None else json.dumps({**about, **damage}))
    offline = build(deck)
    assert offline.exit_code == 2, offline.output
    assert f"the note of the copy kept in .cardkit-cache/{note.name} is damaged" in \
        offline.output and "the network is not allowed" in offline.output
    server.requests.clear()
    result = build(deck, "--allow-network")
    assert result.exit_code == 0, result.output
    assert "is damaged" in result.output and "fetched the sheet again" in result.output
    assert [headers.get("If-None-Match") for _, headers in server.requests] == [None]
    assert json.loads(note.read_text())["etag"] == '"1"'
    assert build(deck).exit_code == 0


def test_validate_fetches_each_link_once(server, tmp_path):
    """Finding 11: validate --allow-network fetched each link twice (2 x 60 s against a
    server that never answers)."""
    deck = linked_deck(tmp_path / "deck", server.url + "/cards.csv")
    result = CliRunner().invoke(main, ["validate", str(deck), "--allow-network"])
    assert result.exit_code == 0, result.output
    assert [path for path, _ in server.requests] == ["/cards.csv"]
    server.requests.clear()
    server.stall = 0.5
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(links, "FETCH_SECONDS", 0.2)
        result = CliRunner().invoke(main, ["validate", str(deck), "--allow-network"])
    assert result.exit_code == 0, result.output
    assert result.output.count("did not answer within 0.2 s") == 1
    assert len(server.requests) == 1

"""Cards from a spreadsheet's link: a Google Sheets link, a published CSV or XLSX link, or
any https link to one, fetched safely and kept beside the deck for builds without the
network.

- **The user's choice.** A deck is untrusted input, so it never decides to use the network:
  the command line does (``--allow-network``, ``--refresh``: :data:`NETWORK`). Without it a
  link is read from the copy kept beside the deck, or refused with how to allow it.
- **Safe fetches.** https only, no user name or password in the link; every address a host
  name resolves to must be on the internet (not this computer, a local network,
  link-local, multicast or reserved: :func:`why_refused`), and the connection is made to
  the address checked, so a name that resolves again to another address (DNS rebinding)
  cannot lead elsewhere; redirects are followed by hand, at most :data:`MAX_REDIRECTS`,
  each checked the same way; bodies and times are limited as for local spreadsheets; no
  cookie, credential or proxy of the environment is used.
- **Kept.** Every fetch is stored in ``.cardkit-cache/`` in the deck's folder with its time,
  ETag and Last-Modified; the next fetch asks whether it changed, and a build without the
  network reads the copy (the same bytes: the same cards) and says how old it is. The
  folder is the deck's, so it is read and written as an output folder is
  (:mod:`cardkit.common.atomic`): a link, a FIFO or a device there is refused, never
  followed or opened; a note that is damaged is a warning, and the sheet is fetched again.
- **Once.** Within :func:`.fetch_round.fetching_once` (a command's reading of its deck,
  which may load it several times) each link is fetched at most once.
"""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

from ..common.atomic import NotReplaced, atomic_path, checked_below, read_below
from . import fetch_round
from .files import why_outside
from .spreadsheet import MAX_BYTES, READ_SECONDS, Places, Table, read_table

MAX_REDIRECTS = 3
FETCH_SECONDS = READ_SECONDS  # a whole fetch, as long as reading a local workbook may take
CACHE_FOLDER = ".cardkit-cache"
ALLOW_FIX = ("reading a link is your choice, not the deck's: run the command again with "
             "--allow-network (docs/deck-format.md, 'Cards from a sheet link')")
PRIVATE_FIX = ("the sheet is private: in Google Sheets choose Share > General access > "
               "'Anyone with the link' (Viewer), or File > Share > Publish to the web, "
               "then build again")
LOGIN_HOSTS = ("accounts.google.com",)
_LINK = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # IPv6 addresses a gateway turns into IPv4
_GOOGLE_SHEET = re.compile(r"^/spreadsheets/d/(e/)?([\w-]+)")


@dataclass
class Network:
    """What the user allowed for this run: fetching links at all (``allowed``), and
    fetching them again even when the kept copy is current (``refresh``)."""

    allowed: bool = False
    refresh: bool = False


NETWORK = Network()  # set by the command line, once per command
# Test-only: the path of a test certificate authority's PEM file. When set, 127.0.0.1 is
# let through and only that authority is trusted. Never set outside the tests.
TEST_ONLY_LOOPBACK_CA: str | None = None
# (deck folder, link) -> the kept copy, of the links read in this process: what `watch`
# asks for changes
LINKS_READ: dict[tuple[Path, str], Cache] = {}


class LinkError(ValueError):
    """A link that cannot be read, and what to do."""

    def __init__(self, what: str, fix: str):
        super().__init__(f"{what}; {fix}")
        self.what, self.fix = what, fix


class Unreachable(LinkError):
    """The network or the server did not answer: a kept copy may stand in."""


def is_link(name) -> bool:
    """Whether a deck's ``from:`` names a link rather than a file.

    >>> is_link("https://example.org/cards.csv"), is_link("http://x"), is_link("cards.csv")
    (True, True, False)
    """
    return isinstance(name, str) and bool(_LINK.match(name))


def checked_syntax(link: str) -> None:
    """Raise LinkError when ``link`` is not a well-formed web address, as Python's and
    httpx's parsers (the one that fetches it) read it: an unclosed ``[``, a NUL, a port out
    of range, an octal or otherwise odd IPv4 address, a host name that is no valid
    international name.

    >>> checked_syntax("https://example.org/cards.csv")
    >>> checked_syntax("https://[::1/x")
    Traceback (most recent call last):
    ...
    cardkit.sources.links.LinkError: it is not a valid web address (Invalid IPv6 URL); \
copy the link again from the browser's address bar
    """
    import httpx

    try:
        urlsplit(link).port  # the port and the host are read only when asked for
        httpx.URL(link).host
    except (ValueError, httpx.InvalidURL) as error:  # idna's errors are UnicodeErrors
        raise LinkError(f"it is not a valid web address ({error})",
                        "copy the link again from the browser's address bar") from None


def export_link(link: str, sheet: str | None) -> tuple[str, str]:
    """(the link to fetch, the tab's name for messages). A Google Sheets edit link becomes
    the CSV export of its tab: the one its ``gid`` names, or the one titled ``sheet``; a
    published one (``/d/e/...``) its CSV output. Any other link is fetched as it is.

    >>> export_link("https://docs.google.com/spreadsheets/d/AB-c_1/edit#gid=42", None)
    ('https://docs.google.com/spreadsheets/d/AB-c_1/export?format=csv&gid=42', '')
    >>> export_link("https://docs.google.com/spreadsheets/d/AB/edit", "Big Cards")[0]
    'https://docs.google.com/spreadsheets/d/AB/gviz/tq?tqx=out:csv&sheet=Big%20Cards'
    >>> export_link("https://docs.google.com/spreadsheets/d/e/2PX/pubhtml?gid=7", None)[0]
    'https://docs.google.com/spreadsheets/d/e/2PX/pub?output=csv&gid=7'
    """
    parts = urlsplit(link)
    found = _GOOGLE_SHEET.match(parts.path)
    if parts.hostname != "docs.google.com" or not found:
        return link.split("#")[0], sheet or ""
    published, key = found.groups()
    query = parse_qs(parts.query)
    if query.get("format") == ["xlsx"] or query.get("output") == ["xlsx"]:
        return link.split("#")[0], sheet or ""  # a workbook: its tab is chosen by title
    gid = (re.search(r"gid=(\d+)", parts.fragment) or re.search(r"gid=(\d+)", parts.query))
    base = f"https://{parts.netloc}/spreadsheets/d/{'e/' if published else ''}{key}"
    if published:
        return f"{base}/pub?output=csv" + (f"&gid={gid[1]}" if gid else ""), ""
    if sheet:
        return f"{base}/gviz/tq?tqx=out:csv&sheet={quote(sheet)}", sheet
    return f"{base}/export?format=csv" + (f"&gid={gid[1]}" if gid else ""), ""


def why_refused(address: str) -> str | None:
    """Why cardkit does not connect to ``address``, or None when it is on the internet.

    >>> [why_refused(a) for a in ("93.184.215.14", "127.0.0.1", "10.1.2.3", "::ffff:10.0.0.1")]
    [None, 'this computer', 'a local network', 'a local network']
    >>> why_refused("169.254.169.254"), why_refused("224.0.0.1"), why_refused("240.0.0.1")
    ('a link-local address', 'a multicast address', 'a reserved address')
    >>> why_refused("64:ff9b::10.0.0.1"), why_refused("2002:7f00:1::")  # NAT64, 6to4
    ('a local network', 'this computer')
    """
    ip = ipaddress.ip_address(address.split("%")[0])  # an IPv6 zone: 'fe80::1%eth0'
    if ip.version == 6:  # an IPv4 address inside an IPv6 one reaches that IPv4 address
        ip = ip.ipv4_mapped or ip.sixtofour or (
            ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF) if ip in NAT64 else ip)
    if TEST_ONLY_LOOPBACK_CA and str(ip) == "127.0.0.1":
        return None
    for refused, what in ((ip.is_loopback, "this computer"),
                          (ip.is_link_local, "a link-local address"),
                          (ip.is_multicast, "a multicast address"),
                          (ip.is_reserved or ip.is_unspecified, "a reserved address"),
                          (ip.is_private or not ip.is_global, "a local network")):
        if refused:
            return what
    return None


def checked_address(host: str, port: int) -> str:
    """The address to connect to for ``host``: resolved here, every address it has
    checked (one on a local network among them refuses the host)."""
    import socket  # late, as the other network modules: most decks have no link

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise Unreachable(f"cannot find the server {host} ({error})",
                          "check the link, and that this computer is online") from None
    addresses = [info[4][0] for info in found]
    for address in addresses:
        why = why_refused(address)
        if why:
            raise LinkError(f"{host} is at {address}, {why}: cardkit reads links on the "
                            "internet only, so that a deck cannot reach the computers near "
                            "yours", "put the sheet where it has a public https link, or "
                            "download it and name the file")
    return addresses[0]


def _checked_transport():
    """An httpx transport whose every connection, the first and each redirect's, goes to
    an address :func:`checked_address` passed: the address checked is the one connected
    to, so a name that resolves again (DNS rebinding) cannot lead elsewhere."""
    import ssl

    import httpcore
    import httpx

    class CheckedBackend(httpcore.SyncBackend):
        def connect_tcp(self, host, port, timeout=None, local_address=None,
                        socket_options=None):
            return super().connect_tcp(checked_address(host, port), port, timeout,
                                       local_address, socket_options)

    context = ssl.create_default_context(cafile=TEST_ONLY_LOOPBACK_CA)
    transport = httpx.HTTPTransport(verify=context, trust_env=False)
    # httpx has no option for a network backend; httpcore's pool, which it wraps, has
    transport._pool = httpcore.ConnectionPool(ssl_context=context,
                                              network_backend=CheckedBackend())
    return transport


@dataclass(frozen=True)
class Fetched:
    """A server's answer: ``body`` None when it is unchanged since the copy kept."""

    body: bytes | None
    etag: str = ""
    modified: str = ""
    workbook: bool = False  # XLSX (or ODS) rather than CSV


def fetch(url: str, etag: str = "", modified: str = "") -> Fetched:
    """GET ``url`` under the rules of this module; with the ``etag`` or Last-Modified
    (``modified``) of a kept copy, an unchanged sheet answers with no body."""
    import http.cookiejar

    import httpx

    jar = http.cookiejar.CookieJar(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    asked = {"If-None-Match": etag} if etag else {}
    if modified:
        asked["If-Modified-Since"] = modified
    deadline = time.monotonic() + FETCH_SECONDS
    with httpx.Client(transport=_checked_transport(), trust_env=False, cookies=jar,
                      follow_redirects=False, timeout=FETCH_SECONDS) as client:
        for _ in range(MAX_REDIRECTS + 1):
            _check_link(url)
            try:  # the redirects and the body share the time a fetch may take
                with client.stream("GET", url, headers=asked,
                                   timeout=max(deadline - time.monotonic(), 0.01)) as answer:
                    if answer.is_redirect and "location" in answer.headers:
                        url = str(answer.url.join(answer.headers["location"]))
                        continue
                    return _answer(answer, deadline)
            except httpx.TimeoutException:
                raise Unreachable(f"the server did not answer within {FETCH_SECONDS:g} s",
                                  "try again later, or download the sheet and name the "
                                  "file") from None
            except httpx.HTTPError as error:
                raise Unreachable(f"cannot fetch it ({error})", "check the link, and "
                                  "that this computer is online") from None
    raise LinkError(f"it redirects more than {MAX_REDIRECTS} times",
                    "give the link the sheet is at in the end")


def _check_link(url: str) -> None:
    checked_syntax(url)
    parts = urlsplit(url)
    if parts.hostname in LOGIN_HOSTS or "ServiceLogin" in parts.path:
        raise LinkError("it leads to a sign-in page", PRIVATE_FIX)
    if parts.scheme.lower() != "https":
        raise LinkError(f"{url[:60]} is not an https link", "use the sheet's https link: "
                        "cardkit does not fetch unencrypted pages")
    if parts.username or parts.password:
        raise LinkError("the link holds a user name or password",
                        "share the sheet by link instead, and give that link")


def _answer(answer, deadline: float) -> Fetched:
    """The body of a server's answer, within the limits; refused when it is not a sheet."""
    headers = answer.headers
    if answer.status_code == 304:
        return Fetched(None, headers.get("etag", ""), headers.get("last-modified", ""))
    if answer.status_code in (401, 403):
        raise LinkError(f"the server refused access ({answer.status_code})", PRIVATE_FIX)
    if answer.status_code != 200:
        raise LinkError(f"the server answered {answer.status_code} "
                        f"{answer.reason_phrase}", "check the link in a browser")
    if "html" in headers.get("content-type", ""):
        raise LinkError("it gives a web page, not a spreadsheet (a sign-in page, or the "
                        "sheet's page rather than its CSV or XLSX)", PRIVATE_FIX)
    too_big = LinkError(f"the sheet is larger than {MAX_BYTES // 1_000_000} MB",
                        "split the cards into several sheets")
    if int(headers.get("content-length") or 0) > MAX_BYTES:
        raise too_big
    body = bytearray()
    for chunk in answer.iter_bytes():
        body += chunk
        if len(body) > MAX_BYTES:
            raise too_big
        if time.monotonic() > deadline:
            raise Unreachable(f"the sheet took more than {FETCH_SECONDS:g} s to come",
                              "try again later, or download the sheet and name the file")
    return Fetched(bytes(body), headers.get("etag", ""), headers.get("last-modified", ""),
                   workbook=body.startswith(b"PK\x03\x04"))  # XLSX and ODS are zip files


class Cache:
    """The copy of one link's sheet kept in the deck's ``.cardkit-cache`` folder, and what
    the server said of it (its fetch time, ETag and Last-Modified)."""

    def __init__(self, folder: Path, url: str):
        self.url, self.folder = url, Path(folder).resolve()
        key = hashlib.sha256(url.encode()).hexdigest()[:24]
        self.about = self.folder / CACHE_FOLDER / f"{key}.json"
        self.damaged = ""  # why the note kept() read is not used, if it is damaged

    def kept(self) -> dict | None:
        """What is known of the copy, None when there is none or its note is damaged
        (``damaged`` says how). A link, a FIFO or a device in the way raises LinkError:
        it is neither followed nor opened."""
        self.damaged = ""
        try:
            about = json.loads(read_below(self.about, self.folder).decode("utf-8"))
        except FileNotFoundError:
            return None
        except NotReplaced as error:
            raise _refused(error, self.folder) from None
        except (ValueError, RecursionError):  # not UTF-8 or not JSON
            about = None
        self.damaged = why_damaged(about, self.about.stem)
        if self.damaged:
            return None
        data = self.data(about)
        try:
            checked_below(data, self.folder)
        except NotReplaced as error:
            raise _refused(error, self.folder) from None
        if not data.is_file() or why_outside(data, self.folder):
            return None
        return about

    def data(self, about: dict) -> Path:
        return self.about.with_name(about["file"])

    def store(self, fetched: Fetched, about: dict | None) -> dict:
        """Keep ``fetched`` (or, when it is unchanged, note the time it was checked)."""
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        if fetched.body is None:
            if not about:  # a server answering 'not modified' to a plain request
                raise LinkError("the server sent no sheet", "check the link in a browser")
            about = {**about, "checked": now}
        else:
            name = self.about.stem + (".xlsx" if fetched.workbook else ".csv")
            self._write(self.about.with_name(name), fetched.body)
            about = {"url": self.url, "file": name, "fetched": now, "checked": now,
                     "etag": _header(fetched.etag), "last_modified": _header(fetched.modified)}
        self._write(self.about, json.dumps(about, indent=1).encode("utf-8"))
        return about

    def _write(self, path: Path, data: bytes) -> None:
        try:
            with atomic_path(path, under=self.folder) as temporary:
                temporary.write_bytes(data)
        except NotReplaced as error:
            raise _refused(error, self.folder) from None

    def changed(self) -> bool:
        """Ask the server whether the sheet changed since the copy (with its ETag or
        Last-Modified); keep the new one if it did. False when it cannot be reached."""
        about = self.kept() or {}
        try:
            fetched = fetch(self.url, about.get("etag", ""), about.get("last_modified", ""))
        except LinkError:
            return False
        if fetched.body is None or (about and fetched.body == self.data(about).read_bytes()):
            return False
        self.store(fetched, about)
        return True


def _refused(error: NotReplaced, folder: Path) -> LinkError:
    """The LinkError of something in the way of a kept copy: a link, a FIFO, a device, a
    file where the cache folder goes."""
    path = Path(error.filename)
    shown = path.relative_to(folder) if path.is_relative_to(folder) else path
    return LinkError(f"{shown} (the copy kept of it): {error.strerror}",
                     f"remove {shown}: cardkit keeps the sheets it fetched in "
                     f"{CACHE_FOLDER}/, and makes it again")


def _header(value: str) -> str:
    """A header's value as it can be sent back (If-None-Match): '' unless printable
    ASCII."""
    return value if value.isascii() and value.isprintable() else ""


def why_damaged(about, key: str) -> str:
    """Why a kept copy's note (as read from ``KEY.json``) is not one :meth:`Cache.store`
    wrote, or '' when it is.

    >>> why_damaged({"file": "k.csv", "etag": "", "last_modified": "",
    ...              "checked": "2026-11-26T21:40:00+00:00"}, "k")
    ''
    >>> why_damaged({"file": "k.csv", "etag": 7, "last_modified": "", "checked": "x"}, "k")
    'its ETag is not text'
    """
    if not isinstance(about, dict):
        return "it is not the note cardkit writes"
    if about.get("file") not in (f"{key}.csv", f"{key}.xlsx"):
        return "it names another file"
    for field, what in (("etag", "its ETag"), ("last_modified", "its Last-Modified")):
        if not isinstance(about.get(field), str):
            return f"{what} is not text"
        if about[field] != _header(about[field]):
            return f"{what} is not plain ASCII"
    try:
        when = datetime.datetime.fromisoformat(about.get("checked"))
    except (TypeError, ValueError):
        return "the time it was checked is not a time"
    if when.utcoffset() is None:
        return "the time it was checked has no time zone"
    return ""


def age(about: dict) -> str:
    """How long ago the copy was fetched, in words: 'fetched 3 minutes ago (2026-11-26
    21:40 UTC)'."""
    when = datetime.datetime.fromisoformat(about["checked"])
    seconds = (datetime.datetime.now(datetime.timezone.utc) - when).total_seconds()
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            ago = f"{count} {unit}{'s' * (count != 1)}"
            break
    else:
        ago = "less than a minute"
    return f"fetched {ago} ago ({when:%Y-%m-%d %H:%M} UTC)"


def linked_table(link: str, sheet: str | None, folder: Path) -> tuple[Table, str]:
    """The sheet at ``link`` (its tab ``sheet``, by title) as a table whose messages name
    the link and each cell, and a warning ('' for none) when it was read from the copy
    kept in ``folder`` without asking the server. Raises LinkError."""
    checked_syntax(link)
    url, tab = export_link(link, sheet)
    _check_link(url)  # said before the network is allowed: allowing it would not help
    cache = Cache(folder, url)
    about = cache.kept()
    damaged = f"the note of the copy kept in {CACHE_FOLDER}/{cache.about.name} is " \
        f"damaged ({cache.damaged})" if cache.damaged else ""
    fetched_before = fetch_round.FETCHED
    once = fetched_before.get((cache.folder, url)) if fetched_before is not None else None
    if once is not None:  # fetched already in this command
        error, warning = once
        if error is not None:
            raise error
    elif NETWORK.allowed or NETWORK.refresh:
        error, warning = None, damaged and f"{damaged}: fetched the sheet again"
        try:
            fetched = fetch(url, *(() if NETWORK.refresh or not about
                                   else (about["etag"], about["last_modified"])))
            about = cache.store(fetched, about)
        except Unreachable as unreachable:
            if about is None or NETWORK.refresh:
                error = unreachable
            warning = f"{unreachable.what}: read the copy {age(about)}" if about else ""
        except LinkError as refused:
            error = refused
        if fetched_before is not None:
            fetched_before[cache.folder, url] = (error, warning)
        if error is not None:
            raise error
    elif about is None:
        raise LinkError(f"{damaged or 'the sheet has not been fetched yet'}, and the "
                        "network is not allowed", ALLOW_FIX)
    else:
        warning = f"read the copy {age(about)}; --allow-network fetches it again"
    LINKS_READ[cache.folder, url] = cache
    workbook = about["file"].endswith(".xlsx")
    return read_table(cache.data(about), Places(link, link=True, sheet=tab),
                      sheet if workbook else None), warning

"""The studio's web server: the page, the deck as JSON, the card images by key, and a
stream of server-sent events that says when the deck was saved.

Safe by default: it listens on 127.0.0.1, and before any route runs (:class:`Guard`) it
refuses a request whose Host header is not this machine (a web page elsewhere cannot
reach it through DNS rebinding), a request another web site's page makes (its Origin or
Sec-Fetch-Site says so), and a body over a few KB. Each page sends its own options (ink,
bleed, variant, language) in the query of each request. One route writes: ``POST
/api/edit`` changes a card's field in the deck's own file (:mod:`.edits`), or adds,
copies or deletes a card there or undoes a change (the grid, :mod:`.grid`), and only with
the session's token, which only the studio's own page holds (a page of another site can
neither read it nor send it), as JSON (which a form cannot send); a studio listening on
the network is read-only unless the user allows edits. No part of a URL or body names a
file: the page's own files are a fixed list shipped with
cardkit, the images are looked up by their key among those drawn, and a simulation
report is only ever shown sandboxed, without script. Nothing is loaded from the internet.
"""

from __future__ import annotations

import asyncio
import html
import ipaddress
import json
import re
import secrets
import shlex
import socket
import time
from importlib.resources import files
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware import Middleware
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from ..common.errors import InputError
from ..deck.selection import SPEC_HELP
from . import edits, grid
from .images import INKS, Options, Studio
from . import layout_edits
from .editor import HOW_TO_SET, open_in_editor, place_of

APP_FILES = {"index.html": "text/html; charset=utf-8", "studio.js": "text/javascript",
             "studio.css": "text/css",
             "grid.js": "text/javascript", "grid.css": "text/css",  # the grid of every card
             "layout.js": "text/javascript", "layout.css": "text/css"}  # a layout's boxes
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
KEEP_ALIVE = 15.0  # seconds between comments on an idle event stream
PAPERS = ("a4", "letter")
MOST_BODY = 65536  # bytes: an edit's body; a bigger one is refused unread
VARIANT = "variant."  # a query's variant.players=3 chooses the option 3 of players
# every answer: the studio's page runs its own script only, and is framed by itself only
STUDIO_POLICY = ("default-src 'self'; script-src 'self'; object-src 'none'; "
                 "frame-ancestors 'self'")
# a simulation report (or the note that there is none): its own styles and data: images,
# no script, and sandboxed, so a page that came with a shared deck is not the studio
REPORT_POLICY = ("sandbox; default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; "
                 "img-src data:; frame-ancestors 'self'")
# a problem's command-line words, as the page says them: the page has a filter box and
# captions, not options to type ('--cards: ' starting a problem is the option it is about)
OPTION_NAMED = re.compile(r"^--[a-z][a-z-]*: ")
PAGE_WORDS = ((SPEC_HELP, "type card numbers and ranges such as 3, 7-9, or a field and its "
                          "value such as name=Dragon"),
              ("FIELD=VALUE", "a field and its value"),
              ("('cardkit preview' numbers them)", "(each card's caption starts with its "
                                                   "number)"))


def is_local(host: str) -> bool:
    """Whether ``host`` (an address to listen on) is this machine only.

    >>> is_local("127.0.0.1"), is_local("localhost"), is_local("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(host_header: str) -> str:
    """The name or address of a Host header, without its port, in lower case.

    >>> host_name("LocalHost:8719"), host_name("[::1]:8719"), host_name("10.0.0.2")
    ('localhost', '[::1]', '10.0.0.2')
    """
    host = host_header.lower()
    if host.startswith("["):
        return host[:host.find("]") + 1]
    return host.rsplit(":", 1)[0]


def host_allowed(listening: str):
    """Which Host names a studio listening on ``listening`` answers. On this machine
    only: its loopback names. On a network: an address (DNS rebinding needs a name the
    attacker owns), and this machine's own names."""
    if is_local(listening):
        return lambda name: name in LOCAL_HOSTS
    own = socket.gethostname().lower()  # (not getfqdn: a DNS lookup that may hang)
    names = {*LOCAL_HOSTS, own, f"{own}.local"}

    def allowed(name: str) -> bool:
        try:
            ipaddress.ip_address(name.strip("[]"))
            return True
        except ValueError:
            return name in names

    return allowed


def refusal(headers: Headers, allowed) -> tuple[int, str] | None:
    """Why the :class:`Guard` refuses a request with these ``headers`` (its status and
    what it says), or None. ``allowed(name)``: whether the Host name is this studio."""
    host = headers.get("host", "")
    if not allowed(host_name(host)):
        return 400, (f"the studio answers requests addressed to it, not to {host!r}: open "
                     "it by the address `cardkit serve` printed")
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none") \
            or headers.get("origin", f"http://{host}") != f"http://{host}":
        return 403, "the studio answers its own page, not another web site's"
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        length = MOST_BODY + 1
    if length > MOST_BODY or "transfer-encoding" in headers:
        return 413, f"the studio takes no body over {MOST_BODY} bytes, nor one sent in chunks"
    return None


class Guard:
    """Runs before every route: refuses what :func:`refusal` names (a body unread, the
    connection then closed), and gives every answer the studio's Content-Security-Policy
    (unless the route chose a stricter one) and no content sniffing."""

    def __init__(self, app, listening: str):
        self.app, self.allowed = app, host_allowed(listening)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("content-security-policy", STUDIO_POLICY)
                headers["x-content-type-options"] = "nosniff"
            await send(message)

        refused = refusal(Headers(scope=scope), self.allowed)
        if refused:
            status, why = refused
            await PlainTextResponse(why, status, headers={"connection": "close"})(
                scope, receive, send_guarded)
            return
        await self.app(scope, receive, send_guarded)


def options_of(query) -> Options:
    """A page's options from its query: ink=draft, bleed=1, lang=de, variant.players=3
    (what is not given is as written: full ink, no bleed, every variant's cards). Raises
    ValueError saying what is wrong.

    >>> options_of({"ink": "draft", "variant.players": "3", "lang": "de"})
    Options(ink='draft', bleed=False, variant=(('players', '3'),), lang='de')
    """
    ink, bleed = query.get("ink", INKS[0]), query.get("bleed", "0")
    if ink not in INKS or bleed not in ("0", "1"):
        raise ValueError("give ink=full or ink=draft, bleed=0 or bleed=1")
    variant = tuple(sorted((name[len(VARIANT):], value) for name, value in query.items()
                           if name.startswith(VARIANT) and value))
    return Options(ink, bleed == "1", variant, query.get("lang", ""))


def in_page_words(text: str) -> str:
    """A problem's what or fix as the page says it, without command-line words.

    >>> in_page_words("--cards: there is no card 9; the deck has 8 distinct cards")
    'there is no card 9; the deck has 8 distinct cards'
    """
    text = OPTION_NAMED.sub("", text)
    for said, page_said in PAGE_WORDS:
        text = text.replace(said, page_said)
    return text


def page_message(problems, where: bool = False) -> str:
    """``problems`` as sentences for the page (each its what and fix, and its file and
    line if ``where``), in its words; the first starts in lower case, to follow a colon.

    >>> from cardkit.common.errors import Problem, Where
    >>> page_message([Problem(Where("d.csv"), "--cards: no card has name 'Spice Jarr'",
    ...                       "did you mean 'Spice Jar'?"),
    ...               Problem(Where("d.csv"), "--cards: there is no card 40", "")])
    "no card has name 'Spice Jarr'; did you mean 'Spice Jar'? There is no card 40."
    """
    sentences = []
    for problem in problems:
        what, fix = in_page_words(problem.what), in_page_words(problem.fix or "")
        said = (f"{problem.where}: " if where else "") + what + (
            f"; {fix}" if fix and fix not in what else "")
        said += "" if said.endswith((".", "?", "!")) else "."
        sentences.append(said[:1].upper() + said[1:] if sentences else said)
    return " ".join(sentences)


def no_report_page(command: str) -> bytes:
    """What the Playtest tab shows before the deck has a report: how to make one."""
    return ("<!doctype html><meta charset='utf-8'><body style='font:15px system-ui;"
            "margin:2rem'><p id='no-report'>No simulation report for this deck yet. Make "
            f"one with</p><pre>{html.escape(command)}</pre><p>and it appears here.</p>"
            ).encode("utf-8")


def read_only_why(listening: str, allow_edit: bool) -> str:
    """Why a studio listening on ``listening`` does not write the deck ('' when it does).

    >>> read_only_why("127.0.0.1", False), read_only_why("0.0.0.0", True)
    ('', '')
    """
    if allow_edit or is_local(listening):
        return ""
    return (f"the studio listens on {listening}, so it is read-only: start it with "
            "--allow-edit to let its page change the deck")


def make_app(studio: Studio, listening: str = "127.0.0.1",
             report_folders=(Path("output"),), deck_named: str | None = None,
             allow_edit: bool = False, editor: str = "") -> Starlette:
    """The studio's app, for a server listening on the address ``listening`` (only
    requests addressed to it by one of its names are answered). ``report_folders``: where
    the playtest tab looks for the deck's latest simulation report, the first where the
    command it suggests writes one. ``deck_named``: the deck as the user named it (its
    folder if not given). Its page may change the deck's files when it listens on this
    machine only, or ``allow_edit``; its "Open in editor" links run ``editor`` (a command,
    :mod:`.editor`), the user's own."""
    shipped = files(__package__) / "app"
    app_files = {name: (shipped / name).read_bytes() for name in APP_FILES}
    read_only = read_only_why(listening, allow_edit)
    token = "" if read_only else secrets.token_urlsafe(24)  # only the page holds it
    app_files["index.html"] = app_files["index.html"].replace(
        b"{edit-token}", token.encode()).replace(
        b"{read-only}", html.escape(read_only).encode()).replace(
        b"{editor}", html.escape(Path(editor.split()[0]).name if editor else "").encode()).replace(
        b"{no-editor}", html.escape("" if editor else f"no editor is set: {HOW_TO_SET}").encode())
    streams: set = set()  # (loop, queue) of each open event stream
    history = grid.History()  # the changes written, each undoable (studio/grid.py)
    deck_named = deck_named or str(studio.deck_path.parent)
    no_report = no_report_page(shlex.join([
        "cardkit", "simulate", deck_named, "--report",
        str(Path(report_folders[0]) / f"{studio.deck_path.parent.name}-sim")]))

    def with_options(answer):
        """A route that answers with the page's options from the query."""
        async def route(request):
            try:
                options = options_of(request.query_params)
            except ValueError as error:
                return JSONResponse({"problem": str(error)}, status_code=400)
            return await answer(request, options)
        return route

    async def page(request):
        return Response(app_files["index.html"], media_type=APP_FILES["index.html"])

    async def app_file(request):
        name = request.path_params["name"]
        if name not in APP_FILES:
            return Response("no such file", status_code=404)
        return Response(app_files[name], media_type=APP_FILES[name])

    @with_options
    async def deck(request, options):
        state = await run_in_threadpool(studio.view, options)
        # (a language a bookmarked address keeps after the deck dropped it: no '--lang: ')
        worded = {listed: [{**problem, "what": in_page_words(problem["what"]),
                            "fix": in_page_words(problem["fix"])} for problem in state[listed]]
                  for listed in ("problems", "warnings")}
        return JSONResponse({**state, **worded}, headers={"Cache-Control": "no-store"})

    @with_options
    async def select(request, options):
        try:
            return JSONResponse({"numbers": await run_in_threadpool(
                studio.select, request.query_params.get("cards", ""), options)})
        except InputError as error:
            return JSONResponse({"problem": page_message(error.problems)})

    def pages_of(make):
        """A route that answers with the pages ``make(paper, options)`` draws."""
        @with_options
        async def pages(request, options):
            paper = request.query_params.get("paper", "a4")
            if paper not in PAPERS:
                return JSONResponse({"problem": "paper is a4 or letter"}, status_code=400)
            try:
                return JSONResponse({"pages": await run_in_threadpool(make, paper, options)})
            except InputError as error:
                return JSONResponse({"problem": page_message(error.problems, where=True)})
        return pages

    async def sheet_image(request):
        data = studio.sheet_image(request.path_params["key"])
        if data is None:
            return Response("no such sheet image", status_code=404)
        return Response(data, media_type="image/png")

    @with_options
    async def playtest(request, options):
        page = await run_in_threadpool(studio.playtest_report, report_folders, options)
        return Response(page.read_bytes() if page else no_report,
                        media_type="text/html; charset=utf-8",
                        headers={"Content-Security-Policy": REPORT_POLICY})

    @with_options
    async def playtest_shown(request, options):
        """Which report the Playtest tab shows: its file and when it was written."""
        page = await run_in_threadpool(studio.playtest_report, report_folders, options)
        if page is None:
            return JSONResponse({"report": None})
        here = Path.cwd()
        return JSONResponse({"report": str(page.relative_to(here) if page.is_relative_to(here)
                                           else page),
                             "written": time.strftime("%Y-%m-%d %H:%M",
                                                      time.localtime(page.stat().st_mtime))})

    async def image(request):
        data = studio.images.get(request.path_params["key"])
        if data is None:
            return Response("no such card image", status_code=404)
        # a key names one drawing for good: the browser may keep it
        return Response(data, media_type="image/png",
                        headers={"Cache-Control": "max-age=31536000, immutable"})

    async def events(request):
        versions: asyncio.Queue = asyncio.Queue()  # None: the server is stopping
        loop = asyncio.get_running_loop()

        def told(version: int) -> None:  # from the watching thread
            loop.call_soon_threadsafe(versions.put_nowait, version)

        studio.listen(told)
        streams.add((loop, versions))

        async def stream():
            try:
                yield f"data: {studio.version}\n\n"
                while True:
                    try:
                        version = await asyncio.wait_for(versions.get(), KEEP_ALIVE)
                    except asyncio.TimeoutError:
                        yield ": still here\n\n"
                        continue
                    if version is None:
                        return
                    yield f"data: {version}\n\n"
            finally:
                studio.unlisten(told)
                streams.discard((loop, versions))

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    def not_own_page(request) -> JSONResponse | None:
        """The answer to a request that may not write (or open an editor): a studio that
        is read-only, a request without the page's token, or not of JSON; None when it
        may."""
        if read_only:
            return JSONResponse({"refused": read_only}, status_code=403)
        if not secrets.compare_digest(request.headers.get("x-cardkit-token", ""), token) \
                or request.headers.get("content-type", "").split(";")[0] != "application/json":
            return JSONResponse({"refused": "the studio takes edits from its own page only"},
                                status_code=403)
        return None

    @with_options
    async def edit(request, options):
        """Change one field of one card: {card, field, value, version} as JSON; or, from
        the grid, a card's row: {op, card, version}, or undo a change: {op, change}; or
        move an element's box: {card, side, element, box, version} (:func:`move_box`)."""
        refused = not_own_page(request)
        if refused:
            return refused
        try:
            asked = json.loads(await request.body())
        except ValueError:
            asked = None
        if isinstance(asked, dict) and "op" in asked:  # the grid's rows, or an undo
            return await grid.answer(studio, options, asked, history)
        if isinstance(asked, dict) and "element" in asked:  # a layout's box
            return await move_box(asked, options)
        try:
            number, field, value, version = (asked[key] for key in (
                "card", "field", "value", "version"))
            if not (type(number) is int and all(isinstance(text, str)
                                                for text in (field, value, version))):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"refused": "give card (a number), field, value and version"},
                                status_code=400)
        return await written(options, edits.edit, f"the edit of {field} of #{number}",
                             number, field, value, version, options.lang)

    async def written(options, change, what: str, *asked) -> JSONResponse:
        """The answer to the edit ``change(deck, folder, *asked, drawn)`` of the deck drawn
        with ``options`` (``drawn``: the version each file was when it was drawn): saved,
        drawn again and undoable as ``what``, a conflict, or refused."""
        state = await run_in_threadpool(studio.view, options)  # (before the deck: grid.answer)
        deck = await run_in_threadpool(studio.deck, options)
        if deck is None:
            return JSONResponse({"refused": "the deck has not loaded"}, status_code=409)
        drawn = {**state["files"], **{path: layout["version"]
                                      for path, layout in state["layouts"].items()}}
        try:
            new = await run_in_threadpool(change, deck, studio.deck_path.parent, *asked, drawn)
        except (edits.Conflict, edits.Refused) as error:
            return grid.failed(error)
        # drawn again now, as after a save (the watcher's word on it comes later)
        await run_in_threadpool(studio.files_changed, (str(new.path),))
        return JSONResponse({"saved": True, "version": new.version, "what": what,
                             "change": history.record(new, what)})

    async def move_box(asked: dict, options):
        """Move or resize an element's box: {card, side, element, version} and its new
        ``box`` in millimetres ({x, y, width, height}, any of them) from the card's top
        left corner."""
        try:
            number, side, name, box, version = (asked[key] for key in (
                "card", "side", "element", "box", "version"))
            if not (type(number) is int and all(isinstance(text, str) for text in (
                    side, name, version)) and isinstance(box, dict) and box
                    and set(box) <= set(layout_edits.PARTS) and all(
                        type(value) in (int, float) for value in box.values())
                    and set(asked) == {"card", "side", "element", "box", "version"}):
                raise ValueError
        except (KeyError, ValueError):
            return JSONResponse({"refused": "give card (a number), side, element, box (x, y, "
                                            "width, height in mm) and version"}, status_code=400)
        return await written(options, layout_edits.move_box, f"the move of {name}'s box",
                             number, side, name, box, version)

    @with_options
    async def open_editor(request, options):
        """Open the user's editor at a card's row or entry, {card}, or an element's entry
        in its layout, {card, side, element}: the deck's own file, never one the request
        names, with the user's own editor command."""
        refused = not_own_page(request)
        if refused:
            return refused
        try:
            asked = json.loads(await request.body())
            if not (isinstance(asked, dict) and type(asked.get("card")) is int
                    and set(asked) in ({"card"}, {"card", "side", "element"})
                    and all(isinstance(asked.get(key, ""), str) for key in ("side", "element"))):
                raise ValueError
        except ValueError:
            return JSONResponse({"refused": "give card (a number), and side and element for "
                                            "an element"}, status_code=400)
        if not editor:
            return JSONResponse({"refused": f"no editor is set: {HOW_TO_SET}"}, status_code=409)
        deck = await run_in_threadpool(studio.deck, options)
        if deck is None:
            return JSONResponse({"refused": "the deck has not loaded"}, status_code=409)
        try:
            where = place_of(deck, studio.deck_path.parent, asked["card"],
                             asked.get("side", ""), asked.get("element", ""))
            await run_in_threadpool(open_in_editor, editor, where.file, where.line)
        except edits.Refused as refused:
            return grid.failed(refused)
        except (OSError, ValueError) as error:
            return JSONResponse({"refused": f"the editor '{editor}' could not be started "
                                            f"({getattr(error, 'strerror', None) or error}): "
                                            f"{HOW_TO_SET}"}, status_code=500)
        return JSONResponse({"opened": f"{Path(where.file).name}:{where.line}"})

    async def no_icon(request):
        return Response(status_code=204)

    routes = [Route("/", page), Route("/favicon.ico", no_icon),
              Route("/app/{name}", app_file), Route("/api/deck", deck),
              Route("/api/select", select), Route("/api/sheets", pages_of(studio.sheets)),
              Route("/api/rules", pages_of(studio.rules)),
              Route("/api/components", pages_of(studio.components)),
              Route("/sheets/{key}.png", sheet_image), Route("/playtest", playtest),
              Route("/api/playtest", playtest_shown),
              Route("/cards/{key}.png", image), Route("/events", events),
              Route("/api/edit", edit, methods=["POST"]),
              Route("/api/open", open_editor, methods=["POST"])]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, listening=listening)])

    def end_streams() -> None:
        """End every open event stream (from any thread): a server that is stopping
        waits for its open responses."""
        for loop, versions in list(streams):
            loop.call_soon_threadsafe(versions.put_nowait, None)

    app.state.end_streams = end_streams
    return app

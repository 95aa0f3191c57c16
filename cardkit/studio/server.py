"""The studio's web server: the page, the deck as JSON, the card images by key, and a
stream of server-sent events that says when the deck was drawn again.

Safe by default: it listens on 127.0.0.1; a request whose Host header is not this
machine is refused (a web page elsewhere cannot reach it through DNS rebinding); no part
of a URL names a file: the page's own files are a fixed list shipped with cardkit, and
the images are looked up by their key among those drawn. Nothing is loaded from the
internet.
"""

from __future__ import annotations

import asyncio
import ipaddress
from importlib.resources import files

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..common.errors import InputError
from .images import Studio

APP_FILES = {"index.html": "text/html; charset=utf-8", "studio.js": "text/javascript",
             "studio.css": "text/css"}
LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
KEEP_ALIVE = 15.0  # seconds between comments on an idle event stream
INKS = ("full", "draft")
PAPERS = ("a4", "letter")
NO_REPORT = ("<!doctype html><meta charset='utf-8'><body style='font:15px system-ui;"
             "margin:2rem'><p>No simulation report for this deck yet. Make one with "
             "<code>cardkit simulate DECK --report output/DECK-sim</code>; the newest "
             "appears here.</p>")


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


def make_app(studio: Studio, local: bool = True, report_folders=()) -> Starlette:
    """The studio's app. ``local``: only requests addressed to this machine by name are
    answered (Host header 127.0.0.1, localhost or ::1). ``report_folders``: where the
    playtest tab looks for the deck's latest simulation report."""
    shipped = files(__package__) / "app"
    app_files = {name: (shipped / name).read_bytes() for name in APP_FILES}
    streams: set = set()  # (loop, queue) of each open event stream

    async def page(request):
        return Response(app_files["index.html"], media_type=APP_FILES["index.html"])

    async def app_file(request):
        name = request.path_params["name"]
        if name not in APP_FILES:
            return Response("no such file", status_code=404)
        return Response(app_files[name], media_type=APP_FILES[name])

    async def deck(request):
        return JSONResponse(studio.state, headers={"Cache-Control": "no-store"})

    async def select(request):
        try:
            return JSONResponse({"numbers": studio.select(request.query_params.get("cards", ""))})
        except InputError as error:
            return JSONResponse({"problem": "; ".join(p.what for p in error.problems)})

    async def options(request):
        """The page's toggles: {"ink": "full"|"draft", "bleed": bool, "variant": {...},
        "lang": "de"}."""
        try:
            chosen = await request.json()
        except ValueError:
            chosen = None
        if not (isinstance(chosen, dict) and chosen.get("ink", "full") in INKS
                and isinstance(chosen.get("bleed", False), bool)
                and isinstance(chosen.get("variant", {}), dict)
                and isinstance(chosen.get("lang", ""), str)):
            return JSONResponse({"problem": "give ink 'full' or 'draft', bleed true or "
                                 "false, variant {name: option} and lang a language code"},
                                status_code=400)
        state = await run_in_threadpool(studio.choose, chosen.get("ink"),
                                        chosen.get("bleed"), chosen.get("variant"),
                                        chosen.get("lang"))
        return JSONResponse(state)

    async def sheets(request):
        paper = request.query_params.get("paper", "a4")
        if paper not in PAPERS:
            return JSONResponse({"problem": "paper is a4 or letter"}, status_code=400)
        try:
            return JSONResponse({"pages": await run_in_threadpool(studio.sheets, paper)})
        except InputError as error:
            return JSONResponse({"problem": "; ".join(str(p) for p in error.problems)})

    async def sheet_image(request):
        data = studio.sheet_images.get(request.path_params["key"])
        if data is None:
            return Response("no such sheet image", status_code=404)
        return Response(data, media_type="image/png")

    async def playtest(request):
        page = await run_in_threadpool(studio.playtest_report, report_folders)
        if page is None:
            return Response(NO_REPORT, media_type="text/html; charset=utf-8")
        return Response(page.read_bytes(), media_type="text/html; charset=utf-8")

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

        def told(version: int) -> None:  # from the rebuilding thread
            loop.call_soon_threadsafe(versions.put_nowait, version)

        studio.listen(told)
        streams.add((loop, versions))

        async def stream():
            try:
                yield f"data: {studio.state['version']}\n\n"
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

    async def no_icon(request):
        return Response(status_code=204)

    routes = [Route("/", page), Route("/favicon.ico", no_icon),
              Route("/app/{name}", app_file), Route("/api/deck", deck),
              Route("/api/select", select), Route("/api/options", options, methods=["POST"]),
              Route("/api/sheets", sheets), Route("/sheets/{key}.png", sheet_image),
              Route("/playtest", playtest), Route("/cards/{key}.png", image),
              Route("/events", events)]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=LOCAL_HOSTS)] if local \
        else []
    app = Starlette(routes=routes, middleware=middleware)

    def end_streams() -> None:
        """End every open event stream (from any thread): a server that is stopping
        waits for its open responses."""
        for loop, versions in list(streams):
            loop.call_soon_threadsafe(versions.put_nowait, None)

    app.state.end_streams = end_streams
    return app

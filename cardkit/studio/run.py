"""Run the studio: draw the deck, watch its files, serve the page until Ctrl-C."""

from __future__ import annotations

import socket
import threading
import webbrowser
from pathlib import Path

from ..pipeline.watch import watch
from .images import Studio
from .server import is_local, make_app

GRACE = 1.0  # seconds open event streams get to close on Ctrl-C


def run_studio(deck_path: Path, listening: socket.socket, open_page: bool, say,
               deck_named: str | None = None, allow_edit: bool = False,
               editor: str = "", stop: threading.Event | None = None) -> None:
    """Serve ``deck_path`` (``deck_named`` as the user named it) on the socket
    ``listening`` until Ctrl-C, or until ``stop`` is set (the studio run in a thread, as
    the browser tests run it); the pages are told after every burst of saves (as
    ``cardkit watch`` builds), and draw the deck again. The page may change the deck's
    files if the socket is this machine's only, or ``allow_edit``; its "Open in editor"
    links run the command ``editor``."""
    import uvicorn

    host, port = listening.getsockname()[:2]
    local = is_local(host)
    studio = Studio(deck_path)
    stop = stop or threading.Event()
    watcher = threading.Thread(target=watch, name="cardkit-studio", daemon=True,
                               args=(deck_path, Path("output"), studio.files_changed, stop))
    watcher.start()
    address = f"http://{'127.0.0.1' if local else host}:{port}/"
    say(f"cardkit studio: {address} (Ctrl-C stops)")
    if not local:
        say(f"cardkit: listening on {host}: any machine that reaches it can see the deck"
            + (" and change it" if allow_edit else " (read-only: --allow-edit lets it "
               "change the deck)"))
    if open_page:
        webbrowser.open(address)
    app = make_app(studio, host, report_folders=(Path("output"), Path(deck_path).parent),
                   deck_named=deck_named, allow_edit=allow_edit, editor=editor)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            app.state.end_streams()  # or the page's open event stream holds the stop up
            super().handle_exit(sig, frame)

        async def on_tick(self, counter: int) -> bool:  # ten times a second
            if stop.is_set():
                app.state.end_streams()
                return True
            return await super().on_tick(counter)

    server = Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=GRACE))
    try:
        server.run(sockets=[listening])
    except KeyboardInterrupt:  # uvicorn stops, then raises Ctrl-C again: stopping is the way out
        pass
    finally:
        stop.set()
        listening.close()

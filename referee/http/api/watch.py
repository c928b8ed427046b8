"""``GET /watch/`` and ``GET /watch/{id}`` (issue 25): the page that watches,
replays and verifies any game, plain HTML, CSS and classic JS shipped in the
package (``referee/web``), served under a strict Content-Security-Policy. The
page speaks only the public API (``/v1/...``) and verifies a log in the
browser (``verify.js``): no server code is involved in its verdict. The
table (issue 38) is ES modules under ``referee/web/table/`` (``/watch/table/...``),
served from their files as they are, like the page's own. The ladder page
(issue 42, ``/watch/ladder.html``) is one more of its files, its modules
under ``referee/web/ladder/``."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, abort, redirect
from flask.typing import ResponseReturnValue

bp = Blueprint("watch", __name__)

WEB = Path(__file__).resolve().parents[2] / "web"
#: the page's files and their media types; anything else under /watch/ is a game id
FILES = {"watch.html": "text/html; charset=utf-8", "watch.js": "text/javascript; charset=utf-8",
         "verify.js": "text/javascript; charset=utf-8", "tlog.js": "text/javascript; charset=utf-8",
         "watch.css": "text/css; charset=utf-8", "ladder.html": "text/html; charset=utf-8"}
#: a module or style sheet under referee/web (the table's, issue 38): plain path segments only, no ".."
ASSET = re.compile(r"(?:[a-z0-9_-]+/)+[a-z0-9_-]+\.(js|css)\Z")
#: the JavaScript client's modules (clients/js/src, linked in as web/client), served as /watch/client/...
CLIENT = WEB / "client"
TYPES = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@cache
def _read(name: str) -> bytes:
    return (WEB / name).read_bytes()


def _serve(name: str, content_type: str | None = None) -> Response:
    response = Response(_read(name), content_type=content_type or FILES[name])
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/")
def root() -> ResponseReturnValue:
    """The address ``make run`` prints, opened in a browser: the page (the API is under ``/v1``)."""
    return redirect("/watch/", 302)


@bp.get("/watch/")
def index() -> Response:
    return _serve("watch.html")


@bp.get("/watch/<name>")
def page(name: str) -> Response:
    if name in FILES:
        return _serve(name)
    if not GAME_ID.match(name):
        abort(404)
    return _serve("watch.html")


@bp.get("/watch/<path:name>")
def asset(name: str) -> Response:
    match = ASSET.match(name)
    if match is None or not (WEB / name).is_file():
        abort(404)
    return _serve(name, TYPES[match.group(1)])

"""``GET /watch/`` and ``GET /watch/{id}`` (issue 25): the page that watches,
replays and verifies any game, plain HTML, CSS and classic JS shipped in the
package (``referee/web``), served under a strict Content-Security-Policy. The
page speaks only the public API (``/v1/...``) and verifies a log in the
browser (``verify.js``): no server code is involved in its verdict."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, abort

bp = Blueprint("watch", __name__)

WEB = Path(__file__).resolve().parents[2] / "web"
#: the page's files and their media types; anything else under /watch/ is a game id
FILES = {"watch.html": "text/html; charset=utf-8", "watch.js": "text/javascript; charset=utf-8",
         "verify.js": "text/javascript; charset=utf-8", "watch.css": "text/css; charset=utf-8"}
#: the JavaScript client's modules (clients/js/src, linked in as web/client)
CLIENT = WEB / "client"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@cache
def _read(name: str) -> bytes:
    return (WEB / name).read_bytes()


@cache
def _client_modules() -> dict[str, bytes]:
    """The client's ``.js`` files by name, read once: only these are served
    under /watch/client/ (a name is looked up, never joined to a path)."""
    return {path.name: path.read_bytes() for path in CLIENT.glob("*.js") if path.is_file()}


def _serve(name: str) -> Response:
    return _headed(Response(_read(name), content_type=FILES[name]))


def _headed(response: Response) -> Response:
    """The page's headers: its strict CSP, no sniffing, no referrer, revalidated."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/watch/client/<name>")
def client(name: str) -> Response:
    """The JavaScript client's ES modules, for the page (``import … from "./client/index.js"``)."""
    module = _client_modules().get(name)
    if module is None:
        abort(404)
    return _headed(Response(module, content_type="text/javascript; charset=utf-8"))


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

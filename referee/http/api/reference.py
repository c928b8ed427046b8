"""``GET /docs``: the live API reference (issue 39 item 3), Swagger UI over
this referee's own contract, "try it out" sending real requests to it.

Swagger UI's files come from the ``flask-swagger-ui`` package (its ``dist``:
the upstream build, nothing fetched from anywhere else), served from here
under the same strict Content-Security-Policy as the watch page: no inline
script (the page's settings travel in ``data-`` attributes that
``reference.js`` reads), no third-party origin. The contract it shows is
``/openapi.yaml``'s, made for the rulesets installed here, with its
``servers`` replaced by this referee, so "try it out" needs no port. The
docs site (``mkdocs.yml``) writes the same page, script and files with
``write_site``, so both show one reference."""
from __future__ import annotations

import html
import json
import shutil
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, redirect, send_file
from werkzeug.wrappers import Response as BaseResponse

from referee.games import registry
from referee.http import contract as served
from referee.http.api.watch import CSP

bp = Blueprint("reference", __name__)

#: Swagger UI's built files, as the package ships them
DIST = Path(str(files("flask_swagger_ui") / "dist"))
#: the files the page loads, and their media types; nothing else of ``DIST`` is served
ASSETS = {"swagger-ui.css": "text/css; charset=utf-8", "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
          "favicon-32x32.png": "image/png"}
#: the page's own script: Swagger UI started on the element that carries its settings
SCRIPT = """\
"use strict";
// Swagger UI on #reference: the contract is openapi.js's (the docs site: it works from file:// too),
// else fetched from the element's data-spec (no inline script under the CSP)
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("reference");
  var where = window.refereeContract ? {spec: window.refereeContract} : {url: root.dataset.spec};
  window.ui = SwaggerUIBundle(Object.assign(where, {
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  }));
});
"""


def page(spec: str, embedded: bool = False) -> str:
    """The reference's HTML: Swagger UI's stylesheet and bundle, ``openapi.js``
    when ``embedded`` (the contract as a script: the docs site), then
    ``reference.js``; every URL relative, so it works under ``/docs/`` and in
    the docs site alike."""
    embed = '<script src="openapi.js"></script>\n' if embedded else ""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Referee API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="favicon-32x32.png">
<link rel="stylesheet" href="swagger-ui.css">
<script src="swagger-ui-bundle.js"></script>
{embed}<script src="reference.js"></script>
</head>
<body>
<div id="reference" data-spec="{html.escape(spec)}"></div>
</body>
</html>
"""


def spec(servers: list[dict[str, str]] | None) -> dict[str, Any]:
    """The contract this referee serves at ``/openapi.yaml``, with ``servers``
    replaced when given (``None`` keeps the file's)."""
    document: dict[str, Any] = served.read_yaml(served.render(served.FILE.read_text(), registry.names()))
    if servers is not None:
        document["servers"] = servers
    return document


@cache
def _served_spec() -> bytes:
    # "/" is relative to the document's URL: whatever host and port this referee answers on
    return json.dumps(spec([{"url": "/", "description": "this referee"}])).encode()


def _secured(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/docs")
def bare() -> BaseResponse:
    # the page's URLs are relative to /docs/
    return redirect("/docs/", code=308)


@bp.get("/docs/")
def index() -> Response:
    response = Response(page("openapi.json"), content_type="text/html; charset=utf-8")
    response.headers["Cache-Control"] = "no-cache"
    return _secured(response)


@bp.get("/docs/openapi.json")
def contract() -> Response:
    response = Response(_served_spec(), content_type="application/json")
    response.headers["Cache-Control"] = "no-cache"
    return _secured(response)


@bp.get("/docs/reference.js")
def script() -> Response:
    return _secured(Response(SCRIPT, content_type="text/javascript; charset=utf-8"))


@bp.get("/docs/<name>")
def asset(name: str) -> Response:
    if name not in ASSETS:
        abort(404)
    response = send_file(DIST / name, mimetype=ASSETS[name], max_age=3600)
    return _secured(response)


def write_site(directory: Path, servers: list[dict[str, str]] | None = None) -> None:
    """The same reference as static files in ``directory`` (the docs site's
    ``api/``): the page, its script, Swagger UI's files and the contract, as
    ``openapi.json`` and as the script ``openapi.js`` the page reads (a
    browser fetches nothing from ``file://``)."""
    directory.mkdir(parents=True, exist_ok=True)
    document = json.dumps(spec(servers))
    (directory / "index.html").write_text(page("openapi.json", embedded=True))
    (directory / "reference.js").write_text(SCRIPT)
    (directory / "openapi.json").write_text(document)
    (directory / "openapi.js").write_text(f"window.refereeContract = {document};\n")
    for name in ASSETS:
        shutil.copyfile(DIST / name, directory / name)

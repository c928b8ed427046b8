"""``GET /watch/client/<name>.js``: the JavaScript client's modules
(clients/js/src, linked in as referee/web/client) served to the watch page
as they are in the repository, under the page's own headers; nothing else
of that folder, and no path out of it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from referee.http.api import watch

SOURCE = Path(__file__).resolve().parents[2] / "clients" / "js" / "src"


@pytest.fixture
def client(app: Any) -> FlaskClient:
    """A plain test client: the page's routes are not the API's, so not in openapi.yaml."""
    return FlaskClient(app)


def test_the_link_is_the_clients_source() -> None:
    assert watch.CLIENT.is_symlink() and watch.CLIENT.resolve() == SOURCE.resolve()


@pytest.mark.parametrize("name", sorted(p.name for p in SOURCE.glob("*.js")))
def test_every_module_is_served_byte_for_byte_as_javascript_under_the_pages_csp(client: FlaskClient,
                                                                                 name: str) -> None:
    response = client.get(f"/watch/client/{name}")
    assert response.status_code == 200
    assert response.content_type == "text/javascript; charset=utf-8"
    assert response.get_data() == (SOURCE / name).read_bytes()
    page = client.get("/watch/")
    for header in ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Cache-Control"):
        assert response.headers[header] == page.headers[header]


@pytest.mark.parametrize("name", ["schema.d.ts", "nope.js", "..%2F..%2Fapp.py", "index.js.map", ".js"])
def test_anything_else_is_404(client: FlaskClient, name: str) -> None:
    assert client.get(f"/watch/client/{name}").status_code == 404


def test_a_path_out_of_the_folder_is_not_served(client: FlaskClient) -> None:
    assert client.get("/watch/client/../watch.py").status_code in (404, 308)
    assert client.get("/watch/client/sub/index.js").status_code == 404

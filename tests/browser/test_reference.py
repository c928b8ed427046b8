"""Issue 39 item 3: the live API reference at ``/docs`` in a real Chromium.
"Try it out" sends real requests to the referee that serves the page (on its
free port, whatever ``openapi.yaml``'s ``servers`` say) and shows its
answers; every file the page loads comes from that referee, under its strict
Content-Security-Policy, with no console error (the ``watched`` fixture).
The docs site's copy (``reference.write_site``) renders the same operations
from ``file://``, where a browser fetches nothing."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests

from referee.http.api import reference
from tests.browser.conftest import Watched
from tests.e2e.conftest import Live

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def operation(page: Any, operation_id: str, tag: str) -> Any:
    """The operation's block, opened."""
    block = page.locator(f"#operations-{tag}-{operation_id}")
    block.locator(".opblock-summary").first.click()
    block.locator(".try-out__btn").wait_for()
    return block


def test_try_it_out_lists_the_rulesets_of_the_referee_that_serves_the_page(live: Live, watched: Watched) -> None:
    page = watched.page
    page.goto(live.url + "/docs")
    assert page.url == live.url + "/docs/"
    block = operation(page, "listRulesets", "meta")
    block.locator(".try-out__btn").click()
    block.locator(".execute").click()
    status = block.locator(".live-responses-table .response .response-col_status").first
    status.wait_for()
    assert status.inner_text().strip() == "200"
    shown = json.loads(block.locator(".live-responses-table .response-col_description pre").first.inner_text())
    assert sorted(r["name"] for r in shown["rulesets"]) == ["bang", "bang-dice", "bang-faceoff", "bluffaneer"]
    assert live.url + "/v1/rulesets" in watched.urls
    assert all(url.startswith(live.url + "/") for url in watched.urls), watched.urls


def test_try_it_out_creates_a_game_and_reads_a_seat_view_with_its_token(live: Live, watched: Watched) -> None:
    page = watched.page
    page.goto(live.url + "/docs/")
    block = operation(page, "createGame", "games")
    block.locator(".try-out__btn").click()
    body = {"ruleset": "bluffaneer", "players": 3}
    block.locator("textarea.body-param__text").fill(json.dumps(body))
    block.locator(".execute").click()
    status = block.locator(".live-responses-table .response .response-col_status").first
    status.wait_for()
    assert status.inner_text().strip() == "201"
    created = json.loads(block.locator(".live-responses-table .response-col_description pre").first.inner_text())
    seen = requests.get(f"{live.url}/v1/games/{created['id']}", timeout=30).json()
    assert seen["ruleset"] == "bluffaneer" and len(seen["state"]["seats"]) == 3
    assert all(url.startswith(live.url + "/") for url in watched.urls), watched.urls


def test_execute_as_the_page_fills_it_creates_a_game_then_a_move_with_the_seats_token(live: Live,
                                                                                       watched: Watched) -> None:
    """A reader who edits nothing: the body Try it out fills in is openapi.yaml's example, which the
    referee accepts (a made-up body from the schema would be a 422); the seat's token goes under
    Authorize, and the move's prefilled body is its first move."""
    page = watched.page
    page.goto(live.url + "/docs/")
    block = operation(page, "createGame", "games")
    block.locator(".try-out__btn").click()
    assert json.loads(block.locator("textarea.body-param__text").input_value())["ruleset"] == "bluffaneer"
    block.locator(".execute").click()
    status = block.locator(".live-responses-table .response .response-col_status").first
    status.wait_for()
    assert status.inner_text().strip() == "201"
    created = json.loads(block.locator(".live-responses-table .response-col_description pre").first.inner_text())
    page.locator(".auth-wrapper .authorize").click()
    page.locator(".modal-ux input[type=text], .modal-ux input[type=password]").first.fill(
        created["seats"][0]["token"])
    page.locator(".modal-ux .auth-btn-wrapper .authorize").click()
    page.locator(".modal-ux .btn-done").click()
    move = operation(page, "submitMove", "games")
    move.locator(".try-out__btn").click()
    move.locator("tr[data-param-name=game_id] input").fill(created["id"])
    move.locator(".execute").click()
    moved = move.locator(".live-responses-table .response .response-col_status").first
    moved.wait_for()
    assert moved.inner_text().strip() == "201", move.locator(".live-responses-table").inner_text()
    answer = move.locator(".live-responses-table .response-col_description pre").first.inner_text()
    assert "receipt" in json.loads(answer)
    assert not watched.unexpected(), watched.unexpected()
    assert all(url.startswith(live.url + "/") for url in watched.urls), watched.urls


def test_the_reference_is_served_under_the_strict_csp_and_nothing_else_of_the_package(live: Live) -> None:
    for path in ("/docs/", "/docs/reference.js", "/docs/swagger-ui-bundle.js", "/docs/openapi.json"):
        r = requests.get(live.url + path, timeout=30)
        assert r.status_code == 200, path
        assert "script-src 'self';" in r.headers["Content-Security-Policy"], path
    assert requests.get(live.url + "/docs/openapi.json", timeout=30).json()["servers"] == [
        {"url": "/", "description": "this referee"}]
    for path in ("/docs/index.css", "/docs/oauth2-redirect.html", "/docs/..%2Fpyproject.toml"):
        assert requests.get(live.url + path, timeout=30).status_code == 404, path


def test_the_docs_sites_copy_renders_every_operation_from_file_url(watched: Watched, tmp_path: Path) -> None:
    reference.write_site(tmp_path)
    page = watched.page
    page.goto((tmp_path / "index.html").as_uri())
    page.locator("#operations-meta-listRulesets").wait_for()
    contract = json.loads((tmp_path / "openapi.json").read_text())
    # the routes and the webhooks the referee calls (the game-end webhook, docs/webhooks.md)
    ids = {op["operationId"] for section in ("paths", "webhooks") for path in contract.get(section, {}).values()
           for op in path.values() if isinstance(op, dict) and "operationId" in op}
    assert page.locator(".opblock").count() == len(ids)
    assert all(url.startswith("file://") for url in watched.urls), watched.urls

"""What gunicorn refuses before the app sees it is problem+json too (issue 8,
Found 10), over real HTTP against ``referee serve``."""
from __future__ import annotations

import json
import socket
from urllib.parse import urlparse

import pytest
import requests

from tests import contract
from tests.e2e.conftest import Live

pytestmark = pytest.mark.e2e


def raw(live: Live, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as is; the status, headers and body that come back."""
    url = urlparse(live.url)
    with socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def assert_problem(status: int, headers: dict[str, str], body: bytes, want: int, code: str, path: str) -> None:
    assert status == want, (status, body[:300])
    assert headers["content-type"] == "application/problem+json", headers
    assert json.loads(body)["code"] == code
    contract.check("GET", path, status, headers["content-type"], body)


def test_an_over_long_request_line_is_a_414_problem(live: Live) -> None:
    # Regression: gunicorn answered its own 414 as an HTML page.
    status, headers, body = raw(live, b"GET /v1/rulesets?x=" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert_problem(status, headers, body, 414, "uri_too_long", "/v1/rulesets")


def test_too_many_or_too_long_headers_are_a_431_problem(live: Live) -> None:
    # Regression: gunicorn answered its own 431 as an HTML page.
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(150))
    status, headers, body = raw(live, b"GET /health HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
    assert_problem(status, headers, body, 431, "headers_too_large", "/health")
    status, headers, body = raw(live, b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n")
    assert_problem(status, headers, body, 431, "headers_too_large", "/health")


def test_a_malformed_request_is_a_400_problem(live: Live) -> None:
    status, headers, body = raw(live, b"GET /health HTTP/9.9\r\nHost: x\r\n\r\n")
    assert status == 400 and headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "bad_request"


def test_the_api_still_answers_normally(live: Live) -> None:
    r = requests.get(live.url + "/v1/rulesets?x=" + "a" * 3000, timeout=10)
    assert r.status_code == 200
    r = requests.delete(live.url + "/health", timeout=10)
    assert r.status_code == 405 and "GET" in r.headers["Allow"]

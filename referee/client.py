"""A small HTTP client for the v1 API (used by the end-to-end tests, the
benchmarks and the command line). Every error is raised as ``HttpProblem``."""
from __future__ import annotations

import json
from typing import Any, cast

import requests


class HttpProblem(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('detail')}")
        self.status, self.body = status, body

    @property
    def code(self) -> str | None:
        return self.body.get("code")


class RefereeClient:
    def __init__(self, base_url: str, *, timeout: float = 35.0) -> None:
        self.base = base_url.rstrip("/")
        self.http = requests.Session()
        self.timeout = timeout

    def _call(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = self.http.request(method, self.base + path, headers=headers, timeout=self.timeout, **kwargs)
        if response.status_code >= 400:
            try:
                body = response.json()
            except ValueError:
                body = {"code": f"http_{response.status_code}", "detail": response.text[:200]}
            raise HttpProblem(response.status_code, body)
        return response

    def create_game(self, ruleset: str, **body: Any) -> dict[str, Any]:
        return cast(dict[str, Any], self._call("POST", "/v1/games", json={"ruleset": ruleset, **body}).json())

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        return cast(dict[str, Any], self._call("GET", f"/v1/games/{game_id}", token).json())

    def move(self, game_id: str, token: str, move: dict[str, Any], *, expected_version: int | None = None,
             idempotency_key: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"move": move}
        if expected_version is not None:
            body["expected_version"] = expected_version
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        return cast(dict[str, Any], self._call("POST", f"/v1/games/{game_id}/moves", token, json=body, headers=headers).json())

    def events(self, game_id: str, token: str | None = None, *, after: int = 0, wait: float = 0) -> dict[str, Any]:
        return cast(dict[str, Any], self._call("GET", f"/v1/games/{game_id}/events", token, params={"after": after, "wait": wait}).json())

    def log(self, game_id: str, token: str | None = None) -> list[dict[str, Any]]:
        text = self._call("GET", f"/v1/games/{game_id}/log", token).text
        return [json.loads(line) for line in text.splitlines() if line]

    def audit(self, game_id: str) -> dict[str, Any]:
        return cast(dict[str, Any], self._call("GET", f"/v1/games/{game_id}/audit").json())

    def health(self) -> dict[str, Any]:
        return cast(dict[str, Any], self._call("GET", "/health").json())

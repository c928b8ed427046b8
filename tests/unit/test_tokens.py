"""The secrets the referee hands out never begin with ``-``: a command line
would read one as an option (``referee play --secret -x…`` failed one time in
64, and the outbound bot it served never connected)."""
from __future__ import annotations

import secrets

import pytest

from referee import tokens


def test_a_token_beginning_with_a_dash_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = iter(["-starts-with-a-dash", "_fine"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda nbytes: next(drawn))
    assert tokens.new_token() == "_fine"


def test_tokens_are_url_safe_of_the_asked_length_and_never_begin_with_a_dash() -> None:
    drawn = [tokens.new_token(24) for _ in range(2000)]  # ~31 would begin with "-" before the fix
    assert not any(t.startswith("-") for t in drawn)
    assert {len(t) for t in drawn} == {32} and len(set(drawn)) == len(drawn)
    assert {len(tokens.new_token(32))} == {43}

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


def test_a_games_callback_secret_is_drawn_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """The webhook secret once bypassed ``new_token``: the docs' receiver
    (``--secret SECRET``) refused one in 64 and CI drew one."""
    from referee.service.webhooks import Webhooks

    drawn = iter(["-starts-with-a-dash", "_fine"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda nbytes: next(drawn))
    assert Webhooks.new_secret() == "_fine"

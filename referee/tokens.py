"""The secrets the referee hands out: seat and owner tokens, bot secrets,
tournament cancel tokens."""
from __future__ import annotations

import secrets


def new_token(nbytes: int = 24) -> str:
    """A fresh secret of ``nbytes`` random bytes, URL-safe base64, never
    beginning with ``-``: a command line reads such a value as an option
    (``referee play --secret -x…`` fails), and one token in 64 would. It is
    drawn again instead, so it stays uniform over the tokens that do not."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token

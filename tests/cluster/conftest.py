"""Shared by the cluster tests: haproxy present, or a loud skip."""
from __future__ import annotations

import pytest

from referee.ops.topology import HAPROXY_MISSING, haproxy_binary


def require_haproxy() -> str:
    """haproxy's path; else skip the test, loudly, saying how to install it."""
    binary = haproxy_binary()
    if binary is None:
        pytest.skip(f"SKIPPED, NOT RUN: {HAPROXY_MISSING}")
    return binary

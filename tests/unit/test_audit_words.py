"""The offline audit's counts read as a person says them."""
from __future__ import annotations

from referee.audit import signed


def test_one_receipt_is_a_receipt_and_more_are_receipts() -> None:
    assert signed._receipts(1) == "1 receipt"
    assert [signed._receipts(n) for n in (0, 2, 12)] == ["0 receipts", "2 receipts", "12 receipts"]

"""How many examples a property test draws (hypothesis's ``max_examples``).

The count written in a test is its long run's, drawn with
``REFEREE_EXAMPLES=all`` (e.g. ``REFEREE_EXAMPLES=all make test``). By
default a count above ``FLOOR`` draws a third of it, never fewer than
``FLOOR``: the same properties, checked over fewer generated values, so
that ``make test`` answers in minutes (issue 37, item 6)."""
from __future__ import annotations

import os

#: the most examples a property draws by default at no discount
FLOOR = 300
#: whether every property draws the count written beside it
ALL = os.environ.get("REFEREE_EXAMPLES", "").strip().lower() == "all"


def examples(written: int) -> int:
    """``max_examples`` for a property whose long run draws ``written``."""
    return written if ALL or written <= FLOOR else max(FLOOR, written // 3)

"""``referee worker`` stopped while it starts: its SIGTERM handler's
``SystemExit`` can land where Python cannot raise it (a weakref callback of
the import system: "Exception ignored", and the start goes on). The stop is
remembered and raised again before the queue is worked (a worker stopped
during its imports once worked on, and a test waited 30 s for it)."""
from __future__ import annotations

import signal
import sys
import weakref
from typing import Any

import pytest

from referee.ops.serving import StopAsked


class _Thing:
    pass


def test_a_stop_whose_exit_python_dropped_in_a_callback_is_raised_again_before_the_queue_is_worked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    dropped: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)  # where Python reports what it drops
    stop = StopAsked()
    stop.check()  # nothing asked: the start goes on
    thing = _Thing()
    ref = weakref.ref(thing, lambda _: stop(signal.SIGTERM, None))  # the handler, run inside a callback
    del thing  # the callback runs: its SystemExit is reported and dropped, as Python does
    assert ref() is None and [type(d.exc_value) for d in dropped] == [SystemExit]
    with pytest.raises(SystemExit) as stopped:
        stop.check()
    assert stopped.value.code == 0


def test_a_stop_asked_raises_at_once_where_it_lands() -> None:
    with pytest.raises(SystemExit):
        StopAsked()(signal.SIGINT, None)

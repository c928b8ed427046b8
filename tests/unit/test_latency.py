"""Each bot's latency and health read from a game's log
(``referee.play.latency``, issue 40 item 2 and issue 42): a default played
for a seat is no timed move; it is a timeout when the answer came too late
or never, an invalid answer when it was refused, and neither when it was
played for a seat whose player is away. One case a test."""
from __future__ import annotations

from typing import Any

from referee.engine.clock import CLOCK_DEFAULT
from referee.engine.platform import MOVE
from referee.engine.timing import Timing
from referee.play import latency


def log(*moves: tuple[int, int, dict[str, Any] | None]) -> list[dict[str, Any]]:
    """A log of two seats: an opening event at 1000 ms, then each ``(seat, at, by)`` move."""
    out: list[dict[str, Any]] = [{"type": "dealt", "actor": None, "data": {}, "at": 1000}]
    for seat, at, by in moves:
        out.append({"type": MOVE, "actor": seat, "data": {"move": {"type": "x"}, **({"by": by} if by else {})},
                    "at": at})
    return out


def test_an_own_move_is_timed_from_when_its_wait_began() -> None:
    cells = latency.seat_latencies(log((0, 1040, None), (1, 1100, {"bot": "bot_x"})), 2)
    assert cells[0] == {"moves": 1, "total_ms": 40, "max_ms": 40, "timeouts": 0, "invalid": 0}
    assert cells[1]["moves"] == 1 and cells[1]["total_ms"] == 60


def test_a_turn_timeout_default_is_a_timeout() -> None:
    cells = latency.seat_latencies(log((0, 5000, {"default": "timeout"})), 2)
    assert cells[0] == {"moves": 0, "total_ms": 0, "max_ms": 0, "timeouts": 1, "invalid": 0}


def test_a_clock_default_is_a_timeout() -> None:
    assert latency.seat_latencies(log((0, 5000, {"default": CLOCK_DEFAULT})), 2)[0]["timeouts"] == 1


def test_a_registered_bots_late_answer_is_a_timeout() -> None:
    cells = latency.seat_latencies(log((1, 9000, {"bot": "bot_x", "default": "timeout"})), 2)
    assert cells[1]["timeouts"] == 1 and cells[1]["invalid"] == 0


def test_a_registered_bots_refused_answer_is_invalid_not_a_timeout() -> None:
    cells = latency.seat_latencies(log((1, 1200, {"bot": "bot_x", "default": "bad_answer"})), 2)
    assert cells[1] == {"moves": 0, "total_ms": 0, "max_ms": 0, "timeouts": 0, "invalid": 1}


def test_a_check_answer_code_default_is_invalid() -> None:
    assert latency.seat_latencies(log((0, 1200, {"bot": "bot_x", "default": "invalid_answer"})), 2)[0][
        "invalid"] == 1


def test_an_away_seats_default_is_neither_timeout_nor_invalid() -> None:
    cells = latency.seat_latencies(log((0, 70_000, {"default": "away"})), 2)
    assert cells[0] == latency.empty()


def test_health_counts_the_same_kinds_and_a_histogram_of_own_moves() -> None:
    cells = latency.seat_health(log((0, 1010, None), (0, 1030, None), (0, 1130, None),
                                    (1, 9000, {"default": "timeout"}), (1, 9100, {"default": "bad_answer"}),
                                    (1, 99_000, {"default": "away"})), 2)
    assert cells[0]["moves"] == 3 and sum(cells[0]["hist"].values()) == 3
    assert (cells[1]["moves"], cells[1]["timeouts"], cells[1]["invalid"], cells[1]["hist"]) == (0, 1, 1, {})


def test_the_median_read_from_the_histogram_is_within_five_percent() -> None:
    kept: dict[str, Any] = {}
    for ms in [3, 10, 40, 200, 200, 250, 5000]:
        latency.add_health(kept, {"moves": 1, "timeouts": 0, "invalid": 0, "hist": {str(latency.bucket(ms)): 1}})
    median = latency.median_ms(kept["hist"])
    assert median is not None and abs(median - 200) <= 0.05 * 200
    assert latency.median_ms({}) is None
    assert latency.median_ms({"0": 3}) == 0


def test_the_folded_timings_health_is_the_logs_however_it_is_folded() -> None:
    """``Timing.health`` (what a process that holds the game knows) is
    ``seat_health`` of the whole log, folded in one go or a few events at a time."""
    moves = log((0, 1010, None), (1, 1013, None), (0, 1130, None), (1, 9000, {"default": "timeout"}),
                (0, 9100, {"default": "bad_answer"}), (1, 99_000, {"default": "away"}), (1, 99_250, None))
    whole = latency.seat_health(moves, 2)
    assert Timing.start(2).fold(moves, len(moves)).health() == whole
    timing = Timing.start(2)
    for start in range(0, len(moves), 3):
        timing = timing.fold(moves[start:start + 3], min(start + 3, len(moves)))
    assert timing.health() == whole and whole[1]["timeouts"] == 1 and whole[0]["invalid"] == 1
    assert sum(whole[0]["hist"].values()) == whole[0]["moves"] == 2

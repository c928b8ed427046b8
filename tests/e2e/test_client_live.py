"""``referee.client`` against real ``referee serve`` and ``referee worker``
processes over real HTTP: a game played to the end with the typed client,
its events streamed over SSE meanwhile, every receipt found in the log, and
the audit clean."""
from __future__ import annotations

import threading

import pytest

from referee.client import Event, GameOver, MoveAccepted, NotYourTurn, RefereeClient, VersionConflict
from tests.e2e.conftest import Live, checked_client

pytestmark = pytest.mark.e2e


def test_e2e_the_client_plays_a_game_to_the_end_streams_it_and_audits_it(live: Live) -> None:
    client: RefereeClient = live.client
    assert client.health().status == "ok" and client.keys().keys
    game = client.games.create("bang-dice", players=3)
    streamed: list[Event] = []
    failed: list[BaseException] = []

    def listen() -> None:  # a spectator on its own client: the stream ends with the game
        try:
            with checked_client(live.url) as spectator:
                streamed.extend(spectator.games.stream(game.id))
        except BaseException as exc:  # reported by the main thread
            failed.append(exc)

    listener = threading.Thread(target=listen)
    listener.start()
    accepted: list[MoveAccepted] = []
    refused_out_of_turn = False
    move: dict[str, object] = {}
    for _ in range(2000):
        spectator = client.games.view(game.id)
        if not spectator.active:
            break
        if not spectator.to_act:  # the referee's own timeout is due: the worker plays it
            client.games.events(game.id, after=spectator.version, wait=5)
            continue
        seat = spectator.to_act[0]
        mine = client.games.view(game.id, token=game.tokens[seat])
        if not mine.legal_moves:
            continue
        move = mine.legal_moves[0]
        idle = [s for s in range(3) if s not in spectator.to_act]
        if not refused_out_of_turn and idle:  # the same move from a seat not awaited: 403
            with pytest.raises(NotYourTurn):
                client.games.move(game.id, move, token=game.tokens[idle[0]])
            refused_out_of_turn = True
        try:  # expected_version: the last version this client saw (the view just read)
            accepted.append(client.games.move(game.id, move, token=game.tokens[seat]))
        except VersionConflict:  # a timeout was played meanwhile: look again
            continue
    assert refused_out_of_turn
    final = client.games.view(game.id)
    assert final.status == "finished" and final.result is not None
    # a winner, or (the game's seed is fresh) every seat dead at once: a draw for all (D-rules)
    assert final.result.winners or (final.result.reason == "nobody_alive"
                                    and set(final.result.outcomes.values()) == {"draw"}), final.result
    with pytest.raises(GameOver):
        client.games.move(game.id, move, token=game.tokens[0], expected_version=None)

    listener.join(timeout=60)
    assert not listener.is_alive() and not failed, failed
    assert [e.seq for e in streamed] == list(range(1, final.version + 1))

    log = client.games.log(game.id)
    assert [e.hash for e in log.events] == [e.hash for e in streamed]
    assert accepted and all(a.receipt.head == log.events[a.receipt.version - 1].hash for a in accepted)
    assert {a.receipt.kid for a in accepted} <= {k.kid for k in client.keys().keys}
    report = client.games.audit(game.id)
    assert report.ok and report.signed, report.raw
    assert report.events == final.version


def test_e2e_the_modules_usage_example_plays_a_game_with_bots_to_the_end(live: Live,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    import textwrap

    import referee.client
    doc = referee.client.__doc__ or ""
    example = textwrap.dedent(doc[doc.index("    from referee.client"):doc.index("Sub-clients per area")])
    assert example.count("\n") >= 10 and "http://127.0.0.1:8000" in example
    exec(compile(example.replace("http://127.0.0.1:8000", live.url), "referee.client example", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("Result(winners=") and printed[-1].endswith(" True")
    assert any(line.startswith("receipt for version ") for line in printed)

"""Game-end webhooks against real processes (issue 40 item 3, "Done when"):
``referee serve``, two ``referee worker`` processes (RQ's scheduler in
them retries a failed delivery after each interval), their own Redis, and
a webhook receiver on loopback that fails the first two tries."""
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from referee.client import GameCreated, RefereeClient
from referee.store.redis_server import free_port
from tests.e2e.conftest import REFEREE, _wait_healthy, checked_client
from tests.e2e.test_worker_shutdown import wait_for
from tests.processes import own_redis, stop
from tests.webhook_receiver import WebhookReceiver

pytestmark = pytest.mark.e2e

BOTS = [{"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}]


@pytest.fixture(scope="module")
def referee() -> Iterator[RefereeClient]:
    """A referee, two workers and a Redis of their own; loopback callbacks
    allowed, a failed delivery tried again after 1 s, twice, then after 2 s."""
    redis_port, redis_proc = own_redis()
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "REFEREE_BOT_ALLOW_PRIVATE": "1",
           "REFEREE_WEBHOOK_RETRY_S": "1,1,2", "REFEREE_RATE_LIMIT": "off", "REFEREE_ADMIN_TOKEN": "e2e-admin"}
    port = free_port()
    procs = [subprocess.Popen([REFEREE, "serve", "--port", str(port)], env=env),
             subprocess.Popen([REFEREE, "worker"], env=env), subprocess.Popen([REFEREE, "worker"], env=env)]
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, procs)
        yield checked_client(url)
    finally:
        stop(*procs, redis_proc)


def _delivered(referee: RefereeClient, game: GameCreated) -> bool:
    return _state_is(referee, game.id, str(game.owner_token), "delivered")


def _state_is(referee: RefereeClient, game_id: str, token: str, state: str) -> bool:
    return referee.games.deliveries(game_id, owner_token=token).state == state


def _listening(port: int) -> bool:
    import socket
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _resign_of(referee: RefereeClient, game: GameCreated) -> dict[str, Any] | None:
    """Seat 0's resign, once it is among its legal moves (its turn)."""
    return next((m for m in referee.games.view(game.id, token=game.tokens[0]).legal_moves
                 if m["type"] == "resign"), None)


def _eventually(check: Callable[[], Any], what: str) -> Any:
    """``check()``'s first truthy answer (generous patience: the suite runs on every core)."""
    return wait_for(what, check, timeout_s=90)


def test_e2e_a_receiver_failing_twice_gets_exactly_one_signed_delivery_per_finished_game(
        referee: RefereeClient) -> None:
    """Each of two games of bots, finished by the workers, is delivered to a
    receiver that fails its first two tries: three tries a game, all with the
    game's one delivery id and signed with its callback_secret, one accepted;
    the body's final head is the log's, its signature verifies with the
    published key, and the game audits clean. The creator sees each try."""
    with WebhookReceiver(fail_with=[500, 502]) as first, WebhookReceiver(fail_with=[503, 500]) as second:
        games = [referee.games.create("bluffaneer", seats=BOTS, options={"callback_url": hook.url})
                 for hook in (first, second)]
        for game in games:
            _eventually(partial(_delivered, referee, game), f"{game.id} to be delivered")
        keys = referee.keys().raw
        for game, hook in zip(games, (first, second)):
            got = hook.all()
            assert [r.answered for r in got] == ([500, 502, 200] if hook is first else [503, 500, 200])
            assert len(hook.accepted()) == 1
            assert {r.delivery for r in got} == {f"{game.id}:finished"} and len({r.body for r in got}) == 1
            assert all(r.signed_by(str(game.callback_secret)) for r in got)
            body = got[-1].payload()
            assert got[-1].head_signed(keys) is None
            log = referee.games.log(game.id).lines
            assert (body["game"], body["version"], body["head"]) == (game.id, log[-1]["seq"], log[-1]["hash"])
            assert referee.games.audit(game.id).ok
            shown = referee.games.deliveries(game.id, owner_token=str(game.owner_token))
            assert [(a.status, a.error) for a in shown.attempts] == [
                (got[0].answered, f"http_{got[0].answered}"), (got[1].answered, f"http_{got[1].answered}"),
                (200, None)]
            assert shown.delivered_at == shown.attempts[-1].at and shown.attempts_max == 4


def test_e2e_a_receiver_that_never_accepts_is_given_up_after_the_last_try(referee: RefereeClient) -> None:
    """Bounded: one try and one after each interval (1, 1 and 2 s), then ``failed``; nothing after."""
    with WebhookReceiver(fail_with=[500] * 20) as hook:
        game = referee.games.create("bluffaneer", seats=BOTS, options={"callback_url": hook.url})
        shown = _eventually(lambda: (d := referee.games.deliveries(game.id, owner_token=str(game.owner_token)))
                            .state == "failed" and d, "the delivery to be given up")
        assert [a.status for a in shown.attempts] == [500] * 4 and len(hook.all()) == 4


def test_e2e_the_docs_receiver_checks_both_signatures_and_takes_the_end_once(referee: RefereeClient,
                                                                             tmp_path: Any) -> None:
    """examples/game_end_receiver.py (docs/webhooks.md), started after the
    game was made: whatever it missed is tried again, and it prints the end
    it verified (HMAC, then the final head with the published key)."""
    port = free_port()
    game = referee.games.create("bluffaneer", seats=[{"name": "me"}, *BOTS[1:]],
                                options={"callback_url": f"http://127.0.0.1:{port}/game-over"})
    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "game_end_receiver.py")
    env = {**os.environ, "REFEREE_URL": referee.base}
    receiver = subprocess.Popen([sys.executable, script, "--port", str(port), "--secret", str(game.callback_secret),
                                 "--once"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _eventually(partial(_listening, port), "the receiver to listen")
        resign = _eventually(partial(_resign_of, referee, game), "seat 0's turn")
        referee.games.move(game.id, resign, token=game.tokens[0])  # the bots play the game to its end
        stdout, stderr = receiver.communicate(timeout=120)
    finally:
        if receiver.poll() is None:
            receiver.kill()
            receiver.wait()
    assert receiver.returncode == 0, stderr
    assert stdout.startswith(f"accepted {game.id}:finished: game {game.id} finished at version ")
    # the receiver may have answered and exited before the worker wrote down its 200
    shown = _eventually(lambda: (d := referee.games.deliveries(game.id, owner_token=str(game.owner_token)))
                        .state == "delivered" and d, "the delivery to be recorded as delivered")
    assert shown.attempts[-1].status == 200


def test_e2e_a_tournament_delivers_each_game_it_deals_once(referee: RefereeClient) -> None:
    """A tournament's callback_url: every game's end, with the tournament's
    id, signed with its callback_secret, accepted once; its cancel token
    reads each game's deliveries."""
    with WebhookReceiver(fail_with=[500]) as hook:
        made = referee.tournaments.create("bluffaneer", ["random", "heuristic", "random"], 3, players=3,
                                          callback_url=hook.url)
        secret, cancel = str(made.callback_secret), str(made.cancel_token)
        done = _eventually(lambda: (t := referee.tournaments.get(made.id)).status == "finished" and t,
                           "the tournament to finish")
        ids = [g.id for g in done.games]
        for game_id in ids:
            _eventually(partial(_state_is, referee, game_id, cancel, "delivered"), f"{game_id} to be delivered")
        accepted = hook.accepted()
    assert sorted(r.payload()["game"] for r in accepted) == sorted(ids)
    assert all(r.payload()["tournament"] == made.id and r.signed_by(secret) for r in accepted)
    assert len(hook.all()) == len(ids) + 1  # one game's first try failed, and was tried again

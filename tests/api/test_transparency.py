"""The transparency log (issue 41 item 4; docs/transparency.md): every
finished game's signed final head is a leaf of one append-only RFC 6962
tree; its checkpoint is signed by the referee's key; each game's inclusion
and any two checkpoints' consistency are proven; a rewritten finished game
is caught by whoever holds an earlier checkpoint."""
from __future__ import annotations

import base64
import json
from functools import partial
from typing import Any

from referee.engine import checkpoint, merkle
from referee.engine.signature import PublicKeys
from tests.api.helpers import create, ndjson, play_to_end, redis_sent


def _resign_first(seat: int, moves: list[dict[str, Any]], step: int) -> dict[str, Any]:
    return next((m for m in moves if m.get("type") == "resign"), moves[0])


def _finished(client: Any, clock: Any, service: Any) -> str:
    game = create(client, ruleset="bang-faceoff", players=2)
    assert play_to_end(client, game, clock, service, pick=_resign_first)["status"] == "finished"
    return str(game["id"])


def _keys(client: Any) -> PublicKeys:
    return PublicKeys.from_jwks(client.get("/v1/keys").get_json())


def _verified(client: Any, game_id: str) -> tuple[dict[str, Any], checkpoint.Checkpoint]:
    proof = client.get(f"/v1/transparency/proof/inclusion?game={game_id}").get_json()
    tree = checkpoint.verify(proof["checkpoint"], _keys(client))
    leaf = proof["leaf"].encode()
    assert merkle.verify_inclusion(merkle.leaf_hash(leaf), proof["index"], tree.size,
                                   [base64.b64decode(h) for h in proof["proof"]], tree.root)
    return proof, tree


def test_every_finished_game_is_a_leaf_proven_against_a_signed_checkpoint(client: Any, clock: Any,
                                                                          service: Any) -> None:
    """Issue 41 item 4: the leaf is the game's signed final head, as its log's last event carries it."""
    games = [_finished(client, clock, service) for _ in range(3)]
    note = client.get("/v1/transparency/checkpoint")
    assert note.status_code == 200 and note.mimetype == "text/plain"
    assert checkpoint.verify(note.get_data(as_text=True), _keys(client)).size == 3
    for index, game_id in enumerate(games):
        proof, tree = _verified(client, game_id)
        assert (proof["index"], tree.size) == (index, 3)
        last = ndjson(client.get(f"/v1/games/{game_id}/log").get_data(as_text=True))[-1]
        assert json.loads(proof["leaf"]) == {"purpose": "referee.final", "game": game_id, "version": last["seq"],
                                             "head": last["hash"], "kid": last["signature"]["kid"]}


def test_any_two_checkpoints_are_consistent_and_a_rewritten_game_is_caught(client: Any, clock: Any,
                                                                           service: Any) -> None:
    """A referee that rewrites a finished game cannot show a tree consistent with an earlier checkpoint."""
    first = _finished(client, clock, service)
    old = checkpoint.verify(client.get("/v1/transparency/checkpoint").get_data(as_text=True), _keys(client))
    _finished(client, clock, service)
    _finished(client, clock, service)
    body = client.get(f"/v1/transparency/proof/consistency?from={old.size}").get_json()
    new = checkpoint.verify(body["checkpoint"], _keys(client))
    proof = [base64.b64decode(h) for h in body["proof"]]
    assert merkle.verify_consistency(old.size, new.size, old.root, new.root, proof)
    # the referee rewrites the first game's final head and rebuilds its log around it
    store = service.store.transparency
    leaves = store.leaves()
    forged = json.loads(leaves[0])
    forged["head"] = "0" * 64
    rebuilt = [(first, json.dumps(forged, sort_keys=True, separators=(",", ":")).encode())]
    rebuilt += [(f"g{i}", leaf) for i, leaf in enumerate(leaves[1:])]
    root = store.rebuild(rebuilt)
    forged_body = client.get(f"/v1/transparency/proof/consistency?from={old.size}").get_json()
    forged_proof = [base64.b64decode(h) for h in forged_body["proof"]]
    assert not merkle.verify_consistency(old.size, new.size, old.root, root, forged_proof)
    assert root != new.root


def test_rebuild_from_the_leaves_gives_the_same_root(client: Any, clock: Any, service: Any) -> None:
    """Issue 41 item 6: the log rebuilt from the leaves an archive keeps has the same root."""
    games = [_finished(client, clock, service) for _ in range(5)]
    before = checkpoint.verify(client.get("/v1/transparency/checkpoint").get_data(as_text=True), _keys(client))
    store = service.store.transparency
    assert store.rebuild(list(zip(games, store.leaves(), strict=True))) == before.root
    assert merkle.root_of(store.leaves()) == before.root


def test_a_game_not_finished_has_no_proof_and_a_size_past_the_log_is_refused(client: Any, clock: Any,
                                                                              service: Any) -> None:
    game = create(client, ruleset="bang-faceoff", players=2)
    response = client.get(f"/v1/transparency/proof/inclusion?game={game['id']}")
    assert response.status_code == 404 and response.get_json()["code"] == "not_logged"
    _finished(client, clock, service)
    response = client.get("/v1/transparency/proof/consistency?from=1&to=5")
    assert response.status_code == 422 and response.get_json()["code"] == "bad_tree_size"
    response = client.get("/v1/transparency/proof/inclusion?game=no/such")
    assert response.status_code == 400


def test_a_finished_game_the_log_missed_is_logged_when_its_proof_is_asked(client: Any, clock: Any,
                                                                           service: Any) -> None:
    """A process that died between a game's last move and its log entry loses nothing: the proof logs it."""
    game_id = _finished(client, clock, service)
    store = service.store.transparency
    store.rebuild([])  # as if the entry never landed
    proof, tree = _verified(client, game_id)
    last = ndjson(client.get(f"/v1/games/{game_id}/log").get_data(as_text=True))[-1]
    assert (proof["index"], tree.size) == (0, 1) and json.loads(proof["leaf"])["head"] == last["hash"]


def test_appends_racing_from_threads_get_one_index_each_and_every_cached_proof_verifies(service: Any) -> None:
    """Appends are serialised by Redis (one script gives the index); the cached subtree hashes
    serve every root and inclusion proof as a tree built from the leaves alone would."""
    from concurrent.futures import ThreadPoolExecutor
    store = service.store.transparency
    store.rebuild([])
    names = [f"g{i}" for i in range(37)]
    with ThreadPoolExecutor(4) as pool:
        indexes = list(pool.map(lambda name: store.append(name, name.encode())[0], names))
    assert sorted(indexes) == list(range(37))
    assert store.append("g3", b"another head")[1] is False  # a game is logged once
    leaves = store.leaves()
    tree = store.tree()
    for size in (1, 2, 3, 8, 13, 36, 37):
        root = merkle.root_of(leaves[:size])
        assert tree.root(size) == root
        for index in range(size):
            assert merkle.verify_inclusion(merkle.leaf_hash(leaves[index]), index, size,
                                           tree.inclusion(index, size), root)
        assert merkle.verify_consistency(size, 37, root, merkle.root_of(leaves), tree.consistency(size, 37))


def test_the_log_and_the_final_receipt_link_the_inclusion_proof(client: Any, clock: Any, service: Any,
                                                                 monkeypatch: Any) -> None:
    """Item 4: a finished game's ``/log`` (its bytes the signed chain's)
    carries a ``Link`` to its inclusion proof, and the 201 of the move that
    finished it links it next to the signed receipt; no earlier 201 does."""
    from tests.api import helpers
    answers: list[dict[str, Any]] = []
    played = helpers.move

    def move(*args: Any, **kwargs: Any) -> Any:  # every 201 play_to_end gets
        response = played(*args, **kwargs)
        answers.append(response.get_json())
        return response
    monkeypatch.setattr(helpers, "move", move)
    game = create(client, ruleset="bang-faceoff", players=2)
    running = client.get(f"/v1/games/{game['id']}/log", headers={"Authorization": "Bearer admin-secret"})
    assert "Link" not in running.headers
    assert play_to_end(client, game, clock, service, pick=_resign_first)["status"] == "finished"
    link = f"/v1/transparency/proof/inclusion?game={game['id']}"
    assert answers[-1]["status"] == "finished" and answers[-1]["inclusion_proof"] == link
    assert all("inclusion_proof" not in a for a in answers[:-1])
    log = client.get(f"/v1/games/{game['id']}/log")
    assert log.headers["Link"] == f'<{link}>; rel="inclusion-proof"'
    last = ndjson(log.get_data(as_text=True))[-1]
    proof = client.get(link).get_json()
    assert json.loads(proof["leaf"])["head"] == last["hash"] and "inclusion_proof" not in last


def test_an_append_caches_every_subtree_it_completes_in_two_round_trips(service: Any, monkeypatch: Any) -> None:
    """The append's script reads the left halves of the subtrees the new leaf
    completes; the appender hashes and caches them in one write: the cache
    then holds every perfect subtree, as a tree rebuilt from the leaves has
    it. A left half missing from the cache (its appender died before caching
    it) is computed from its children, and the hashes stay right."""
    store = service.store.transparency
    store.rebuild([])
    for i in range(23):
        if i == 15:  # leaf 15 completes subtrees whose left halves (0:14, 1:6, 2:2, 3:0) are then gone
            service.store.redis.hdel("tlog:{tlog}:nodes", "0:14", "1:6", "2:2", "3:0")
        sent = redis_sent(monkeypatch, partial(store.append, f"g{i}", f"head {i}".encode()))
        if i not in (0, 15):  # the first loads the script into this Redis (NOSCRIPT, SCRIPT LOAD)
            assert len(sent) == 2, (i, sent)
    cached = {tuple(int(n) for n in k.decode().split(":")): v
              for k, v in service.store.redis.hgetall("tlog:{tlog}:nodes").items()}
    assert cached == merkle.rebuild(store.leaves())
    before = service.store.redis.hgetall("tlog:{tlog}:nodes")
    assert redis_sent(monkeypatch, lambda: store.append("g3", b"another head")) != []
    assert service.store.redis.hgetall("tlog:{tlog}:nodes") == before  # a game logged again adds nothing

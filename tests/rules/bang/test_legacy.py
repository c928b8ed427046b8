"""BANG! v2's logs under v3 (``referee.games.bang.legacy``): the card a
window is for (R43) by key in v2, by card ID in v3; a result's ``detail``
(R55, R56, R82) only in v3."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from referee.engine.protocol import Event
from referee.engine.rng import Rng
from referee.games import registry
from referee.games.bang import RULESET as R
from referee.games.bang.legacy import BangV2
from referee.games.sim import Table, playout, random_chooser
from tests.harness import present
from tests.rules.bang.helpers import game, play

OLD = BangV2(R)
FIXTURES = Path(__file__).parent.parent.parent / "fixtures" / "legacy"


def test_r43_v3_names_the_card_id_and_v2_its_key() -> None:
    t = game(4, hands={0: ["GATLING-10H"]})
    play(t, 0, "GATLING-10H")
    (event,) = [e for e in t.last if e.type == "awaiting"]
    assert event.data["prompt"]["card"] == "GATLING-10H" and event.data["then"][0]["card"] == "GATLING-10H"
    down = OLD.event_down(event)
    assert down.data["prompt"]["card"] == "GATLING" and down.data["then"][0]["card"] == "GATLING"
    assert t.view(1)["pending"]["card"] == "GATLING-10H"


def test_r43_a_v2_window_folds_to_the_state_v3_decides() -> None:
    """``evolve`` reads the card of a v2 window's key from the state it folds into."""
    for n, seed in ((4, b"legacy-a"), (5, b"legacy-b"), (7, b"legacy-c")):
        t = Table(R, n, options=R.options_for(n), seed=seed)
        states = [t.state]

        def on_step(table: Table, states: list[Any] = states) -> None:
            before = states[-1]
            for event in table.last:
                assert OLD.evolve(before, OLD.event_down(event)) == R.evolve(before, event), event
                before = R.evolve(before, event)
            states.append(table.state)

        playout(t, random_chooser(Rng(seed)), pick_seat=Rng(seed + b"/s"), on_step=on_step)
        assert present(R.result(t.state))["detail"]


def test_r58_a_v2_result_has_no_detail_and_gets_it_back() -> None:
    result = {"winners": [2, 3], "seats": [], "reason": "sheriff_dead", "winning_side": "outlaws"}
    up = OLD.event_up(Event("game_over", {"result": result}))
    assert up.data["result"]["detail"] == "The Sheriff is dead: the Outlaws win, dead or alive (R55)."
    assert OLD.event_down(up).data == {"result": result} and OLD.result_down(up.data["result"]) == result


def test_every_event_of_a_real_v2_log_round_trips() -> None:
    assert registry.at_version("bang", "2").__class__ is BangV2 and R.version == "3"
    windows = 0
    for path in sorted(FIXTURES.glob("bang-[0-9]*-v2.ndjson.gz")):
        for line in gzip.decompress(path.read_bytes()).decode().splitlines()[1:]:
            record = json.loads(line)
            if record["type"] in R.event_schemas:
                event = Event(record["type"], record["data"])
                assert OLD.event_down(OLD.event_up(event)) == event, record["type"]
                windows += record["type"] == "awaiting" and (record["data"]["prompt"] or {}).get("card") is not None
    assert windows > 10

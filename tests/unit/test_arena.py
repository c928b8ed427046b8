"""``referee arena`` (issue 23): a user's bot against the built-in ones in one
process with no Redis reachable and none importable, the standings a
tournament prints, logs ``referee audit`` accepts, the tournament's rotation,
a failing bot defaulted and counted, and loader errors in one line."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.audit.batch import audit_file
from referee.engine.protocol import GameConfig, fold
from referee.engine.rng import Rng
from referee.games import registry
from referee.play import arena
from referee.play.standings import seating  # the tournaments' own (referee.play.tournaments re-exports it)

REFEREE = str(Path(sys.executable).parent / "referee")
#: the arena must run with these unimportable: it needs neither a store nor a server
NO_SERVER = ("import sys\nfor m in ('redis', 'rq', 'valkey', 'flask', 'werkzeug', 'marshmallow', 'requests'): "
             "sys.modules[m] = None\n")
#: no Redis to reach; the rulesets installed for this run (tests/plugins) importable, as for any user
OFFLINE_ENV = {"PATH": "/usr/bin:/bin", "REDIS_URL": "redis://127.0.0.1:1/0",
               "PYTHONPATH": os.pathsep.join(p for p in sys.path if "referee-plugins" in p)}

MYBOT = '''"""A bot author's first bot: bang when it can, else a random legal move."""
import random

_rng = random.Random(23)
ATTACKS = ("bang", "duel", "gatling", "indians")


def choose(view, legal_moves):
    assert view["seat"] in view["to_act"] and view["legal_moves"] == legal_moves
    me = view["seat"]
    attacks = [m for m in legal_moves
               if m.get("card") and any(a in str(m.get("card")) for a in ATTACKS) and m.get("target") != me]
    if attacks:
        return attacks[0]
    return legal_moves[_rng.randrange(len(legal_moves))]
'''

#: raises on every 3rd call, answers a move of no such type on every 5th
FLAKY = '''calls = 0


def choose(view, legal_moves):
    global calls
    calls += 1
    print("thinking", calls)  # to standard error: standard output is the report
    if calls % 3 == 0:
        raise RuntimeError("flaky bot")
    if calls % 5 == 0:
        return {"type": "no-such-move"}
    return [m for m in legal_moves if m["type"] != "resign"][-1]  # it plays on: never resigns (R85)
'''


def _offline(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``referee …`` in a process where importing Redis, RQ, Flask or requests fails."""
    code = NO_SERVER + "from referee.ops.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
                          env=OFFLINE_ENV, cwd=cwd)


def _logs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.ndjson"))


def _header(path: Path) -> dict[str, Any]:
    first: dict[str, Any] = json.loads(path.read_text().splitlines()[0])
    return first["header"]


def test_the_arena_plays_a_user_bot_offline_ranks_it_and_its_logs_audit_clean(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(MYBOT)
    logs = tmp_path / "logs"
    games = 6
    common = ["arena", "--ruleset", "bang", "--players", "3", "--games", str(games), "--seed", "arena-test",
              "--entrants", "mybot.py:choose", "heuristic", "random"]
    done = _offline(*common, "--logs", str(logs), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    rows = {row["name"]: row for row in report["standings"]}
    assert set(rows) == {"mybot", "heuristic", "random"}
    assert report["games"] == games and "ordinal" in report["ranked_by"]
    for row in rows.values():  # three entrants, three seats: everyone plays every game
        assert row["games"] == games
        assert sum(cell["games"] for cell in row["roles"].values()) == games
        assert sum(cell["wins"] for cell in row["roles"].values()) == row["wins"]
    ordinals = [row["rating"]["ordinal"] for row in report["standings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert report["failures"] == {}

    # the table a person reads: the same standings, what they are ranked by, the counts
    table = _offline(*common, "--quiet", cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "mybot" in table.stdout and "ranked by" in table.stdout and "ordinal" in table.stdout
    assert f"{games} games" in table.stdout and "(" in table.stdout  # per role: win% (wins/games)
    first = next(line for line in table.stdout.splitlines() if line.startswith(" 1 "))
    assert report["standings"][0]["name"] in first  # the same run (same seed): the same ranking
    assert "Traceback" not in table.stderr

    paths = _logs(logs)
    assert len(paths) == games
    audited = _offline("audit", *map(str, paths))
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert f"{games}/{games} logs clean" in audited.stdout
    one = _offline("audit", "--json", str(paths[0]))
    checks = {c["name"]: c for c in json.loads(one.stdout)["checks"]}
    assert checks["bots"]["ok"]

    # who moved: built-in seats by their bot (re-derived by the audit), mybot's seat its own moves
    rs = registry.get("bang")
    for index, path in enumerate(paths):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        header = lines[0]["header"]
        seats = header["seats"]
        assert {s["name"]: s["bot"] for s in seats} == {"mybot": None, "heuristic": "heuristic", "random": "random"}
        for env in lines[1:]:
            if env["type"] == "move" and env["actor"] is not None:
                assert env["data"].get("by") == ({"bot": seats[env["actor"]]["bot"]}
                                                 if seats[env["actor"]]["bot"] else None)
        # the rotation is the tournament's: public roles (all of them in the 3-player game) from the deal
        seed = next(env["data"]["seed"] for env in lines[1:] if env["type"] == "seed_revealed")
        config = GameConfig(players=3, options=header["options"])
        public = rs.public_roles(fold(rs, rs.setup(config, Rng(seed.encode()))))
        names = ["mybot", "heuristic", "random"]
        assert [s["name"] for s in seats] == [names[e] for e in seating(index, 3, 3, public, rs.role_order)]
        assert seed == arena.game_seed("arena-test", index)


def test_the_console_script_runs_the_arena(tmp_path: Path) -> None:
    done = subprocess.run([REFEREE, "arena", "--ruleset", "bluffaneer", "--games", "3", "--seed", "s", "--quiet",
                           "--entrants", "random", "heuristic", "random"], capture_output=True, text=True,
                          timeout=120, env=OFFLINE_ENV)
    assert done.returncode == 0, done.stderr
    assert "random#2" in done.stdout and "heuristic" in done.stdout


def test_a_failing_user_bot_gets_the_rules_default_and_is_counted(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "flaky.py").write_text(FLAKY)
    logs = tmp_path / "logs"
    code = arena.main(["--ruleset", "bang", "--players", "4", "--games", "3", "--seed", "flaky", "--quiet",
                       "--json", "--logs", str(logs),
                       "--entrants", f"{tmp_path / 'flaky.py'}:choose", "random", "heuristic", "random"])
    assert code == 0
    printed = capsys.readouterr()
    report = json.loads(printed.out)
    assert "thinking" in printed.err
    counts = report["failures"]["flaky"]["counts"]
    assert counts["raised"] > 0 and counts["illegal_move"] > 0
    assert "RuntimeError: flaky bot" in report["failures"]["flaky"]["first"]["raised"]
    assert report["games"] == 3 and {r["name"] for r in report["standings"]} >= {"flaky", "random#2"}
    for path in _logs(logs):  # the defaults are the seat's own moves: the audit accepts them
        assert audit_file(str(path))["ok"], path
    # the table says so
    table = arena.format_report(report)
    assert "bot failures" in table and "flaky:" in table and "raised" in table


def test_the_same_seed_plays_the_same_games_with_or_without_logs(tmp_path: Path) -> None:
    rs = registry.get("bang-dice")

    def standings(log: bool) -> list[Any]:
        entrants = [arena.load_entrant(s) for s in ("heuristic", "random", "random", "heuristic")]
        arena.unique_names(entrants)
        table = arena.Arena(rs, 4, entrants, seed="same", games=4)
        for index in range(4):
            table.play(index, log=log)
        return table.standings.table()

    assert standings(False) == standings(True)


def test_entrant_specs(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(MYBOT)
    assert arena.load_entrant("heuristic").kind == "heuristic"
    mine = arena.load_entrant(f"{tmp_path / 'mybot.py'}:choose")
    assert mine.name == "mybot" and mine.kind is None and callable(mine.choose)
    assert arena.load_entrant(f"me={tmp_path / 'mybot.py'}:choose").name == "me"
    module = arena.load_entrant("referee.bots.heuristic.bang:choose")
    assert module.name == "bang" and module.choose is not None
    twice = [arena.load_entrant("random"), arena.load_entrant("random")]
    arena.unique_names(twice)
    assert [e.name for e in twice] == ["random", "random#2"]
    # Regression (issue 36 item 9): a third named random#2 shared the second's name, row and rating
    thrice = [arena.load_entrant("random"), arena.load_entrant("random"), arena.load_entrant("random#2=heuristic")]
    arena.unique_names(thrice)
    assert len({e.name for e in thrice}) == 3


@pytest.mark.parametrize("spec,says", [
    ("missing.py:choose", "no file missing.py"),
    ("mybot.py:nope", "has no function 'nope'"),
    ("broken.py:choose", "loading broken.py failed: SyntaxError"),
    ("mybot.py:ATTACKS", "is not a function"),
    ("no_such_module_anywhere:choose", "no module"),
    ("nobody", "not a built-in bot"),
])
def test_an_entrant_that_cannot_be_loaded_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 spec: str, says: str) -> None:
    (tmp_path / "mybot.py").write_text(MYBOT)
    (tmp_path / "broken.py").write_text("def choose(view, legal_moves)\n    return legal_moves[0]\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(arena.EntrantError, match=says.split(":")[0]):
        arena.load_entrant(spec)
    done = _offline("arena", "--ruleset", "bang", "--games", "1", "--entrants", spec, "random", "random", "random",
                    cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and says in done.stderr and done.stderr.startswith("referee arena: ")


def test_usage_errors_exit_2_in_one_line(tmp_path: Path) -> None:
    for args, says in ((["--ruleset", "chess", "--entrants", "random"], "no ruleset 'chess'"),
                       (["--ruleset", "bang", "--players", "5", "--entrants", "random", "heuristic"],
                        "need at least 5 entrants"),
                       (["--ruleset", "bang", "--option", "x", "--entrants", "random", "random", "random"],
                        "expected NAME=JSON")):
        done = _offline("arena", *args)
        assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_an_open_deadline_with_nobody_awaited_runs_out_with_the_system_timeout(tmp_path: Path) -> None:
    from tests import countdown
    with countdown.installed() as rs:  # a clock of its own: after each step nobody is awaited until a deadline
        first = arena.Entrant("first", "first", choose=lambda view, legal_moves: legal_moves[0])
        table = arena.Arena(rs, 2, [arena.load_entrant("random"), first], seed="clock", games=3)
        for index in range(3):
            played = table.play(index, log=True)
            assert played.lines is not None
            path = tmp_path / f"{played.game_id}.ndjson"
            path.write_text("\n".join(played.lines) + "\n")
            assert audit_file(str(path))["ok"], audit_file(str(path))["divergence"]
            envelopes = [json.loads(line) for line in played.lines[1:]]
            timeouts = [i for i, e in enumerate(envelopes) if e["type"] == "move" and e["actor"] is None]
            assert timeouts and all(envelopes[i]["data"]["move"] == {"type": "timeout"} for i in timeouts)
            for i in timeouts:  # at the deadline the step before set, not before
                step = next(e for e in reversed(envelopes[:i]) if e["type"] == "stepped")
                assert envelopes[i]["at"] == step["data"]["until"]
        assert table.timeouts > 0 and table.moves > 0 and table.games == 3

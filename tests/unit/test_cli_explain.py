"""Issue 39, item 5: a mistake on the command line is said in its words:
the option, what was given and what is accepted; a referee or a Redis that
does not answer is named by the URL tried (``referee.ops.explain``). The
problems are the referee's own bodies for these mistakes."""
from __future__ import annotations

from referee.ops.explain import (
    ACCEPTS,
    TOURNAMENT_OPTIONS,
    explain_problem,
    no_redis,
    no_referee,
    problem_fields,
    shown_url,
)

GIVEN = {"ruleset": "bang", "entrants": "random", "games": "2", "players": None, "options": None, "seed": None}


def _explained(body: dict[str, object], status: int = 422, **given: str | None) -> str:
    return explain_problem(body, status, TOURNAMENT_OPTIONS, {**GIVEN, **given},
                           {**ACCEPTS, "ruleset": "bang, bang-dice, bang-faceoff, bluffaneer"})


def test_one_entrant_names_the_option_the_value_and_the_bots_accepted() -> None:
    body = {"code": "invalid_body", "detail": "the request does not match the contract",
            "errors": {"entrants": ["Length must be between 2 and 64."]}, "status": 400}
    line = _explained(body, 400)
    assert line.startswith("--entrants random: length must be between 2 and 64 (accepted: ")
    assert "random and heuristic" in line and "registered bots' ids" in line and "\n" not in line


def test_an_unknown_bot_and_an_unknown_ruleset_say_what_there_is() -> None:
    bot = {"code": "unknown_bot", "detail": "no built-in or registered bot 'randum'", "status": 422}
    assert _explained(bot, entrants="randum heuristic").startswith(
        "--entrants randum heuristic: no built-in or registered bot 'randum' (accepted: the built-in bots random")
    ruleset = {"code": "unknown_ruleset", "detail": "no ruleset 'bangg'", "status": 422}
    assert _explained(ruleset, ruleset="bangg") == \
        "--ruleset bangg: no ruleset 'bangg' (accepted: bang, bang-dice, bang-faceoff, bluffaneer)"


def test_several_fields_wrong_are_one_line_and_an_option_not_given_says_so() -> None:
    body = {"code": "invalid_body", "errors": {"games": ["Must be greater than or equal to 1."],
                                               "players": ["Not a valid integer."]}, "status": 400}
    assert _explained(body, 400, games="0") == \
        "--games 0: must be greater than or equal to 1; --players (not given): not a valid integer"


def test_too_few_entrants_a_name_twice_and_too_many_games_name_their_option() -> None:
    few = {"code": "too_few_entrants", "detail": "3-player games need at least 3 entrants", "status": 422}
    assert _explained(few, entrants="random heuristic").startswith(
        "--entrants random heuristic: 3-player games need at least 3 entrants (accepted: the built-in bots")
    twice = {"code": "duplicate_entrant_name", "detail": "the name 'ann' is given twice", "status": 422}
    assert _explained(twice, entrants="ann:x ann:y random").startswith("--entrants ann:x ann:y random: the name")
    large = {"code": "tournament_too_large", "detail": "at most 1000 games and 8 in parallel without the admin "
             "token (asked 5000 and 8)", "status": 403}
    assert _explained(large, 403, games="5000") == \
        "--games 5000: at most 1000 games and 8 in parallel without the admin token (asked 5000 and 8)"


def test_a_problem_about_no_option_keeps_the_referees_words() -> None:
    body = {"code": "rate_limited", "detail": "too many requests", "status": 429}
    assert problem_fields(body) == []
    assert _explained(body, 429) == "429 rate_limited: too many requests"


def test_a_refused_connection_names_the_url_and_a_redis_url_hides_its_password() -> None:
    refused = ConnectionRefusedError(111, "Connection refused")
    assert no_referee("http://127.0.0.1:9", refused).startswith(
        "no referee answers at http://127.0.0.1:9 (connection refused); start one with `make run`")
    line = no_redis("redis://:hunter2@10.0.0.5:6390/0", "REDIS_URL", refused)
    assert "redis://:***@10.0.0.5:6390/0" in line and "hunter2" not in line and "set REDIS_URL" in line
    assert shown_url("redis://127.0.0.1:6390/0") == "redis://127.0.0.1:6390/0"

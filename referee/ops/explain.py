"""What went wrong, said in the command line's words: a problem the referee
answered turned into a line naming the option that was wrong, what was
given and what is accepted; a referee or a Redis that did not answer
named by the URL that was tried. The referee's problems name its body's
fields (``entrants``); a person typed options (``--entrants random``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from referee.bots import BUILT_IN

#: ``POST /v1/tournaments``'s fields -> the ``referee tournament`` option that sets each
TOURNAMENT_OPTIONS = {"ruleset": "--ruleset", "entrants": "--entrants", "games": "--games",
                      "players": "--players", "options": "--option", "seed": "--seed"}

#: a problem's code -> the field it is about, for the problems that name no field themselves
FIELD_OF_CODE = {"unknown_ruleset": "ruleset", "unknown_bot": "entrants", "bot_ruleset": "entrants",
                 "bot_not_public": "entrants", "bad_bot_secret": "entrants", "no_heuristic": "entrants",
                 "bad_player_count": "players", "invalid_options": "options",
                 "too_few_entrants": "entrants", "duplicate_entrant_name": "entrants",
                 "tournament_too_large": "games"}

#: what each field accepts, where the referee's own detail does not say it
ACCEPTS = {"entrants": f"the built-in bots {' and '.join(BUILT_IN)}, or registered bots' ids (ID:SECRET seats "
                       "one you own), e.g. --entrants random heuristic",
           "options": "NAME=JSON, e.g. --option expansion=true; GET /v1/rulesets/RULESET lists a ruleset's options"}


def problem_fields(body: Mapping[str, Any]) -> list[str]:
    """The fields a problem is about: those its ``errors`` name (a body that
    did not match the contract), else the one its ``code`` is about."""
    errors = body.get("errors")
    if isinstance(errors, Mapping) and errors:
        return [str(name) for name in errors]
    code = body.get("code")
    return [FIELD_OF_CODE[code]] if isinstance(code, str) and code in FIELD_OF_CODE else []


def explain_problem(body: Mapping[str, Any], status: int, options: Mapping[str, str],
                    given: Mapping[str, str | None], accepts: Mapping[str, str]) -> str:
    """One line for a problem: per field it is about, the option (``options``
    maps fields to them), the value given (``given``, ``None``: not given),
    what went wrong and what is accepted (``accepts``); a problem about no
    option keeps the referee's ``status code: detail``."""
    fields = [f for f in problem_fields(body) if f in options]
    if not fields:
        return f"{status} {body.get('code')}: {body.get('detail')}"
    errors = body.get("errors")
    said = []
    for name in fields:
        found = errors.get(name) if isinstance(errors, Mapping) else None
        why = _first_message(found) if found is not None else str(body.get("detail") or body.get("code"))
        value = given.get(name)
        shown = f"{options[name]} {value}" if value else f"{options[name]} (not given)"
        accepted = accepts.get(name)
        said.append(f"{shown}: {_lower_first(why).rstrip('.')}" + (f" (accepted: {accepted})" if accepted else ""))
    return "; ".join(said)


def _first_message(found: Any) -> str:
    """marshmallow's messages for a field: a list of them, or a dict of them per item."""
    if isinstance(found, list) and found:
        return _first_message(found[0])
    if isinstance(found, Mapping) and found:
        key, inner = next(iter(found.items()))
        return f"item {key}: {_first_message(inner)}"
    return str(found)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def shown_url(url: str) -> str:
    """``url`` without a password (``redis://:secret@host`` -> ``redis://:***@host``)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    where = f"{host}:{parts.port}" if parts.port is not None else host
    return urlunsplit(parts._replace(netloc=f"{user}:***@{where}"))


def no_referee(url: str, err: BaseException) -> str:
    """A referee that did not answer: the URL tried, why, and how to start one or point elsewhere."""
    return (f"no referee answers at {url} ({_why(err)}); start one with `make run`, "
            "or give --url / REFEREE_URL")


def no_redis(url: str, setting: str, err: BaseException) -> str:
    """A Redis that did not answer: the URL tried (no password) and where it came from."""
    return (f"no Redis answers at {shown_url(url)} ({setting}; {_why(err)}): start one (`referee redis`), "
            f"or set {setting}; `referee run` starts its own")


def no_archive(url: str, setting: str, err: BaseException) -> str:
    """An archive database that did not answer: the URL tried (no password) and where it came from."""
    return (f"no archive answers at {shown_url(url)} ({setting}; {_why(err.__cause__ or err)}): start its database, "
            f"or give {setting} another")


def _why(err: BaseException) -> str:
    """``[Errno 111] Connection refused`` -> ``connection refused``; else the error's type."""
    text = str(err)
    for known in ("Connection refused", "Name or service not known", "timed out", "No route to host"):
        if known.lower() in text.lower():
            return known.lower()
    return type(err).__name__

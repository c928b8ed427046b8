"""Table chat in the chain (issue 40 item 5; docs/chat.md).

A seat (and, when the game's creator allowed it with the option ``chat:
"everyone"``, a spectator) posts a short plain-text message. The message is
an event of the game's log, ``chat_posted {seat, said}``, where ``said =
sha256_hex(salt + canonical(text))`` with a random salt of its own: the
chain proves what was said, by whom and when, and nobody can guess a short
message from its commitment (the log's own salts follow from the seed, which
the end of the game reveals; this salt never does). The opening ``{text,
salt}`` is kept beside the game's seed and served by ``GET
/v1/games/{id}/chat``; the creator (its ``owner_token``) or the admin hides
a message's text from everyone else (``chat_hidden {seq, by}``) while its
commitment stays in the chain, so the log still audits.

Chat changes no state: a move whose ``expected_version`` is older than the
game's version only by chat events is not stale (``Game.play_version``), and
the turn clock runs from the last move, not from the last message."""
from __future__ import annotations

import hmac
import json
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.engine import record, sha256_hex
from referee.engine.chain import commitment
from referee.engine.platform import CHAT_HIDDEN, CHAT_POSTED
from referee.engine.protocol import Event, Json, Seat
from referee.errors import ApiError, game_over, not_found, version_conflict
from referee.service.changes import Changes
from referee.service.game import MAX_CONFLICT_RETRIES, Game, seat_of
from referee.service.loading import Loader
from referee.service.spectators import LateGames, is_delayed
from referee.store.redis_store import EventStore

#: the longest message, in characters (code points) after normalisation
MAX_CHARS = 280
#: a poster's messages: at most ``RATE_LIMIT`` in any ``RATE_WINDOW_MS``
RATE_LIMIT, RATE_WINDOW_MS = 5, 10_000
#: who may post: the option ``chat`` (the default: the seats)
CHAT_MODES = ("seats", "everyone", "off")
#: the format characters a plain text keeps: the zero-width joiner of emoji sequences
_KEPT_FORMAT = frozenset({"\u200d"})


def chat_option(value: Any) -> str | None:
    """The creation option ``chat``: ``seats`` (the default), ``everyone`` (spectators too) or ``off``."""
    if value is None:
        return None
    if value not in CHAT_MODES:
        raise ApiError(422, "invalid_options", f"chat is one of {', '.join(CHAT_MODES)}, not {value!r}")
    return str(value)


def plain_text(text: str) -> str:
    """``text`` as the chain records it: NFC-normalised, stripped; 422 when
    empty, longer than ``MAX_CHARS`` or not plain text (a control, format,
    private-use, surrogate or unassigned character, a line or paragraph
    separator: a message is one line of text, never markup a page renders)."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise ApiError(422, "chat_empty", "a chat message has some text")
    if len(text) > MAX_CHARS:
        raise ApiError(422, "chat_too_long", f"a chat message is at most {MAX_CHARS} characters, not {len(text)}")
    for char in text:
        kind = unicodedata.category(char)
        if kind in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") or (kind == "Cf" and char not in _KEPT_FORMAT):
            raise ApiError(422, "chat_not_plain_text", f"a chat message is one line of plain text: "
                           f"U+{ord(char):04X} ({kind}) is not allowed")
    return text


def may_post(game: Game, seat: Seat | None) -> None:
    """Whether ``seat`` (``None``: a spectator) may post on ``game``: never
    when the creator turned chat ``off``, a spectator only with ``everyone``."""
    mode = game.header.get("chat", "seats")
    if mode == "off":
        raise ApiError(403, "chat_off", "the game's creator turned the table chat off")
    if seat is None and mode != "everyone":
        raise ApiError(401, "token_required", "chat needs a seat token (the game's creator did not open the "
                       "chat to spectators)")
    _still_on(game)


class ChatRateLimited(ApiError):
    """429 ``chat_rate_limited``: the poster's window is full; ``Retry-After`` when it frees."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(429, "chat_rate_limited", f"at most {RATE_LIMIT} chat messages in "
                         f"{RATE_WINDOW_MS // 1000} s: try again in {retry_after} s", limit=RATE_LIMIT,
                         window_s=RATE_WINDOW_MS // 1000, retry_after=retry_after)
        self.retry_after = retry_after


def _still_on(game: Game) -> None:
    """A chat event is appended only while the game is on: ``seed_revealed`` ends every log."""
    if game.status != "active":
        raise game_over(game.version)


@dataclass(frozen=True, slots=True)
class Post:
    """A chat event to append: its actor, type, data, what is kept with it, and the rate counted."""

    actor: Seat | None
    type: str
    data: Json
    kept: str
    rate: str


@dataclass(eq=False)
class Chat:
    """Messages posted and hidden, and the messages as each caller may read
    them, in the store of the ``loader``'s games."""

    loader: Loader
    changes: Changes
    clock: Callable[[], int]
    #: the games spectators see late (``referee.service.spectators``): their chat is read as late
    late: LateGames | None = None

    @property
    def store(self) -> EventStore:
        return self.loader.store

    def post(self, game_id: str, token: str | None, text: str, client: str) -> Json:
        """Post ``text`` as ``token``'s seat (none: a spectator, counted by
        its ``client`` address); the message as ``messages`` lists it."""
        text = plain_text(text)
        salt = secrets.token_hex(16)
        game = self.loader.load(game_id)
        seat = seat_of(game, token)
        rate = f"rate:seat:{seat}" if seat is not None else f"rate:client:{sha256_hex(client)[:24]}"
        post = Post(seat, CHAT_POSTED, {"seat": seat, "said": commitment(salt, text)},
                    json.dumps({"text": text, "salt": salt}), rate)
        seq, at = self._append(game_id, post, lambda g: may_post(g, seat_of(g, token)))
        # a spectator of a game shown late is told no seq: it is the head's version, how far the game
        # really is (item 6); it reads the message with the rest, as late as the game
        shown_seq = None if seat is None and self._late(game) is not None else seq
        return {"seq": shown_seq, "seat": seat, "at": at, "said": post.data["said"], "text": text, "salt": salt,
                "hidden": False}

    def _late(self, game: Game) -> LateGames | None:
        """The games shown late, if ``game``'s spectators see it late now (its chat too)."""
        return self.late if self.late is not None and is_delayed(game) else None

    def hide(self, game_id: str, seq: int, token: str | None, *, admin: bool) -> Json:
        """Hide message ``seq``'s text from everyone but the admin, as the
        game's creator (``token``: its ``owner_token``) or the admin: a
        ``chat_hidden`` event while the game is on; once it is over its log
        is final, and the message is only marked hidden. Hiding twice changes nothing."""
        by = self._hider(game_id, token, admin)
        game = self.loader.load(game_id)
        if not 1 <= seq <= game.version or self.store.read(game_id, after=seq - 1, upto=seq)[0]["type"] != CHAT_POSTED:
            raise ApiError(404, "no_such_message", f"event {seq} of this game is no chat message")
        if f"hidden:{seq}" in self.store.chat_kept(game_id):
            return {"seq": seq, "hidden": True}
        try:
            if game.status != "active":
                raise game_over(game.version)
            self._append(game_id, Post(None, CHAT_HIDDEN, {"seq": seq, "by": by}, by, ""), _still_on)
        except ApiError as err:  # the game is over (or ended meanwhile): its log is final, the mark is kept
            if err.code != "game_over":
                raise
            self.store.chat_hide_kept(game_id, seq, by)
        return {"seq": seq, "hidden": True}

    def _hider(self, game_id: str, token: str | None, admin: bool) -> str:
        """``admin`` or ``owner``: who hides; 401 for anyone else."""
        if admin:
            return "admin"
        meta = self.store.meta(game_id)
        if meta is None:
            raise not_found(game_id)
        if token is None or not hmac.compare_digest(sha256_hex(token), meta.get("owner", "")):
            raise ApiError(401, "bad_token", "only the game's creator (its owner_token) or the admin hides a "
                           "chat message")
        return "owner"

    def _append(self, game_id: str, post: Post, check: Callable[[Game], None]) -> tuple[int, int]:
        """Append ``post`` at the game's latest version (``check``ed on the
        game as loaded at each attempt); its ``(seq, at)``."""
        for _ in range(MAX_CONFLICT_RETRIES):
            game = self.loader.load(game_id)
            check(game)
            now, seq = self.clock(), game.version + 1
            envelopes, last_hash = record.chained(game.seed, game.last_hash, game.version,
                                                  [(post.actor, Event(post.type, post.data))], now, mac=game.mac)
            field = f"chat:{seq}" if post.type == CHAT_POSTED else f"hidden:{post.data['seq']}"
            outcome = self.store.chat_event(game_id, game.version, envelopes[0], last_hash,
                                            (field, post.kept),
                                            (post.rate, now, RATE_WINDOW_MS, RATE_LIMIT) if post.rate else None)
            if outcome == "ok":
                self.changes.notify(self.loader.load(game_id), game)
                return seq, now
            if outcome.startswith("rate:"):
                raise ChatRateLimited(max(1, -(-int(outcome[5:]) // 1000)))
            if outcome == "missing":
                raise not_found(game_id)
        raise version_conflict(game.version, game.version)

    def messages(self, game_id: str, token: str | None, after: int, *, admin: bool) -> Json:
        """The game's chat messages after event ``after``, each with its
        opening ``{text, salt}`` (check: ``sha256_hex(salt + canonical(text))
        == said``), a hidden one's withheld from everyone but the admin. Any
        caller who may watch the game reads them (a token, if given, must be
        a seat's or the owner's). A spectator (no token) of a game shown late
        reads them up to its delayed version, and ``version`` is that one."""
        game = self.loader.load(game_id)
        if token is not None and not admin:
            self._reader(game, token)
        upto = game.version
        late = self._late(game) if token is None and not admin else None
        if late is not None:
            upto = late.delayed(game).version  # a spectator of a game shown late: nothing newer (item 6)
        envs = [e for e in self.store.read(game_id, after=after, upto=upto) if e["type"] == CHAT_POSTED]
        kept = self.store.chat_kept(game_id) if envs else {}
        out = []
        for env in envs:
            seq = env["seq"]
            hidden = f"hidden:{seq}" in kept
            opening = json.loads(kept.get(f"chat:{seq}", "null")) if admin or not hidden else None
            out.append({"seq": seq, "seat": env["data"]["seat"], "at": env["at"], "said": env["data"]["said"],
                        "text": opening["text"] if opening else None, "salt": opening["salt"] if opening else None,
                        "hidden": hidden})
        return {"id": game_id, "version": upto, "messages": out}

    def _reader(self, game: Game, token: str) -> None:
        """A token given to read the chat is a seat's or the owner's (401 otherwise)."""
        meta = self.store.meta(game.id) or {}
        if hmac.compare_digest(sha256_hex(token), meta.get("owner", "")):
            return
        seat_of(game, token)

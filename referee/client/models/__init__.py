"""Typed results of :mod:`referee.client`: frozen dataclasses read from the
JSON the referee answers (openapi.yaml), each keeping that JSON whole as
``.raw``. What depends on the ruleset (a view's ``state``, ``legal_moves``,
``pending``, an event's ``data``) stays plain JSON.

One module a topic: ``games`` (a game, its seats, views, result), ``events``
(events, receipts, the log and its audit), ``bots`` (bots and their turns),
``chat`` (the table chat's messages), ``ladder`` (the ladders, a bot's
profile), ``tournaments``, ``transparency`` (its proofs), ``rulesets``
(rulesets, rules, the referee's keys and health); ``common`` holds ``Json`` and ``Page``."""
from __future__ import annotations

from referee.client.models.archive import ArchivedGame, ArchivedSeat
from referee.client.models.bots import Bot, BotSummary, Turn, TurnAnswered
from referee.client.models.chat import ChatMessage
from referee.client.models.common import Json, Page
from referee.client.models.events import (
    AuditCheck,
    AuditReport,
    Event,
    EventPage,
    GameLog,
    HeadSignature,
    MoveAccepted,
    Receipt,
)
from referee.client.models.games import (
    Broadcast,
    GameCreated,
    GameSummary,
    Replay,
    Result,
    Seat,
    SeatToken,
    SpectatorDelay,
    View,
)
from referee.client.models.ladder import BotProfile, LadderPage, LadderSummary, Standing
from referee.client.models.rematch import Rematch, Series, SeriesGame, SeriesPlayer
from referee.client.models.rulesets import Health, Jwk, KeySet, Rule, Ruleset
from referee.client.models.tournaments import Tournament, TournamentGame, TournamentSummary
from referee.client.models.transparency import ConsistencyProof, InclusionProof
from referee.client.models.webhooks import WebhookAttempt, WebhookDeliveries

__all__ = [
    "ArchivedGame", "ArchivedSeat",
    "AuditCheck", "AuditReport", "Bot", "BotSummary", "Broadcast", "ChatMessage", "ConsistencyProof", "Event",
    "EventPage", "GameCreated", "GameLog", "GameSummary", "HeadSignature", "Health", "InclusionProof", "Json", "Jwk",
    "KeySet", "MoveAccepted", "Page", "Receipt", "Rematch", "Replay", "Result", "Rule", "Ruleset", "Seat",
    "SeatToken", "Series", "SeriesGame", "SeriesPlayer", "SpectatorDelay", "Tournament", "TournamentGame",
    "TournamentSummary", "Turn", "TurnAnswered", "View", "WebhookAttempt", "WebhookDeliveries",
    "BotProfile", "LadderPage", "LadderSummary", "Standing",
]

"""``referee.client``: a typed Python client of the referee's v1 API, for bot
authors (and the end-to-end tests, the benchmarks and ``referee tournament``).

    from referee.client import IllegalMove, RefereeClient, VersionConflict

    with RefereeClient("http://127.0.0.1:8000") as client:
        game = client.games.create("bluffaneer", seats=[{"name": "me"}, {"bot": "heuristic"}, {"bot": "random"}])
        token = game.seats[0].token                                 # my seat's secret
        for event in client.games.stream(game.id, token=token):     # SSE, resumed by itself
            view = client.games.view(game.id, token=token)
            if view.my_turn:
                try:
                    accepted = client.games.move(game.id, view.legal_moves[0], token=token)
                    print("receipt for version", accepted.receipt.version)
                except (IllegalMove, VersionConflict):               # the game moved on: next event
                    pass
        print(client.games.view(game.id).result, client.games.audit(game.id).ok)

Sub-clients per area: ``client.games`` (create, list/all, view, move, events,
stream, replay, log, audit, deliveries), ``client.bots`` (register, list/all, get, turns,
answer), ``client.tournaments`` (create, list/all, get, cancel),
``client.rulesets`` (list, get, rules, rule); ``client.keys()``, ``client.health()``,
``client.metrics()``, ``client.openapi()``.

Results are frozen dataclasses (:mod:`referee.client.models`) with their JSON
in ``.raw``; problem responses are raised as :class:`HttpProblem` and its
subclasses (:mod:`referee.client.errors`). A move carries an
``Idempotency-Key`` (a fresh uuid4 unless given) and, by default, the last
version the client saw of the game as ``expected_version``. Safe requests
(GET, DELETE, and POSTs with an Idempotency-Key) are retried with backoff
(tenacity) on 429/503 (after ``Retry-After``) and on lost connections; see
:class:`RetryPolicy` and :class:`Timeouts`. The HTTP library is httpx; the
client imports nothing of the server.
"""
from __future__ import annotations

from referee.client.api import AUTO, Archive, Bots, Games, RefereeClient, Rulesets, Tournaments
from referee.client.errors import (
                                   BadRequest,
                                   Conflict,
                                   Forbidden,
                                   GameOver,
                                   HttpProblem,
                                   IllegalMove,
                                   NotFound,
                                   NotYourTurn,
                                   RateLimited,
                                   Unauthorized,
                                   Unavailable,
                                   Unprocessable,
                                   VersionConflict,
)
from referee.client.ladder import Ladder
from referee.client.models import (
                                   ArchivedGame,
                                   ArchivedSeat,
                                   AuditCheck,
                                   AuditReport,
                                   Bot,
                                   BotProfile,
                                   BotSummary,
                                   Broadcast,
                                   ChatMessage,
                                   Event,
                                   EventPage,
                                   GameCreated,
                                   GameLog,
                                   GameSummary,
                                   HeadSignature,
                                   Health,
                                   Jwk,
                                   KeySet,
                                   LadderPage,
                                   LadderSummary,
                                   MoveAccepted,
                                   Page,
                                   Receipt,
                                   Replay,
                                   Result,
                                   Rule,
                                   Ruleset,
                                   Seat,
                                   SeatToken,
                                   SpectatorDelay,
                                   Standing,
                                   Tournament,
                                   TournamentGame,
                                   TournamentSummary,
                                   Turn,
                                   TurnAnswered,
                                   View,
                                   WebhookAttempt,
                                   WebhookDeliveries,
)
from referee.client.transport import RetryPolicy, Timeouts

#: the new name of the client; ``RefereeClient`` stays
Client = RefereeClient

__all__ = [
    "AUTO", "Archive", "ArchivedGame", "ArchivedSeat",
    "AuditCheck", "AuditReport", "BadRequest", "Bot", "BotSummary", "Bots", "Broadcast", "ChatMessage",
    "Client",
    "Conflict", "Event",
    "EventPage", "Forbidden", "GameCreated", "GameLog", "GameOver", "GameSummary", "Games", "HeadSignature",
    "Health", "HttpProblem", "SeatToken", "IllegalMove", "Jwk", "KeySet", "MoveAccepted", "NotFound", "NotYourTurn",
    "Page",
    "RateLimited", "Receipt", "RefereeClient", "Replay", "Result", "RetryPolicy", "Rule", "Ruleset", "Rulesets", "Seat",
    "SpectatorDelay", "Timeouts", "Tournament", "TournamentGame", "TournamentSummary", "Tournaments", "Turn",
    "TurnAnswered", "Unauthorized", "Unavailable", "Unprocessable", "VersionConflict", "View", "WebhookAttempt",
    "WebhookDeliveries", "Ladder", "BotProfile", "LadderPage", "LadderSummary", "Standing",
]

"""A heuristic Bluffaneer player (rules F1–F33) that decides from its seat's view only.

Public information is all it uses (F31): coins, dice, claims, passes, the
discard pile, the draw pile's size and its own card. Every choice compares
the expected *utility* of the coin counts each answer can lead to:

* while the game goes on, utility is the bot's coins minus the average of
  "the other players' mean" and "the richest other player" — coins matter,
  and coins taken from the leader matter more (F29);
* an answer that ends the game (somebody at 0 coins, F28) is worth a win
  (the bot is the richest), a share of one (tied richest, F30) or a loss.

Card counting: the deck holds each symbol pair three times (F4). A copy the
bot can see (discard pile, own card) cannot be in anybody's hand, so the
chance that a given unseen card shows the rolled pair is
``unseen copies / unseen cards``. Bayes with an assumed claiming habit turns
that into the chance that a claim is true.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.protocol import Json, Move
from referee.engine.rng import Rng

#: copies of each symbol pair in the deck (F4)
COPIES = 3
#: assumed chance that a player holding the rolled pair claims it (F17):
#: careful players always do, random ones half the time
CLAIM_IF_HOLDING = 0.75
#: assumed chance that a player *not* holding it claims anyway (a bluff)
CLAIM_IF_NOT = 0.35
#: share of rollers assumed to reason like this bot; the rest decide at random
CAREFUL_ROLLERS = 0.5
#: how often the bot bluffs when a bluff pays on average (never always: a
#: player who always bluffs in the same spot is easy to read)
BLUFF_RATE = 0.75
#: a bluff is only worth its risk with this many coins or more
BLUFF_MIN_COINS = 3
#: utility of winning (minus: of losing) when an answer ends the game (F28, F29)
WIN = 20.0
#: coins a double steals (F12, F13)
STEAL_AMOUNT = {"sword": 2, "ship": 3}


# --- utilities ---------------------------------------------------------------

def utility(coins: Sequence[int], me: int) -> float:
    """How good the coin counts ``coins`` are for seat ``me`` (F28–F30)."""
    others = [c for s, c in enumerate(coins) if s != me]
    if min(coins) <= 0:
        top = max(coins)
        if coins[me] < top:
            return -WIN
        share = 1.0 / sum(1 for c in coins if c == top)
        return -WIN + 2 * WIN * share
    return coins[me] - (sum(others) / len(others) + max(others)) / 2


def pay(coins: Sequence[int], payer: int, payee: int, amount: int) -> list[int]:
    """The coin counts after ``payer`` gives ``payee`` up to ``amount`` (F26)."""
    out = list(coins)
    paid = min(amount, out[payer])
    out[payer] -= paid
    out[payee] += paid
    return out


# --- card counting -------------------------------------------------------------

def _pair(dice: Sequence[str]) -> frozenset[str]:
    return frozenset(dice)


def _card_symbols(card: Json | None) -> frozenset[str]:
    return frozenset(card["symbols"]) if card else frozenset()


def holding_chance(state: Json, *, own_card: bool) -> float:
    """The chance that one given unseen card shows the rolled pair (F4, F15).

    ``own_card``: count the bot's own card as seen (it is, to the bot); a
    roller's public estimate also leaves out his own card, which cannot match
    once a claim window is open (F16)."""
    pair = _pair(state["dice"])
    seen = sum(1 for card in state["discard"] if frozenset(card["symbols"]) == pair)
    me = state["you"]
    mine = state["seats"][me]["card"] if me is not None else None
    if own_card and _card_symbols(mine) == pair:
        seen += 1
    unseen_cards = state["draw_pile"] + state["players"] - 1
    copies = max(COPIES - seen, 0)
    return copies / unseen_cards if unseen_cards > 0 else 0.0


def claim_truth(h: float) -> float:
    """P(a claim is true) given ``h`` = P(the claimant holds the pair), by Bayes
    with the assumed claiming habits (F17)."""
    true = h * CLAIM_IF_HOLDING
    false = (1 - h) * CLAIM_IF_NOT
    return true / (true + false) if true + false > 0 else 0.0


def challenge_pays(coins: Sequence[int], roller: int, claimant: int, q: float) -> bool:
    """Does challenging beat accepting for ``roller`` when the claim is true
    with probability ``q``? Accept: 1 coin to the claimant (F22); challenge:
    2 coins to a truthful claimant, 1 coin back from a bluffer (F23)."""
    accept = utility(pay(coins, roller, claimant, 1), roller)
    challenge = q * utility(pay(coins, roller, claimant, 2), roller) \
        + (1 - q) * utility(pay(coins, claimant, roller, 1), roller)
    return challenge > accept


# --- decisions ---------------------------------------------------------------

def _coins(state: Json) -> list[int]:
    return [s["coins"] for s in state["seats"]]


def _find(legal: list[Move], kind: str) -> Move | None:
    return next((m for m in legal if m.get("type") == kind), None)


def decide_claim(state: Json, legal: list[Move], rng: Rng) -> Move:
    """In the claim window (F17, F18): claim when the own card matches the
    roll and the payout helps; bluff now and then when the coins allow it and
    the roller is unlikely to challenge; pass otherwise."""
    claim, pass_ = _find(legal, "claim"), _find(legal, "pass")
    if claim is None or pass_ is None:
        return claim or pass_ or legal[0]
    me, roller = state["you"], state["turn"]
    if state["claims"]:
        return pass_  # only the earliest claim counts (F19): a later one changes nothing
    coins = _coins(state)
    holding = _card_symbols(state["seats"][me]["card"]) == _pair(state["dice"])
    # how a careful roller would judge the claim from public information only
    careful_accepts = not challenge_pays(coins, roller, me, claim_truth(
        holding_chance(state, own_card=False)))
    p_accept = CAREFUL_ROLLERS * float(careful_accepts) + (1 - CAREFUL_ROLLERS) * 0.5
    stay = utility(coins, me)
    accepted = utility(pay(coins, roller, me, 1), me)
    if holding:
        value = p_accept * accepted + (1 - p_accept) * utility(pay(coins, roller, me, 2), me)
        return claim if value > stay else pass_
    if coins[me] < BLUFF_MIN_COINS:
        return pass_
    value = p_accept * accepted + (1 - p_accept) * utility(pay(coins, me, roller, 1), me)
    if value > stay and rng.below(100) < int(BLUFF_RATE * 100):
        return claim
    return pass_


def decide_claimant(state: Json, legal: list[Move]) -> Move:
    """The roller's decision (F21–F23): challenge when the claim is unlikely
    to be true — few copies of the pair left unseen — accept otherwise."""
    accept, challenge = _find(legal, "accept"), _find(legal, "challenge")
    if accept is None or challenge is None:
        return accept or challenge or legal[0]
    claimant = state["claimant"]
    if claimant is None:
        return accept
    q = claim_truth(holding_chance(state, own_card=True))
    return challenge if challenge_pays(_coins(state), state["you"], claimant, q) else accept


def decide_steal(state: Json, legal: list[Move]) -> Move:
    """The steal target of a double (F12, F13): the player whose loss helps
    most — the richest other player, or one the steal leaves at 0 coins when
    that ends the game with the bot on top (F28)."""
    me = state["you"]
    coins = _coins(state)
    dice = state.get("dice") or []
    amount = STEAL_AMOUNT.get(dice[0], 2) if dice else 2
    best: Move = legal[0]
    best_key: tuple[float, int, int] | None = None
    for move in legal:
        target = move.get("target")
        if not isinstance(target, int) or not 0 <= target < len(coins):
            continue
        key = (utility(pay(coins, target, me, amount), me), coins[target], -target)
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


def choose(view: Json, legal_moves: list[Move], rng: Rng) -> Move:
    """The heuristic's move for the seat whose ``seat_view`` is ``view``:
    always one element of ``legal_moves``, decided from the view only."""
    state: Any = view.get("state") or {}
    phase = state.get("phase")
    if phase == "claims" and state.get("dice"):
        return decide_claim(state, legal_moves, rng)
    if phase == "decision" and state.get("dice"):
        return decide_claimant(state, legal_moves)
    if phase == "steal":
        return decide_steal(state, legal_moves)
    return legal_moves[0]  # the roll (F9): the only move

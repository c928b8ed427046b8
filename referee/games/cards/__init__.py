"""The cards kit: what the card rulesets share, so that no ruleset imports
another. BANG! (``bang``, rules R…) and BANG! Face Off (``bang-faceoff``,
rules FO…) both build on it:

* ``deck``: the 80 playing cards (R1), their ranks and suits (R2), the blue
  cards and the weapons' ranges (R16), the "draw!" tests on a suit (R35,
  R38, R39, R41) and Black Jack's red card (R62);
* ``characters``: the 16 characters (R3) with their printed life;
* ``catalogue``: the cards' and characters' names and texts (R1, R3) and
  their catalogue entries (issue 24);
* ``moves``: the typed moves both rulesets read (play, sid, end_turn, draw,
  choose, barrel, respond, pass, timeout, resign);
* ``schemas``: the JSON-Schema fragments for a card, a list of cards, a
  count and a character;
* ``rules``: the card engine over any table — what a card, a character and
  an open window allow, why a move is refused and what a played card does
  (R18–R50, R59, R61–R76) — with its parts ``core``, ``plays``, ``windows``
  and ``effects``. What differs between the tables (distance, the BANG!
  limit, who may be jailed) is passed in; what a card does comes back as
  data (``effects``: frozen ``Effect`` values), which each ruleset's
  decision context applies to its own state and events.

What is one ruleset's alone stays in its package: BANG!'s roles
(``referee.games.bang.roles``), Face Off's board, bids and figures.
"""

"""The ladder (issue 42; docs/ladder.md): lasting ratings of bots across
every rated game (``ratings``: the pure fold; ``ledger``: kept equal to it
however workers race; ``service``: recording and reading)."""

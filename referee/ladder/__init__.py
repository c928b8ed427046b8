"""The ladder: lasting ratings, and the matchmaking pool that keeps bots playing (issue 42)."""

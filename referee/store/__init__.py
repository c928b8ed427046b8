"""The event store (DESIGN.md): per-game stream and meta in Redis.

Keys carry a ``{id}`` hash tag so one game lives in one cluster slot:
``game:{ID}:events`` (stream, entry ids ``<seq>-0``), ``game:{ID}:meta``
(hash: version, last_hash, rng, status, header, tokens), ``game:{ID}:secret``
(hash: the seed, until it is revealed in the log), ``game:{ID}:idem:<sha256 of [scope, key]>``.

The package imports nothing itself: ``referee.store.redis_server`` (starting
a throwaway ``redis-server``) is importable where the Redis client is not.
"""

"""What every ruleset, the store, the service and the offline verifier share
and that needs nothing but the standard library and orjson: canonical JSON
(``referee.engine.jsonenc``), hashes, the salted commitments and the hash
chain of a game's log.

The verifier (``referee.audit``) runs on this package and the pure rulesets
alone: no Redis, no Flask, no network.
"""
from referee.engine.chain import (
                                  LINK_FIELDS,
                                  LOG_FORMAT,
                                  bot_seed,
                                  canonical,
                                  canonical_bytes,
                                  commitment,
                                  envelope,
                                  event_salt,
                                  event_salts,
                                  header_hash,
                                  keyed_hmac_sha256,
                                  link_bytes,
                                  link_hash,
                                  secret_salt,
                                  sha256_hex,
                                  verify_received,
)

__all__ = ["LINK_FIELDS", "LOG_FORMAT", "bot_seed", "canonical", "canonical_bytes", "commitment", "envelope",
           "event_salt", "event_salts", "header_hash", "keyed_hmac_sha256", "link_bytes", "link_hash", "secret_salt",
           "sha256_hex", "verify_received"]

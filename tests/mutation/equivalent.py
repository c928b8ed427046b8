"""The mutants judged equivalent: changes that cannot change what the code
does for any input the audit can be given (or change only how fast it
runs), each with the reason. A mutant is named by its file, the code of its
line (stripped) and the change (``#n``: the same change to the same code the
nth time in the file), as ``python -m tests.mutation`` lists survivors, so
the list survives edits elsewhere in the file.

These are not run by default (each survives at the cost of all its tests);
``python -m tests.mutation --check-equivalent`` runs them too and names any
that a test now kills. Keep the list honest: a survivor that is not
equivalent wants a test, not an entry here."""
from __future__ import annotations

_FAST = ("referee.audit.chain.chain_and_salts_hold is an optimisation: it may only say the log holds (True) "
         "or leave the naming to the checks one by one (False). A change that makes it say False more "
         "often (or None, or raise one of the errors it catches) only sends the audit down the slow "
         "path, which checks the same and reports the same; only a wrong True is observable, and the "
         "mutants that make one are killed (tests/unit/test_audit_forgeries.py, hash_chain and salts)")
_SCALAR = ("referee.audit.divergence.same_scalar is same with a shortcut for two equal str or int values (or the "
           "same object); a change that skips or narrows the shortcut falls through to same, which gives "
           "the same answer. Its arguments are the rules' type, actor and at against the log's: str, int "
           "or None on the rules' side, so the widened shortcut (any type equal by ==) meets only values "
           "whose canonical bytes agree when they are ==, bar a log that writes an at of -0.0 against a "
           "move's 0.0")
_FALLS_OFF = ("the last statement of a function that returns None: deleted, the function falls off its end "
              "and returns None all the same (referee.audit.divergence.diff, referee.audit.chain.seed_hint; "
              "referee.engine.signature's PublicKeys.verify)")
_TYPING = ("referee.engine.rng's TypeVar T appears only in annotations, which this module never evaluates "
           "(from __future__ import annotations)")
_BLOCK = ("referee.engine.rng.Rng caches the current HMAC block (_block, _block_index): a change that "
          "recomputes the block more often (a never-matching index, no cache) or starts the cache "
          "unset in another way changes only the cost, not a word it yields (the first call finds no "
          "block either way: index != _block_index or _block is None)")
_LIMIT = ("Rng.below rejects a word u >= limit; u <= limit differs only for u == limit exactly, one "
          "64-bit value in 2**64: no seed that draws it can be found, so no test can hold it")
_ONE_OPTION = ("referee.audit.movers._check_default compares a default to options[0] only when len(options) == 1: "
               "options[-1] is the same element")
_GC = ("referee.audit.CollectorPaused turns the collector off while a log is read (parse_log) or audited "
       "(batch.audit_file in a process of its own): reading and re-deciding leave no cycles, so left on it "
       "only costs time (whether it is paused and what it is left as afterwards is tested)")
_READ_PAST = ("referee.audit.batch.read_log reads past the limit only to see whether the log is longer: "
              "one byte more or two, any read longer than the limit is refused the same")
_POOL_ORDER = ("referee.audit.batch.audit_files: the order logs are submitted to the pool in (largest first), "
               "the size a missing file sorts by, and the workers of the pool that runs one log alone "
               "change only when each report is made, not what it says or the order it is given in")
_GATE = ("referee.audit.strict.read_line: counting brackets only decides whether _depth is asked (a line with "
         "fewer brackets than the limit cannot nest past it); a count that lets _depth be asked more often "
         "(>=, or every byte counted as a bracket) leaves _depth to decide, as it decides anyway")
_FAST_READ = ("referee.audit.strict.read_line's first reading (orjson, for a line already canonical) is a "
              "shortcut: without it (the try, its check, its return gone) every line takes the strict reading, "
              "which accepts and refuses the same lines as the same values (tests/unit/test_audit_reading.py, "
              "test_audit_hostile_files.py hold both readings to one answer)")
_NO_RECURSION = ("referee.audit.strict.read_line: a value that passed the nesting check is at most MAX_DEPTH (100) "
                 "levels deep, which canonical_bytes encodes without exhausting the interpreter's recursion "
                 "limit (1000): its RecursionError handler never runs")
_BLANK = ("referee.audit._parse_lines skips a blank line before reading it; read, strict refuses it and the "
          "handler after the refusal skips it as blank all the same (tests: blank and Unicode-space lines)")
_LINK_FAST = ("referee.engine.chain.link_bytes encodes with canonical_bytes_floatless only where no float can be "
              "(a speed-up): without the check it always encodes with canonical_bytes, the same bytes")
_MAX_ONE = ("referee.audit.batch.default_jobs: max(1, min(logs, os.cpu_count() or 0)) is 1 where cpu_count() is "
            "None, as with 'or 1'")
_NOT_SIGNED = ("referee.audit.signed.check_receipts: a statement built from a non-int at or a non-str head (the "
               "and made an or) is no statement the referee signs (it signs int times and str heads), so it "
               "fails to verify as b'' does")
_FIRST_AT_ZERO = ("referee.audit.redecide: a move at position 0 (the created_at fallback of the previous event's "
                  "time) needs a deal that produced no event; every ruleset's setup produces one at least "
                  "(bang, bang-dice, bang-faceoff, bluffaneer), so the fallback is never taken")
_BREAK = ("referee.audit._parse_lines strips a text line's trailing line break before reading it; left on, "
          "the break is JSON whitespace after the value, which the strict reading accepts as the same value "
          "(and a line of breaks alone is blank either way)")
_RANDOM_SHORTCUT = ("referee.audit.redecide._check_bot_choice re-derives a random bot's move from the seat's legal "
                    "moves alone (a speed-up, issue 41 item 5): without the shortcut it is drawn from the seat "
                    "view's legal_moves, the same moves (tests/unit/test_audit_bot_shortcuts.py), by the same "
                    "seed: the same move")
#: (file, line's code, change) -> why the mutant is equivalent
EQUIVALENT: dict[tuple[str, str, str], str] = {
    ('referee/audit/chain.py', 'return False', 'return x -> return None'):
        _FAST,
    ('referee/audit/chain.py',
     'for pos, env in enumerate(envelopes, start=1):',
     '1 -> 2 (#2 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py',
     'for pos, env in enumerate(envelopes, start=1):',
     '1 -> 0 (#2 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py', 'seq, salt, data = env["seq"], env["salt"], encode(env["data"])', "'seq' -> ''"):
        _FAST,
    ('referee/audit/chain.py', 'seq, salt, data = env["seq"], env["salt"], encode(env["data"])', "'salt' -> ''"):
        _FAST,
    ('referee/audit/chain.py', 'seq, salt, data = env["seq"], env["salt"], encode(env["data"])', "'data' -> ''"):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     'and -> or'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     'comparison 0: != -> =='):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     '9 -> 10'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     '9 -> 8'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     'comparison 0: != -> == (#2 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     '10 -> 11'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     '10 -> 9'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     'comparison 0: is not -> is'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     'comparison 0: != -> == (#3 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     'comparison 0: != -> == (#4 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     "'prev' -> ''"):
        _FAST,
    ('referee/audit/chain.py',
     'if (len(env) != 9 and (len(env) != 10 or not signed.may_carry(env))) or type(seq) is not int or seq != pos or '
     'env["prev"] != prev or type(salt) is not str \\',
     'comparison 0: is not -> is (#2 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py',
     'or sha(salt.encode() + data).hexdigest() != env["commit"] \\',
     'comparison 0: != -> =='):
        _FAST,
    ('referee/audit/chain.py', 'or sha(salt.encode() + data).hexdigest() != env["commit"] \\', '+ -> -'):
        _FAST,
    ('referee/audit/chain.py', 'or sha(salt.encode() + data).hexdigest() != env["commit"] \\', "'commit' -> ''"):
        _FAST,
    ('referee/audit/chain.py',
     'or sha(prev.encode() + link(seq, env["type"], env["actor"], env["at"], env["commit"], prev)',
     'comparison 0: != -> =='):
        _FAST,
    ('referee/audit/chain.py',
     'or sha(prev.encode() + link(seq, env["type"], env["actor"], env["at"], env["commit"], prev)',
     '+ -> -'):
        _FAST,
    ('referee/audit/chain.py',
     'or sha(prev.encode() + link(seq, env["type"], env["actor"], env["at"], env["commit"], prev)',
     "'type' -> ''"):
        _FAST,
    ('referee/audit/chain.py',
     'or sha(prev.encode() + link(seq, env["type"], env["actor"], env["at"], env["commit"], prev)',
     "'actor' -> ''"):
        _FAST,
    ('referee/audit/chain.py',
     'or sha(prev.encode() + link(seq, env["type"], env["actor"], env["at"], env["commit"], prev)',
     "'at' -> ''"):
        _FAST,
    ('referee/audit/chain.py',
     'or sha(prev.encode() + link(seq, env["type"], env["actor"], env["at"], env["commit"], prev)',
     "'commit' -> ''"):
        _FAST,
    ('referee/audit/chain.py', ').hexdigest() != env["hash"] \\', "'hash' -> ''"):
        _FAST,
    ('referee/audit/chain.py', 'or salt != mac(b"event:%d" % pos).hex():', 'comparison 0: != -> =='):
        _FAST,
    ('referee/audit/chain.py', 'or salt != mac(b"event:%d" % pos).hex():', '% -> //'):
        _FAST,
    ('referee/audit/chain.py', 'or salt != mac(b"event:%d" % pos).hex():', "b'event:%d' -> b''"):
        _FAST,
    ('referee/audit/chain.py', 'return False', 'return x -> return None (#2 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py', 'prev = env["hash"]', 'delete the assign statement (#2 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py', 'prev = env["hash"]', "'hash' -> '' (#2 of this change to this code)"):
        _FAST,
    ('referee/audit/chain.py', 'return False', 'return x -> return None (#3 of this change to this code)'):
        _FAST,
    ('referee/audit/chain.py', 'return True', 'return x -> return None'):
        _FAST,
    ('referee/audit/chain.py', 'return True', 'delete the return statement'):
        _FAST,
    ('referee/audit/chain.py', 'return True', 'True -> False'):
        _FAST,
    ('referee/audit/divergence.py',
     'if a is b or (type(a) is type(b) and (type(a) is str or type(a) is int) and a == b):',
     'delete the if statement'):
        _SCALAR,
    ('referee/audit/divergence.py',
     'if a is b or (type(a) is type(b) and (type(a) is str or type(a) is int) and a == b):',
     'or -> and'):
        _SCALAR,
    ('referee/audit/divergence.py',
     'if a is b or (type(a) is type(b) and (type(a) is str or type(a) is int) and a == b):',
     'or -> and (#2 of this change to this code)'):
        _SCALAR,
    ('referee/audit/divergence.py',
     'if a is b or (type(a) is type(b) and (type(a) is str or type(a) is int) and a == b):',
     'comparison 0: is -> is not (#3 of this change to this code)'):
        _SCALAR,
    ('referee/audit/divergence.py',
     'if a is b or (type(a) is type(b) and (type(a) is str or type(a) is int) and a == b):',
     'comparison 0: is -> is not (#4 of this change to this code)'):
        _SCALAR,
    ('referee/audit/divergence.py', 'return True', 'delete the return statement'):
        _SCALAR,
    ('referee/audit/divergence.py', 'return same(a, b)', 'return x -> return None'):
        _SCALAR,
    ('referee/audit/divergence.py', 'return same(a, b)', 'delete the return statement'):
        _SCALAR,
    ('referee/audit/divergence.py', 'return None', 'delete the return statement'):
        _FALLS_OFF,
    ('referee/audit/divergence.py', 'return None', 'delete the return statement (#2 of this change to this code)'):
        _FALLS_OFF,
    ('referee/audit/chain.py', 'return None', 'delete the return statement'):
        _FALLS_OFF,
    ('referee/engine/rng.py', 'T = TypeVar("T")', 'delete the assign statement'):
        _TYPING,
    ('referee/engine/rng.py', 'T = TypeVar("T")', "'T' -> ''"):
        _TYPING,
    ('referee/engine/rng.py', 'self._block: tuple[int, int, int, int] | None = None', 'delete the annassign statement'):
        _BLOCK,
    ('referee/engine/rng.py', 'self._block_index = -1', '1 -> 2'):
        _BLOCK,
    ('referee/engine/rng.py', 'self._block_index = -1', '1 -> 0'):
        _BLOCK,
    ('referee/engine/rng.py', 'if index != self._block_index or self._block is None:', 'comparison 0: is -> is not'):
        _BLOCK,
    ('referee/engine/rng.py', 'self._block_index = index', 'delete the assign statement'):
        _BLOCK,
    ('referee/engine/rng.py', 'if u < limit:', 'comparison 0: < -> <='):
        _LIMIT,
    ('referee/audit/movers.py',
     'if len(options) == 1 and not same(options[0], current_move(rs, data["move"])):',
     '0 -> -1'):
        _ONE_OPTION,
    ('referee/audit/movers.py', 'raise Diverged("bots", seq, "data.move", options[0], data["move"],', '0 -> -1'):
        _ONE_OPTION,
    ('referee/audit/__init__.py', 'gc.disable()', 'delete the expr statement'):
        _GC,
    ('referee/audit/__init__.py', 'self.own_process, self.collecting = own_process, False', 'False -> True'):
        "referee.audit.CollectorPaused's collecting is set by __enter__ before __exit__ reads it: its first value "
        "is never read",
    ('referee/audit/batch.py', 'raw = sys.stdin.buffer.read(max_bytes + 1)', '1 -> 2'):
        _READ_PAST,
    ('referee/audit/batch.py', 'raw = log.read(max_bytes + 1)', '1 -> 2'):
        _READ_PAST,
    ('referee/audit/batch.py', 'for path in sorted(set(paths), key=_size, reverse=True)}', 'True -> False'):
        _POOL_ORDER,
    ('referee/audit/batch.py', 'with ProcessPoolExecutor(max_workers=1) as pool:', '1 -> 2'):
        _POOL_ORDER,
    ('referee/audit/batch.py', 'return pool.submit(audit_file, path, max_bytes, jwks, own_process=True).result()',
     'True -> False'):
        _GC,
    ('referee/audit/batch.py', 'return 0', '0 -> 1'):
        _POOL_ORDER,
    ('referee/audit/batch.py', 'return 0', '0 -> -1'):
        _POOL_ORDER,
    ('referee/audit/strict.py', 'try:', 'delete the try statement (#2 of this change to this code)'):
        _FAST_READ,
    ('referee/audit/strict.py', 'if canonical_bytes(value) == line:', 'delete the if statement'):
        _FAST_READ,
    ('referee/audit/strict.py', 'return value', 'delete the return statement (#4 of this change to this code)'):
        _FAST_READ,
    ('referee/audit/strict.py',
     'if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:',
     'comparison 0: > -> >='):
        _GATE,
    ('referee/audit/strict.py',
     'if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:',
     "b'[' -> b''"):
        _GATE,
    ('referee/audit/strict.py',
     'if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:',
     "b'{' -> b''"):
        _GATE,
    ('referee/audit/strict.py',
     'if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:',
     'comparison 0: > -> >= (#3 of this change to this code)'):
        _GATE,
    ('referee/audit/strict.py',
     'if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:',
     "b'[' -> b'' (#2 of this change to this code)"):
        _GATE,
    ('referee/audit/strict.py',
     'if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:',
     "b'{' -> b'' (#2 of this change to this code)"):
        _GATE,
    ('referee/audit/strict.py',
     'raise Refused(f"it nests deeper than {MAX_DEPTH} levels", _start(line)) from None',
     'delete the raise statement (#2 of this change to this code)'):
        _NO_RECURSION,
    ('referee/audit/__init__.py', 'if not line.strip():', 'delete the if statement'):
        _BLANK,
    ('referee/audit/__init__.py', 'continue', 'delete the continue statement'):
        _BLANK,
    ('referee/engine/chain.py',
     'if type(seq) is int and type(at) is int and (actor is None or type(actor) is int) \\',
     'delete the if statement'):
        _LINK_FAST,
    ('referee/audit/batch.py',
     'return max(1, min(logs, os.cpu_count() or 1))',
     '1 -> 0 (#2 of this change to this code)'):
        _MAX_ONE,
    ('referee/audit/signed.py', 'if type(at) is int and type(head) is str else b"")', 'and -> or'):
        _NOT_SIGNED,
    ('referee/audit/redecide.py',
     'last_at = self.envelopes[pos - 1]["at"] if pos else self.header.get("created_at")',
     "'created_at' -> ''"):
        _FIRST_AT_ZERO,
    ('referee/engine/chain.py',
     'if type(seq) is int and type(at) is int and (actor is None or type(actor) is int) \\',
     'or -> and'):
        _LINK_FAST,
    ('referee/engine/chain.py', 'return canonical_bytes_floatless(link)', 'delete the return statement'):
        _LINK_FAST,
    ('referee/audit/__init__.py', 'line = line.rstrip("\\r\\n").encode("utf-8", "surrogatepass")', "'\\r\\n' -> ''"):
        _BREAK,
    ('referee/engine/signature.py', 'return None', 'delete the return statement'):
        _FALLS_OFF,
    ('referee/audit/redecide.py',
     'if by["bot"] == "random":  # uniform over the legal moves alone, as the worker draws it: no view built',
     "'random' -> ''"):
        _RANDOM_SHORTCUT,
}

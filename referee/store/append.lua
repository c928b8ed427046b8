-- Append the events of one move, or of several moves in a row, atomically
-- (DESIGN.md, Architecture; several: a worker's run of bot turns, issue 20).
-- KEYS[1] events stream, KEYS[2] meta hash, KEYS[3] the first move's idempotency key,
-- KEYS[4] secret hash, KEYS[5..] the idempotency keys of the second move on, then the set naming
-- them all (game:{ID}:idems); a move
-- without one names "game:{ID}:idem:none" (in the game's slot, as every key of a script
-- on a cluster must be; never a record's key, whose names end in a sha256)
-- ARGV[1] expected version (before the first move), ARGV[2] idempotency ttl (s),
-- ARGV[3] the game's ttl after the last move (ms, 0 = forever), ARGV[4] number of moves,
-- then for each move: new last hash, rng position, status, receipt time of the move (ms),
-- idempotency record, number of events, each event's JSON
-- Returns {"ok", version} | {"conflict", version} | {"idem", record} | {"missing", 0}
local function keyed(name) return string.sub(name, -10) ~= ":idem:none" end
-- the game's idempotency keys, named in one set of its slot (game:{ID}:idems, the last of KEYS), so the
-- archive's confirmation shortens their life with the game's (referee/store/archived.py)
local idems = KEYS[#KEYS]
if keyed(KEYS[3]) then
  local rec = redis.call("GET", KEYS[3])
  if rec then
    -- written again as it is: a write of this connection's after the move it
    -- answers for, so a WAIT that follows covers that move too (redis_store.py)
    redis.call("SET", KEYS[3], rec, "KEEPTTL")
    return {"idem", rec}
  end
end
local current = redis.call("HGET", KEYS[2], "version")
if not current then return {"missing", 0} end
if current ~= ARGV[1] then return {"conflict", tonumber(current)} end
local seq = tonumber(current)
local at = 5
local last_hash, rng, status, last_at
local named = {}  -- the moves' idempotency keys, named in the set in one SADD after the loop
for m = 1, tonumber(ARGV[4]) do
  last_hash, rng, status, last_at = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  local record, n = ARGV[at + 4], tonumber(ARGV[at + 5])
  for i = 1, n do
    seq = seq + 1
    redis.call("XADD", KEYS[1], tostring(seq) .. "-0", "e", ARGV[at + 5 + i])
  end
  local idem = KEYS[3]
  if m > 1 then idem = KEYS[3 + m] end
  if keyed(idem) then
    redis.call("SET", idem, record, "EX", tonumber(ARGV[2]))
    named[#named + 1] = idem
  end
  at = at + 6 + n
end
if #named > 0 then redis.call("SADD", idems, unpack(named)) end
redis.call("HSET", KEYS[2], "version", seq, "last_hash", last_hash, "rng", rng, "status", status,
           "last_at", last_at)
-- retention: the game's keys expire together, the idle ttl after its last move
-- while active, the finished ttl once over (referee/store/retention.py)
local ttl = tonumber(ARGV[3])
for _, key in ipairs({KEYS[1], KEYS[2], KEYS[4], idems}) do
  if ttl > 0 then redis.call("PEXPIRE", key, ttl) else redis.call("PERSIST", key) end
end
return {"ok", seq}

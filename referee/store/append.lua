-- Append all events of one move atomically (DESIGN.md, Architecture).
-- KEYS[1] events stream, KEYS[2] meta hash, KEYS[3] idempotency key ("" for none), KEYS[4] secret hash
-- ARGV[1] expected version, ARGV[2] new last hash, ARGV[3] rng position,
-- ARGV[4] status, ARGV[5] receipt time of the move (ms), ARGV[6] idempotency record,
-- ARGV[7] idempotency ttl (s), ARGV[8] the game's ttl after this move (ms, 0 = forever),
-- ARGV[9] number of events, ARGV[10] channel to publish the new head on ("" for none),
-- ARGV[11] the game's id, ARGV[12..] event JSON
-- Returns {"ok", version} | {"conflict", version} | {"idem", record} | {"missing", 0}
if KEYS[3] ~= "" then
  local rec = redis.call("GET", KEYS[3])
  if rec then return {"idem", rec} end
end
local current = redis.call("HGET", KEYS[2], "version")
if not current then return {"missing", 0} end
if current ~= ARGV[1] then return {"conflict", tonumber(current)} end
local seq = tonumber(current)
local n = tonumber(ARGV[9])
for i = 1, n do
  seq = seq + 1
  redis.call("XADD", KEYS[1], tostring(seq) .. "-0", "e", ARGV[11 + i])
end
redis.call("HSET", KEYS[2], "version", seq, "last_hash", ARGV[2], "rng", ARGV[3], "status", ARGV[4],
           "last_at", ARGV[5])
-- retention: the game's keys expire together, the idle ttl after its last move
-- while active, the finished ttl once over (referee/store/retention.py)
local ttl = tonumber(ARGV[8])
for _, key in ipairs({KEYS[1], KEYS[2], KEYS[4]}) do
  if ttl > 0 then redis.call("PEXPIRE", key, ttl) else redis.call("PERSIST", key) end
end
if KEYS[3] ~= "" then
  redis.call("SET", KEYS[3], ARGV[6], "EX", tonumber(ARGV[7]))
end
-- every referee process learns the head without asking (referee/store/pushed.py):
-- "h <id> <version> <last_hash> <rng> <status> <last_at> <pttl ms, -1 for none>"
if ARGV[10] ~= "" then
  local pttl = -1
  if ttl > 0 then pttl = ttl end
  redis.call("PUBLISH", ARGV[10], "h " .. ARGV[11] .. " " .. seq .. " " .. ARGV[2] .. " " .. ARGV[3] .. " " ..
             ARGV[4] .. " " .. ARGV[5] .. " " .. pttl)
end
return {"ok", seq}

-- A table chat event (a message, or a message hidden; docs/chat.md), appended at the version
-- expected without touching the game's last_at (the turn clock runs from the last move, not from
-- the talk), with its opening (or its hidden mark) kept beside the seed, and the poster's rate
-- counted, in one step (all keys in the game's slot).
-- KEYS[1] events stream, KEYS[2] meta hash, KEYS[3] secret hash
-- ARGV[1] expected version, ARGV[2] the event's JSON, ARGV[3] the new last hash,
-- ARGV[4] the secret hash's field to set, ARGV[5] its value, ARGV[6] the game's ttl (ms, 0 = forever),
-- ARGV[7] the poster's rate field ("" = none), ARGV[8] now (ms), ARGV[9] the window (ms), ARGV[10] the limit
-- Returns "ok" | "conflict" | "missing" | "rate:<ms until a message is allowed again>"
local current = redis.call("HGET", KEYS[2], "version")
if not current then return "missing" end
if current ~= ARGV[1] then return "conflict" end
local now = tonumber(ARGV[8])
local kept = {}
if ARGV[7] ~= "" then
  local raw = redis.call("HGET", KEYS[3], ARGV[7])
  local window = tonumber(ARGV[9])
  for _, at in ipairs(raw and cjson.decode(raw) or {}) do
    if at > now - window then table.insert(kept, at) end
  end
  if #kept >= tonumber(ARGV[10]) then
    return "rate:" .. tostring(kept[1] + window - now)
  end
  table.insert(kept, now)
end
local seq = tonumber(current) + 1
redis.call("XADD", KEYS[1], tostring(seq) .. "-0", "e", ARGV[2])
redis.call("HSET", KEYS[2], "version", seq, "last_hash", ARGV[3])
redis.call("HSET", KEYS[3], ARGV[4], ARGV[5])
if ARGV[7] ~= "" then redis.call("HSET", KEYS[3], ARGV[7], cjson.encode(kept)) end
local ttl = tonumber(ARGV[6])
for _, key in ipairs({KEYS[1], KEYS[2], KEYS[3]}) do
  if ttl > 0 then redis.call("PEXPIRE", key, ttl) else redis.call("PERSIST", key) end
end
return "ok"

-- A seat's event (an open seat claimed, a token reissued), appended with the
-- seat's new token hash (and name) in one step, if the game is still at the
-- version expected and the seat holds what is expected (all keys in the game's slot).
-- KEYS[1] events stream, KEYS[2] meta hash, KEYS[3] secret hash
-- ARGV[1] expected version, ARGV[2] seat (0-based), ARGV[3] the token hash the seat must hold
-- ("open"; "" for a real token: neither "open" nor a bot's "" or "bot:<name>"), ARGV[4] the new token hash,
-- ARGV[5] the new name ("" to keep it), ARGV[6] the event's JSON, ARGV[7] the new last hash,
-- ARGV[8] its time (ms), ARGV[9] the game's ttl (ms, 0 = forever)
-- Returns "ok" | "conflict" | "seat" | "missing"
local current = redis.call("HGET", KEYS[2], "version")
if not current then return "missing" end
if current ~= ARGV[1] then return "conflict" end
local tokens = cjson.decode(redis.call("HGET", KEYS[2], "tokens"))
local i = tonumber(ARGV[2]) + 1
local held = tokens[i]
if ARGV[3] == "open" then
  if held ~= "open" then return "seat" end
elseif held == "open" or held == "" or string.sub(held, 1, 4) == "bot:" then
  return "seat"
end
tokens[i] = ARGV[4]
local seq = tonumber(current) + 1
redis.call("XADD", KEYS[1], tostring(seq) .. "-0", "e", ARGV[6])
redis.call("HSET", KEYS[2], "version", seq, "last_hash", ARGV[7], "last_at", ARGV[8], "tokens", cjson.encode(tokens))
if ARGV[5] ~= "" then
  local names = cjson.decode(redis.call("HGET", KEYS[2], "names"))
  names[i] = ARGV[5]
  redis.call("HSET", KEYS[2], "names", cjson.encode(names))
end
local ttl = tonumber(ARGV[9])
for _, key in ipairs({KEYS[1], KEYS[2], KEYS[3]}) do
  if ttl > 0 then redis.call("PEXPIRE", key, ttl) else redis.call("PERSIST", key) end
end
return "ok"

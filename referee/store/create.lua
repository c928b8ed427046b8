-- Create a game: meta, secret and its opening events, only if the id is new.
-- KEYS[1] events, KEYS[2] meta, KEYS[3] secret
-- ARGV[1] meta fields as JSON object, ARGV[2] secret fields as JSON object,
-- ARGV[3] the game's ttl (ms, 0 = forever), ARGV[4] number of events, ARGV[5..] event JSON
if redis.call("EXISTS", KEYS[2]) == 1 then return 0 end
local meta = cjson.decode(ARGV[1])
for k, v in pairs(meta) do redis.call("HSET", KEYS[2], k, v) end
local secret = cjson.decode(ARGV[2])
for k, v in pairs(secret) do redis.call("HSET", KEYS[3], k, v) end
local n = tonumber(ARGV[4])
for i = 1, n do
  redis.call("XADD", KEYS[1], tostring(i) .. "-0", "e", ARGV[4 + i])
end
-- retention: all keys of the game expire together (referee/store/retention.py)
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  for i = 1, 3 do redis.call("PEXPIRE", KEYS[i], ttl) end
end
return 1

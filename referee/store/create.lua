-- Create a game: meta, secret and its opening events, only if the id is new.
-- KEYS[1] events, KEYS[2] meta, KEYS[3] secret
-- ARGV[1] meta fields as JSON object, ARGV[2] secret fields as JSON object,
-- ARGV[3] number of events, ARGV[4..] event JSON
if redis.call("EXISTS", KEYS[2]) == 1 then return 0 end
local meta = cjson.decode(ARGV[1])
for k, v in pairs(meta) do redis.call("HSET", KEYS[2], k, v) end
local secret = cjson.decode(ARGV[2])
for k, v in pairs(secret) do redis.call("HSET", KEYS[3], k, v) end
local n = tonumber(ARGV[3])
for i = 1, n do
  redis.call("XADD", KEYS[1], tostring(i) .. "-0", "e", ARGV[3 + i])
end
return 1

-- A person's seat seen (issue 40 item 1): its presence in the game's meta hash, field
-- "presence", a JSON object {"<seat>": [first, last]} (ms): ``last`` the latest time the
-- seat was seen, ``first`` when its present stretch began (a seat unseen for longer than the
-- window starts a new one). Nothing is written for a game that is gone.
-- KEYS[1] meta hash; ARGV[1] seat, ARGV[2] now (ms), ARGV[3] the window (ms)
-- Returns the seat's span as stored, {first, last}, or 0 when the game is gone (two requests
-- that first see a seat at once both answer with the one ``first`` that was kept)
local raw = redis.call("HGET", KEYS[1], "presence")
if redis.call("EXISTS", KEYS[1]) == 0 then return 0 end
local seen = {}
if raw then seen = cjson.decode(raw) end
local now, window = tonumber(ARGV[2]), tonumber(ARGV[3])
local held = seen[ARGV[1]]
if held == nil or now - held[2] > window then
  seen[ARGV[1]] = {now, now}
elseif now > held[2] then
  held[2] = now
end
redis.call("HSET", KEYS[1], "presence", cjson.encode(seen))
return seen[ARGV[1]]

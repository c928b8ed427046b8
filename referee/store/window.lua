-- A moving window of requests (the `limits` library's moving window, in one
-- script): KEYS are lists of recent hit times, one per window; ARGV[1] is
-- 'hit' (count this request if every window has room) or 'test' (only
-- look); then each window's amount and length in ms.
-- Returns {allowed (1|0), reset_ms (when the fullest window has room again), now_ms}.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local reset = 0
for i, key in ipairs(KEYS) do
  local amount = tonumber(ARGV[2 * i])
  local window = tonumber(ARGV[2 * i + 1])
  if redis.call('LLEN', key) >= amount then
    local oldest = tonumber(redis.call('LINDEX', key, amount - 1))
    if oldest and oldest > now - window and oldest + window > reset then
      reset = oldest + window
    end
  end
end
if reset > 0 then
  return {0, reset, now}
end
if ARGV[1] == 'hit' then
  for i, key in ipairs(KEYS) do
    local amount = tonumber(ARGV[2 * i])
    redis.call('LPUSH', key, now)
    redis.call('LTRIM', key, 0, amount - 1)
    redis.call('PEXPIRE', key, tonumber(ARGV[2 * i + 1]))
  end
end
return {1, 0, now}

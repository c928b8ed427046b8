-- A moving window of requests (the `limits` library's moving window, in one
-- script): KEYS are lists of recent hit times (newest first), one per window;
-- ARGV[1] is 'hit' (count up to ARGV[2] requests, as many as every window has
-- room for) or 'test' (only look); ARGV[3] a channel and ARGV[4] a name: when
-- a hit fills a window, "b <name> <ms until it has room>" is published there
-- (referee/store/pushed.py; "" for none); then each window's amount and length in ms.
-- Returns {granted (0: refused; 'test': 1|0), reset_ms (when the fullest window has room again), now_ms};
-- a hit granted has a reset_ms only where it filled a window it publishes (0 else): the hitter learns
-- the block from its reply, not from its own message (which may reach it after its next request).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local P = 4
local function live(key, index, window)
  -- the time of the hit at `index` (0: newest) if it is still inside its window, else nil
  local at = tonumber(redis.call('LINDEX', key, index))
  if at ~= nil and at > now - window then return at end
  return nil
end
local grant = tonumber(ARGV[2])
if ARGV[1] ~= 'hit' then grant = 1 end
for i, key in ipairs(KEYS) do
  local amount = tonumber(ARGV[P + 2 * i - 1])
  local window = tonumber(ARGV[P + 2 * i])
  if grant > amount then grant = amount end
  -- room for j more hits: the hit at index amount - j has left the window (or there is none)
  while grant > 0 and live(key, amount - grant, window) do
    grant = grant - 1
  end
end
if grant == 0 then
  local reset = 0
  for i, key in ipairs(KEYS) do
    local amount = tonumber(ARGV[P + 2 * i - 1])
    local window = tonumber(ARGV[P + 2 * i])
    local oldest = live(key, amount - 1, window)
    if oldest and oldest + window > reset then reset = oldest + window end
  end
  return {0, reset, now}
end
if ARGV[1] == 'hit' then
  local full = 0
  for i, key in ipairs(KEYS) do
    local amount = tonumber(ARGV[P + 2 * i - 1])
    local window = tonumber(ARGV[P + 2 * i])
    for _ = 1, grant do redis.call('LPUSH', key, now) end
    redis.call('LTRIM', key, 0, amount - 1)
    redis.call('PEXPIRE', key, window)
    local oldest = ARGV[3] ~= '' and live(key, amount - 1, window)
    if oldest and oldest + window > full then full = oldest + window end
  end
  if full > 0 then
    redis.call('PUBLISH', ARGV[3], 'b ' .. ARGV[4] .. ' ' .. (full - now))
  end
  return {grant, full, now}
end
return {grant, 0, now}

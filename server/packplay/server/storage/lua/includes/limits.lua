--[[
  A limit (a client's new games) is one key holding the time (Redis's clock, ms) at which
  its allowance is whole again (the generic cell rate algorithm): a unit passes while that
  time is at most burst - 1 intervals away, and moves it one interval on. The key expires
  when the allowance is whole: an idle limit holds nothing.
  Returns 0 when the unit passes, else the milliseconds to wait.
]]
local function limited(key, interval, burst)
  local time = redis.call('TIME')
  local at = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local full = math.max(tonumber(redis.call('GET', key) or '0'), at)
  local wait = full - at - interval * (burst - 1)
  if wait > 0 then return math.ceil(wait) end
  redis.call('SET', key, full + interval, 'PX', math.ceil(full + interval - at))
  return 0
end

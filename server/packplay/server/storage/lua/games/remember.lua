--[[
  A refusal stored under its action id, unless an answer is there already. A refusal lives
  as long as its game: none is stored once the game is gone. It counts against the seat's
  limit as an applied action does (its field of the game hash, as in commit.lua).

  KEYS  1-6 the game's keys (keys.game_keys)
  ARGV  1 answer field; 2 answer; 3, 4 the seat's limit (ms per action, burst; '' '': none);
        5 the seat's limit field
  Returns the answer stored, false when the game is gone, or {'limited', ms to wait}
]]

local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return false end
if ARGV[3] ~= '' then
  local time = redis.call('TIME')
  local ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local interval = tonumber(ARGV[3])
  local full = math.max(tonumber(redis.call('HGET', KEYS[1], ARGV[5]) or '0'), ms)
  local wait = full - ms - interval * (tonumber(ARGV[4]) - 1)
  if wait > 0 then return {'limited', tostring(math.ceil(wait))} end
  redis.call('HSET', KEYS[1], ARGV[5], full + interval)
end
if redis.call('HSETNX', KEYS[6], ARGV[1], ARGV[2]) == 1 and redis.call('PTTL', KEYS[6]) < 0 then
  redis.call('PEXPIRE', KEYS[6], ttl)
end
return redis.call('HGET', KEYS[6], ARGV[1])

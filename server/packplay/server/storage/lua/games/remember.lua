--[[
  A refusal stored under its action id, unless an answer is there already. A refusal lives
  as long as its game: none is stored once the game is gone. It counts against the seat's
  limit as an applied action does (its field of the game hash, as in commit.lua).

  A seat's refusals kept are counted in the game hash ('refused:<seat>'); past the most a
  seat may have kept, a refusal is answered but not kept (an id sent again is decided again).

  KEYS  1-6 the game's keys (keys.game_keys)
  ARGV  1 answer field; 2 answer; 3, 4 the seat's limit (ms per action, burst; '' '': none);
        5 the seat's limit field; 6 the most refusals kept per seat; 7 the seat's count field
  Returns the answer stored (or, past the most kept, the one given), false when the game is
        gone, or {'limited', ms to wait}
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
local kept = redis.call('HGET', KEYS[6], ARGV[1])
if kept then return kept end
if redis.call('HINCRBY', KEYS[1], ARGV[7], 1) > tonumber(ARGV[6]) then return ARGV[2] end
redis.call('HSET', KEYS[6], ARGV[1], ARGV[2])
if redis.call('PTTL', KEYS[6]) < 0 then redis.call('PEXPIRE', KEYS[6], ttl) end
return ARGV[2]

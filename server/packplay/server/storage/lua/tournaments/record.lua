--[[
  A table's result set once: every process reads the same finished game. The round's
  count of results goes up with it (``done:<round>`` of the tournament hash), so that the
  process recording the last one knows the round is over without reading every table.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 table field; 3 result; 4 round
  Returns {the table's result, the round's count of results}, or false when there is no
        such tournament
]]
--- @include "tournament_expiry"

if not redis.call('HGET', KEYS[1], 'version') then return false end
local counted = 'done:' .. ARGV[4]
local done
if redis.call('HSETNX', KEYS[5], ARGV[2], ARGV[3]) == 1 then
  done = redis.call('HINCRBY', KEYS[1], counted, 1)
else
  done = tonumber(redis.call('HGET', KEYS[1], counted) or '0')
end
expire_all()
return {redis.call('HGET', KEYS[5], ARGV[2]), done}

--[[
  A lease on creating a table's game: taken unless the table has its game, or another
  process holds a lease that has not run out.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 table field; 3 process id; 4 now; 5 lease end
  Returns 'ok', 'busy' or 'seated'
]]
--- @include "tournament_expiry"

if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then return 'seated' end
local held = redis.call('HGET', KEYS[6], ARGV[2])
if held then
  local owner, ends = string.match(held, '^(%S+) (%S+)$')
  if owner ~= ARGV[3] and tonumber(ends) > tonumber(ARGV[4]) then return 'busy' end
end
redis.call('HSET', KEYS[6], ARGV[2], ARGV[3] .. ' ' .. ARGV[5])
expire_all()
return 'ok'

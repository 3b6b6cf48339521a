--[[
  A versioned step (the start, a pairing, the finish): fields of the tournament hash set,
  and the tournament added to or removed from the running index, if the tournament is
  still at the version read.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 expected version; 3 tournament id; 4 created; 5 running ('add', 'remove'
        or ''); then field, value pairs of the tournament hash
  Returns {'ok', new version}, {'moved', version} or {'missing'}
]]
--- @include "tournament_version"
--- @include "tournament_expiry"

local refused = moved()
if refused then return refused end
for i = 6, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if ARGV[5] == 'add' then
  redis.call('ZADD', KEYS[7], ARGV[4], ARGV[3])
  redis.call('EXPIRE', KEYS[7], ARGV[1])
elseif ARGV[5] == 'remove' then redis.call('ZREM', KEYS[7], ARGV[3]) end
local new = redis.call('HINCRBY', KEYS[1], 'version', 1)
expire_all()
return {'ok', tostring(new)}

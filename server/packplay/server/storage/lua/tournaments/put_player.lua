--[[
  A player's record replaced (a drop), if the tournament is still at the version read.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 expected version; 3 player id; 4 record
  Returns {'ok', new version}, {'moved', version} or {'missing'}
]]
--- @include "tournament_version"
--- @include "tournament_expiry"

local refused = moved()
if refused then return refused end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
local new = redis.call('HINCRBY', KEYS[1], 'version', 1)
expire_all()
return {'ok', tostring(new)}

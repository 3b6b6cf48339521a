--[[
  A registration: not against the whole tournament's version, only what decides whether
  and when the player is in (many players register at once, and none waits for another).

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 status; 3 round; 4 player id; 5 record; 6 most players
  Returns 'ok', 'missing', 'moved', 'full' or 'taken'
]]
--- @include "tournament_expiry"

local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 'missing' end
if status ~= ARGV[2] or redis.call('HGET', KEYS[1], 'round') ~= ARGV[3] then return 'moved' end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[6]) then return 'full' end
if redis.call('HSETNX', KEYS[2], ARGV[4], ARGV[5]) == 0 then return 'taken' end
redis.call('HINCRBY', KEYS[1], 'version', 1)
expire_all()
return 'ok'

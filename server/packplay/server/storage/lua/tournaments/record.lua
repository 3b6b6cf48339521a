--[[
  A table's result set once: every process reads the same finished game.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 table field; 3 result
  Returns the table's result, or false when there is no such tournament
]]
--- @include "tournament_expiry"

if not redis.call('HGET', KEYS[1], 'version') then return false end
redis.call('HSETNX', KEYS[5], ARGV[2], ARGV[3])
expire_all()
return redis.call('HGET', KEYS[5], ARGV[2])

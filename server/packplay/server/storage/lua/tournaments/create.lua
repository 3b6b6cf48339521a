--[[
  A new tournament taking registrations.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 meta; 3 tournament id; 4 created
  Returns 'ok', or 'exists'
]]
--- @include "tournament_expiry"

if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
redis.call('HSET', KEYS[1], 'meta', ARGV[2], 'status', 'registering', 'version', 0, 'round', 0, 'rounds', '')
redis.call('ZADD', KEYS[8], ARGV[4], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[8], '-inf', tonumber(ARGV[4]) - tonumber(ARGV[1]))
redis.call('EXPIRE', KEYS[8], ARGV[1])
expire_all()
return 'ok'

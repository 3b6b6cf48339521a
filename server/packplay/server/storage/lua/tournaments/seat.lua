--[[
  A table's game set once, with its players' seats; the lease on it let go.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 table field; 3 game id; then seat field, "<game id> <seat> <token>" pairs
  Returns the table's game id (another one when another process seated it first)
]]
--- @include "tournament_expiry"

if redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[3]) == 0 then return redis.call('HGET', KEYS[3], ARGV[2]) end
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
redis.call('HDEL', KEYS[6], ARGV[2])
expire_all()
return ARGV[3]

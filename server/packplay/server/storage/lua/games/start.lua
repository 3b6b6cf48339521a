--[[
  Version 0 of a game whose seats are all taken: its deal. Once: only a game 'starting'.

  KEYS  1-6 the game's keys (keys.game_keys); 7 the shard's clock index; 8 its
        started-games index
  ARGV  1 cards (packed); 2 state (the snapshot at version 0); 3 decisions; 4 deadline
        ('': none); 5 ttl; 6 game id; 7 the state packed (entry 0 of the log)
  Returns 'ok', or 'not_starting' when another process started it first
]]
--- @include "indexes"
--- @include "lifetimes"

if redis.call('HGET', KEYS[1], 'status') ~= 'starting' then return 'not_starting' end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[2])
redis.call('RPUSH', KEYS[5], ARGV[7])
redis.call('HSET', KEYS[6], '', '')
if ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[7], ARGV[4], ARGV[6])
  keep(KEYS[7], tonumber(ARGV[5]))
end
local at = now()
index(KEYS[8], ARGV[6], tonumber(ARGV[5]), at)
redis.call('HSET', KEYS[1], 'status', 'active', 'version', 0, 'snapshot', 0, 'decisions', ARGV[3],
  'deadline', ARGV[4], 'expires', live(at, tonumber(ARGV[5])))
return 'ok'

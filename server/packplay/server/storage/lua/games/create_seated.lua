--[[
  A new game with every seat taken, started at once at version 0.

  KEYS  1-6 the game's keys (keys.game_keys); 7 the shard's clock index; 8 its
        started-games index
  ARGV  1 meta; 2 game name; 3 players; 4 ttl; 5 game id; 6 cards (packed); 7 state
        (the snapshot at version 0);
        8 decisions; 9 deadline ('': none); 10 the state packed (entry 0 of the log);
        then per seat: hashed token, name
  Returns 'ok'
]]
--- @include "indexes"
--- @include "lifetimes"

local ttl, at = tonumber(ARGV[4]), now()
-- Fewest commands: the hash's fields and the seats written at once, Redis's clock read once.
redis.call('HSET', KEYS[1], 'game', ARGV[2], 'players', ARGV[3], 'status', 'active', 'version', 0,
  'snapshot', 0, 'decisions', ARGV[8], 'deadline', ARGV[9], 'expires', math.floor(at + ttl))
redis.call('RPUSH', KEYS[2], ARGV[1], ARGV[6])
redis.call('SET', KEYS[3], ARGV[7])
local seats = {}
for i = 11, #ARGV, 2 do
  local seat = (i - 11) / 2
  local n = #seats
  seats[n + 1], seats[n + 2] = seat, ARGV[i]
  seats[n + 3], seats[n + 4] = 'n' .. seat, ARGV[i + 1]
end
redis.call('HSET', KEYS[4], unpack(seats))
redis.call('RPUSH', KEYS[5], ARGV[10])
redis.call('HSET', KEYS[6], '', '')
if ARGV[9] ~= '' then
  redis.call('ZADD', KEYS[7], ARGV[9], ARGV[5])
  keep(KEYS[7], ttl)
end
index(KEYS[8], ARGV[5], ttl, at)
live(at, ttl)
return 'ok'

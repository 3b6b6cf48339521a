--[[
  Move a game's clock entry on if it is still where the caller saw it: of the processes that
  found it due, the one whose claim succeeds acts on it.

  KEYS  1 the shard's clock index
  ARGV  1 game id; 2 the deadline seen; 3 the new one
  Returns 1 when claimed, else 0
]]

local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1

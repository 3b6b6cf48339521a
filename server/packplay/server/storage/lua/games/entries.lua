--[[
  The log read behind a barrier (includes/barrier.lua).

  KEYS  1 the game's hash; 2 its log
  ARGV  1 first index; 2 last index
  Returns the entries
]]
--- @include "barrier"

barrier(KEYS[1])
return redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])

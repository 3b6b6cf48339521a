--[[
  One unit of a limit kept in Redis (includes/limits.lua): a client's new house game, or a
  house decision in the games a client created.

  KEYS  1 the limit's key
  ARGV  1 ms per unit; 2 burst
  Returns 0 when the unit is taken, else the milliseconds to wait for it
]]
--- @include "limits"

return limited(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))

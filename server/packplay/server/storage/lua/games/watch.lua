--[[
  This process joins a game's watchers: it is sent the game's next entries.

  KEYS  1-6 the game's keys (keys.game_keys)
  ARGV  1 this process's id
  Returns the game's version, or 'missing'
]]
--- @include "watchers"

local found = redis.call('HMGET', KEYS[1], 'version', 'watchers')
if not found[1] then return 'missing' end
watch(KEYS[1], ARGV[1], found[2])
return found[1]

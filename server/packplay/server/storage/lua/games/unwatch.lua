--[[
  This process leaves a game's watchers (includes/watchers.lua).

  KEYS  1 the game's hash
  ARGV  1 this process's id
  Returns 1, or 0 when the game has no watchers
]]

local list = redis.call('HGET', KEYS[1], 'watchers')
if not list then return 0 end
local kept = {}
for process in string.gmatch(list, '%S+') do
  if process ~= ARGV[1] then kept[#kept + 1] = process end
end
if #kept == 0 then redis.call('HDEL', KEYS[1], 'watchers')
else redis.call('HSET', KEYS[1], 'watchers', table.concat(kept, ' ')) end
return 1

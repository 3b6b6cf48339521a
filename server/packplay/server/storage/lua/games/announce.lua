--[[
  Durable commits publish their entry with this script once the replicas hold it: a process
  that applied an entry a failover then lost would show its seats a version that never was.

  KEYS  1-6 the game's keys (keys.game_keys)
  ARGV  1 game id; 2 version; 3 origin process; 4 the shard's channel prefix; 5 publish
        command (SPUBLISH or PUBLISH)
  Returns 1, or 0 when the log holds no such version
]]

local entry = redis.call('LINDEX', KEYS[5], ARGV[2])
if not entry then return 0 end
local message = ARGV[1] .. ' ' .. entry
for process in string.gmatch(redis.call('HGET', KEYS[1], 'watchers') or '', '%S+') do
  if process ~= ARGV[3] then redis.call(ARGV[5], ARGV[4] .. process, message) end
end
return 1

--[[
  A game as it stands, optionally joining this process to its watchers in the same step (no
  entry can fall between the read and the next one sent): its last snapshot and the log
  entries after it, which the reader applies to the snapshot to reach the game's version.

  KEYS  1-6 the game's keys (keys.game_keys)
  ARGV  1 this process's id to join the watchers with, or ''; 2 '1' for a barrier
        (includes/barrier.lua)
  Returns {game hash as a flat list, the first two setup entries (meta, cards), the state
        at the snapshot's version, 2 x seats taken, the log entries after the snapshot}
]]
--- @include "barrier"
--- @include "watchers"

if ARGV[2] == '1' then barrier(KEYS[1]) end
local versions = redis.call('HMGET', KEYS[1], 'version', 'snapshot', 'watchers')
if ARGV[1] ~= '' and versions[1] then watch(KEYS[1], ARGV[1], versions[3]) end
local entries = {}
if versions[1] and versions[2] and versions[2] ~= versions[1] then
  entries = redis.call('LRANGE', KEYS[5], tonumber(versions[2]) + 1, tonumber(versions[1]))
end
return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, 1), redis.call('GET', KEYS[3]),
  redis.call('HLEN', KEYS[4]), entries}

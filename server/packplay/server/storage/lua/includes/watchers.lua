--[[
  The processes watching a game are a field of its hash, 'watchers': their ids separated
  by spaces. A set of their own would cost a key per game (80 bytes on Valkey 8, 230 on
  Redis 7.0) for what is nearly always one or two short ids. (From four watching processes
  on, the field is longer than a listpack value may be, and Redis stores that game's hash
  as a table: the bytes a set would have cost.)
  watch() takes the field when its caller has read it already (false: no field), else reads it.
]]
local function watch(game, process, list)
  if list == nil then list = redis.call('HGET', game, 'watchers') end
  if not list or list == '' then
    redis.call('HSET', game, 'watchers', process)
  elseif not string.find(' ' .. list .. ' ', ' ' .. process .. ' ', 1, true) then
    redis.call('HSET', game, 'watchers', list .. ' ' .. process)
  end
end

--[[
  The indexes (lobbies, started games, clocks) are sorted sets per shard. So that each ends
  with its games, an entry of the lobby and game indexes is scored with a time (Redis's
  clock) its game's keys cannot outlive, entries past it are dropped whenever the index is
  written, and every index key lives at least as long as the games written to it (at most
  twice as long: extending a key's life on every write would cost a command per move).
  index() takes the time when its caller has read it already (at), else reads it.
]]
local function now()
  local time = redis.call('TIME')
  return tonumber(time[1]) + tonumber(time[2]) / 1000000
end
local function keep(key, ttl)
  if redis.call('PTTL', key) < ttl * 1000 then redis.call('PEXPIRE', key, ttl * 2000) end
end
local function index(key, id, ttl, at)
  at = at or now()
  redis.call('ZREMRANGEBYSCORE', key, '-inf', at)
  redis.call('ZADD', key, at + ttl, id)
  keep(key, ttl)
end

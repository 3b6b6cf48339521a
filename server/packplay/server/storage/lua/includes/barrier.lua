--[[
  Under PACKPLAY_REDIS_REPLICAS a read whose reply reaches clients (a game loaded, its log
  read on) rewrites the game's version as it stands. WAIT counts only a connection's own
  writes, so the rewrite makes the batch's WAIT cover every write before it, other
  processes' too: no process shows its seats a version the replicas do not hold (one a
  failover would undo), and a master that lost its replicas (one restarted after a
  failover, not yet turned into a replica) answers no read of a game.
]]
local function barrier(game)
  local version = redis.call('HGET', game, 'version')
  if version then redis.call('HSET', game, 'version', version) end
end

--[[
  A new game counted against its client's limits: of new games (a rate) and of open games
  (those of the client's games still waiting for players).

  KEYS  1 the client's limit of new games; 2 the client's open games
  ARGV  1 ms per new game ('': no limit); 2 burst; 3 most open games (0: no limit); 4 the
        new game's id; 5 its ttl; then the ids of the client's games that are no longer open
  Returns {'ok'}, {'lobbies'} or {'limited', ms to wait}
]]
--- @include "limits"

for i = 6, #ARGV do redis.call('ZREM', KEYS[2], ARGV[i]) end
local most = tonumber(ARGV[3])
local at = tonumber(redis.call('TIME')[1])
if most > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', at)
  if redis.call('ZCARD', KEYS[2]) >= most then return {'lobbies'} end
end
if ARGV[1] ~= '' then
  local wait = limited(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
  if wait > 0 then return {'limited', tostring(wait)} end
end
if most > 0 then
  redis.call('ZADD', KEYS[2], at + tonumber(ARGV[5]), ARGV[4])
  redis.call('EXPIRE', KEYS[2], ARGV[5])
end
return {'ok'}

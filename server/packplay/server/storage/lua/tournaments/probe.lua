--[[
  What a runner's tick looks at before reading a whole tournament: whether anything it
  would act on may have changed.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  Returns {version, round, games created, results of the round}, or false when there is
        no such tournament
]]

local version = redis.call('HGET', KEYS[1], 'version')
if not version then return false end
local round = redis.call('HGET', KEYS[1], 'round')
return {version, round, redis.call('HLEN', KEYS[3]), redis.call('HGET', KEYS[1], 'done:' .. round) or '0'}

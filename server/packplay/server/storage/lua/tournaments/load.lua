--[[
  A whole tournament at one version.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  Returns {tournament hash, players, games, results}, each as a flat list
]]

return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3]),
  redis.call('HGETALL', KEYS[5])}

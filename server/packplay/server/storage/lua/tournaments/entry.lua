--[[
  One player's part of a tournament now: what getMyTable needs.

  KEYS  1-6 the tournament's keys (keys.tournament_keys); 7 the shard's index of running
        tournaments; 8 the shard's index of all tournaments
  ARGV  1 ttl; 2 player id
  Returns {status, round, player record, the round's pairing, the player's seat} ('' for
        what is missing), or false when there is no such tournament
]]

local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
local round = redis.call('HGET', KEYS[1], 'round')
local player = redis.call('HGET', KEYS[2], ARGV[2]) or ''
local pairing = redis.call('HGET', KEYS[1], 'round:' .. round) or ''
return {status, round, player, pairing, redis.call('HGET', KEYS[4], round .. ':' .. ARGV[2]) or ''}

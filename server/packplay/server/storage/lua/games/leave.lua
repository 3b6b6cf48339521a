--[[
  Give up a seat before the start.

  KEYS  1-6 the game's keys (keys.game_keys)
  ARGV  1 seat; 2 hashed token
  Returns 'ok', 'missing', 'started' or 'not_seated'
]]

local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 'missing' end
if status ~= 'lobby' then return 'started' end
if redis.call('HGET', KEYS[4], ARGV[1]) ~= ARGV[2] then return 'not_seated' end
redis.call('HDEL', KEYS[4], ARGV[1], 'n' .. ARGV[1])
return 'ok'

--[[
  A new game waiting for players (version -1, no state): its hash and meta, the seats taken
  at once, and its entries in the shard's open-games indexes unless it is private.

  KEYS  1-6 the game's keys (keys.game_keys); 7 the shard's open-games index; 8 that of its
        game type
  ARGV  1 meta; 2 game name; 3 players; 4 ttl; 5 game id; 6 hashed invite code ('': a
        listed game); then per seat taken at once: seat, hashed token, name
  Returns 'ok'
]]
--- @include "indexes"

local fields = {'game', ARGV[2], 'players', ARGV[3], 'status', 'lobby', 'version', -1, 'deadline', ''}
if ARGV[6] ~= '' then fields[#fields + 1], fields[#fields + 2] = 'invite', ARGV[6] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('RPUSH', KEYS[2], ARGV[1])
for i = 7, #ARGV, 3 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1], 'n' .. ARGV[i], ARGV[i + 2]) end
for i = 1, 2 do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
if #ARGV > 6 then redis.call('EXPIRE', KEYS[4], ARGV[4]) end
if ARGV[6] == '' then
  local at = now()
  for i = 7, 8 do index(KEYS[i], ARGV[5], tonumber(ARGV[4]), at) end
end
return 'ok'

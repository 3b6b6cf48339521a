--[[
  Take a seat of a game waiting for players; the join that takes the last one moves the
  game to 'starting' and out of the lobby.

  KEYS  1-6 the game's keys (keys.game_keys); 7 the shard's open-games index
  ARGV  1 hashed token; 2 seat (-1: the first free); 3 ttl; 4 game id; 5 name; 6 prefix of
        the shard's open-games index of one game type; 7 hashed invite code ('': none given)
  Returns {'ok', seat, seats taken, meta}, or {outcome} for 'missing', 'started', 'full',
        'no_seat', 'taken', 'invite_required', 'bad_invite'
]]
--- @include "indexes"

local game = redis.call('HMGET', KEYS[1], 'status', 'invite', 'players', 'game')
local status, invite = game[1], game[2]
if not status then return {'missing'} end
if status ~= 'lobby' then return {'started'} end
if invite and invite ~= ARGV[7] then return {ARGV[7] == '' and 'invite_required' or 'bad_invite'} end
local players = tonumber(game[3])
local seat = tonumber(ARGV[2])
if seat < 0 then
  for s = 0, players - 1 do
    if redis.call('HEXISTS', KEYS[4], s) == 0 then seat = s break end
  end
  if seat < 0 then return {'full'} end
elseif seat >= players then return {'no_seat'}
elseif redis.call('HEXISTS', KEYS[4], seat) == 1 then return {'taken'} end
redis.call('HSET', KEYS[4], seat, ARGV[1], 'n' .. seat, ARGV[5])
local taken = redis.call('HLEN', KEYS[4]) / 2
local lobby = ARGV[6] .. game[4]
if taken == players then
  redis.call('HSET', KEYS[1], 'status', 'starting')
  redis.call('ZREM', KEYS[7], ARGV[4])
  redis.call('ZREM', lobby, ARGV[4])
elseif not invite then
  local at = now()
  index(KEYS[7], ARGV[4], tonumber(ARGV[3]), at)
  index(lobby, ARGV[4], tonumber(ARGV[3]), at)
end
for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
return {'ok', tostring(seat), tostring(taken), redis.call('LINDEX', KEYS[2], 0)}

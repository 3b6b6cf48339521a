--[[
  One new version of a game, if the game is still at the version the caller decided on: the
  answer under the action id, the game hash, the log entry, the clock index, and the entry
  sent to the other processes watching the game, all at once. The log is the truth: the
  state is written only when the caller sends one, a snapshot (every so many versions and
  at the end of the game), and the game hash's 'snapshot' field names its version. A game
  stored before snapshots has no such field: its state is at its version, which the first
  commit without a snapshot writes down.

  The common commit costs five commands: the answer set if not set (a duplicate otherwise),
  the game's version, deadline, lifetime, the seat's limit, the watchers and the snapshot's
  version read at once, the clock, the game hash and the log. The clock index is written
  only for a game with a deadline (or one that had one), the keys' lifetime and the
  started-games index only when due (includes/lifetimes.lua). A seat's limit of actions is
  a field of the game hash ('limit:<seat>', the time in ms at which its allowance is whole
  again: the generic cell rate algorithm of includes/limits.lua).

  KEYS  1-6 the game's keys (keys.game_keys); 7 the shard's clock index; 8 its
        started-games index
  ARGV  1 expected version; 2 answer field ('': no action id); 3 answer; 4 status; 5 the
        state at the new version, a snapshot ('': none); 6 decisions; 7 deadline ('': none);
        8 entry; 9 ttl; 10 game id; 11 origin process; 12 the shard's channel prefix;
        13 catch-up count; 14 publish command (SPUBLISH or PUBLISH; '': the caller announces
        the entry itself, see announce.lua); 15 '1' for a barrier on what a duplicate or a
        conflict answers (the answer of a duplicate is written again: WAIT then covers the
        original); 16, 17 the seat's limit (ms per action, burst; '' '': none); 18 the
        seat's limit field
  Returns {'ok', version made}, {'duplicate', answer stored}, {'conflict', version, the
        entries after the expected version}, {'missing'} or {'limited', ms to wait}
]]
--- @include "indexes"
--- @include "lifetimes"
--- @include "barrier"

-- A started game's entry in the started-games index, made to outlive the game's keys.
local function touch(key, id, ttl, at)
  local score = redis.call('ZSCORE', key, id)
  if not score or tonumber(score) < at + ttl then index(key, id, 2 * ttl, at) end
end

if ARGV[2] ~= '' and redis.call('HSETNX', KEYS[6], ARGV[2], ARGV[3]) == 0 then
  local answered = redis.call('HGET', KEYS[6], ARGV[2])
  if ARGV[15] == '1' then redis.call('HSET', KEYS[6], ARGV[2], answered) end
  return {'duplicate', answered}
end
local function undo()
  if ARGV[2] ~= '' then redis.call('HDEL', KEYS[6], ARGV[2]) end
end
local game = redis.call('HMGET', KEYS[1], 'version', 'deadline', 'expires', ARGV[18], 'watchers', 'snapshot')
local version = tonumber(game[1])
if version == nil then
  undo()
  return {'missing'}
end
local expected = tonumber(ARGV[1])
if version ~= expected then
  undo()
  if ARGV[15] == '1' then barrier(KEYS[1]) end
  return {'conflict', tostring(version), redis.call('LRANGE', KEYS[5], expected + 1, expected + ARGV[13])}
end
local at = now()
local fields = {'version', version + 1, 'status', ARGV[4], 'decisions', ARGV[6], 'deadline', ARGV[7]}
if ARGV[16] ~= '' then
  local interval, ms = tonumber(ARGV[16]), math.floor(at * 1000)
  local full = math.max(tonumber(game[4] or '0'), ms)
  local wait = full - ms - interval * (tonumber(ARGV[17]) - 1)
  if wait > 0 then
    undo()
    return {'limited', tostring(math.ceil(wait))}
  end
  fields[#fields + 1], fields[#fields + 2] = ARGV[18], full + interval
end
local ttl = tonumber(ARGV[9])
if ARGV[4] ~= 'active' or not game[3] or tonumber(game[3]) - at < ttl / 2 then
  fields[#fields + 1], fields[#fields + 2] = 'expires', live(at, ttl)
  if ARGV[4] == 'active' then touch(KEYS[8], ARGV[10], ttl, at) else index(KEYS[8], ARGV[10], ttl, at) end
end
if ARGV[5] ~= '' then
  fields[#fields + 1], fields[#fields + 2] = 'snapshot', version + 1
  redis.call('SET', KEYS[3], ARGV[5], 'KEEPTTL')
elseif not game[6] then
  fields[#fields + 1], fields[#fields + 2] = 'snapshot', version
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('RPUSH', KEYS[5], ARGV[8])
if ARGV[7] ~= '' then
  redis.call('ZADD', KEYS[7], ARGV[7], ARGV[10])
  keep(KEYS[7], ttl)
elseif (game[2] or '') ~= '' then redis.call('ZREM', KEYS[7], ARGV[10]) end
if ARGV[14] ~= '' then
  local message = ARGV[10] .. ' ' .. ARGV[8]
  for process in string.gmatch(game[5] or '', '%S+') do
    if process ~= ARGV[11] then redis.call(ARGV[14], ARGV[12] .. process, message) end
  end
end
return {'ok', tostring(version + 1)}

--[[
  A started game's keys live ttl seconds from when they were last given it, a time the game
  hash keeps ('expires', Redis's clock). A commit gives them their time again only once
  less than half of it is left (or when the game ends, for the finished games' time): a
  command per key once in days rather than on every move. Its answers hash exists from the
  start (its field '' holds nothing) so that every key of the game has a time.
  KEYS[1] to KEYS[6] are the game's six keys (keys.game_keys).
  Returns the time the keys now live until.
]]
local function live(at, ttl)
  for i = 1, 6 do redis.call('EXPIRE', KEYS[i], ttl) end
  return math.floor(at + ttl)
end

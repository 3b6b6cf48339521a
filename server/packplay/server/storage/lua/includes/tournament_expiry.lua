--[[
  Every tournament script takes the tournament's six keys as KEYS[1] to KEYS[6] and its ttl
  as ARGV[1], and ends by giving each existing key that time again.
]]
local function expire_all()
  for i = 1, 6 do
    if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('EXPIRE', KEYS[i], ARGV[1]) end
  end
end

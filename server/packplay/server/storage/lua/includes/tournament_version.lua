--[[
  A versioned tournament step: ARGV[2] is the version the caller read.
  Returns nil while the tournament is still at it, else the reply the script ends with:
  {'missing'} or {'moved', version}.
]]
local function moved()
  local version = redis.call('HGET', KEYS[1], 'version')
  if not version then return {'missing'} end
  if tonumber(version) ~= tonumber(ARGV[2]) then return {'moved', version} end
  return nil
end

-- Reads `key = value` settings; `#` starts a comment.
local strings = require("taskq.util.strings")

local M = {}

M.defaults = {
  workers = 2,
  retry = 3,
}

local function parse_value(raw)
  local number = tonumber(raw)
  if number ~= nil then
    return number
  end
  if raw == "true" or raw == "false" then
    return raw == "true"
  end
  return raw
end

function M.parse(text)
  local settings = {}
  for key, value in pairs(M.defaults) do
    settings[key] = value
  end
  for line in text:gmatch("[^\n]+") do
    if not strings.starts_with(strings.trim(line), "#") then
      local pair = strings.split(line, "=")
      if #pair == 2 then
        settings[pair[1]] = parse_value(pair[2])
      end
    end
  end
  return settings
end

function M.load(path)
  local file, err = io.open(path, "r")
  if not file then
    error("cannot read config " .. path .. ": " .. err)
  end
  local text = file:read("a")
  file:close()
  return M.parse(text)
end

return M

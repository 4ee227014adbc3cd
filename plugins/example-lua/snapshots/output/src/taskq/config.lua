-- Reads `key = value` settings; `#` starts a comment.
local strings = require("taskq.util.strings")
--                      ^^^^^^^^^^^^^^^^^^^^ reference imports taskq.util.strings

local M = {}

M.defaults = {
  workers = 2,
  retry = 3,
}

local function parse_value(raw)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function parse_value [11:0-20:3]
  local number = tonumber(raw)
--               ^^^^^^^^ reference calls tonumber (from parse_value)
  if number ~= nil then
    return number
  end
  if raw == "true" or raw == "false" then
    return raw == "true"
  end
  return raw
end

function M.parse(text)
-- ^^^^^^^^^^^^^^^^^^^^^^ definition function M.parse [22:0-36:3]
  local settings = {}
  for key, value in pairs(M.defaults) do
--                  ^^^^^ reference calls pairs (from M.parse)
    settings[key] = value
  end
  for line in text:gmatch("[^\n]+") do
--            ^^^^^^^^^^^ reference calls text:gmatch (from M.parse)
    if not strings.starts_with(strings.trim(line), "#") then
--         ^^^^^^^^^^^^^^^^^^^ reference calls strings.starts_with (from M.parse)
--                             ^^^^^^^^^^^^ reference calls strings.trim (from M.parse)
      local pair = strings.split(line, "=")
--                 ^^^^^^^^^^^^^ reference calls strings.split (from M.parse)
      if #pair == 2 then
        settings[pair[1]] = parse_value(pair[2])
--                          ^^^^^^^^^^^ reference calls parse_value (from M.parse)
      end
    end
  end
  return settings
end

function M.load(path)
-- ^^^^^^^^^^^^^^^^^^^^^ definition function M.load [38:0-46:3]
  local file, err = io.open(path, "r")
--                  ^^^^^^^ reference calls io.open (from M.load)
  if not file then
    error("cannot read config " .. path .. ": " .. err)
--  ^^^^^ reference calls error (from M.load)
  end
  local text = file:read("a")
--             ^^^^^^^^^ reference calls file:read (from M.load)
  file:close()
--^^^^^^^^^^ reference calls file:close (from M.load)
  return M.parse(text)
--       ^^^^^^^ reference calls M.parse (from M.load)
end

return M
-- ----- travsr snapshot: src/taskq/config.lua (lua, phase A, status ok) -----
-- node file <file> (config.lua)
-- skeleton M.load: "function M.load(path)"
-- skeleton M.parse: "function M.parse(text)"
-- skeleton parse_value: "local function parse_value(raw)"
-- edge contains <file> -> M.load (confidence 1, phase-a)
-- edge contains <file> -> M.parse (confidence 1, phase-a)
-- edge contains <file> -> parse_value (confidence 1, phase-a)

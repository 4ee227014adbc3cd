-- Small string helpers shared by the config parser and the CLI.

local function trim(s)
-- ^^^^^^^^^^^^^^^^^^^^^^ definition function trim [3:0-5:3]
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
--        ^^^^^^ reference calls s:gsub (from trim)
--                           ^^^^ reference calls gsub (from trim)
end

local function split(s, sep)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function split [7:0-13:3]
  local parts = {}
  for piece in string.gmatch(s, "([^" .. sep .. "]+)") do
--             ^^^^^^^^^^^^^ reference calls string.gmatch (from split)
    table.insert(parts, trim(piece))
--  ^^^^^^^^^^^^ reference calls table.insert (from split)
--                      ^^^^ reference calls trim (from split)
  end
  return parts
end

return {
  trim = trim,
  split = split,
  starts_with = function(s, prefix)
--^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function starts_with (to 20:5)
    return s:sub(1, #prefix) == prefix
--         ^^^^^ reference calls s:sub (from starts_with)
  end,
}
-- ----- travsr snapshot: src/taskq/util/strings.lua (lua, phase A, status ok) -----
-- node file <file> (strings.lua)
-- skeleton split: "local function split(s, sep)"
-- skeleton starts_with: "starts_with = function(s, prefix)"
-- skeleton trim: "local function trim(s)"
-- edge contains <file> -> split (confidence 1, phase-a)
-- edge contains <file> -> starts_with (confidence 1, phase-a)
-- edge contains <file> -> trim (confidence 1, phase-a)

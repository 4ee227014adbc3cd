-- Small string helpers shared by the config parser and the CLI.

local function trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

local function split(s, sep)
  local parts = {}
  for piece in string.gmatch(s, "([^" .. sep .. "]+)") do
    table.insert(parts, trim(piece))
  end
  return parts
end

return {
  trim = trim,
  split = split,
  starts_with = function(s, prefix)
    return s:sub(1, #prefix) == prefix
  end,
}

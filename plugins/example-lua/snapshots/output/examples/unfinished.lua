-- A file in the middle of an edit: the second function is not closed yet.
local M = {}

function M.ready()
-- ^^^^^^^^^^^^^^^^^^ definition function M.ready [4:0-6:3]
  return true
end

function M.half_written(x)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function M.half_written [8:0-16:8]
  if x > 0 then
    return x
--          ^ diagnostic warning PARSE_ERRORS: 2 syntax errors (2 MISSING nodes); definitions in the broken region may be missing

function M.after()
-- ^^^^^^^^^^^^^^^^^^ definition function M.after [12:0-14:3]
  return M.ready()
--       ^^^^^^^ reference calls M.ready (from M.after)
end

return M
-- ----- travsr snapshot: examples/unfinished.lua (lua, phase A, status ok) -----
-- node file <file> (unfinished.lua)
-- skeleton M.after: "function M.after()"
-- skeleton M.half_written: "function M.half_written(x)"
-- skeleton M.ready: "function M.ready()"
-- edge contains <file> -> M.half_written (confidence 1, phase-a)
-- edge contains <file> -> M.ready (confidence 1, phase-a)
-- edge contains M.half_written -> M.after (confidence 1, phase-a)

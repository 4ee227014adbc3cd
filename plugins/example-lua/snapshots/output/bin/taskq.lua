#!/usr/bin/env lua
-- Command line: taskq <config-file>
package.path = "./src/?.lua;./src/?/init.lua;" .. package.path

local taskq = require("taskq")
--                    ^^^^^^^ reference imports taskq
local config = require("taskq.config")
--                     ^^^^^^^^^^^^^^ reference imports taskq.config

local function main(argv)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^ definition function main [8:0-19:3]
  local settings = config.load(argv[1] or "taskq.conf")
--                 ^^^^^^^^^^^ reference calls config.load (from main)
  local tasks = {
    { name = "fetch", priority = 1, run = function() end },
    { name = "index", priority = 2, run = function() error("index is locked") end },
--                                                   ^^^^^ reference calls error (from main)
  }
  local failed = taskq.run_all(tasks, settings)
--               ^^^^^^^^^^^^^ reference calls taskq.run_all (from main)
  if #failed > 0 then
    taskq.on_failure(failed)
--  ^^^^^^^^^^^^^^^^ reference calls taskq.on_failure (from main)
    os.exit(1)
--  ^^^^^^^ reference calls os.exit (from main)
  end
end

main(arg)
-- ^^^^ reference calls main [21:0-21:4]
-- ----- travsr snapshot: bin/taskq.lua (lua, phase A, status ok) -----
-- node file <file> (taskq.lua)
-- skeleton main: "local function main(argv)"
-- edge contains <file> -> main (confidence 1, phase-a)

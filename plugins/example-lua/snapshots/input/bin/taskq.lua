#!/usr/bin/env lua
-- Command line: taskq <config-file>
package.path = "./src/?.lua;./src/?/init.lua;" .. package.path

local taskq = require("taskq")
local config = require("taskq.config")

local function main(argv)
  local settings = config.load(argv[1] or "taskq.conf")
  local tasks = {
    { name = "fetch", priority = 1, run = function() end },
    { name = "index", priority = 2, run = function() error("index is locked") end },
  }
  local failed = taskq.run_all(tasks, settings)
  if #failed > 0 then
    taskq.on_failure(failed)
    os.exit(1)
  end
end

main(arg)

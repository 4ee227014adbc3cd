-- taskq: run tasks by priority with a bounded number of retries.
local Queue = require("taskq.queue")
--                    ^^^^^^^^^^^^^ reference imports taskq.queue
local config = require "taskq.config"
--                     ^^^^^^^^^^^^^^ reference imports taskq.config

local taskq = {}

local function run_one(task, retries)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function run_one [7:0-16:3]
  for attempt = 1, retries do
    local ok, err = pcall(task.run, task)
--                  ^^^^^ reference calls pcall (from run_one)
    if ok then
      return true
    end
    io.stderr:write(string.format("task %s failed (attempt %d): %s\n", task.name, attempt, err))
--  ^^^^^^^^^^^^^^^ reference calls io.stderr:write (from run_one)
--                  ^^^^^^^^^^^^^ reference calls string.format (from run_one)
  end
  return false
end

function taskq.run_all(tasks, settings)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function taskq.run_all [18:0-32:3]
  settings = settings or config.defaults
  local queue = Queue.new()
--              ^^^^^^^^^ reference calls Queue.new (from taskq.run_all)
  for _, task in ipairs(tasks) do
--               ^^^^^^ reference calls ipairs (from taskq.run_all)
    queue:push(task)
--  ^^^^^^^^^^ reference calls queue:push (from taskq.run_all)
  end
  local failed = {}
  while not queue:is_empty() do
--          ^^^^^^^^^^^^^^ reference calls queue:is_empty (from taskq.run_all)
    local task = queue:pop()
--               ^^^^^^^^^ reference calls queue:pop (from taskq.run_all)
    if not run_one(task, settings.retry) then
--         ^^^^^^^ reference calls run_one (from taskq.run_all)
      table.insert(failed, task.name)
--    ^^^^^^^^^^^^ reference calls table.insert (from taskq.run_all)
    end
  end
  return failed
end

taskq.on_failure = function(names)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function taskq.on_failure [34:0-36:3]
  local arrow = "→"; io.write(arrow, " failed: ", table.concat(names, ", "), "\n")
--                   ^^^^^^^^ reference calls io.write (from taskq.on_failure)
--                                                ^^^^^^^^^^^^ reference calls table.concat (from taskq.on_failure)
end

return taskq
-- ----- travsr snapshot: src/taskq/init.lua (lua, phase A, status ok) -----
-- node file <file> (init.lua)
-- skeleton run_one: "local function run_one(task, retries)"
-- skeleton taskq.on_failure: "taskq.on_failure = function(names)"
-- skeleton taskq.run_all: "function taskq.run_all(tasks, settings)"
-- edge contains <file> -> run_one (confidence 1, phase-a)
-- edge contains <file> -> taskq.on_failure (confidence 1, phase-a)
-- edge contains <file> -> taskq.run_all (confidence 1, phase-a)

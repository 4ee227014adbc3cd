-- taskq: run tasks by priority with a bounded number of retries.
local Queue = require("taskq.queue")
local config = require "taskq.config"

local taskq = {}

local function run_one(task, retries)
  for attempt = 1, retries do
    local ok, err = pcall(task.run, task)
    if ok then
      return true
    end
    io.stderr:write(string.format("task %s failed (attempt %d): %s\n", task.name, attempt, err))
  end
  return false
end

function taskq.run_all(tasks, settings)
  settings = settings or config.defaults
  local queue = Queue.new()
  for _, task in ipairs(tasks) do
    queue:push(task)
  end
  local failed = {}
  while not queue:is_empty() do
    local task = queue:pop()
    if not run_one(task, settings.retry) then
      table.insert(failed, task.name)
    end
  end
  return failed
end

taskq.on_failure = function(names)
  local arrow = "→"; io.write(arrow, " failed: ", table.concat(names, ", "), "\n")
end

return taskq

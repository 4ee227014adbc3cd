-- A priority queue of tasks, kept as a binary heap ordered by `priority` (lowest first).
local Queue = {}
Queue.__index = Queue

--- Creates an empty queue.
-- @return Queue
function Queue.new()
-- ^^^^^^^^^^^^^^^^^^^^ definition function Queue.new [7:0-9:3]
  return setmetatable({ items = {}, size = 0 }, Queue)
--       ^^^^^^^^^^^^ reference calls setmetatable (from Queue.new)
end

local function swap(items, i, j)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function swap [11:0-13:3]
  items[i], items[j] = items[j], items[i]
end

local function sift_up(items, i)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function sift_up [15:0-24:3]
  while i > 1 do
    local parent = i // 2
    if items[parent].priority <= items[i].priority then
      return
    end
    swap(items, i, parent)
--  ^^^^ reference calls swap (from sift_up)
    i = parent
  end
end

local function sift_down(items, size, i)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function sift_down [26:0-35:3]
  while true do
    local smallest, left, right = i, 2 * i, 2 * i + 1
    if left <= size and items[left].priority < items[smallest].priority then smallest = left end
    if right <= size and items[right].priority < items[smallest].priority then smallest = right end
    if smallest == i then return end
    swap(items, i, smallest)
--  ^^^^ reference calls swap (from sift_down)
    i = smallest
  end
end

--- Adds a task; tasks with equal priority keep no particular order.
function Queue:push(task)
-- ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Queue:push [38:0-42:3]
  self.size = self.size + 1
  self.items[self.size] = task
  sift_up(self.items, self.size)
--^^^^^^^ reference calls sift_up (from Queue:push)
end

function Queue:pop()
-- ^^^^^^^^^^^^^^^^^^^^ definition method Queue:pop [44:0-54:3]
  if self.size == 0 then
    return nil
  end
  local top = self.items[1]
  self.items[1] = self.items[self.size]
  self.items[self.size] = nil
  self.size = self.size - 1
  sift_down(self.items, self.size, 1)
--^^^^^^^^^ reference calls sift_down (from Queue:pop)
  return top
end

function Queue:is_empty()
-- ^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Queue:is_empty [56:0-58:3]
  return self.size == 0
end

return Queue
-- ----- travsr snapshot: src/taskq/queue.lua (lua, phase A, status ok) -----
-- node file <file> (queue.lua)
-- skeleton Queue.new: "--- Creates an empty queue.\n-- @return Queue\nfunction Queue.new()"
-- skeleton Queue:is_empty: "function Queue:is_empty()"
-- skeleton Queue:pop: "function Queue:pop()"
-- skeleton Queue:push: "--- Adds a task; tasks with equal priority keep no particular order.\nfunction Queue:push(task)"
-- skeleton sift_down: "local function sift_down(items, size, i)"
-- skeleton sift_up: "local function sift_up(items, i)"
-- skeleton swap: "local function swap(items, i, j)"
-- edge contains <file> -> Queue.new (confidence 1, phase-a)
-- edge contains <file> -> Queue:is_empty (confidence 1, phase-a)
-- edge contains <file> -> Queue:pop (confidence 1, phase-a)
-- edge contains <file> -> Queue:push (confidence 1, phase-a)
-- edge contains <file> -> sift_down (confidence 1, phase-a)
-- edge contains <file> -> sift_up (confidence 1, phase-a)
-- edge contains <file> -> swap (confidence 1, phase-a)

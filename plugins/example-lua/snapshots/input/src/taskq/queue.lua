-- A priority queue of tasks, kept as a binary heap ordered by `priority` (lowest first).
local Queue = {}
Queue.__index = Queue

--- Creates an empty queue.
-- @return Queue
function Queue.new()
  return setmetatable({ items = {}, size = 0 }, Queue)
end

local function swap(items, i, j)
  items[i], items[j] = items[j], items[i]
end

local function sift_up(items, i)
  while i > 1 do
    local parent = i // 2
    if items[parent].priority <= items[i].priority then
      return
    end
    swap(items, i, parent)
    i = parent
  end
end

local function sift_down(items, size, i)
  while true do
    local smallest, left, right = i, 2 * i, 2 * i + 1
    if left <= size and items[left].priority < items[smallest].priority then smallest = left end
    if right <= size and items[right].priority < items[smallest].priority then smallest = right end
    if smallest == i then return end
    swap(items, i, smallest)
    i = smallest
  end
end

--- Adds a task; tasks with equal priority keep no particular order.
function Queue:push(task)
  self.size = self.size + 1
  self.items[self.size] = task
  sift_up(self.items, self.size)
end

function Queue:pop()
  if self.size == 0 then
    return nil
  end
  local top = self.items[1]
  self.items[1] = self.items[self.size]
  self.items[self.size] = nil
  self.size = self.size - 1
  sift_down(self.items, self.size, 1)
  return top
end

function Queue:is_empty()
  return self.size == 0
end

return Queue

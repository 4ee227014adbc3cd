package app.tasks

import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.map
import java.time.Instant as Clock

/** A task someone has to do. */
data class Task(val id: Long, val title: String, val done: Boolean = false)

interface TaskStore {
    fun all(): Flow<List<Task>>
    suspend fun save(task: Task)
}

sealed class Result<out T> {
    data class Ok<T>(val value: T) : Result<T>()
    object Missing : Result<Nothing>()
}

class TaskRepository(private val store: TaskStore) : BaseRepository(), AutoCloseable {
    private val cache = mutableMapOf<Long, Task>()

    fun open(): Flow<List<Task>> = store.all().map { tasks -> tasks.filterNot(Task::done) }

    suspend fun complete(id: Long): Result<Task> {
        val task = cache[id] ?: return Result.Missing
        val updated = task.copy(done = true)
        store.save(updated)
        log("completed ${task.title} at ${Clock.now()}")
        return Result.Ok(updated)
    }

    override fun close() {
        cache.clear()
    }

    companion object {
        fun inMemory(): TaskRepository = TaskRepository(MemoryStore())
    }
}

fun Task.describe(): String = if (done) "[x] $title" else "[ ] $title"

enum class Priority { LOW, HIGH }

typealias TaskId = Long

package app.tasks

import kotlinx.coroutines.flow.Flow
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.map
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports kotlinx.coroutines.flow.map
import java.time.Instant as Clock
//     ^^^^^^^^^^^^^^^^^ reference imports java.time.Instant

/** A task someone has to do. */
data class Task(val id: Long, val title: String, val done: Boolean = false)
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Task [8:0-8:75]

interface TaskStore {
// ^^^^^^^^^^^^^^^^^^^^^ definition interface TaskStore [10:0-13:1]
    fun all(): Flow<List<Task>>
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method TaskStore.all
    suspend fun save(task: Task)
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method TaskStore.save
}

sealed class Result<out T> {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Result [15:0-18:1]
    data class Ok<T>(val value: T) : Result<T>()
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Result.Ok
//                                   ^^^^^^^^^ reference inherits Result (from Result.Ok)
    object Missing : Result<Nothing>()
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Result.Missing
//                   ^^^^^^^^^^^^^^^ reference inherits Result (from Result.Missing)
}

class TaskRepository(private val store: TaskStore) : BaseRepository(), AutoCloseable {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class TaskRepository [20:0-40:1]
//                                                   ^^^^^^^^^^^^^^ reference inherits BaseRepository (from TaskRepository)
//                                                                     ^^^^^^^^^^^^^ reference implements AutoCloseable (from TaskRepository)
    private val cache = mutableMapOf<Long, Task>()
//                      ^^^^^^^^^^^^ reference calls mutableMapOf (from TaskRepository)

    fun open(): Flow<List<Task>> = store.all().map { tasks -> tasks.filterNot(Task::done) }
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method TaskRepository.open
//                                 ^^^^^^^^^^^^^^^ reference calls map (from TaskRepository.open)
//                                 ^^^^^^^^^ reference calls store.all (from TaskRepository.open)
//                                                            ^^^^^^^^^^^^^^^ reference calls tasks.filterNot (from TaskRepository.open)
//                                                                                  ^^^^ reference calls Task.done (from TaskRepository.open)

    suspend fun complete(id: Long): Result<Task> {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method TaskRepository.complete (to 31:5)
        val task = cache[id] ?: return Result.Missing
        val updated = task.copy(done = true)
//                    ^^^^^^^^^ reference calls task.copy (from TaskRepository.complete)
        store.save(updated)
//      ^^^^^^^^^^ reference calls store.save (from TaskRepository.complete)
        log("completed ${task.title} at ${Clock.now()}")
//      ^^^ reference calls log (from TaskRepository.complete)
//                                        ^^^^^^^^^ reference calls Clock.now (from TaskRepository.complete)
        return Result.Ok(updated)
//             ^^^^^^^^^ reference calls Result.Ok (from TaskRepository.complete)
    }

    override fun close() {
//  ^^^^^^^^^^^^^^^^^^^^^^ definition method TaskRepository.close (to 35:5)
        cache.clear()
//      ^^^^^^^^^^^ reference calls cache.clear (from TaskRepository.close)
    }

    companion object {
        fun inMemory(): TaskRepository = TaskRepository(MemoryStore())
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method TaskRepository.inMemory
//                                       ^^^^^^^^^^^^^^ reference calls TaskRepository (from TaskRepository.inMemory)
//                                                      ^^^^^^^^^^^ reference calls MemoryStore (from TaskRepository.inMemory)
    }
}

fun Task.describe(): String = if (done) "[x] $title" else "[ ] $title"
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Task.describe [42:0-42:70]

enum class Priority { LOW, HIGH }
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition enum Priority [44:0-44:33]

typealias TaskId = Long
// ^^^^^^^^^^^^^^^^^^^^^^^ definition type TaskId [46:0-46:23]
// ----- travsr snapshot: src/main/kotlin/app/TaskRepository.kt (kotlin, phase A, status ok) -----
// node file <file> (TaskRepository.kt)
// skeleton Priority: "enum class Priority { LOW, HIGH }"
// skeleton Result.Missing: "object Missing : Result<Nothing>()"
// skeleton Result.Ok: "data class Ok<T>(val value: T) : Result<T>()"
// skeleton Result: "sealed class Result<out T> {"
// skeleton Task.describe: "fun Task.describe(): String = if (done) \"[x] $title\" else \"[ ] $title\""
// skeleton Task: "data class Task(val id: Long, val title: String, val done: Boolean = false)"
// skeleton TaskId: "typealias TaskId = Long"
// skeleton TaskRepository.close: "override fun close() {"
// skeleton TaskRepository.complete: "suspend fun complete(id: Long): Result<Task> {"
// skeleton TaskRepository.inMemory: "fun inMemory(): TaskRepository = TaskRepository(MemoryStore())"
// skeleton TaskRepository.open: "fun open(): Flow<List<Task>> = store.all().map { tasks -> tasks.filterNot(Task::done) }"
// skeleton TaskRepository: "class TaskRepository(private val store: TaskStore) : BaseRepository(), AutoCloseable {"
// skeleton TaskStore.all: "fun all(): Flow<List<Task>>"
// skeleton TaskStore.save: "suspend fun save(task: Task)"
// skeleton TaskStore: "interface TaskStore {"
// edge contains <file> -> Priority (confidence 1, phase-a)
// edge contains <file> -> Result (confidence 1, phase-a)
// edge contains <file> -> Task (confidence 1, phase-a)
// edge contains <file> -> Task.describe (confidence 1, phase-a)
// edge contains <file> -> TaskId (confidence 1, phase-a)
// edge contains <file> -> TaskRepository (confidence 1, phase-a)
// edge contains <file> -> TaskStore (confidence 1, phase-a)
// edge contains Result -> Result.Missing (confidence 1, phase-a)
// edge contains Result -> Result.Ok (confidence 1, phase-a)
// edge contains TaskRepository -> TaskRepository.close (confidence 1, phase-a)
// edge contains TaskRepository -> TaskRepository.complete (confidence 1, phase-a)
// edge contains TaskRepository -> TaskRepository.inMemory (confidence 1, phase-a)
// edge contains TaskRepository -> TaskRepository.open (confidence 1, phase-a)
// edge contains TaskStore -> TaskStore.all (confidence 1, phase-a)
// edge contains TaskStore -> TaskStore.save (confidence 1, phase-a)

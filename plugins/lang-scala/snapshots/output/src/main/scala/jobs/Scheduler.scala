package jobs

import scala.concurrent.{ExecutionContext, Future}
//                       ^^^^^^^^^^^^^^^^ reference imports scala.concurrent.ExecutionContext
//                                         ^^^^^^ reference imports scala.concurrent.Future
import scala.concurrent.duration._
//     ^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports scala.concurrent.duration
import java.time.{Clock => JClock}
//                ^^^^^ reference imports java.time.Clock

/** Something that can run on a schedule. */
trait Job {
// ^^^^^^^^^^^ definition trait Job [8:0-11:1]
  def name: String
//^^^^^^^^^^^^^^^^ definition method Job.name
  def run()(implicit ec: ExecutionContext): Future[Unit]
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Job.run
}

case class Every(seconds: Int)
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Every [13:0-13:30]

object Scheduler {
// ^^^^^^^^^^^^^^^^^^ definition class Scheduler [15:0-17:1]
  def apply(jobs: Job*): Scheduler = new Scheduler(jobs.toList, JClock.systemUTC())
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Scheduler.apply
//                                       ^^^^^^^^^ reference calls Scheduler (from Scheduler.apply)
//                                                                     ^^^^^^^^^ reference calls JClock.systemUTC (from Scheduler.apply)
}

class Scheduler(jobs: List[Job], clock: JClock) extends Runnable with AutoCloseable {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class Scheduler@2 [19:0-34:1]
//                                                      ^^^^^^^^ reference inherits Runnable (from Scheduler@2)
//                                                                    ^^^^^^^^^^^^^ reference inherits AutoCloseable (from Scheduler@2)
  private var running = true
  private val pause = Duration(1, SECONDS)
//                    ^^^^^^^^ reference calls Duration (from Scheduler@2)

  override def run(): Unit = {
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Scheduler.run (to 29:3)
    implicit val ec: ExecutionContext = ExecutionContext.global
    while (running) {
      jobs.foreach(job => job.run().failed.foreach(e => log(s"${job.name} failed: $e")))
//         ^^^^^^^ reference calls jobs.foreach (from Scheduler.run)
//                            ^^^ reference calls job.run (from Scheduler.run)
//                                         ^^^^^^^ reference calls failed.foreach (from Scheduler.run)
//                                                      ^^^ reference calls log (from Scheduler.run)
      Thread.sleep(pause.toMillis)
//           ^^^^^ reference calls Thread.sleep (from Scheduler.run)
    }
  }

  def log(message: String): Unit = println(s"${clock.instant()} $message")
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Scheduler.log
//                                 ^^^^^^^ reference calls println (from Scheduler.log)
//                                                   ^^^^^^^ reference calls clock.instant (from Scheduler.log)

  override def close(): Unit = running = false
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Scheduler.close
}
// ----- travsr snapshot: src/main/scala/jobs/Scheduler.scala (scala, phase A, status ok) -----
// node file <file> (Scheduler.scala)
// skeleton Every: "case class Every(seconds: Int)"
// skeleton Job.name: "def name: String"
// skeleton Job.run: "def run()(implicit ec: ExecutionContext): Future[Unit]"
// skeleton Job: "/** Something that can run on a schedule. */\ntrait Job"
// skeleton Scheduler.apply: "def apply(jobs: Job*): Scheduler ="
// skeleton Scheduler.close: "override def close(): Unit ="
// skeleton Scheduler.log: "def log(message: String): Unit ="
// skeleton Scheduler.run: "override def run(): Unit ="
// skeleton Scheduler: "object Scheduler"
// skeleton Scheduler@2: "class Scheduler(jobs: List[Job], clock: JClock) extends Runnable with AutoCloseable"
// edge contains <file> -> Every (confidence 1, phase-a)
// edge contains <file> -> Job (confidence 1, phase-a)
// edge contains <file> -> Scheduler (confidence 1, phase-a)
// edge contains <file> -> Scheduler@2 (confidence 1, phase-a)
// edge contains Job -> Job.name (confidence 1, phase-a)
// edge contains Job -> Job.run (confidence 1, phase-a)
// edge contains Scheduler -> Scheduler.apply (confidence 1, phase-a)
// edge contains Scheduler@2 -> Scheduler.close (confidence 1, phase-a)
// edge contains Scheduler@2 -> Scheduler.log (confidence 1, phase-a)
// edge contains Scheduler@2 -> Scheduler.run (confidence 1, phase-a)

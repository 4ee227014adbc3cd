package jobs

import scala.concurrent.{ExecutionContext, Future}
import scala.concurrent.duration._
import java.time.{Clock => JClock}

/** Something that can run on a schedule. */
trait Job {
  def name: String
  def run()(implicit ec: ExecutionContext): Future[Unit]
}

case class Every(seconds: Int)

object Scheduler {
  def apply(jobs: Job*): Scheduler = new Scheduler(jobs.toList, JClock.systemUTC())
}

class Scheduler(jobs: List[Job], clock: JClock) extends Runnable with AutoCloseable {
  private var running = true
  private val pause = Duration(1, SECONDS)

  override def run(): Unit = {
    implicit val ec: ExecutionContext = ExecutionContext.global
    while (running) {
      jobs.foreach(job => job.run().failed.foreach(e => log(s"${job.name} failed: $e")))
      Thread.sleep(pause.toMillis)
    }
  }

  def log(message: String): Unit = println(s"${clock.instant()} $message")

  override def close(): Unit = running = false
}

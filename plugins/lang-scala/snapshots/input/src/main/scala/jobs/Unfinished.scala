object Broken {
  val s = s"""interpolated ${ "never

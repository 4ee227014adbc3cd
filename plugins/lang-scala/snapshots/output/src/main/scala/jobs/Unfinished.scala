object Broken {
// ^^^^^^^^^^^^^ definition class Broken [1:0-1:13]
//            ^ diagnostic warning PARSE_ERRORS: 2 syntax errors (2 ERROR nodes); definitions in the broken region may be missing (to 3:0)
  val s = s"""interpolated ${ "never
// ----- travsr snapshot: src/main/scala/jobs/Unfinished.scala (scala, phase A, status ok) -----
// node file <file> (Unfinished.scala)
// skeleton Broken: "object Broken {"
// edge contains <file> -> Broken (confidence 1, phase-a)

fun broken() {
// ^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [1:0-2:29]
    val s = """raw ${ "nested
// ----- travsr snapshot: src/main/kotlin/app/Unfinished.kt (kotlin, phase A, status ok) -----
// node file <file> (Unfinished.kt)

func broken() {
// ^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [1:0-4:0]
    let text = """
    multi-line string \(interpolated(
// ----- travsr snapshot: Sources/Weather/Unfinished.swift (swift, phase A, status ok) -----
// node file <file> (Unfinished.swift)

func broken() {
// ^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 2 syntax errors (2 ERROR nodes); definitions in the broken region may be missing [1:0-4:0]
    let text = """
    multi-line string \(interpolated(
// ----- travsr snapshot: swift/Sources/Weather/Unfinished.swift (swift, phase A, status ok) -----
// node file <file> (Unfinished.swift)

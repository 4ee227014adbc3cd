package ledger

var s = `raw string never closed
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [3:0-4:0]
// ----- travsr snapshot: ledger/unfinished.go (go, phase A, status ok) -----
// node file <file> (unfinished.go)

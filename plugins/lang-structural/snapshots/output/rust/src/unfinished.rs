/* a block comment /* nested
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 3 syntax errors (3 ERROR nodes); definitions in the broken region may be missing [1:0-2:38]
//                    ^^^^^^ reference calls nested
fn broken() { let s = r##"never closed
// ----- travsr snapshot: rust/src/unfinished.rs (bash, phase A, status ok) -----
// node file <file> (unfinished.rs)

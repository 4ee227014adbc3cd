#if defined(X
// ^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 2 syntax errors (2 ERROR nodes); definitions in the broken region may be missing [1:0-2:39]
int broken(void) { return "never closed
// ----- travsr snapshot: src/unfinished.c (c, phase A, status ok) -----
// node file <file> (unfinished.c)

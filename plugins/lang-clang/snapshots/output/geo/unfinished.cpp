namespace geo {
// ^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [1:0-3:0]
const char* banner = R"delim(raw string without its end
// ----- travsr snapshot: geo/unfinished.cpp (cpp, phase A, status ok) -----
// node file <file> (unfinished.cpp)

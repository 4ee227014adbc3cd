class Broken {
// ^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [1:0-2:34]
    string s = $@"verbatim {interp
// ----- travsr snapshot: Shop/Unfinished.cs (csharp, phase A, status ok) -----
// node file <file> (Unfinished.cs)

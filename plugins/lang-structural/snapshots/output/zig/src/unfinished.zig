const s =
    \\multi-line string
    \\without the rest
//                    ^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 MISSING node); definitions in the broken region may be missing
// ----- travsr snapshot: zig/src/unfinished.zig (zig, phase A, status ok) -----
// node file <file> (unfinished.zig)

class Broken {
// ^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [1:0-4:0]
    String s = """
        text block never closed
// ----- travsr snapshot: com/example/billing/Unfinished.java (java, phase A, status ok) -----
// node file <file> (Unfinished.java)

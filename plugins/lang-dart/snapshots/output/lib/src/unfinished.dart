void broken() {
// ^^^^^^^^^^^^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing [1:0-2:30]
  final s = '''multi ${"nested
// ----- travsr snapshot: lib/src/unfinished.dart (dart, phase A, status ok) -----
// node file <file> (unfinished.dart)

// Work in progress: the parser still finds the definitions around the syntax error.
export function ready(): boolean {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function ready [2:0-4:1]
  return true;
}

export function broken(: number {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function broken [6:0-7:14]
//                     ^ diagnostic warning PARSE_ERRORS: 5 syntax errors; the first: Parameter declaration expected.
  return ready(
}
// ----- travsr snapshot: src/unfinished.ts (typescript, phase A, status ok) -----
// node file <file> (unfinished.ts)
// skeleton broken: "export function broken(: number {\n  return ready"
// skeleton ready: "export function ready(): boolean"
// edge contains <file> -> broken (confidence 1, phase-a)
// edge contains <file> -> ready (confidence 1, phase-a)

import { createRequire } from 'node:module';
//                            ^^^^^^^^^^^^^ reference imports node:module

const require = createRequire(import.meta.url);
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constant require [3:0-3:47]
//              ^^^^^^^^^^^^^ reference calls createRequire (from require)
const { slugify, Parser } = require('./util.js');
//                                  ^^^^^^^^^^^ reference imports ./util.js

export async function run(argv) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function run [6:0-11:1]
  const parser = new Parser({ strict: true });
//                   ^^^^^^ reference calls Parser (from run)
  const parts = parser.parse(argv.join('/'));
//                     ^^^^^ reference calls parser.parse (from run)
//                                ^^^^ reference calls argv.join (from run)
  const { shout } = await import('../lib/format.js');
//                               ^^^^^^^^^^^^^^^^^^ reference imports ../lib/format.js
  return shout(parts.map((p) => slugify(p)).join(' '));
//       ^^^^^ reference calls shout (from run)
//                   ^^^ reference calls parts.map (from run)
//                              ^^^^^^^ reference calls slugify (from run)
//                                          ^^^^ reference calls join (from run)
}
// ----- travsr snapshot: src/legacy/cli.mjs (typescript, phase A, status ok) -----
// node file <file> (cli.mjs)
// skeleton require: "const require = createRequire(import.meta.url);"
// skeleton run: "export async function run(argv)"
// edge contains <file> -> require (confidence 1, phase-a)
// edge contains <file> -> run (confidence 1, phase-a)

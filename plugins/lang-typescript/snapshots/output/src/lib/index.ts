// The library's public surface: re-exports only.
export * from './shapes';
//            ^^^^^^^^^^ reference imports ./shapes
export { format as fmt, formatters } from './format';
//                                        ^^^^^^^^^^ reference imports ./format
export * as formatting from './format';
//                          ^^^^^^^^^^ reference imports ./format
export { default as shout } from './format';
//                               ^^^^^^^^^^ reference imports ./format
// ----- travsr snapshot: src/lib/index.ts (typescript, phase A, status ok) -----
// node file <file> (index.ts)

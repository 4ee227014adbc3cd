/**
 * V8 tuning for lang-rust's sessions, imported first by main.ts so that it runs before any
 * other module of the bundle.
 *
 * A session is short and its hot code is spread over many functions (tree-sitter's bindings,
 * the extractor, the resolver): with V8's default interrupt budget most of them are handed to
 * the optimizing compiler within the first few hundred milliseconds, and that compiling (on
 * background threads) costs about as much CPU as the analysis itself, taken from the host,
 * which stores the results on the same cores meanwhile. A budget about four times the
 * default optimizes only what stays hot. Measured on a 2-core machine (`travsr init`, wall):
 * clap 1.86 → 1.55 s, tokio 4.0 → 3.5 s. Not for every plugin: lang-python's sessions on
 * Django got slower with it (5.4 → 6.1 s), their hot loops wanting TurboFan early.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's `--interrupt-budget` in lang-rust's sessions (Node 20's V8 default: 67 584). */
export const INTERRUPT_BUDGET = 300_000;

setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);

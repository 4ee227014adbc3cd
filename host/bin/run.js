#!/usr/bin/env node
import { statSync } from 'node:fs';
import { execute } from '@oclif/core';

// The commands run from dist/bundle/, made from tsc's output by `npm run build`. A checkout where
// only `tsc -b` ran since would run the old bundle without a word: say so (one stat each).
const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
const compiled = mtime('../dist/.tsbuildinfo');
const bundled = mtime('../dist/bundle/.bundled');
if (compiled !== undefined && (bundled === undefined || compiled > bundled)) {
  process.emitWarning(
    'host/dist/ was compiled after the CLI bundle was made, so this runs the older code; run `npm run build -w travsr` (tsc, bundle, command manifest)',
    { code: 'TRAVSR_STALE_BUNDLE' },
  );
}

await execute({ dir: import.meta.url });

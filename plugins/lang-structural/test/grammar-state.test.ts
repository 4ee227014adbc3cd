// Grammars must not carry state from one file to the next. The Lua grammar of
// tree-sitter-wasms@0.1.13 does (example-lua patches it): its scanner keeps what it held after
// the previous parse, so a valid file parses with errors once anything was parsed before it,
// even by a new Parser. The only trustworthy reference is therefore the first parse of a fresh
// wasm instance (a worker thread). For every language, pieces of the snapshot inputs (each
// suffix starting at every few lines, so that files start with all kinds of constructs) are
// parsed once as that reference and once by the plugin's own parser, in one long sequence
// interleaved with broken inputs (truncated files, the unfinished ones); every piece that is
// valid must come out the same.
//
// The reference parses (one fresh worker each) are what costs: by default a few pieces per
// language keep the file short on a busy CI box; `npm run test:long` (TRAVSR_TEST_LONG=1) runs
// the full sample.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, languageOfPath } from '../src/languages.js';
import { builtAnalyzer, distDir, inputDir } from './analyze-fixture.js';

// Baseline (Liftoff) wasm code only, in this test process and its workers. With tier-up, each
// worker's multi-megabyte grammar is recompiled by TurboFan in the background, and a busy machine
// then holds the next worker's start for tens of seconds. The compiler tier does not change what a
// parse returns, so the reference stays the first parse of a fresh instance.
setFlagsFromString('--liftoff-only');

const webTreeSitter = pathToFileURL(createRequire(import.meta.url).resolve('web-tree-sitter')).href;
const PIECES_PER_LANGUAGE = process.env.TRAVSR_TEST_LONG ? 20 : 6;

/** The tree of `text` as the first parse of a fresh web-tree-sitter instance. */
function freshParse(grammar: string, text: string): Promise<string> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { Parser, Language } = await import(workerData.webTreeSitter);
      await Parser.init();
      const language = await Language.load(require('node:fs').readFileSync(workerData.grammar));
      const parser = new Parser();
      parser.setLanguage(language);
      parentPort.postMessage(parser.parse(workerData.text).rootNode.toString());
    })().catch((e) => parentPort.postMessage('worker failed: ' + e.message));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { webTreeSitter, grammar: join(distDir, grammar), text } });
    worker.once('message', (tree: string) => {
      resolve(tree);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

function inputsOf(language: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (languageOfPath(p)?.id === language) out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(join(inputDir, language));
  return out;
}

/** Suffixes of the inputs starting at evenly spaced lines, at most `max`. */
function pieces(texts: string[], max: number): string[] {
  const all = texts.flatMap((t) => {
    const lines = t.split('\n');
    return lines.map((_, i) => lines.slice(i).join('\n')).filter((s) => s.trim().length > 0);
  });
  const step = Math.max(1, Math.floor(all.length / max));
  return all.filter((_, i) => i % step === 0).slice(0, max);
}

const analyzer = builtAnalyzer();

describe.each(LANGUAGES.map((l) => [l.id, l] as const))('%s grammar', (id, spec) => {
  it('parses every valid file the same whatever it parsed before', async () => {
    const texts = inputsOf(id);
    const candidates = [...texts, ...pieces(texts, PIECES_PER_LANGUAGE)];
    const reference: string[] = [];
    for (let i = 0; i < candidates.length; i += 4) {
      reference.push(...(await Promise.all(candidates.slice(i, i + 4).map((c) => freshParse(spec.grammar, c)))));
    }
    const valid = candidates.map((_, i) => i).filter((i) => !/\b(ERROR|MISSING)\b/.test(reference[i]!));
    expect(valid.length, 'valid pieces to compare').toBeGreaterThanOrEqual(2);

    await analyzer.initialize();
    const { parser } = await analyzer.load(spec);
    const differ: string[] = [];
    for (let round = 0; round < 2; round++) {
      for (const i of valid) {
        // Before each valid piece: a broken one (a truncated input, or the previous piece cut short).
        const before = candidates[(i + round) % candidates.length]!;
        parser.parse(before.slice(0, Math.max(1, Math.floor(before.length * (0.3 + 0.4 * round)))), 'broken')?.delete();
        const tree = parser.parse(candidates[i]!, 'valid');
        if (tree.rootNode.toString() !== reference[i]) differ.push(candidates[i]!.split('\n')[0]!.slice(0, 60));
        tree.delete();
      }
    }
    expect(differ, `${id}: valid input parsed differently after other input (state carried across files)`).toEqual([]);
  }, 60_000);
});

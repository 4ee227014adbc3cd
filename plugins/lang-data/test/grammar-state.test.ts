// Several files in a row through one parser. A grammar whose external scanner keeps state
// from the previous parse (the Lua grammar of tree-sitter-wasms does) parses the second file
// differently from a fresh process. YAML and TOML have external scanners; JSON is checked too.
//
// "Fresh" must be a new process: the Lua scanner reads garbage from reused heap chunks, which
// a new grammar instance in the same process shares (checked: a same-process reference misses
// the Lua bug, a new-process one finds it).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadGrammar } from '@travsr/sdk/tree-sitter';
import { analyze, GRAMMARS_DIR, newAnalyzer, patchedYamlGrammar } from './helpers/analyze.js';

const inputDir = fileURLToPath(new URL('../snapshots/input', import.meta.url));

function inputs(dir = inputDir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = join(dir, name);
    return statSync(abs).isDirectory() ? inputs(abs) : [relative(inputDir, abs)];
  });
}

const read = (p: string) => readFileSync(join(inputDir, p), 'utf8');

const EXTRA: Record<'json' | 'yaml' | 'toml', string[]> = {
  yaml: [
    'a: |\n  text\n  more\nb: >-\n  folded\nc:\n  - x\n  - y: 1\n    z: 2\n',
    "s: 'it''s'\nd: \"tab\\tx\"\nplain: multi\n  line\n",
    'key: "unterminated\nother: 1\n',
    'x: [1, {a: b}]\n---\ny: &anc\n  z: 1\nw: *anc\n...\n',
    '- a\n- b:\n    c: d\n',
    '',
  ],
  toml: ['a = """\nmulti\nline\n"""\nb = 1\n', "s = '''\nraw\n'''\n[t]\nu = 2\n", 'bad = \n[ok]\nz = 1\n', 'x = [\n  1,\n  2,\n]\n'],
  json: ['{"a": 1}', '[1, 2', '{"b": {"c": [1, 2, 3]}}', '// c\n{"d": /* x */ 1,}'],
};

function samples(format: 'json' | 'yaml' | 'toml'): string[] {
  const ext = { json: /\.json$/, yaml: /\.ya?ml$/, toml: /\.toml$/ }[format];
  return [
    ...inputs()
      .filter((p) => ext.test(p))
      .map(read),
    ...EXTRA[format],
  ];
}

const SDK_TREE_SITTER = createRequire(import.meta.url).resolve('@travsr/sdk/tree-sitter');
const FIRST_PARSE = `import { readFileSync } from 'node:fs';
import { loadGrammar } from ${JSON.stringify(SDK_TREE_SITTER)};
const grammar = await loadGrammar(process.env.GRAMMAR);
process.stdout.write(grammar.parse(readFileSync(0, 'utf8')).rootNode.toString());`;

/** The tree of `text` as the first parse of a new process. */
function firstParse(grammar: string, text: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', FIRST_PARSE], {
    input: text,
    env: { ...process.env, GRAMMAR: grammar },
  }).toString();
}

const grammarPath = {
  json: () => join(GRAMMARS_DIR, 'tree-sitter-json.wasm'),
  yaml: patchedYamlGrammar,
  toml: () => join(GRAMMARS_DIR, 'tree-sitter-toml.wasm'),
};

describe('several files in a row', () => {
  for (const format of ['yaml', 'toml', 'json'] as const) {
    it(`${format}: one parser gives each file the tree of a first parse in a new process, in any order`, async () => {
      const texts = samples(format);
      expect(texts.length).toBeGreaterThanOrEqual(4);
      const fresh = texts.map((text) => firstParse(grammarPath[format](), text));
      const shared = await loadGrammar(grammarPath[format]());
      const order = texts.map((_, i) => i);
      const mismatches: string[] = [];
      for (const sequence of [order, [...order].reverse(), order.flatMap((i) => [i, i]), order]) {
        for (const i of sequence) {
          const tree = shared.parse(texts[i]!);
          if (tree.rootNode.toString() !== fresh[i]) mismatches.push(`sample ${i}: ${JSON.stringify(texts[i]!.slice(0, 40))}`);
          tree.delete();
        }
      }
      expect(mismatches).toEqual([]);
    });
  }

  it('analyzes the snapshot inputs alike in any order, with syntax errors only in broken files', async () => {
    const paths = inputs().sort();
    const run = async (order: string[]) => {
      const analyzer = newAnalyzer();
      const out = new Map<string, string>();
      for (const p of order) out.set(p, JSON.stringify(await analyze(p, readFileSync(join(inputDir, p)), undefined, analyzer)));
      return out;
    };
    const forward = await run(paths);
    const backward = await run([...paths].reverse());
    const twice = await run([...paths, ...paths]);
    for (const p of paths) {
      expect(backward.get(p), p).toBe(forward.get(p));
      expect(twice.get(p), p).toBe(forward.get(p));
      const broken = p.startsWith('broken/');
      expect(forward.get(p)!.includes('PARSE_ERRORS'), p).toBe(broken);
    }
  });
});

// End to end, as a user runs it: `travsr init` on a git repository (the plugin in its
// standard sandbox tier, Phase A then Phase B), then `travsr graph export`.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../../host/bin/run.js', import.meta.url));
const input = fileURLToPath(new URL('../snapshots/input', import.meta.url));

function travsr(args: string[]): string {
  return execFileSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TRAVSR_CORPUS: 'test' },
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

interface ExportNode {
  type: 'node';
  id: string;
  kind: string;
  path: string;
  signature: string;
}
interface ExportEdge {
  type: 'edge';
  src: string;
  dst: string;
  kind: string;
  provenance: string;
  confidence: number;
}

describe('lang-typescript through travsr init and graph export', () => {
  let repo: string;
  let summary: { plugins: { id: string; status: string; analyzed: number; failed: number; phases: string[] }[] };
  const edges: string[] = [];

  beforeAll(() => {
    expect(existsSync(new URL('../dist/main.js', import.meta.url)), 'build first: npm run build -w @travsr/plugin-lang-typescript').toBe(
      true,
    );
    repo = mkdtempSync(join(tmpdir(), 'lang-ts-cli-'));
    cpSync(input, repo, { recursive: true });
    const git = (...a: string[]) =>
      execFileSync('git', a, {
        cwd: repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.org',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.org',
        },
      });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
    summary = (JSON.parse(travsr(['init', repo, '--no-hook', '--json'])) as { summary: typeof summary }).summary;
    const lines = travsr(['graph', 'export', repo, '--format', 'jsonl'])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportNode | ExportEdge);
    const nodes = new Map<string, ExportNode>();
    for (const l of lines) if (l.type === 'node') nodes.set(l.id, l);
    const at = (id: string) => `${nodes.get(id)!.path}#${nodes.get(id)!.signature}`;
    for (const l of lines)
      if (l.type === 'edge') edges.push(`${l.provenance} ${l.kind} ${at(l.src)} -> ${at(l.dst)}${l.confidence < 1 ? ' (guess)' : ''}`);
  }, 180_000);
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('runs both phases in the sandbox over every file', () => {
    const p = summary.plugins.find((x) => x.id === 'lang-typescript')!;
    expect(p).toMatchObject({ status: 'ok', analyzed: 11, failed: 0, phases: ['A', 'B'] });
  });

  it('stores the resolved call edges on the Phase A nodes, with phase-b provenance', () => {
    expect(edges).toContain('phase-b calls src/app.ts#main -> src/lib/format.ts#format');
    expect(edges).toContain('phase-b calls src/app.ts#fill -> src/lib/shapes.ts#Circle.constructor');
    expect(edges).toContain('phase-b calls src/geometry/area.ts#report -> src/lib/shapes.ts#largest');
    expect(edges).toContain('phase-b calls src/app.ts#fill -> src/app.ts#Repository.save');
    expect(edges).toContain('phase-b inherits src/lib/shapes.ts#Circle -> src/lib/shapes.ts#BaseShape');
    expect(edges).toContain('phase-b imports src/geometry/area.ts# -> src/lib/shapes.ts#');
  });

  it('resolves the calls inside functions defined by assignment, anonymous object literals and wrapping calls, from those definitions', () => {
    const forms = 'src/assigned/forms.ts';
    expect(edges).toContain(`phase-b calls ${forms}#Schema.parse -> ${forms}#log`);
    expect(edges).toContain(`phase-b calls ${forms}#Watcher.onClose@2 -> ${forms}#log`);
    expect(edges).toContain(`phase-b calls ${forms}#Watcher.constructor.next -> ${forms}#log`);
    expect(edges).toContain(`phase-b calls ${forms}#Watcher.constructor.error -> ${forms}#log`);
    expect(edges).toContain(`phase-b calls ${forms}#Watcher.constructor -> ${forms}#subscribe`);
    expect(edges).toContain(`phase-b calls ${forms}#map -> ${forms}#dual`);
    // Not from the definitions around them.
    expect(edges.filter((e) => e.startsWith(`phase-b calls ${forms}#Watcher.constructor -> `))).toEqual([
      `phase-b calls ${forms}#Watcher.constructor -> ${forms}#subscribe`,
    ]);
  });

  it('adds no name-matched guesses next to the compiler-resolved edges of a file', () => {
    // Every file here has its Phase B graph: its Phase A refs are kept but not name-matched
    // (a guess beside a resolved call is noise at best, wrong at worst).
    expect(edges.filter((e) => e.startsWith('phase-a calls'))).toEqual([]);
  });
});

// The scip-python upgrade end to end, with the real CLI, the built lang-python and the standard
// sandbox: off by default (the native Phase B alone); switched on in the repository's
// configuration (`plugins.options`) it says why it does not run while scip-python is not on
// PATH, and with scip-python on PATH it adds the edges pyright resolves and the native resolver
// does not prove, and `travsr status` names both Phase Bs.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../../../test/helpers/git-repo.js';
import { travsr } from '../../../test/helpers/run-cli.js';
import { installScipPython, SOURCES } from './scip-python-fixture.js';

interface ExportLine {
  type: 'node' | 'edge';
  id: string;
  qualified_name?: string | null;
  src: string;
  dst: string;
  kind: string;
  provenance: string;
}
interface StatusJson {
  languages: { language: string; phases: string; phaseB: string[] }[];
}

const install = installScipPython();
if ('skip' in install) console.warn(`skipping the scip-python upgrade end to end: ${install.skip}`);

// `max(...)` returns its iterable's element type: pyright knows it from typeshed, the native
// resolver does not follow the standard library's generics, so only scip-python proves this call.
const FILES = {
  ...SOURCES,
  'picks.py': [
    'from shop import Ledger',
    '',
    '',
    'def pick():',
    '    best = max([Ledger("a"), Ledger("b")], key=id)',
    '    return best.add(1)',
    '',
  ].join('\n'),
};

/** PATH without any directory that holds scip-python, so that "not on PATH" is true on any machine. */
const pathWithout = (process.env['PATH'] ?? '')
  .split(delimiter)
  .filter((d) => d && !existsSync(join(d, 'scip-python')))
  .join(delimiter);

let repo: GitRepo;
beforeAll(() => {
  repo = new GitRepo('travsr-scip-python-');
  repo.write(FILES).commit('shop');
});
afterAll(() => repo?.dispose());

async function callsOfPick(): Promise<string[]> {
  const exported = await travsr(['graph', 'export', repo.root, '--format', 'jsonl']);
  expect(exported.code, exported.stderr).toBe(0);
  const lines = exported.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ExportLine);
  const names = new Map(lines.filter((l) => l.type === 'node').map((n) => [n.id, n.qualified_name]));
  return lines
    .filter((l) => l.type === 'edge' && l.kind === 'calls' && names.get(l.src) === 'picks.pick')
    .map((e) => `${names.get(e.dst)} (${e.provenance})`)
    .sort();
}

async function pythonPhaseB(): Promise<string[] | undefined> {
  const status = await travsr(['status', repo.root, '--json']);
  expect(status.code, status.stderr).toBe(0);
  return (JSON.parse(status.stdout) as StatusJson).languages.find((l) => l.language === 'python')?.phaseB;
}

describe.skipIf('skip' in install)('the scip-python upgrade of lang-python (plugins.options)', () => {
  it('is off by default, says why it does not run while scip-python is missing, and adds scip edges once it runs', async () => {
    const withTool = { PATH: `${'bin' in install ? install.bin : ''}${delimiter}${pathWithout}`, TRAVSR_LOG_LEVEL: 'info' };
    const init = await travsr(['init', repo.root, '--no-hook'], { env: withTool, timeoutMs: 180_000 });
    expect(init.code, init.stderr).toBe(0);
    // Off by default, even with scip-python on PATH.
    expect(init.stderr).not.toMatch(/scip-python \d+\.\d+\.\d+ indexed/);
    expect(await pythonPhaseB()).toEqual(['native']);
    expect(await callsOfPick()).toEqual(['shop.ledger.Ledger (phase-b)']);

    const set = await travsr(['config', 'set', 'plugins.options.lang-python.scipPython', 'true', '--repo', repo.root]);
    expect(set.code, set.stderr).toBe(0);

    const missing = await travsr(['index', repo.root, '--rebuild'], {
      env: { PATH: pathWithout, TRAVSR_LOG_LEVEL: 'info' },
      timeoutMs: 180_000,
    });
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.stderr).toMatch(
      /scipPython is on, but scip-python is not on PATH: Phase B resolves natively; install it with `npm install -g @sourcegraph\/scip-python@0\.6\.6`/,
    );
    expect(await pythonPhaseB()).toEqual(['native']);

    const upgraded = await travsr(['index', repo.root, '--rebuild'], { env: withTool, timeoutMs: 240_000 });
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(upgraded.stderr).toMatch(/scip-python 0\.6\.6 indexed 5 files in \d+ s/);
    expect(await pythonPhaseB()).toEqual(['native', 'scip-python']);
    expect(await callsOfPick()).toEqual(['shop.ledger.Ledger (phase-b)', 'shop.ledger.Ledger.add (scip)']);
  }, 600_000);
});

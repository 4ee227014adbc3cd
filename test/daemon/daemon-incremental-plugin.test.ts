// The daemon keeps an incremental plugin's session between updates (lang-typescript keeps its
// programs): the second edit is analyzed by the same plugin process as the first, and what it
// resolves reflects the second edit — the session re-reads what changed.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonClient, eventually, settled, stopTestDaemon } from '../helpers/daemon.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let repo: GitRepo;
let daemonPid: number;

beforeAll(async () => {
  repo = new GitRepo('travsr-daemon-ts-');
  repo
    .write({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
      'src/geometry.ts': 'export function area(r: number): number {\n  return 3.14 * r * r;\n}\n',
      'src/app.ts': "import { area } from './geometry';\n\nexport function main(): number {\n  return area(1);\n}\n",
    })
    .commit('one');
  const init = await travsr(['init', repo.root, '--no-hook']);
  expect(init.code, init.stderr).toBe(0);
  const start = await travsr(['daemon', 'start', '--repo', repo.root]);
  expect(start.code, start.stderr).toBe(0);
  daemonPid = Number(/\(pid (\d+)\)/.exec(start.stdout)![1]);
  await settled(repo.root);
}, 180_000);

afterAll(async () => {
  await stopTestDaemon();
  repo.dispose();
});

/** Processes below `pid` running a plugin's entry point (inside its sandbox or not). */
function pluginProcesses(pid: number): number[] {
  const found: number[] = [];
  const walk = (p: number): void => {
    let children: number[] = [];
    try {
      children = readdirSync(`/proc/${p}/task`).flatMap((t) =>
        readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
      );
    } catch {
      return;
    }
    for (const c of children) {
      const cmd = (() => {
        try {
          return readFileSync(`/proc/${c}/cmdline`, 'utf8').split('\0');
        } catch {
          return [];
        }
      })();
      if (cmd[0]?.endsWith('node') && cmd.some((a) => a.endsWith('/dist/main.js'))) found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found.sort();
}

/** The callers of `area` get_callers names, with how each call was found. */
async function callersOfArea(): Promise<Map<string, string>> {
  const c = await daemonClient();
  try {
    const r = await c.callTool({
      tool: 'get_callers',
      argumentsJson: JSON.stringify({ symbol: 'area', depth: 1 }),
      repos: [repo.root],
      fullAccess: true,
      corpora: [],
      groups: [],
      timeoutMs: 0,
    });
    const nodes = (JSON.parse(r.structuredJson) as { nodes?: { name: string; via?: { certainty?: string } }[] }).nodes ?? [];
    return new Map(nodes.map((n) => [n.name, n.via?.certainty ?? '']));
  } finally {
    c.close();
  }
}

describe.runIf(process.platform === 'linux')('an incremental plugin under the daemon', () => {
  it('serves the next edit from the same warm session, and sees that edit', async () => {
    repo.write({
      'src/app.ts': `${readFileSync(`${repo.root}/src/app.ts`, 'utf8')}\nexport function first(): number {\n  return area(2);\n}\n`,
    });
    await eventually(async () => (await callersOfArea()).get('first') === 'resolved', 'first() resolved as a caller of area');
    const session = await eventually(() => {
      const p = pluginProcesses(daemonPid);
      return p.length > 0 ? p : undefined;
    }, 'the lang-typescript session kept for the next update');

    repo.write({
      'src/app.ts': `${readFileSync(`${repo.root}/src/app.ts`, 'utf8')}\nexport function second(): number {\n  return area(3);\n}\n`,
    });
    await eventually(async () => (await callersOfArea()).get('second') === 'resolved', 'second() resolved as a caller of area');
    expect((await callersOfArea()).get('first')).toBe('resolved');
    expect(pluginProcesses(daemonPid)).toEqual(session);
  }, 180_000);
});

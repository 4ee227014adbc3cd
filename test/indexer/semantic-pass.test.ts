// `index.semantic = false` indexes structure only; turning it back on resolves calls with the compiler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let repo: GitRepo;
beforeAll(() => {
  repo = new GitRepo('travsr-semantic-');
  repo
    .write({
      'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
      'src/a.ts': 'import { b } from "./b";\nexport function a() {\n  return b();\n}\n',
      'src/b.ts': 'export function b() {\n  return 1;\n}\n',
    })
    .commit('ts');
});
afterAll(() => repo?.dispose());

const typescriptPhase = async () => {
  const s = JSON.parse((await travsr(['status', repo.root, '--json'])).stdout) as { parseErrors: unknown; counts: unknown };
  const callers = await travsr(['graph', 'callers', 'b', '--repo', repo.root]);
  return { s, callers: callers.stdout };
};

describe('index.semantic', () => {
  it('false: Phase A only, calls name-matched; true again: compiler-resolved calls replace the guesses', async () => {
    expect((await travsr(['config', 'set', 'index.semantic', 'false', '--repo', repo.root])).code).toBe(0);
    const init = await travsr(['init', repo.root, '--no-hook', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const ts = (JSON.parse(init.stdout) as { summary: { plugins: { id: string; phases: string[] }[] } }).summary.plugins.find(
      (p) => p.id === 'lang-typescript',
    )!;
    expect(ts.phases).toEqual(['A']);
    expect((await typescriptPhase()).callers).toMatch(/calls \[name-matched\] function a/);

    expect((await travsr(['config', 'set', 'index.semantic', 'true', '--repo', repo.root])).code).toBe(0);
    const again = await travsr(['index', repo.root, '--rebuild', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const callers = (await typescriptPhase()).callers;
    expect(callers).toMatch(/calls function a\s+src\/a\.ts:2-4/);
    expect(callers).not.toMatch(/\[name-matched\]/);
  });
});

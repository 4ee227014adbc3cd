// Item 10 of issue 12: on POSIX a backslash is an ordinary file-name character, not a separator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let repo: GitRepo;
beforeAll(() => {
  repo = new GitRepo('travsr-backslash-');
  repo
    .write({
      'back\\slash.ts': 'export function slashyFunction(): number {\n  return 1;\n}\n',
      // `back/slash.ts` is another file; the backslash must not be read as a separator.
      'back/slash.ts': 'export function otherFunction(): number {\n  return 2;\n}\n',
    })
    .commit('a file named back\\slash.ts');
});
afterAll(() => repo?.dispose());

describe('finding 10: a file named `back\\slash.ts` always fails "no such file"', () => {
  it('travsr init indexes back\\slash.ts and travsr ask finds the function it defines', async () => {
    const init = await travsr(['init', repo.root, '--no-hook']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).not.toMatch(/failed back/);
    expect(init.stdout).toMatch(/0 failed/);

    const r = await travsr(['ask', 'slashyFunction', '--repo', repo.root, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { nodes: { name: string; path: string }[] };
    expect(answer.nodes).toContainEqual(expect.objectContaining({ name: 'slashyFunction', path: 'back\\slash.ts' }));
    expect(answer.nodes.filter((n) => n.name === 'otherFunction').map((n) => n.path)).not.toContain('back\\slash.ts');
  }, 120_000);
});

// A plugin's session is brief (its node compiles WebAssembly with the baseline compiler only,
// `--liftoff-only`) when the plugin has few files to analyze in the run — in a full run too —
// and a full session when it has more than BRIEF_RUN_FILES: the optimizing compiler pays off
// only over many files. One `travsr init` of a repository where lang-data has many files and
// lang-python a few shows both, in the plugin-session traces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIEF_RUN_FILES } from '../../host/src/indexer/plugin-sessions.js';
import { GitRepo } from '../helpers/git-repo.js';
import { lastPluginSession } from '../helpers/plugin-trace.js';
import { travsr } from '../helpers/run-cli.js';

let repo: GitRepo;

beforeAll(async () => {
  repo = new GitRepo('travsr-brief-');
  const files: Record<string, string> = {
    'app.py': 'from util import helper\n\n\ndef main():\n    return helper()\n',
    'util.py': 'def helper():\n    return 1\n',
  };
  for (let i = 0; i <= BRIEF_RUN_FILES; i++) files[`config/part-${i}.json`] = JSON.stringify({ name: `part ${i}`, size: i });
  repo.write(files).commit('fixture');
  const init = await travsr(['init', repo.root, '--no-hook']);
  expect(init.code, init.stderr).toBe(0);
}, 120_000);

afterAll(() => repo?.dispose());

describe('brief plugin sessions in a full index run', () => {
  it('a plugin with few files runs a brief session', async () => {
    const python = await lastPluginSession(repo.root, 'lang-python');
    expect(python.requests[0]).toBe('analyze 2 file(s), phase A');
    expect(python.sandbox.join('\n')).toMatch(/--liftoff-only: a brief session/);
  });

  it(`a plugin with more than ${BRIEF_RUN_FILES} files runs a full session`, async () => {
    const data = await lastPluginSession(repo.root, 'lang-data');
    expect(data.requests[0]).toMatch(/^analyze \d+ file\(s\)/);
    expect(data.sandbox.join('\n')).toMatch(/--max-old-space-size/);
    expect(data.sandbox.join('\n')).not.toMatch(/--liftoff-only/);
  });
});

// Several plugins claiming one language: the choice is deterministic (configuration order,
// or plugins.prefer), said in the summary and recorded in the index-run trace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMisbehavePlugins } from '../helpers/fixture-plugins.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let plugins: Awaited<ReturnType<typeof buildMisbehavePlugins>>;
let scaffolded: string;
let repo: GitRepo;
beforeAll(async () => {
  plugins = await buildMisbehavePlugins(['ok']);
  scaffolded = join(mkdtempSync(join(tmpdir(), 'travsr-choice-')), 'lang-text');
  const made = await travsr(['plugin', 'new', scaffolded, '--language', 'text', '--extension', '.txt']);
  expect(made.code, made.stderr).toBe(0);
  repo = new GitRepo();
  repo.write({ 'a.txt': 'def alpha\n  beta()\nend\n', 'b.txt': 'def beta\nend\n' }).commit('one');
});
afterAll(() => {
  rmSync(plugins.root, { recursive: true, force: true });
  rmSync(join(scaffolded, '..'), { recursive: true, force: true });
  repo.dispose();
});

type Summary = {
  choices: { language: string; plugin: string; candidates: string[]; rule: string }[];
  plugins: { id: string; analyzed: number }[];
};

describe('plugin choice', () => {
  it('without a preference, the first plugin in configuration order wins, and the summary says why', async () => {
    const env = { TRAVSR_PLUGINS_DIRS: `${plugins.dir('ok')},${scaffolded}` };
    const r = await travsr(['init', repo.root, '--no-hook', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const s = (JSON.parse(r.stdout) as { summary: Summary }).summary;
    expect(s.choices).toEqual([
      { language: 'text', plugin: 'misbehave', candidates: ['misbehave', 'lang-text'], rule: expect.stringMatching(/misbehave/) },
    ]);
    expect(s.plugins.find((p) => p.id === 'misbehave')?.analyzed).toBe(2);
    expect(s.plugins.find((p) => p.id === 'lang-text')?.analyzed).toBe(0);
  });

  it('plugins.prefer picks the other one; the choice is in the index-run trace', async () => {
    const env = { TRAVSR_PLUGINS_DIRS: `${plugins.dir('ok')},${scaffolded}`, TRAVSR_PLUGINS_PREFER: 'text=lang-text' };
    const r = await travsr(['index', repo.root, '--rebuild', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.choices[0]).toMatchObject({ language: 'text', plugin: 'lang-text', rule: expect.stringMatching(/prefer/) });
    expect(s.plugins.find((p) => p.id === 'lang-text')?.analyzed).toBe(2);

    const list = await travsr(['trace', 'list', '--repo', repo.root, '--kind', 'index-run', '--json']);
    const id = (JSON.parse(list.stdout) as { traces: { id: string }[] }).traces[0]!.id;
    const trace = JSON.parse((await travsr(['trace', 'show', id, '--repo', repo.root, '--json'])).stdout) as {
      details: { pluginChoices: { plugin: string }[] };
    };
    expect(trace.details.pluginChoices[0]?.plugin).toBe('lang-text');
    // The plugin sessions of the run are traced in the repository too.
    const sessions = JSON.parse((await travsr(['trace', 'list', '--repo', repo.root, '--kind', 'plugin-session', '--json'])).stdout) as {
      store: string;
      traces: { subject: string }[];
    };
    expect(sessions.store).toBe(join(repo.root, '.travsr', 'traces.db'));
    expect(sessions.traces.map((t) => t.subject)).toContain('lang-text@0.1.0');
  });

  it('status names the phase and plugin of each language, and the schema version', async () => {
    const env = { TRAVSR_PLUGINS_DIRS: `${plugins.dir('ok')},${scaffolded}`, TRAVSR_PLUGINS_PREFER: 'text=lang-text' };
    const r = await travsr(['status', repo.root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/schema v\d+/);
    expect(r.stdout).toMatch(/text\s+2 files\s+\d+ nodes\s+phase A/);
    const dot = await travsr(['graph', 'export', repo.root, '--format', 'dot']);
    expect(dot.stdout).toMatch(/^digraph travsr \{/);
    expect(dot.stdout).toMatch(/-> .*\[label="contains"\]/);
  });
});

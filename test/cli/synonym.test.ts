// `travsr synonym add|remove|list|import` on an indexed repository: a question in the team's own
// abbreviation finds the code written out in full once the pair is known, and only then.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let repo: GitRepo;
beforeAll(async () => {
  repo = new GitRepo('travsr-synonym-');
  const files: Record<string, string> = {
    'app/loader.rb': 'def read_settings(path)\n  parse_configuration(File.read(path))\nend\n',
    'app/parser.rb': 'def parse_configuration(text)\n  text.lines.map(&:strip)\nend\n',
    'app/notify.rb': 'def notify_user(message)\n  msg = format(message)\n  deliver(msg)\nend\n',
  };
  for (let i = 0; i < 6; i++) files[`app/page_${i}.rb`] = `def render_page_${i}(view)\n  view.html + ${i}\nend\n`;
  repo.write(files).commit('app');
  const init = await travsr(['init', repo.root, '--no-hook']);
  expect(init.code, init.stderr).toBe(0);
}, 120_000);
afterAll(() => repo?.dispose());

/** The names of the definitions `travsr ask` ranks for `question`. */
async function ranked(question: string): Promise<string[]> {
  const r = await travsr(['ask', question, '--repo', repo.root, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { nodes: { name: string }[] }).nodes.map((n) => n.name);
}

describe('travsr synonym', () => {
  it('makes a question in an abbreviation find the code that spells it out, until removed', async () => {
    expect(await ranked('where is the cfg parsed')).not.toContain('parse_configuration');
    const add = await travsr(['synonym', 'add', 'cfg', 'configuration', 'config', '--repo', repo.root]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('cfg = configuration, config: 2 new pairs');
    expect((await ranked('where is the cfg parsed'))[0]).toBe('parse_configuration');

    const removed = await travsr(['synonym', 'remove', 'configuration', 'cfg', '--repo', repo.root]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await ranked('where is the cfg parsed')).not.toContain('parse_configuration');
    const again = await travsr(['synonym', 'remove', 'configuration', 'cfg', '--repo', repo.root]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not a synonym pair here');
  });

  it('lists as text and JSON, and imports a list back all or none', async () => {
    const imported = await travsr(['synonym', 'import', '-', '--repo', repo.root], {
      input: '# ours\nreq = request\nauth = authentication, login\n',
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('3 pairs read, 3 new');
    const text = await travsr(['synonym', 'list', '--repo', repo.root]);
    expect(text.stdout).toContain('auth = authentication, login');
    expect(text.stdout).toContain('req = request');
    const json = await travsr(['synonym', 'list', '--json', '--repo', repo.root]);
    const listed = JSON.parse(json.stdout) as { synonyms: { term: string; synonym: string }[] };
    expect(listed.synonyms).toContainEqual({ term: 'req', synonym: 'request', origin: 'user' });
    // What list --json prints imports back: everything known already.
    const back = await travsr(['synonym', 'import', '-', '--repo', repo.root], { input: json.stdout });
    expect(back.stdout).toContain(`${listed.synonyms.length} pairs read, 0 new`);

    const bad = await travsr(['synonym', 'import', '-', '--repo', repo.root], { input: 'db = database\nnot a pair\n' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('INVALID_SYNONYM_FILE');
    expect(bad.stderr).toContain('standard input:2');
    const after = await travsr(['synonym', 'list', '--json', '--repo', repo.root]);
    expect(JSON.parse(after.stdout)).toEqual(listed);
  });

  it('mines proposals from the code, writes nothing without --apply, and adds them with it', async () => {
    const proposed = await travsr(['synonym', 'mine', '--repo', repo.root]);
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(proposed.stdout).toMatch(/msg = message {2}\(1 definition hold both, .*common abbreviation\)/);
    expect(proposed.stdout).toContain('nothing written');
    const before = JSON.parse((await travsr(['synonym', 'list', '--json', '--repo', repo.root])).stdout) as { synonyms: unknown[] };
    expect(before.synonyms).not.toContainEqual({ term: 'msg', synonym: 'message', origin: 'user' });
    const applied = await travsr(['synonym', 'mine', '--apply', '--json', '--repo', repo.root]);
    expect(applied.code, applied.stderr).toBe(0);
    const out = JSON.parse(applied.stdout) as { proposals: { term: string; synonym: string }[]; applied: boolean; added: number };
    expect(out.applied).toBe(true);
    expect(out.added).toBe(out.proposals.length);
    const after = JSON.parse((await travsr(['synonym', 'list', '--json', '--repo', repo.root])).stdout) as { synonyms: unknown[] };
    expect(after.synonyms).toContainEqual({ term: 'msg', synonym: 'message', origin: 'user' });
    expect((await travsr(['synonym', 'mine', '--repo', repo.root])).stdout).not.toContain('msg = message');
  });

  it('follows the retrieval.synonyms setting at the next command that writes, and leaves its pairs to it', async () => {
    const set = await travsr(['config', 'set', 'retrieval.synonyms', 'db=database|data store', '--repo', repo.root]);
    expect(set.code, set.stderr).toBe(0);
    expect((await travsr(['index', repo.root])).code).toBe(0);
    const listed = await travsr(['synonym', 'list', '--repo', repo.root]);
    expect(listed.stdout).toContain('db = data store (retrieval.synonyms), database (retrieval.synonyms)');
    const json = JSON.parse((await travsr(['synonym', 'list', '--json', '--repo', repo.root])).stdout) as {
      synonyms: { term: string; synonym: string; origin: string }[];
    };
    expect(json.synonyms).toContainEqual({ term: 'db', synonym: 'database', origin: 'config' });
    const remove = await travsr(['synonym', 'remove', 'database', 'db', '--repo', repo.root]);
    expect(remove.code).toBe(1);
    expect(remove.stderr).toContain('comes from the retrieval.synonyms setting');
    expect((await travsr(['config', 'unset', 'retrieval.synonyms', '--repo', repo.root])).code).toBe(0);
    expect((await travsr(['index', repo.root])).code).toBe(0);
    expect((await travsr(['synonym', 'list', '--repo', repo.root])).stdout).not.toContain('database');
  });

  it('says what to do in a directory that is not indexed', async () => {
    const other = new GitRepo('travsr-synonym-none-');
    try {
      const r = await travsr(['synonym', 'list', '--repo', other.root]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('travsr init');
    } finally {
      other.dispose();
    }
  });
});

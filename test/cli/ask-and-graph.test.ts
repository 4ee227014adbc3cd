// `travsr ask` and `travsr graph callers|deps|blast-radius|path` on a repository indexed by the real plugins:
// Python by lang-python (calls resolved in Phase B), Ruby by lang-structural (calls matched by name).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let repo: GitRepo;
beforeAll(async () => {
  repo = new GitRepo('travsr-ask-');
  const files: Record<string, string> = {
    'shop/cart.py': [
      'from shop.pricing import apply_discount',
      '',
      'def checkout(cart):',
      '    """Charge the customer for the cart."""',
      '    total = apply_discount(sum(cart))',
      '    return charge_card(total)',
      '',
      'def charge_card(amount):',
      '    return amount',
      '',
    ].join('\n'),
    'shop/pricing.py': [
      'def apply_discount(total):',
      '    """Ten percent off above 100."""',
      '    return total * 0.9 if total > 100 else total',
      '',
    ].join('\n'),
  };
  files['tools/ledger.rb'] = 'def post_entry(amount)\n  amount * 2\nend\n';
  files['tools/report.rb'] = 'def print_totals(values)\n  post_entry(values.sum)\nend\n';
  // Enough unrelated files that the ranked file list has 20 entries.
  for (let i = 0; i < 22; i++) files[`misc/module_${i}.py`] = `def helper_${i}(x):\n    return x + ${i}\n`;
  repo.write(files).commit('shop');
  const init = await travsr(['init', repo.root, '--no-hook']);
  expect(init.code, init.stderr).toBe(0);
}, 120_000);
afterAll(() => repo?.dispose());

describe('travsr ask', () => {
  it('prints the code that answers the question, within the budget', async () => {
    const r = await travsr(['ask', 'how is the discount applied at checkout?', '--repo', repo.root, '--budget', '600']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/## shop\/pricing\.py:1-3 function (?:shop\.)?pricing\.apply_discount/);
    // checkout's code, as its own snippet or in the head of its module.
    expect(r.stdout).toMatch(
      /## shop\/cart\.py:\d+-\d+ (?:function (?:shop\.)?cart\.checkout|module (?:shop\.)?cart)\b[^#]*def checkout\(cart\):/,
    );
    // Python's calls are resolved; Ruby's are name-matched, and the answer says so.
    expect(r.stdout).toMatch(/Graph: ruby: structural \(Phase A\) only/);
    // At 600 tokens the answer leads with the one best definition.
    expect(r.stdout).toMatch(
      /\nBest definitions:\n1\. (?:shop\/pricing\.py:1-3 function (?:shop\.)?pricing\.apply_discount|shop\/cart\.py:3-6 function (?:shop\.)?cart\.checkout) — [^\n]+\n\n## /,
    );
    expect(r.stdout).not.toMatch(/Graph: [^\n]*python/);
  });

  it('--json gives the documented shape with at least 20 ranked files', async () => {
    const r = await travsr(['ask', 'apply discount', '--repo', repo.root, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      query: string;
      files: { path: string; score: number }[];
      nodes: {
        id: string;
        kind: string;
        name: string;
        qualified_name: string | null;
        path: string;
        start_line: number;
        end_line: number;
        score: number;
      }[];
      functions: { path: string; qualified_name: string; start_line: number; end_line: number; score: number; why: string[] }[];
      tokens: number;
      trace_id: string;
    };
    expect(out.query).toBe('apply discount');
    expect(out.functions[0]).toMatchObject({ path: 'shop/pricing.py', start_line: 1, end_line: 3 });
    expect(out.functions[0]!.qualified_name).toMatch(/(?:^|\.)apply_discount$/);
    expect(out.functions[0]!.why.length).toBeGreaterThan(0);
    expect(out.files[0]!.path).toBe('shop/pricing.py');
    expect(out.files.length).toBeGreaterThanOrEqual(20);
    expect(out.nodes[0]).toMatchObject({ kind: 'function', name: 'apply_discount', path: 'shop/pricing.py', start_line: 1, end_line: 3 });
    expect(out.nodes[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    expect(out.tokens).toBeLessThanOrEqual(8000);
    expect(out.trace_id).toMatch(/^[0-9a-f-]{36}$/);
    const trace = await travsr(['trace', 'show', out.trace_id, '--repo', repo.root]);
    expect(trace.stdout).toMatch(/get_context/);
    // Traces live in .travsr/traces.db: a question never writes the graph store (its readers' caches would be emptied).
    const graph = new Database(join(repo.root, '.travsr', 'graph.db'), { readonly: true });
    try {
      expect(graph.prepare('SELECT count(*) AS n FROM traces').get()).toEqual({ n: 0 });
    } finally {
      graph.close();
    }
  });

  it('reads a whole issue from a file or standard input, longer than a command line may be', async () => {
    // Linux takes at most 128 KiB in one argument: a pasted log does not fit.
    const issue = [
      'Checkout charges the wrong amount.',
      'Traceback (most recent call last):',
      '  File "shop/cart.py", line 5, in checkout',
      '  File "shop/pricing.py", line 3, in apply_discount',
      'ValueError: bad total',
      ...Array.from({ length: 3300 }, (_, i) => `INFO worker-${i} request ${i} served in ${i % 97} ms`),
    ].join('\n');
    expect(issue.length).toBeGreaterThan(140_000);
    const file = join(repo.root, '..', `${basename(repo.root)}-issue.txt`);
    writeFileSync(file, issue);
    const fromFile = await travsr(['ask', '--file', file, '--repo', repo.root, '--json']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const fromStdin = await travsr(['ask', '-', '--repo', repo.root, '--json'], { input: issue });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    for (const r of [fromFile, fromStdin]) {
      const out = JSON.parse(r.stdout) as {
        items: { path: string }[];
        functions: {
          path: string;
          qualified_name: string;
          kind: string;
          start_line: number;
          end_line: number;
          score: number;
          why: string[];
        }[];
      };
      expect(out.items.map((it) => it.path)).toEqual(expect.arrayContaining(['shop/pricing.py', 'shop/cart.py']));
      // The function stage: the two functions the traceback passes through, first, each said why.
      expect(
        out.functions
          .slice(0, 2)
          .map((f) => f.qualified_name.replace(/^shop\./, ''))
          .sort(),
      ).toEqual(['cart.checkout', 'pricing.apply_discount']);
      expect(out.functions[0]).toMatchObject({ kind: 'function', why: expect.arrayContaining(['a stack frame of the query is in it']) });
    }
    rmSync(file);
    const none = await travsr(['ask', '--repo', repo.root]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/Error \[QUESTION_MISSING\]: no question: give it as the argument/);
    const twice = await travsr(['ask', 'why', '--file', file, '--repo', repo.root]);
    expect(twice.stderr).toMatch(/Error \[QUESTION_TWICE\]: a question as the argument and --file too/);
    const missing = await travsr(['ask', '--file', file, '--repo', repo.root]);
    expect(missing.stderr).toMatch(/Error \[QUESTION_UNREADABLE\]: cannot read the question from .*issue\.txt: ENOENT/);
  });

  it('fails clearly outside an indexed repository', async () => {
    const other = new GitRepo('travsr-ask-none-');
    const r = await travsr(['ask', 'anything', '--repo', other.root]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/has no Travsr index yet; run `travsr init/);
    other.dispose();
  });
});

describe('travsr graph', () => {
  it('callers, deps, blast-radius and path answer from the graph and mark name-matched edges', async () => {
    const callers = await travsr(['graph', 'callers', 'apply_discount', '--repo', repo.root]);
    expect(callers.stdout).toMatch(/Callers of function (?:shop\.)?pricing\.apply_discount\s+shop\/pricing\.py:1-3/);
    // Resolved by lang-python's Phase B: no mark.
    expect(callers.stdout).toMatch(/^\s+calls function (?:shop\.)?cart\.checkout\s+shop\/cart\.py:3-6/m);
    const byName = await travsr(['graph', 'callers', 'post_entry', '--repo', repo.root]);
    expect(byName.stdout).toMatch(/calls \[name-matched\] \w+ print_totals\s+tools\/report\.rb:1-3/);
    const deps = await travsr(['graph', 'deps', 'checkout', '--repo', repo.root, '--json']);
    const names = (JSON.parse(deps.stdout) as { nodes: { name: string }[] }).nodes.map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining(['apply_discount', 'charge_card']));
    const blast = await travsr(['graph', 'blast-radius', 'shop/pricing.py', '--repo', repo.root]);
    expect(blast.stdout).toMatch(/Files affected:\n\s+shop\/cart\.py/);
    const path = await travsr(['graph', 'path', 'checkout', 'apply_discount', '--repo', repo.root]);
    expect(path.stdout).toMatch(/Path from checkout to apply_discount \(1 hops, via calls\)/);
    const none = await travsr(['graph', 'callers', 'no_such_function', '--repo', repo.root]);
    expect(none.stdout).toMatch(/No symbol matches "no_such_function"; try search_symbols/);
  });

  it('export --format html writes one page that draws the part around a focus, or says what is wrong', async () => {
    const out = join(repo.root, '..', `${basename(repo.root)}-checkout.html`);
    const r = await travsr(['graph', 'export', repo.root, '--format', 'html', '--focus', 'checkout', '--depth', '1', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^wrote \d+ nodes and \d+ edges to /);
    const html = readFileSync(out, 'utf8');
    rmSync(out, { force: true });
    expect(html).not.toMatch(/<script[^>]+src=/);
    const data = JSON.parse(/<script type="application\/json" id="graph-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as {
      nodes: { name: string; focus: boolean }[];
      edges: { kind: string; resolved: boolean }[];
    };
    expect(data.nodes.filter((n) => n.focus).map((n) => n.name)).toEqual(['checkout']);
    // One hop: what it calls (resolved by lang-python's Phase B) and the file that contains it.
    expect(data.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['apply_discount', 'charge_card']));
    expect(data.edges.filter((e) => e.kind === 'calls').every((e) => e.resolved)).toBe(true);
    expect(data.nodes.map((n) => n.name)).not.toContain('print_totals');

    const missing = await travsr(['graph', 'export', repo.root, '--format', 'html', '--focus', 'no_such_thing']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error \[SUBGRAPH_FOCUS_NOT_FOUND\]: nothing in the graph is named "no_such_thing"/m);
    const whole = await travsr(['graph', 'export', repo.root, '--format', 'html', '--max-nodes', '5']);
    expect(whole.stderr).toMatch(/^Error \[SUBGRAPH_TOO_LARGE\]: the graph has \d+ nodes, more than 5 can be drawn/m);
    const notHtml = await travsr(['graph', 'export', repo.root, '--focus', 'checkout']);
    expect(notHtml.code).toBe(2);
    expect(notHtml.stderr).toMatch(/add --format html/);
  });
});

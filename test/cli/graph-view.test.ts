// `travsr graph view` in a real headless browser (Debian's chromium driven by playwright-core):
// the real CLI serves the page for a repository indexed by the real plugins; the test loads it,
// checks what it draws, clicks a node to expand it, runs the blast radius and the search, exports
// the SVG and takes a screenshot; a request without the run's token is refused.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { startCli, travsr, type CliProcess } from '../helpers/run-cli.js';

/** The browser: TRAVSR_CHROMIUM, else Debian's or Ubuntu's chromium (`.ci/run` installs it). */
const CHROMIUM = process.env.TRAVSR_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

let repo: GitRepo;
let out: string;
let server: CliProcess;
let url: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!CHROMIUM)
    throw new Error('no chromium to drive: install it (apt-get install chromium) or set TRAVSR_CHROMIUM to a Chrome or Chromium binary');
  repo = new GitRepo('travsr-graph-view-');
  repo
    .write({
      'shop/__init__.py': '',
      'shop/cart.py': [
        'from shop.pricing import apply_discount',
        '',
        'def checkout(cart):',
        '    return charge_card(apply_discount(sum(cart)))',
        '',
        'def charge_card(amount):',
        '    return amount',
        '',
      ].join('\n'),
      'shop/pricing.py': [
        'def round_price(x):',
        '    return round(x, 2)',
        '',
        'def apply_discount(total):',
        '    return round_price(total * 0.9)',
        '',
      ].join('\n'),
    })
    .commit('shop');
  const init = await travsr(['init', repo.root, '--no-hook']);
  expect(init.code, init.stderr).toBe(0);
  out = mkdtempSync(join(tmpdir(), 'travsr-graph-view-out-'));
  server = startCli(['graph', 'view', 'checkout', '--repo', repo.root, '--no-open']);
  url = await new Promise<string>((resolve, reject) => {
    let text = '';
    server.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const m = /graph view: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(text);
      if (m) resolve(m[1]!);
    });
    void server.then((r) => reject(new Error(`graph view exited: ${String(r.stderr)}`)));
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  await server;
  repo?.dispose();
  if (out) rmSync(out, { recursive: true, force: true });
});

/**
 * What the tests read of the page (the tests are not compiled with the DOM's types). Functions,
 * not strings, go to the page: its Content-Security-Policy forbids evaluating strings.
 */
interface PageGlobals {
  document: {
    body: { dataset: Record<string, string | undefined> };
    getElementById(id: string): { textContent: string | null; getBoundingClientRect(): { left: number; top: number } } | null;
  };
  travsrGraph: { nodes(): { data(k: string): string; renderedPosition(): { x: number; y: number } }[] };
  travsrSvg(): string;
}

/** Waits until the page has added the answers of `n` neighbourhood requests to its graph. */
const loads = (n: number) =>
  page.waitForFunction((k) => Number((globalThis as unknown as PageGlobals).document.body.dataset['loads'] ?? 0) >= k, n, {
    timeout: 60_000,
  });
/** Waits until the element `id` holds text matching `pattern` (a RegExp's source). */
const holds = (id: string, pattern: string) =>
  page.waitForFunction(
    ([i, p]) => new RegExp(p!).test((globalThis as unknown as PageGlobals).document.getElementById(i!)?.textContent ?? ''),
    [id, pattern],
    { timeout: 60_000 },
  );
const labels = () => page.evaluate(() => (globalThis as unknown as PageGlobals).travsrGraph.nodes().map((n) => n.data('label')));

describe('travsr graph view', () => {
  it('refuses every request without the token of this run', async () => {
    const base = url.replace(/\?token=.*$/, '');
    for (const target of [base, `${base}?token=wrong`, `${base}api/neighbourhood?symbol=checkout`]) {
      const r = await fetch(target);
      expect(r.status, target).toBe(403);
      expect(await r.text()).toMatch(/Forbidden/);
    }
  });

  it('draws the neighbourhood of the symbol, expands a node on click, and exports SVG and a screenshot', async () => {
    await page.goto(url);
    await loads(1);
    expect(await labels()).toEqual(expect.arrayContaining(['checkout', 'apply_discount', 'charge_card']));
    expect(await labels()).not.toContain('round_price');
    // A real click on apply_discount where Cytoscape drew it: its source shows, its own neighbour joins.
    const at = await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      const node = g.travsrGraph.nodes().find((n) => n.data('label') === 'apply_discount')!;
      const box = g.document.getElementById('graph')!.getBoundingClientRect();
      const p = node.renderedPosition();
      return { x: box.left + p.x, y: box.top + p.y };
    });
    await page.mouse.click(at.x, at.y);
    await loads(2);
    expect(await labels()).toContain('round_price');
    await holds('source', 'def apply_discount\\(total\\)');
    // Blast radius of the selected node: what depends on it, by depth.
    await page.click('#blast');
    await holds('selected', 'Blast radius of');
    expect(await page.textContent('#selected')).toMatch(/depth 1 \(\d+\)[\s\S]*checkout/);
    // Search adds what it finds.
    await page.fill('#search', 'charge card');
    await page.press('#search', 'Enter');
    await page.waitForSelector('#results li');
    expect(await page.textContent('#results')).toMatch(/charge_card/);
    const svg = await page.evaluate(() => (globalThis as unknown as PageGlobals).travsrSvg());
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('>round_price</text>');
    expect(svg).toMatch(/<line [^>]*stroke=/);
    const shot = join(out, 'graph-view.png');
    await page.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(5_000);
  });
});

// The sandbox tiers an external SCIP indexer runs in, for real on Linux (bwrap), through "bring your
// own SCIP indexer" on a language whose plugin (lang-structural) runs it, with a stand-in indexer:
// - native-ipc: the tool uses POSIX shared memory and a POSIX message queue, as scip-clang's
//   driver and workers do, and still cannot reach the network; in the standard tier the same tool
//   is refused them, and the file keeps its Phase A graph with the reason;
// - elevated: the tool reaches an allowlisted host on 127.0.0.1 through the host's proxy (the
//   plugin relays it on loopback as HTTPS_PROXY), and a host off the list is refused;
// - standard: a tool that tries to download is refused.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scipDocumentAt, writeFakeIndexer, type FakeIndexerSpec } from '@travsr/sdk/testing';
import { travsr } from '../helpers/run-cli.js';

const FILE = 'lib/bus.ex';
const TEXT =
  'defmodule Chat.Bus do\n  def publish(topic, msg) do\n    deliver(topic, msg)\n  end\n\n  defp deliver(topic, msg), do: {topic, msg}\nend\n';
const P = 'scip-elixir hex chat 0.1.0 ';
const BARE_PATH = '/usr/local/bin:/usr/bin:/bin';

let work: string;
let repo: string;
let home: string;
let server: Server;
let port: number;

interface IndexJson {
  plugins: { id: string; phases: string[]; failed: number; unavailable?: { reason: string }[] }[];
  failures: { path: string; reason: string }[];
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'travsr-scip-tiers-'));
  repo = join(work, 'repo');
  home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  mkdirSync(dirname(join(repo, FILE)), { recursive: true });
  writeFileSync(join(repo, FILE), TEXT);
  await execa('git', ['init', '-q', repo]);
  await execa('git', ['-C', repo, 'add', '-A']);
  await execa('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'code']);
  // A "package repository" on the host's loopback, for the elevated tier.
  server = createServer((_req, res) => res.end('artifact'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  const init = await travsr(['init', repo, '--no-hook'], { cwd: repo, env: { TRAVSR_HOME: home, PATH: BARE_PATH }, timeoutMs: 180_000 });
  expect(init.code, init.stderr).toBe(0);
}, 240_000);
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

/** A stand-in `scip-elixir` in its own directory, in `mode`. */
function tool(name: string, mode: NonNullable<FakeIndexerSpec['mode']>, downloadUrl?: string): string {
  const bin = join(work, name);
  writeFakeIndexer(bin, {
    name: 'scip-elixir',
    output: { flag: '--output' },
    mode,
    ...(downloadUrl ? { downloadUrl } : {}),
    index: {
      projectRoot: '',
      documents: [
        scipDocumentAt(FILE, TEXT, [
          ['def publish', 'publish', `${P}Chat/Bus#publish().`, true],
          ['deliver(topic, msg)', 'deliver', `${P}Chat/Bus#deliver().`],
          ['defp deliver', 'deliver', `${P}Chat/Bus#deliver().`, true],
        ]),
      ],
    },
  });
  return bin;
}

/**
 * Indexes with the stand-in in `bin` brought for Elixir in `tier`. `resolved`: the call
 * publish → deliver is stored resolved (a file whose Phase B fails keeps the graph stored before,
 * so only a success is read from it).
 */
async function indexWith(bin: string, tier: string, network = ''): Promise<{ json: IndexJson; text: string; resolved: boolean }> {
  const env: Record<string, string> = {
    TRAVSR_HOME: home,
    PATH: `${bin}:${BARE_PATH}`,
    TRAVSR_LANG_SCIP_COMMAND: 'elixir=scip-elixir --output {output}',
    TRAVSR_LANG_SCIP_TIER: `elixir=${tier}`,
    ...(network ? { TRAVSR_LANG_SCIP_NETWORK: `elixir=${network}` } : {}),
  };
  const r = await travsr(['index', '--rebuild', '--json'], { cwd: repo, env, timeoutMs: 180_000 });
  expect(r.code, r.stderr).toBe(0);
  const callers = await travsr(['graph', 'callers', 'Chat.Bus.deliver', '--resolved-only', '--json'], {
    cwd: repo,
    env,
    timeoutMs: 60_000,
  });
  const resolved = callers.code === 0 && /"qualifiedName":\s*"Chat\.Bus\.publish"/.test(callers.stdout);
  return { json: JSON.parse(r.stdout) as IndexJson, text: JSON.stringify(JSON.parse(r.stdout)), resolved };
}

describe('the tiers a SCIP indexer runs in (real bwrap)', () => {
  it('native-ipc: POSIX shared memory and message queues work, the network stays closed', async () => {
    const r = await indexWith(tool('ipc', 'ipc'), 'native-ipc');
    const p = r.json.plugins.find((x) => x.id === 'lang-structural')!;
    expect(p.phases).toEqual(['A', 'B']);
    expect(p.failed, r.text).toBe(0);
    expect(r.resolved).toBe(true);
  }, 240_000);

  it('standard: the same tool is refused shared memory or message queues; the file keeps its Phase A graph, with the reason', async () => {
    const r = await indexWith(tool('ipc', 'ipc'), 'standard');
    expect(r.text).toMatch(
      /scip-elixir: IPC probe failed: (shared memory|mq_open): [^"]*(Read-only file system|Permission denied|Function not implemented|Operation not permitted)/,
    );
    const byName = await travsr(['graph', 'callers', 'Chat.Bus.deliver', '--json'], {
      cwd: repo,
      env: { TRAVSR_HOME: home, PATH: BARE_PATH },
      timeoutMs: 60_000,
    });
    expect(byName.stdout).toMatch(/"qualifiedName":\s*"Chat\.Bus\.publish"/);
  }, 240_000);

  it('standard: a tool that tries to download is refused, and says so', async () => {
    const r = await indexWith(tool('download', 'download', 'https://hex.pm/api/packages/jason'), 'standard');
    expect(r.text).toMatch(
      /scip-elixir: could not download https:\/\/hex\.pm\/api\/packages\/jason: (EAI_AGAIN|ENOTFOUND|ENETUNREACH|ECONNREFUSED)/,
    );
  }, 240_000);

  it('elevated: an allowlisted host on 127.0.0.1 is reached through the proxy', async () => {
    const r = await indexWith(tool('allowed', 'download', `http://127.0.0.1:${port}/jason.tar`), 'elevated', `127.0.0.1:${port}`);
    const p = r.json.plugins.find((x) => x.id === 'lang-structural')!;
    expect(p.failed, r.text).toBe(0);
    expect(r.resolved).toBe(true);
  }, 240_000);

  it('elevated: a host off the allowlist is refused by the proxy', async () => {
    const other = createServer((_req, res) => res.end('secret'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as { port: number }).port;
    try {
      const r = await indexWith(tool('refused', 'download', `http://127.0.0.1:${otherPort}/secret`), 'elevated', `127.0.0.1:${port}`);
      expect(r.text).toMatch(/scip-elixir: could not download http:\/\/127\.0\.0\.1:\d+\/secret: the proxy answered 403/);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 240_000);
});

// Drives the built plugin the way the host does (hello, initialize, analyze, shutdown) over
// its real stdio, unsandboxed, and collects the graph/file notifications of each request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_MAX_FRAME_BYTES,
  MANIFEST_FILE,
  PLUGIN_COOKIE_ENV,
  PLUGIN_COOKIE_VALUE,
  PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS_ENV,
  parseManifest,
  type AnalyzeFile,
  type Edge,
  type GraphFileParams,
  type LogParams,
} from '@travsr/protocol';
import { Connection } from '@travsr/protocol/node';
import { launchUnsandboxed, type Launched } from '@travsr/sdk/testing';

export const pluginDir = fileURLToPath(new URL('../..', import.meta.url));

export class PluginDriver {
  readonly logs: LogParams[] = [];
  private readonly files: GraphFileParams[] = [];
  private stderr = '';

  private constructor(
    private readonly launched: Launched,
    private readonly conn: Connection,
  ) {}

  static async start(repoRoot: string, corpus = 'test', phases?: ('A' | 'B')[]): Promise<PluginDriver> {
    const manifest = parseManifest(readFileSync(join(pluginDir, MANIFEST_FILE), 'utf8'), MANIFEST_FILE);
    const launched = await launchUnsandboxed({
      env: { [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE, [PROTOCOL_VERSIONS_ENV]: PROTOCOL_VERSIONS.join(',') },
      repoRoot,
      pluginDir,
      manifest,
    });
    const conn = new Connection(launched.process.stdout, launched.process.stdin, { role: 'host' });
    const d = new PluginDriver(launched, conn);
    launched.process.stderr.setEncoding('utf8');
    launched.process.stderr.on('data', (s: string) => (d.stderr += s));
    conn.onNotification('graph/file', (p) => d.files.push(p));
    conn.onNotification('log', (p) => d.logs.push(p));
    await conn.request(
      'hello',
      {
        protocolVersions: [...PROTOCOL_VERSIONS],
        host: { name: 'lang-typescript-test', version: '1' },
        maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
      },
      { timeoutMs: 20_000 },
    );
    await conn.request('initialize', { root: launched.repoRootInside, corpus, ...(phases ? { phases } : {}) }, { timeoutMs: 20_000 });
    return d;
  }

  /** One analyze request; resolves with the graph of every file it sent, by path. */
  async analyze(phase: 'A' | 'B', files: AnalyzeFile[]): Promise<Map<string, GraphFileParams>> {
    let id: unknown;
    await this.conn.request('analyze', { phase, files }, { timeoutMs: 120_000, onId: (i) => (id = i) }).catch((e: unknown) => {
      throw new Error(`analyze failed: ${(e as Error).message}\nplugin stderr:\n${this.stderr}`);
    });
    return new Map(this.files.filter((f) => f.requestId === id).map((f) => [f.path, f]));
  }

  async stop(): Promise<void> {
    await this.conn.request('shutdown', {}, { timeoutMs: 10_000 }).catch(() => undefined);
    this.conn.close();
    this.launched.process.kill('SIGKILL');
    await this.launched.process.exited;
  }
}

/** `path#signature` of an edge end, as the assertions write it. */
export function end(v: Edge['src']): string {
  return `${v.path}#${v.signature}`;
}

/** Every edge of some graphs as `kind src -> dst` lines. */
export function edgeLines(graphs: Iterable<GraphFileParams>): string[] {
  const out: string[] = [];
  for (const g of graphs) for (const e of g.edges) out.push(`${e.kind} ${end(e.src)} -> ${end(e.dst)}`);
  return out.sort();
}

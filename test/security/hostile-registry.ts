// A signed registry of plugins/example-lua and a node:http server on 127.0.0.1 that serves it
// and misbehaves as told, for the registry attacks of the security suite.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSigningKey, packPlugin, publishArtifact, writeSigningKey, type PackResult, type SigningKey } from '@travsr/registry';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');

/** What the server does with one request; `undefined` serves the file as a plain static server would. */
export type Misbehaviour = (req: IncomingMessage, res: ServerResponse, path: string, bytes: Buffer) => boolean;

export interface HostileRegistry {
  /** Temporary directory holding everything below. */
  work: string;
  key: SigningKey;
  /** The `.pub` file to put in `registry.trustedKeys`. */
  publicKeyFile: string;
  /** The registry directory served (switch `root` to serve another copy). */
  dir: string;
  url: string;
  /** Registry directory currently served. */
  root: string;
  misbehave: Misbehaviour | undefined;
  /** Paths asked for, with their Range header. */
  requests: { path: string; range: string | undefined }[];
  close(): Promise<void>;
}

/** Packs example-lua at `version` (a copy when it is not the plugin's own 0.1.0). */
export async function packExampleLua(work: string, version = '0.1.0'): Promise<PackResult> {
  let source = EXAMPLE_LUA;
  if (version !== '0.1.0') {
    source = join(work, `example-lua-${version}`);
    cpSync(EXAMPLE_LUA, source, { recursive: true, filter: (src) => !src.includes('node_modules') });
    const manifest = join(source, 'travsr-plugin.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"version": "0.1.0"', `"version": "${version}"`));
  }
  return packPlugin(source, join(work, 'out', version));
}

/** Publishes example-lua 0.1.0 into a fresh signed registry and serves it on 127.0.0.1. */
export async function startHostileRegistry(): Promise<HostileRegistry> {
  const work = mkdtempSync(join(tmpdir(), 'travsr-hostile-registry-'));
  const key = generateSigningKey();
  mkdirSync(join(work, 'keys'));
  const keyFile = join(work, 'keys', 'registry.key');
  await writeSigningKey(keyFile, key);
  const dir = join(work, 'registry');
  await publishArtifact(dir, (await packExampleLua(work)).file, key);

  const sockets = new Set<Socket>();
  const state: HostileRegistry = {
    work,
    key,
    publicKeyFile: `${keyFile}.pub`,
    dir,
    url: '',
    root: dir,
    misbehave: undefined,
    requests: [],
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://registry').pathname);
    state.requests.push({ path, range: req.headers.range });
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(state.root, path));
    } catch {
      return void res.writeHead(404).end('not found');
    }
    if (state.misbehave?.(req, res, path, bytes)) return;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= bytes.length && start > 0) return void res.writeHead(416).end();
    if (range) res.writeHead(206, { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` });
    res.end(bytes.subarray(start));
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  state.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((ok) => server.close(ok));
  };
  return state;
}

/** A fresh TRAVSR_HOME (and HOME) using `registry` through the user's own environment. */
export function userEnv(registry: HostileRegistry, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TRAVSR_HOME: home,
    HOME: home,
    TRAVSR_REGISTRY_URL: registry.url,
    TRAVSR_REGISTRY_TRUSTED_KEYS: registry.publicKeyFile,
    ...extra,
  };
}

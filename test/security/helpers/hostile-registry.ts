// A registry in the attacker's hands, served over real HTTP on 127.0.0.1: it serves a
// registry directory it can swap at any time (a replayed snapshot), can change bytes on the
// wire or take over a response entirely (a man in the middle, a server that drips or lies
// about ranges), and can plant any archive and re-sign the whole registry with the key the
// user trusts (a compromised publisher). Plus the signed registry of plugins/example-lua that
// the attacks start from.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  formatSha256Sums,
  generateSigningKey,
  packPlugin,
  parseSha256Sums,
  publishArtifact,
  serializeSignature,
  signSha256Sums,
  writeSigningKey,
  type PackResult,
  type SigningKey,
} from '@travsr/registry';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../../plugins/example-lua');

/** A registry directory signed with a key of its own, and where that key's public half is. */
export interface SignedRegistry {
  /** A fresh temporary directory holding everything below; put further files of the test here. */
  work: string;
  key: SigningKey;
  /** The `.pub` file to trust (`TRAVSR_REGISTRY_TRUSTED_KEYS`). */
  publicKeyFile: string;
  /** The registry directory, with example-lua 0.1.0 published. */
  dir: string;
}

/** Packs plugins/example-lua at `version` into `work/out/<version>` (from a copy under `work` when not its own 0.1.0). */
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

/** Generates a signing key and publishes example-lua 0.1.0 with it into a fresh registry directory. */
export async function signedExampleLuaRegistry(): Promise<SignedRegistry> {
  const work = mkdtempSync(join(tmpdir(), 'travsr-hostile-registry-'));
  const key = generateSigningKey();
  mkdirSync(join(work, 'keys'));
  const keyFile = join(work, 'keys', 'registry.key');
  await writeSigningKey(keyFile, key);
  const dir = join(work, 'registry');
  await publishArtifact(dir, (await packExampleLua(work)).file, key);
  return { work, key, publicKeyFile: `${keyFile}.pub`, dir };
}

/**
 * Takes over the response to a request: writes whatever it likes to `res` and returns true,
 * or returns false to let the file (`body`, as stored) be served as usual.
 */
export type Interception = (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean;

/** A static registry server (with `Range` support) whose owner is hostile. */
export interface HostileRegistry {
  /**
   * The base URL, `http://127.0.0.1:<port>/`, for `TRAVSR_REGISTRY_URL`; the client names the
   * registry and its files by it (`${url}SHA256SUMS`).
   */
  url: string;
  /** Serves `dir` from the next request on (a replay swaps in an older, validly signed copy). */
  serveFrom(dir: string): void;
  /** Rewrites the body of every later response for `path` (a registry path such as `SHA256SUMS`). */
  tamper(path: string, change: (body: Buffer) => Buffer): void;
  /** Hands every later request for `path` to `take` first; `undefined` serves it normally again. */
  intercept(path: string, take: Interception | undefined): void;
  /** The registry paths requested so far (such as `SHA256SUMS`), in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts a {@link HostileRegistry} serving `dir` on 127.0.0.1 (a free port). */
export async function startHostileRegistry(dir: string): Promise<HostileRegistry> {
  let root = dir;
  const changes = new Map<string, (body: Buffer) => Buffer>();
  const interceptions = new Map<string, Interception>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    requests.push(path);
    let body: Buffer;
    try {
      if (normalize(path).startsWith('..')) throw new Error('outside');
      body = readFileSync(join(root, path));
    } catch {
      res.writeHead(404).end();
      return;
    }
    if (interceptions.get(path)?.(req, res, body)) return;
    body = changes.get(path)?.(body) ?? body;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= body.length && start > 0) {
      res.writeHead(416).end();
      return;
    }
    const headers = { 'content-length': body.length - start, 'content-type': 'application/octet-stream' };
    if (range) res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    else res.writeHead(200, headers);
    res.end(body.subarray(start));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    serveFrom: (d) => void (root = d),
    tamper: (path, change) => void changes.set(path, change),
    intercept: (path, take) => void (take ? interceptions.set(path, take) : interceptions.delete(path)),
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** {@link signedExampleLuaRegistry} served by {@link startHostileRegistry}: where most registry attacks start. */
export async function startExampleLuaRegistry(): Promise<SignedRegistry & HostileRegistry> {
  const signed = await signedExampleLuaRegistry();
  return { ...signed, ...(await startHostileRegistry(signed.dir)) };
}

/** The environment of a user with a fresh `home` (TRAVSR_HOME and HOME) who uses `registry`, trusting its key. */
export function userEnv(
  registry: { url: string; publicKeyFile: string },
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    TRAVSR_HOME: home,
    HOME: home,
    TRAVSR_REGISTRY_URL: registry.url,
    TRAVSR_REGISTRY_TRUSTED_KEYS: registry.publicKeyFile,
    ...extra,
  };
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Replaces the archive of `id@version` (platform `any`) in registry directory `dir` with
 * `tgz`, fixes its version document's `sha256` and `size` to match, and re-signs the registry
 * with `key`: every signature and hash the client checks then agrees with the planted archive,
 * so only extraction stands between it and the user's disk.
 */
export function plantArtifact(dir: string, id: string, version: string, tgz: Buffer, key: SigningKey): void {
  const artifact = `artifacts/${id}-${version}-any.tgz`;
  writeFileSync(join(dir, artifact), tgz);
  const docPath = join(dir, 'plugins', id, `${version}.json`);
  const doc = JSON.parse(readFileSync(docPath, 'utf8')) as { artifacts: { file: string; sha256: string; size: number }[] };
  for (const a of doc.artifacts) {
    if (a.file === artifact) {
      a.sha256 = sha256(tgz);
      a.size = tgz.length;
    }
  }
  writeFileSync(docPath, `${JSON.stringify(doc, null, 2)}\n`);
  resign(dir, key);
}

/** Recomputes `SHA256SUMS` over the files it lists, as they are now, and signs it with `key`. */
export function resign(dir: string, key: SigningKey): void {
  const listed = parseSha256Sums(readFileSync(join(dir, 'SHA256SUMS'), 'utf8'));
  const sums = formatSha256Sums([...listed.keys()].map((p) => [p, sha256(readFileSync(join(dir, p)))] as const));
  writeFileSync(join(dir, 'SHA256SUMS'), sums);
  writeFileSync(join(dir, 'SHA256SUMS.sig'), serializeSignature(signSha256Sums(sums, key)));
}

// A registry in the attacker's hands, served over real HTTP on 127.0.0.1: it serves a
// registry directory it can swap at any time (a replayed snapshot), can change bytes on the
// wire (a man in the middle), and can plant any archive and re-sign the whole registry with
// the key the user trusts (a compromised publisher).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, normalize } from 'node:path';
import { formatSha256Sums, parseSha256Sums, serializeSignature, signSha256Sums, type SigningKey } from '@travsr/registry';

/** A static registry server whose owner is hostile. */
export interface HostileRegistry {
  /** The base URL (`http://127.0.0.1:<port>`), for `TRAVSR_REGISTRY_URL`. */
  url: string;
  /** Serves `dir` from the next request on (a replay swaps in an older, validly signed copy). */
  serveFrom(dir: string): void;
  /** Rewrites the body of every later response for `path` (a registry path such as `SHA256SUMS`). */
  tamper(path: string, change: (body: Buffer) => Buffer): void;
  /** The registry paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts a {@link HostileRegistry} serving `dir` on 127.0.0.1 (a free port). */
export async function startHostileRegistry(dir: string): Promise<HostileRegistry> {
  let root = dir;
  const changes = new Map<string, (body: Buffer) => Buffer>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
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
    body = changes.get(path)?.(body) ?? body;
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    serveFrom: (d) => void (root = d),
    tamper: (path, change) => void changes.set(path, change),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header, Pax } from 'tar';

/** One entry of a deterministic archive. */
export type TarInput =
  { type: 'file'; path: string; executable: boolean; size: number; source: string } | { type: 'symlink'; path: string; target: string };

/**
 * Fixed modification time of every packed entry (the one npm uses, 1985-10-26T08:15:00Z).
 *
 * @example
 * ```ts
 * PACK_MTIME.toISOString(); // '1985-10-26T08:15:00.000Z'
 * ```
 */
export const PACK_MTIME = new Date('1985-10-26T08:15:00.000Z');

const BLOCK = 512;

function headerBlocks(input: TarInput): Buffer[] {
  const data = {
    path: input.path,
    mode: input.type === 'symlink' ? 0o777 : input.executable ? 0o755 : 0o644,
    uid: 0,
    gid: 0,
    uname: '',
    gname: '',
    size: input.type === 'file' ? input.size : 0,
    mtime: PACK_MTIME,
    type: input.type === 'file' ? ('File' as const) : ('SymbolicLink' as const),
    ...(input.type === 'symlink' ? { linkpath: input.target } : {}),
  };
  const block = Buffer.alloc(BLOCK);
  const needPax = new Header(data).encode(block);
  if (!needPax) return [block];
  // Long or non-ASCII names go into a pax header in front (the ustar fields keep a truncated copy).
  const pax = new Pax({ path: input.path, mtime: PACK_MTIME, ...(input.type === 'symlink' ? { linkpath: input.target } : {}) });
  return [pax.encode(), block];
}

async function* tarStream(entries: readonly TarInput[], hashes: Map<string, string>): AsyncGenerator<Buffer> {
  for (const e of entries) {
    yield* headerBlocks(e);
    if (e.type !== 'file') continue;
    const h = createHash('sha256');
    let read = 0;
    for await (const chunk of createReadStream(e.source)) {
      const b = chunk as Buffer;
      read += b.length;
      if (read > e.size) break;
      h.update(b);
      yield b;
    }
    if (read !== e.size) throw new Error(`${e.source} changed size while it was being packed (${e.size} bytes, then ${read}); pack again`);
    hashes.set(e.path, h.digest('hex'));
    const pad = (BLOCK - (e.size % BLOCK)) % BLOCK;
    if (pad > 0) yield Buffer.alloc(pad);
  }
  yield Buffer.alloc(2 * BLOCK);
}

/**
 * Writes a gzip-compressed tar holding exactly `entries`, in the given order, with fixed
 * times, owner 0:0, no user or group names and modes 0644/0755 (0777 for symlinks), so the
 * same input gives the same bytes. Writes to a temporary file and renames it into place.
 * Returns the SHA-256 of every file's content as packed, by archive path.
 *
 * @example
 * ```ts
 * await writeTarGz('x.tgz', [{ type: 'file', path: 'package/a.txt', executable: false, size: 2, source: '/tmp/a.txt' }]);
 * ```
 */
export async function writeTarGz(outFile: string, entries: readonly TarInput[]): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const tmp = `${outFile}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    await pipeline(
      Readable.from(tarStream(entries, hashes)),
      createGzip({ level: 9 }),
      createWriteStream(tmp, { flags: 'wx', mode: 0o644 }),
    );
    await rename(tmp, outFile);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  return hashes;
}

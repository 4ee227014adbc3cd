// Hand-written ustar archives for the extraction tests. Written byte by byte (not with
// node-tar) so that the malicious entries are exactly what an attacker would craft.
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';

/** ustar type flags. */
export const TYPE = { file: '0', hardlink: '1', symlink: '2', char: '3', block: '4', dir: '5', fifo: '6', pax: 'x' } as const;

export interface RawEntry {
  path: string;
  type?: (typeof TYPE)[keyof typeof TYPE];
  linkpath?: string;
  data?: string | Buffer;
  /** Size written into the header (default: the data's length). */
  declaredSize?: number;
  mode?: number;
}

function field(buf: Buffer, offset: number, length: number, value: string): void {
  buf.write(value, offset, length, 'utf8');
}

function octal(buf: Buffer, offset: number, length: number, value: number): void {
  field(buf, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

/** One 512-byte ustar header. */
export function header(e: RawEntry): Buffer {
  const b = Buffer.alloc(512);
  const size = e.declaredSize ?? (e.data === undefined ? 0 : Buffer.byteLength(e.data));
  field(b, 0, 100, e.path);
  octal(b, 100, 8, e.mode ?? 0o644);
  octal(b, 108, 8, 0);
  octal(b, 116, 8, 0);
  octal(b, 124, 12, size);
  octal(b, 136, 12, 0);
  field(b, 148, 8, '        ');
  field(b, 156, 1, e.type ?? TYPE.file);
  field(b, 157, 100, e.linkpath ?? '');
  field(b, 257, 6, 'ustar\0');
  field(b, 263, 2, '00');
  octal(b, 329, 8, 0);
  octal(b, 337, 8, 0);
  let sum = 0;
  for (const byte of b) sum += byte;
  field(b, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return b;
}

function padded(data: Buffer): Buffer {
  const pad = (512 - (data.length % 512)) % 512;
  return Buffer.concat([data, Buffer.alloc(pad)]);
}

/** A pax extended header that overrides the next entry's path. */
export function paxPath(path: string): Buffer {
  const body = (len: number): string => `${len} path=${path}\n`;
  let len = body(0).length;
  while (body(len).length !== len) len = body(len).length;
  const data = Buffer.from(body(len));
  return Buffer.concat([header({ path: 'PaxHeader/x', type: TYPE.pax, data }), padded(data)]);
}

/** An uncompressed tar of `entries`, ending with the two zero blocks. */
export function rawTar(entries: (RawEntry | Buffer)[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    if (Buffer.isBuffer(e)) {
      parts.push(e);
      continue;
    }
    parts.push(header(e));
    if (e.data !== undefined) parts.push(padded(Buffer.from(e.data)));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'travsr-reg-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes `rawTar(entries)` gzipped to `<dir>/<name>` and returns its path. */
export function writeTgz(dir: string, name: string, entries: (RawEntry | Buffer)[]): string {
  const file = join(dir, name);
  writeFileSync(file, gzipSync(rawTar(entries)));
  return file;
}

/**
 * Streams `head`, then `zeroBytes` of zeros, through gzip into `file` without holding them
 * in memory: 200 MiB of zeros compress to about 200 KiB.
 */
export async function writeZeroBomb(file: string, head: Buffer, zeroBytes: number): Promise<void> {
  async function* chunks(): AsyncGenerator<Buffer> {
    yield head;
    const mib = Buffer.alloc(1024 * 1024);
    for (let left = zeroBytes; left > 0; left -= mib.length) yield left >= mib.length ? mib : mib.subarray(0, left);
  }
  await pipeline(Readable.from(chunks()), createGzip({ level: 9 }), createWriteStream(file));
}

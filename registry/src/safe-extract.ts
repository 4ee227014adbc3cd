import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { chmod, constants, copyFile, mkdir, rm, stat, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { errorCode } from '@travsr/protocol';
import { Parser, type ReadEntry } from 'tar';
import { checkArchivePath, pathKey, resolveLink } from './archive-paths.js';
import { RegistryError, RegistryErrorCode } from './errors.js';

/** How much an archive may unpack to. */
export interface ExtractLimits {
  /** Largest total size of the extracted files (hard-link copies included), in bytes. */
  maxBytes: number;
  /** Most entries: files, directories and links. */
  maxEntries: number;
}

/** Options of {@link safeExtract}. */
export interface ExtractOptions extends Partial<ExtractLimits> {
  /**
   * The directory every entry must lie under, removed on extraction (`package` for
   * artifacts made by {@link packPlugin}); `null` extracts paths as they are.
   * Default `package`.
   */
  root?: string | null;
}

/** What {@link safeExtract} wrote. */
export interface ExtractResult {
  /** Entries read from the archive: files, directories (the root one included) and links. */
  entries: number;
  /** Bytes of file content written. */
  bytes: number;
}

/**
 * Limits used when the caller gives none: 256 MiB and 20 000 entries. `packPlugin`
 * refuses to make an artifact over them.
 *
 * @example
 * ```ts
 * await safeExtract(tgz, tmp, { ...DEFAULT_EXTRACT_LIMITS, maxBytes: 64 * 1024 * 1024 });
 * ```
 */
export const DEFAULT_EXTRACT_LIMITS: Readonly<ExtractLimits> = { maxBytes: 256 * 1024 * 1024, maxEntries: 20_000 };

// The decompressed stream may exceed the file bytes by the tar headers, padding and pax
// records. Allow 2 KiB per entry and per meta record, plus 1 MiB: anything past that is
// not a tar we would extract (zeros after the end-of-archive blocks, say).
const STREAM_SLACK = 1024 * 1024;
const PER_ENTRY_OVERHEAD = 2048;
const MAX_META_BYTES = 64 * 1024;
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

type Kind = 'dir' | 'file' | 'symlink' | 'hardlink';

interface Deferred {
  kind: 'symlink' | 'hardlink';
  segments: string[];
  display: string;
  target: string;
  /** Hard links: the archive file they copy. */
  source?: string[];
}

class Extraction {
  entries = 0;
  bytes = 0;
  /** Declared sizes of everything seen in the stream, for the decompressed-stream cap. */
  streamAllowance = STREAM_SLACK;
  readonly kinds = new Map<string, Kind>();
  readonly sizes = new Map<string, number>();
  readonly links = new Map<string, string>();
  readonly deferred: Deferred[] = [];
  readonly writing = new Set<WriteStream>();
  readonly opened: WriteStream[] = [];
  readonly pending: Promise<void>[] = [];
  failure: Error | undefined;
  #reject: (e: Error) => void = () => undefined;
  readonly failed = new Promise<never>((_, reject) => {
    this.#reject = reject;
  });

  constructor(
    readonly archive: string,
    readonly target: string,
    readonly limits: ExtractLimits,
    readonly root: string | null,
  ) {
    this.failed.catch(() => undefined);
  }

  fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    for (const ws of this.writing) ws.destroy();
    this.#reject(e);
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  refuse(code: RegistryErrorCode, entry: string, reason: string, extra: Record<string, unknown> = {}): RegistryError {
    return new RegistryError(
      code,
      `refused to extract ${this.archive}: entry "${entry.slice(0, 200)}" ${reason}; nothing was installed — the archive is malicious or broken, do not use it`,
      { archive: this.archive, entry, reason, ...extra },
    );
  }

  tooLarge(entry: string, reason: string, extra: Record<string, unknown> = {}): RegistryError {
    return new RegistryError(
      RegistryErrorCode.ArchiveTooLarge,
      `refused to extract ${this.archive}: ${entry ? `at entry "${entry.slice(0, 200)}", ` : ''}${reason}; nothing was installed — a plugin this large is likely a decompression bomb (raise the limit only for an archive you trust)`,
      { archive: this.archive, entry, reason, ...extra },
    );
  }

  /** Splits an entry path, checks it and strips the root; `undefined` for the root itself. */
  place(raw: string, code: RegistryErrorCode, what = 'path'): string[] | undefined {
    const check = checkArchivePath(raw);
    if (!check.ok) throw this.refuse(code, raw, `${what} ${check.reason}`);
    if (this.root === null) return check.segments;
    if (check.segments[0] !== this.root) throw this.refuse(code, raw, `${what} is outside ${this.root}/`);
    const inner = check.segments.slice(1);
    return inner.length === 0 ? undefined : inner;
  }

  /** Records a new path, refusing duplicates and anything below a file or a link. */
  claim(segments: string[], kind: Kind, display: string): void {
    for (let i = 1; i < segments.length; i++) {
      const key = pathKey(segments.slice(0, i));
      const above = this.kinds.get(key);
      if (above === 'symlink') {
        throw this.refuse(
          RegistryErrorCode.ArchiveLinkEscape,
          display,
          `would be written through the symlink "${segments.slice(0, i).join('/')}"`,
        );
      }
      if (above !== undefined && above !== 'dir') {
        throw this.refuse(
          RegistryErrorCode.ArchiveCorrupt,
          display,
          `lies below "${segments.slice(0, i).join('/')}", which is not a directory`,
        );
      }
      this.kinds.set(key, 'dir');
    }
    const key = pathKey(segments);
    const existing = this.kinds.get(key);
    if (existing !== undefined && !(existing === 'dir' && kind === 'dir')) {
      throw this.refuse(
        RegistryErrorCode.ArchiveCorrupt,
        display,
        'appears twice (names that differ only in case or Unicode normalization count as the same file)',
      );
    }
    this.kinds.set(key, kind);
  }

  onEntry(entry: ReadEntry): void {
    const display = entry.path;
    if (++this.entries > this.limits.maxEntries) {
      throw this.tooLarge(display, `it has more than ${this.limits.maxEntries} entries`);
    }
    this.streamAllowance += entry.size + PER_ENTRY_OVERHEAD;
    switch (entry.type) {
      case 'Directory': {
        const segments = this.place(entry.path, RegistryErrorCode.ArchivePathEscape);
        entry.resume();
        if (!segments) return;
        this.claim(segments, 'dir', display);
        this.track(mkdir(join(this.target, ...segments), { recursive: true }).then(() => undefined));
        return;
      }
      case 'File':
      case 'OldFile':
      case 'ContiguousFile':
        return this.file(entry, display);
      case 'SymbolicLink': {
        const segments = this.place(entry.path, RegistryErrorCode.ArchivePathEscape);
        if (!segments) throw this.refuse(RegistryErrorCode.ArchiveCorrupt, display, `replaces ${this.root}/ with a symlink`);
        const target = entry.linkpath ?? '';
        this.claim(segments, 'symlink', display);
        this.links.set(pathKey(segments), target);
        // Early refusal for the plain cases; the complete check runs once every link is known.
        if (resolveLink(this.links, segments, target) === undefined) {
          throw this.refuse(RegistryErrorCode.ArchiveLinkEscape, display, `is a symlink to "${target}", outside the extraction directory`);
        }
        this.deferred.push({ kind: 'symlink', segments, display, target });
        entry.resume();
        return;
      }
      case 'Link': {
        const segments = this.place(entry.path, RegistryErrorCode.ArchivePathEscape);
        const target = entry.linkpath ?? '';
        if (!segments) throw this.refuse(RegistryErrorCode.ArchiveCorrupt, display, `replaces ${this.root}/ with a hard link`);
        let source: string[] | undefined;
        try {
          source = this.place(target, RegistryErrorCode.ArchiveLinkEscape, `is a hard link whose target "${target}"`);
        } catch (e) {
          if (e instanceof RegistryError) {
            throw this.refuse(
              RegistryErrorCode.ArchiveLinkEscape,
              display,
              `is a hard link to "${target}", outside the extraction directory`,
            );
          }
          throw e;
        }
        const sourceKind = source && this.kinds.get(pathKey(source));
        if (!source || (sourceKind !== 'file' && sourceKind !== 'hardlink')) {
          throw this.refuse(
            RegistryErrorCode.ArchiveLinkEscape,
            display,
            `is a hard link to "${target}", which is not a file earlier in the archive`,
          );
        }
        const size = this.sizes.get(pathKey(source)) ?? 0;
        this.addBytes(display, size);
        this.claim(segments, 'hardlink', display);
        this.sizes.set(pathKey(segments), size);
        this.deferred.push({ kind: 'hardlink', segments, display, target, source });
        entry.resume();
        return;
      }
      case 'CharacterDevice':
      case 'BlockDevice':
      case 'FIFO':
        throw this.refuse(
          RegistryErrorCode.ArchiveSpecialFile,
          display,
          `is a ${entry.type === 'FIFO' ? 'FIFO' : entry.type === 'BlockDevice' ? 'block device' : 'character device'}; plugins contain only files, directories and symlinks`,
        );
      case 'GNUDumpDir':
      case 'ContinuationFile':
      case 'Inode':
      case 'SolarisACL':
      case 'SparseFile':
      case 'TapeVolumeHeader':
      case 'Unsupported':
      // Meta headers are consumed by the parser and never arrive here.
      case 'ExtendedHeader':
      case 'GlobalExtendedHeader':
      case 'NextFileHasLongLinkpath':
      case 'NextFileHasLongPath':
      case 'OldExtendedHeader':
      case 'OldGnuLongPath':
        throw this.refuse(
          RegistryErrorCode.ArchiveSpecialFile,
          display,
          `has the unsupported entry type ${entry.type}; plugins contain only files, directories and symlinks`,
        );
    }
  }

  addBytes(display: string, size: number): void {
    if (this.bytes + size > this.limits.maxBytes) {
      throw this.tooLarge(display, `the files would unpack to more than ${this.limits.maxBytes} bytes`, { maxBytes: this.limits.maxBytes });
    }
    this.bytes += size;
  }

  file(entry: ReadEntry, display: string): void {
    const segments = this.place(entry.path, RegistryErrorCode.ArchivePathEscape);
    if (!segments || entry.path.endsWith('/'))
      throw this.refuse(RegistryErrorCode.ArchiveCorrupt, display, 'is a file with a directory name');
    this.addBytes(display, entry.size);
    this.claim(segments, 'file', display);
    this.sizes.set(pathKey(segments), entry.size);
    const dest = join(this.target, ...segments);
    const mode = (entry.mode ?? 0o644) & 0o111 ? 0o755 : 0o644;
    this.track(
      (async () => {
        await mkdir(dirname(dest), { recursive: true });
        if (this.failure) return;
        // 'wx': never follow or replace anything already there.
        const ws = createWriteStream(dest, { flags: 'wx', mode });
        this.writing.add(ws);
        this.opened.push(ws);
        try {
          await pipeline(entry, ws);
        } finally {
          this.writing.delete(ws);
        }
        await chmod(dest, mode);
      })(),
    );
  }

  /** Waits until every file this extraction opened is closed, so the target can be removed. */
  async settle(): Promise<void> {
    await Promise.all(this.pending);
    const open = this.opened.filter((ws) => !ws.closed);
    await Promise.all(
      open.map((ws) =>
        once(ws, 'close').then(
          () => undefined,
          () => undefined,
        ),
      ),
    );
  }

  track(p: Promise<void>): void {
    this.pending.push(p.catch((e: unknown) => this.fail(e as Error)));
  }

  /** Checks every symlink against the complete set, then creates hard-link copies and symlinks. */
  async finishLinks(): Promise<void> {
    for (const d of this.deferred) {
      if (d.kind === 'symlink' && resolveLink(this.links, d.segments, d.target) === undefined) {
        throw this.refuse(
          RegistryErrorCode.ArchiveLinkEscape,
          d.display,
          `is a symlink to "${d.target}", which resolves outside the extraction directory through other links`,
        );
      }
    }
    for (const d of this.deferred) {
      const dest = join(this.target, ...d.segments);
      await mkdir(dirname(dest), { recursive: true });
      if (d.kind === 'hardlink' && d.source) {
        // A copy, not a link: an installed plugin never shares an inode with anything.
        const src = join(this.target, ...d.source);
        await copyFile(src, dest, constants.COPYFILE_EXCL);
        await chmod(dest, (await stat(src)).mode & 0o777);
      }
    }
    for (const d of this.deferred) {
      if (d.kind === 'symlink') await symlink(d.target, join(this.target, ...d.segments));
    }
  }
}

function corrupt(archive: string, e: unknown): RegistryError {
  return new RegistryError(
    RegistryErrorCode.ArchiveCorrupt,
    `${archive} is not a valid gzip-compressed tar archive (${(e as Error).message}); nothing was installed — download it again, or pack the plugin again`,
    { archive },
  );
}

function asError(archive: string, e: unknown): Error {
  if (e instanceof RegistryError) return e;
  const code = errorCode(e);
  // zlib and tar errors describe a broken archive; file-system errors (ENOSPC, EACCES) do not.
  if (code !== undefined && (code.startsWith('Z_') || code.startsWith('TAR_') || code === 'ERR_STREAM_PREMATURE_CLOSE'))
    return corrupt(archive, e);
  return e instanceof Error ? e : new Error(String(e));
}

async function stream(x: Extraction): Promise<void> {
  const parser = new Parser({ strict: true, maxMetaEntrySize: MAX_META_BYTES });
  parser.on('entry', (entry: ReadEntry) => {
    if (x.failure) {
      entry.resume();
      return;
    }
    try {
      x.onEntry(entry);
    } catch (e) {
      entry.resume();
      x.fail(asError(x.archive, e));
    }
  });
  parser.on('ignoredEntry', (entry: ReadEntry) => {
    x.fail(
      entry.meta
        ? x.tooLarge(entry.path, `a ${entry.type} header is larger than ${MAX_META_BYTES} bytes`)
        : x.refuse(RegistryErrorCode.ArchiveSpecialFile, entry.path, `has the unsupported entry type ${entry.type}`),
    );
  });
  parser.on('meta', (meta: string) => {
    x.streamAllowance += meta.length + PER_ENTRY_OVERHEAD;
  });
  parser.on('error', (e: unknown) => x.fail(corrupt(x.archive, e)));

  let fed = 0;
  const feed = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) {
      x.throwIfFailed();
      if (fed === 0 && (chunk.subarray(0, 2).equals(GZIP_MAGIC) || chunk.subarray(0, 4).equals(ZSTD_MAGIC))) {
        throw corrupt(x.archive, new Error('the tar inside is compressed a second time'));
      }
      fed += chunk.length;
      // Counted while streaming, so a bomb stops after about maxBytes, not after inflating.
      if (fed > x.streamAllowance) {
        throw x.tooLarge(
          '',
          `it inflates past ${fed} bytes (stopped reading there) while its entries declare only ${x.bytes} bytes of files`,
          {
            inflatedBytes: fed,
          },
        );
      }
      if (!parser.write(chunk)) await Promise.race([once(parser, 'drain'), x.failed]);
    }
  };
  await pipeline(createReadStream(x.archive), createGunzip({ chunkSize: 64 * 1024 }), async (source: AsyncIterable<Buffer>) => {
    // Record the reason before pipeline tears the streams down (which raises an AbortError).
    await feed(source).catch((e: unknown) => {
      x.fail(asError(x.archive, e));
      throw e;
    });
  }).catch((e: unknown) => x.fail(asError(x.archive, e)));
  x.throwIfFailed();
  const ended = once(parser, 'end');
  parser.end();
  await Promise.race([ended, x.failed]).catch((e: unknown) => x.fail(asError(x.archive, e)));
  await Promise.all(x.pending);
  x.throwIfFailed();
}

/**
 * Extracts a `.tgz` into a **new** directory `targetDir` (its parent must exist), refusing
 * before anything is written outside it:
 * absolute paths, `..` segments, backslashes (`ARCHIVE_PATH_ESCAPE`); symlinks or hard links
 * whose target resolves outside `targetDir`, and entries that would be written through a
 * symlink (`ARCHIVE_LINK_ESCAPE`); devices, FIFOs and other special entries
 * (`ARCHIVE_SPECIAL_FILE`); more than `maxBytes` of files or `maxEntries` entries, counted
 * while streaming, and a decompressed stream much larger than the files it declares
 * (`ARCHIVE_TOO_LARGE`); anything else malformed, including duplicate entries
 * (`ARCHIVE_CORRUPT`).
 *
 * Files get mode 0644, or 0755 when any execute bit is set; owners, times and setuid bits
 * are ignored. Hard links become copies. Symlinks are created last, after every link has
 * been checked against the complete archive, so nothing is ever written through one.
 * On any refusal `targetDir` is removed and the error names the entry and the reason.
 * Extract into a temporary directory next to the final place, check it, then rename.
 *
 * @throws RegistryError with one of the codes above, or `ARCHIVE_TARGET_EXISTS`.
 * @example
 * ```ts
 * await safeExtract(tgz, `${dest}.tmp-${process.pid}`, { maxBytes: 64 * 1024 * 1024, maxEntries: 5000 });
 * ```
 */
export async function safeExtract(tgzFile: string, targetDir: string, options: ExtractOptions = {}): Promise<ExtractResult> {
  const limits: ExtractLimits = {
    maxBytes: options.maxBytes ?? DEFAULT_EXTRACT_LIMITS.maxBytes,
    maxEntries: options.maxEntries ?? DEFAULT_EXTRACT_LIMITS.maxEntries,
  };
  try {
    await mkdir(targetDir, { mode: 0o755 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new RegistryError(
        RegistryErrorCode.ArchiveTargetExists,
        `cannot extract into ${targetDir}: it already exists, and extraction only goes into a new directory; remove it or choose another temporary directory`,
        { targetDir },
      );
    }
    throw e;
  }
  const x = new Extraction(tgzFile, targetDir, limits, options.root === undefined ? 'package' : options.root);
  try {
    await stream(x);
    await x.finishLinks();
    return { entries: x.entries, bytes: x.bytes };
  } catch (e) {
    x.fail(asError(tgzFile, e));
    await x.settle();
    await rm(targetDir, { recursive: true, force: true });
    throw x.failure ?? asError(tgzFile, e);
  }
}

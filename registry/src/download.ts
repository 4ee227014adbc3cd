import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RequestDeadline } from './deadline.js';
import { RegistryError, RegistryErrorCode } from './errors.js';
import type { ArtifactRecord } from './layout.js';
import type { RegistryTransport } from './registry-transport.js';
import { withRetries, type RetryPolicy } from './retry.js';
import { verifyFileHash } from './verify.js';

/** Progress of a download: bytes on disk so far (resumed bytes included) out of `total`. */
export interface DownloadProgress {
  readonly received: number;
  readonly total: number;
}

/** Options of {@link downloadArtifact}. */
export interface DownloadOptions {
  /** Called after every chunk written. */
  onProgress?: (progress: DownloadProgress) => void;
  /**
   * Overall limit of the download in milliseconds, retries and resumes included
   * (`REGISTRY_DEADLINE_EXCEEDED`; the part is kept for a later resume). The client sets it
   * from its timeouts and the artifact's size; without it only the idle timeout applies.
   */
  deadlineMs?: number;
}

/** What {@link downloadArtifact} did. */
export interface DownloadResult {
  /** The verified file (the `destFile` asked for). */
  readonly file: string;
  readonly sha256: string;
  readonly size: number;
  /** Bytes a previous, interrupted download had left in `<destFile>.part` and that were kept (0: from scratch). */
  readonly resumedFrom: number;
}

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

async function regularFileSize(file: string): Promise<number> {
  try {
    const st = await stat(file);
    return st.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}

function diskFull(e: unknown, part: string, url: string, received: number, total: number): RegistryError | undefined {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined || !DISK_FULL_CODES.has(code)) return undefined;
  return new RegistryError(
    RegistryErrorCode.DiskFull,
    `no space left in ${dirname(part)} while downloading ${url} (${received} of ${total} bytes written, ${code}); the partial download was removed — free at least ${total} bytes there and try again`,
    { file: part, url, received, total },
  );
}

/**
 * One attempt: appends to `part` from where it stops (or starts over when the server
 * ignores `Range`), never writing more than `artifact.size` bytes in all.
 * `onStart` learns the offset the server resumed from (0 when it sent the whole file).
 */
async function fetchInto(
  transport: RegistryTransport,
  artifact: Pick<ArtifactRecord, 'file' | 'size'>,
  part: string,
  options: DownloadOptions,
  onStart: (start: number) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const url = transport.where(artifact.file);
  const total = artifact.size;
  let have = await regularFileSize(part);
  if (have > total) {
    await rm(part, { force: true });
    have = 0;
  }
  if (have === total) {
    onStart(have);
    return;
  }
  const body = await transport.open(artifact.file, have, signal ? { signal } : {});
  onStart(body.start);
  const tooLarge = (): RegistryError =>
    new RegistryError(
      RegistryErrorCode.ArtifactSizeMismatch,
      `${url} sends more than the ${total} bytes its signed version document records; the download was stopped and removed — the registry is misconfigured or tampered with, tell its maintainer`,
      { url, expectedSize: total },
    );
  if (body.length !== undefined && body.start + body.length > total) {
    body.cancel();
    await rm(part, { force: true });
    throw tooLarge();
  }
  let received = body.start;
  let handle: FileHandle | undefined;
  let failure: Error | undefined;
  try {
    handle = await open(part, body.start === 0 ? 'w' : 'a');
    for await (const chunk of body.chunks) {
      if (received + chunk.length > total) throw tooLarge();
      await handle.write(chunk);
      received += chunk.length;
      options.onProgress?.({ received, total });
    }
    await handle.sync();
  } catch (e) {
    failure = e as Error;
  } finally {
    body.cancel();
    try {
      await handle?.close();
    } catch (e) {
      failure ??= e as Error;
    }
  }
  if (failure !== undefined) {
    const full = diskFull(failure, part, url, received, total);
    if (full || (failure instanceof RegistryError && failure.code === RegistryErrorCode.ArtifactSizeMismatch)) {
      await rm(part, { force: true });
    }
    throw full ?? failure;
  }
  if (received < total) {
    throw new RegistryError(
      RegistryErrorCode.RegistryTruncated,
      `${url} ended after ${received} of ${total} bytes; try again (the download resumes where it stopped)`,
      { url, received, total, retryable: true },
    );
  }
}

/**
 * Downloads an artifact into `destFile`, all or nothing: the bytes go to `<destFile>.part`,
 * which a later call resumes with `Range: bytes=<have>-` (a server that answers 200 instead
 * restarts it from zero). At most `artifact.size` bytes are ever written, so an endless
 * body stops at the recorded size. Network errors, timeouts, truncated bodies and 5xx
 * answers are retried (each retry resumes). The finished file's size and SHA-256 are
 * checked before it is renamed to `destFile`; a mismatch after a resumed download starts
 * over once from zero, in case the kept part was damaged.
 *
 * @throws RegistryError `ARTIFACT_SIZE_MISMATCH`, `ARTIFACT_HASH_MISMATCH`, `DISK_FULL`,
 *   `REGISTRY_DEADLINE_EXCEEDED` (past `options.deadlineMs`), or a transport code
 *   (`REGISTRY_UNREACHABLE`, `REGISTRY_TIMEOUT`, `REGISTRY_HTTP_ERROR`, `REGISTRY_TRUNCATED`).
 * @example
 * ```ts
 * await downloadArtifact(transport, artifact, '/tmp/example-lua.tgz', { retries: 3, baseDelayMs: 200 });
 * ```
 */
export async function downloadArtifact(
  transport: RegistryTransport,
  artifact: Pick<ArtifactRecord, 'file' | 'sha256' | 'size'>,
  destFile: string,
  policy: RetryPolicy,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const part = `${destFile}.part`;
  await mkdir(dirname(destFile), { recursive: true });
  const deadline = options.deadlineMs === undefined ? undefined : new RequestDeadline(options.deadlineMs, transport.where(artifact.file));
  try {
    return await downloadWithin(transport, artifact, destFile, part, policy, options, deadline?.signal);
  } finally {
    deadline?.dispose();
  }
}

async function downloadWithin(
  transport: RegistryTransport,
  artifact: Pick<ArtifactRecord, 'file' | 'sha256' | 'size'>,
  destFile: string,
  part: string,
  policy: RetryPolicy,
  options: DownloadOptions,
  signal: AbortSignal | undefined,
): Promise<DownloadResult> {
  for (let fresh = false; ; fresh = true) {
    let resumedFrom: number | undefined;
    let resumed = false;
    await withRetries(policy, () =>
      fetchInto(
        transport,
        artifact,
        part,
        options,
        (start) => {
          resumedFrom ??= start;
          if (start > 0) resumed = true;
        },
        signal,
      ),
    );
    try {
      await verifyFileHash(part, artifact.sha256, artifact.size);
    } catch (e) {
      await rm(part, { force: true });
      if (!fresh && resumed) continue;
      throw e;
    }
    await rename(part, destFile);
    return { file: destFile, sha256: artifact.sha256, size: artifact.size, resumedFrom: resumedFrom ?? 0 };
  }
}

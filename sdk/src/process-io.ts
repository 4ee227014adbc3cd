import { Console } from 'node:console';
import type { Readable, Writable } from 'node:stream';
import { errorCode, PROTOCOL_VERSIONS, WireErrorCode, WireException } from '@travsr/protocol';
import { hasHostCookie, startedByHandMessage } from './cookie.js';

/** What a plugin id looks like (`lang-lua`, `acme/lang-cobol`). */
export const ID_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)?$/;
/** What a plugin version looks like (semver). */
export const SEMVER_PATTERN = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/;

/** Process-level effects of a session, injectable so the session itself stays testable. */
export interface SessionIo {
  input: Readable;
  output: Writable;
  /** Ends the process (after flushing `output`) with this exit code. */
  exit(code: number): void;
  /** Writes one diagnostic line for humans (stderr). */
  stderr(line: string): void;
}

/** The process's own streams: frames on stdin/stdout, lines for humans on stderr. */
export function processIo(): SessionIo {
  // stdout carries the frames: anything an author logs with console must go to stderr.
  Object.defineProperty(globalThis, 'console', {
    value: new Console({ stdout: process.stderr, stderr: process.stderr }),
    configurable: true,
    writable: true,
  });
  return {
    input: process.stdin,
    output: process.stdout,
    exit: exitAfterFlush,
    stderr: (line) => process.stderr.write(`${line}\n`),
  };
}

let exiting = false;
/** Sets the exit code and exits once stdout and stderr are flushed (at most 2 s later). */
export function exitAfterFlush(code: number): void {
  if (exiting) return;
  exiting = true;
  process.exitCode = code;
  const done = () => process.exit(code);
  setTimeout(done, 2000).unref();
  process.stdout.write('', () => process.stderr.write('', done));
}

/**
 * The protocol version a plugin answers `hello` with: the highest of the host's that it
 * speaks too.
 * @throws WireException `UnsupportedProtocolVersion` when there is none.
 */
export function chooseProtocolVersion(offered: readonly string[], supported: readonly string[] = PROTOCOL_VERSIONS, who: string): string {
  const common = offered.filter((v) => supported.includes(v)).sort(compareVersions);
  const chosen = common[common.length - 1];
  if (chosen === undefined) {
    throw new WireException(
      WireErrorCode.UnsupportedProtocolVersion,
      `${who} speaks protocol version(s) ${supported.join(', ')} but the host offered ${offered.join(', ')}; install a plugin version that matches the host`,
      { supported: [...supported] },
    );
  }
  return chosen;
}

/** Compares protocol version strings numerically, segment by segment (`"10" > "9"`). */
function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a.localeCompare(b);
}

/**
 * How a plugin process ends when the host's connection closes: 2 after a protocol error (said on
 * stderr), 0 when the host just went away, undefined when `shutdown` is ending it already.
 */
export function exitCodeOnClose(
  err: Error | undefined,
  shuttingDown: boolean,
  id: string,
  io: Pick<SessionIo, 'stderr'>,
): number | undefined {
  if (err) {
    const code = errorCode(err);
    io.stderr(`${id}: protocol error on the host connection${code !== undefined ? ` (${code})` : ''}: ${err.message}; exiting`);
    return 2;
  }
  return shuttingDown ? undefined : 0;
}

/**
 * The process of a plugin's harness (`runAnalyzer`, `runModel`): a definition `problem` or a
 * start by hand (no host cookie) is said on stderr and exits 1; otherwise `serve` runs the session
 * on the process's own streams.
 */
export async function runPluginProcess(
  harness: { name: string; kind: 'analyzer' | 'model' },
  who: { id: string; version: string },
  problem: string | undefined,
  serve: (io: SessionIo) => Promise<void>,
): Promise<void> {
  if (problem) {
    process.stderr.write(`travsr ${harness.kind}: invalid definition passed to ${harness.name}(): ${problem}\n`);
    exitAfterFlush(1);
    return;
  }
  if (!hasHostCookie()) {
    process.stderr.write(`${startedByHandMessage(who.id, who.version)}\n`);
    exitAfterFlush(1);
    return;
  }
  await serve(processIo());
}

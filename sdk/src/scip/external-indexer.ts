import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { TravsrError } from '@travsr/protocol';

/** How to run one external indexer (scip-go, scip-java, scip-clang, a user's own command…). */
export interface ExternalIndexerRun {
  /** The tool's name, for messages: `scip-go`. */
  readonly name: string;
  /** The program: an absolute path (as the host passed it in `initialize.options.tools`). */
  readonly command: string;
  readonly args: readonly string[];
  /** Working directory: the project it indexes. */
  readonly cwd: string;
  /** Its whole environment (nothing of the plugin's is passed unless given here). */
  readonly env: NodeJS.ProcessEnv;
  /** Where it writes the index: checked to exist (and not be empty) when it exits 0. */
  readonly output: string;
  readonly signal?: AbortSignal;
  /** Default 20 minutes; then it is killed and the run fails. */
  readonly timeoutMs?: number;
  /**
   * Called every `heartbeatMs` while it runs, with the seconds since it started: log from it, so
   * the host does not take a plugin that waits minutes for its tool for hung (and the user sees why).
   */
  readonly heartbeat?: (seconds: number) => void;
  /** Default 30 s. */
  readonly heartbeatMs?: number;
}

/** The external indexer failed: it could not start, exited non-zero, timed out, was cancelled, or wrote no index. */
export class ExternalIndexerError extends TravsrError {
  readonly code = 'EXTERNAL_INDEXER_FAILED';
  constructor(
    message: string,
    /** The last lines of what it wrote to stderr (and stdout), for the user. */
    readonly outputTail: string = '',
  ) {
    super(message);
    this.name = 'ExternalIndexerError';
  }
}

/** What is kept of a tool's output: the end, where its error is. */
const TAIL_BYTES = 64 * 1024;

/** Keeps the last TAIL_BYTES of a stream, however much it writes. */
class Tail {
  private chunks: Buffer[] = [];
  private bytes = 0;
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes - (this.chunks[0]?.length ?? 0) >= TAIL_BYTES) this.bytes -= this.chunks.shift()!.length;
  }
  lines(n: number): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return text
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l !== '')
      .slice(-n)
      .join(' | ')
      .slice(-800);
  }
}

/**
 * Runs an external SCIP indexer to completion, in the plugin's sandbox (whatever the plugin's
 * tier lets it reach), and returns the path of the index it wrote. Its output is not kept but for
 * the last 64 KiB (a chatty tool cannot fill the plugin's memory); its failure carries the last
 * lines of it. Read the index with {@link ScipIndexFile} / {@link ScipGraph.open}, a document at
 * a time.
 *
 * @throws ExternalIndexerError `EXTERNAL_INDEXER_FAILED`
 * @example
 * ```ts
 * const index = await runExternalIndexer({
 *   name: 'scip-go', command: tools['scip-go'], args: ['--output', out, './...'], cwd: moduleDir,
 *   env: { PATH: '/usr/bin:/bin', GOPROXY: 'off' }, output: out, signal: ctx.signal,
 *   heartbeat: (s) => ctx.log('info', `scip-go is still indexing (${s} s)`),
 * });
 * ```
 */
export function runExternalIndexer(run: ExternalIndexerRun): Promise<string> {
  const timeoutMs = run.timeoutMs ?? 20 * 60_000;
  const started = performance.now();
  return new Promise<string>((resolve, reject) => {
    if (run.signal?.aborted) return reject(new ExternalIndexerError(`${run.name} was cancelled before it started`));
    const tail = new Tail();
    let why: string | undefined;
    // A process group of its own: stopping it stops what it started too (the build tool scip-java
    // runs, the compiler processes of scip-clang), and what it leaves running goes when it exits.
    const child = spawn(run.command, [...run.args], { cwd: run.cwd, env: run.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch (e) {
        // ESRCH: already gone. Elsewhere (no process groups, EPERM) the tool itself at least.
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') child.kill('SIGKILL');
      }
    };
    // 'close' waits for the output pipes; a process the tool started in a session of its own (a
    // build daemon) may hold them open after the tool exited. Settle shortly after the exit anyway.
    let closeGrace: NodeJS.Timeout | undefined;
    child.on('exit', (code, signal) => {
      killGroup();
      closeGrace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        settle(code, signal);
      }, 2_000);
    });
    child.stdout.on('data', (c: Buffer) => tail.push(c));
    child.stderr.on('data', (c: Buffer) => tail.push(c));
    const stop = (reason: string) => {
      why ??= reason;
      killGroup();
    };
    const timer = setTimeout(() => stop(`did not finish within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    const beat = run.heartbeat
      ? setInterval(() => run.heartbeat!(Math.round((performance.now() - started) / 1000)), run.heartbeatMs ?? 30_000)
      : undefined;
    const onAbort = () => stop('was cancelled');
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      if (closeGrace) clearTimeout(closeGrace);
      if (beat) clearInterval(beat);
      run.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (message: string) => {
      const lines = tail.lines(6);
      reject(new ExternalIndexerError(`${run.name} ${message} (in ${run.cwd})${lines ? `: ${lines}` : ''}`, lines));
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      done();
      fail(
        e.code === 'ENOENT'
          ? `could not be started: ${run.command} does not exist or is not visible in the sandbox`
          : `could not be started: ${e.message}`,
      );
    });
    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      done();
      if (why) return fail(why);
      if (code !== 0) return fail(signal ? `was killed by ${signal}` : `exited with ${code}`);
      if (!existsSync(run.output) || statSync(run.output).size === 0) return fail(`exited 0 but wrote no index at ${run.output}`);
      resolve(run.output);
    };
    child.on('close', settle);
  });
}

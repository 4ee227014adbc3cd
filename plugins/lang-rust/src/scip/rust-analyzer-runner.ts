// Runs `rust-analyzer scip` on the repository, in the plugin's sandbox: cargo offline, build
// output in a scratch (or cache) directory, stopped with every process it started (cargo, the
// proc-macro server) when the analyze request is.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { TravsrError, type LogFunction } from '@travsr/sdk';
import { decodeScipIndex, type ScipIndex } from '@travsr/sdk/scip';
import { ScipRustIndex } from './scip-rust-edges.js';

/** How to get rust-analyzer, shown when the upgrade is on but the tool is missing. */
export const RUST_ANALYZER_HINT =
  'put a rust-analyzer release binary (https://github.com/rust-lang/rust-analyzer/releases) on PATH, with cargo and rustc installed under /usr (the sandbox binds the binary alone: a rustup proxy in ~/.cargo/bin, as `rustup component add rust-analyzer` installs, finds no toolchain there)';

/** How often a running rust-analyzer is reported (well under the host's 2-minute analyze idle timeout). */
const HEARTBEAT_MS = 20_000;

/** How much of rust-analyzer's output is kept for an error message. */
const OUTPUT_TAIL_BYTES = 64 << 10;

/** rust-analyzer failed: it exited non-zero, was stopped, or wrote no readable index. */
export class RustAnalyzerError extends TravsrError {
  readonly code = 'RUST_ANALYZER_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'RustAnalyzerError';
  }
}

/** Options of a {@link RustAnalyzerUpgrade}. */
export interface RustAnalyzerRunOptions {
  /** A writable scratch directory (the sandbox's /tmp); default `$TMPDIR` or the OS's. */
  scratchDir?: string;
  /**
   * cargo's target directory for the `cargo check` rust-analyzer runs for build scripts and
   * proc macros; default a directory in the scratch directory, removed after the run. A
   * directory kept between sessions (under the plugin's `cacheDir`) makes later runs faster.
   */
  targetDir?: string;
  /** Interval of the "still indexing" log lines; default 20 s. */
  heartbeatMs?: number;
  /** Stop rust-analyzer after this long (ms); default: only when the request's signal aborts. */
  timeoutMs?: number;
  /** Pass `--exclude-vendored-libraries` (crates under the repository that are not workspace members); default true. */
  excludeVendoredLibraries?: boolean;
}

/** The upgrade in a session: the tool to run, or why it does not run. */
export type RustAnalyzerAvailability =
  | { tool: string }
  /** `requested`: the user turned the option on (the note is worth logging once); false when it is merely off. */
  | { missing: string; requested: boolean };

function enabled(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * The environment rust-analyzer runs with: cargo offline (`CARGO_NET_OFFLINE`), its target
 * directory in `targetDir`, the tool's own directory first on PATH (a toolchain's `bin/` holds
 * cargo and rustc beside it), and the variables that locate a toolchain passed through.
 *
 * @example
 * ```ts
 * rustAnalyzerEnv({ tool: '/opt/rust/bin/rust-analyzer', targetDir: '/tmp/ra/target' }, { PATH: '/usr/bin', HOME: '/tmp' });
 * // { PATH: '/opt/rust/bin:/usr/bin', HOME: '/tmp', CARGO_NET_OFFLINE: 'true', CARGO_TARGET_DIR: '/tmp/ra/target', … }
 * ```
 */
export function rustAnalyzerEnv(run: { tool: string; targetDir: string }, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const path = [dirname(run.tool), ...(base['PATH'] ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)].filter((d) => d !== '');
  const env: NodeJS.ProcessEnv = {
    PATH: [...new Set(path)].join(delimiter),
    HOME: base['HOME'] ?? dirname(run.targetDir),
    LANG: 'C.UTF-8',
    // Never the network: dependencies come from cargo's registry cache or a vendor directory.
    CARGO_NET_OFFLINE: 'true',
    // The repository is read-only in the sandbox: build scripts and proc macros build here.
    CARGO_TARGET_DIR: run.targetDir,
    CARGO_TERM_COLOR: 'never',
  };
  for (const name of ['CARGO_HOME', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN', 'RUST_SRC_PATH', 'CARGO', 'RUSTC'])
    if (base[name] !== undefined) env[name] = base[name];
  return env;
}

function durationText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

/** Why rust-analyzer stopped, from its exit and output. */
function failureOf(code: number | null, signal: NodeJS.Signals | null, output: string): string {
  if (/memory allocation of \d+ bytes failed|out of memory/i.test(output))
    return "ran out of memory (the sandbox limits each process to the plugin's constraints.resources.memoryMiB)";
  if (signal !== null) return `was killed by ${signal}${signal === 'SIGKILL' ? ' (out of memory?)' : ''}`;
  return `exited with ${code ?? '?'}`;
}

/** What the user can do about a failure, from rust-analyzer's output. */
function adviceFor(output: string): string {
  if (/offline|failed to (?:load|read|fetch)|cargo metadata|failed to (?:download|get)|no matching package/i.test(output))
    return 'rust-analyzer runs cargo offline in the sandbox: the dependencies must already be in cargo’s registry cache or vendored (`cargo fetch` or `cargo vendor` once on this machine)';
  if (/failed to (?:discover|find) (?:workspace|project)|no (?:Cargo\.toml|project)|multiple projects|more than one/i.test(output))
    return 'rust-analyzer indexes one Cargo workspace per run: give it the directory of each workspace';
  return 'run `rust-analyzer scip .` in the workspace for its whole output';
}

/**
 * The lines of rust-analyzer's output worth showing: its fatal error with the causes after it
 * (`Error: …`, `Caused by:`, …), else its first error line on, else its last lines.
 */
function outputTail(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^\d+: /.test(l) && !/^at \S+:\d+/.test(l));
  let from = lines.findLastIndex((l) => l.startsWith('Error:'));
  if (from < 0) from = lines.findIndex((l) => /error|fatal|panicked|failed/i.test(l));
  return (from >= 0 ? lines.slice(from, from + 6) : lines.slice(-6)).join(' | ').slice(0, 800);
}

/**
 * The rust-analyzer upgrade of Phase B: off unless the plugin option `rustAnalyzer` is true,
 * and only when the host found `rust-analyzer` on its PATH (`initialize.options.tools`, from the
 * manifest's `constraints.optionalTools`). Without it the native resolver's edges stand alone.
 *
 * @example
 * ```ts
 * const a = RustAnalyzerUpgrade.available(session.options ?? {});
 * if ('tool' in a) upgrade = new RustAnalyzerUpgrade(a.tool);
 * else if (a.requested) note = a.missing; // logged once, at the first analyze
 * // in analyze():
 * const index = await upgrade.run(ctx.root, ctx.signal, ctx.log);
 * ```
 */
export class RustAnalyzerUpgrade {
  private running: Promise<ScipRustIndex> | undefined;
  private readonly scratchDir: string | undefined;
  private readonly heartbeatMs: number;

  /** @param tool the path of rust-analyzer as the host passed it (`options.tools['rust-analyzer']`) */
  constructor(
    readonly tool: string,
    private readonly options: RustAnalyzerRunOptions = {},
  ) {
    this.scratchDir = options.scratchDir ?? process.env['TMPDIR'];
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  }

  /**
   * Whether the upgrade runs in this session: `{ tool }` (the path of rust-analyzer), or
   * `{ missing, requested }` with the reason it does not (the option is off, which is the
   * default, or rust-analyzer is not on the host's PATH).
   */
  static available(options: Record<string, unknown>): RustAnalyzerAvailability {
    if (!enabled(options['rustAnalyzer']))
      return {
        missing:
          'the rust-analyzer upgrade is off (the default: it is slow and runs cargo check); Phase B resolves natively; turn it on with `travsr config set plugins.options.lang-rust.rustAnalyzer true`',
        requested: false,
      };
    const tools = options['tools'];
    const map = tools !== null && typeof tools === 'object' ? (tools as Record<string, unknown>) : {};
    const tool = map['rust-analyzer'];
    if (typeof tool !== 'string' || tool === '')
      return {
        missing: `rustAnalyzer is on, but rust-analyzer is not on PATH: Phase B resolves natively; ${RUST_ANALYZER_HINT}`,
        requested: true,
      };
    return { tool };
  }

  /**
   * Indexes the repository with `rust-analyzer scip`, once per Cargo workspace in
   * `workspaceDirs` (absolute; default the root alone), and decodes the indexes — once per
   * upgrade: later calls get the same index (a failed run is tried again). A workspace that
   * fails is logged (warn) and left out while another succeeds. Logs at info every 20 s while
   * it runs, so the host and the user know why Phase B waits.
   * @throws RustAnalyzerError with rust-analyzer's last lines of output when every workspace fails or `signal` aborts.
   */
  run(root: string, signal: AbortSignal, log: LogFunction, workspaceDirs: readonly string[] = [root]): Promise<ScipRustIndex> {
    this.running ??= this.indexAll(root, signal, log, workspaceDirs);
    this.running.catch(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async indexAll(root: string, signal: AbortSignal, log: LogFunction, dirs: readonly string[]): Promise<ScipRustIndex> {
    const { tmpdir } = await import('node:os');
    const work = mkdtempSync(join(this.scratchDir ?? tmpdir(), 'rust-analyzer-'));
    const started = performance.now();
    try {
      const indexes: ScipIndex[] = [];
      const failures: RustAnalyzerError[] = [];
      for (const [i, dir] of dirs.entries()) {
        try {
          indexes.push(await this.index(dir, join(work, `index-${i}.scip`), work, signal, log));
        } catch (e) {
          if (signal.aborted || dirs.length === 1) throw e;
          failures.push(e as RustAnalyzerError);
          log('warn', `${(e as Error).message}; the other workspaces are indexed without it`);
        }
      }
      if (indexes.length === 0)
        throw new RustAnalyzerError(
          `rust-analyzer failed on all ${dirs.length} workspaces; the first: ${failures[0]?.message ?? 'no workspace given'}`,
        );
      const index = new ScipRustIndex(indexes, root);
      log(
        'info',
        `rust-analyzer ${index.tool.version} indexed ${index.documentCount} files in ${Math.round((performance.now() - started) / 1000)} s` +
          (dirs.length > 1 ? ` (${indexes.length} of ${dirs.length} workspaces)` : ''),
      );
      return index;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  /** One `rust-analyzer scip` run on the workspace in `dir`, retried once without `--exclude-vendored-libraries` by a release that lacks it. */
  private async index(dir: string, output: string, work: string, signal: AbortSignal, log: LogFunction): Promise<ScipIndex> {
    const targetDir = this.options.targetDir ?? join(work, 'target');
    mkdirSync(targetDir, { recursive: true });
    const exclude = this.options.excludeVendoredLibraries ?? true;
    const args = ['scip', dir, '--output', output, ...(exclude ? ['--exclude-vendored-libraries'] : [])];
    let result = await this.spawn(args, dir, targetDir, signal, log);
    // Releases before 2024-08 (rust-lang/rust-analyzer#17900) do not know the flag, and index no vendored crates anyway.
    if (exclude && result.code !== 0 && /unexpected flag.*exclude-vendored-libraries/i.test(result.output)) {
      log('debug', 'this rust-analyzer has no --exclude-vendored-libraries: running it without');
      result = await this.spawn(args.slice(0, -1), dir, targetDir, signal, log);
    }
    const seconds = result.seconds;
    if (result.code !== 0 || result.signal !== null) {
      const tail = outputTail(result.output);
      const why =
        signal.aborted || result.aborted
          ? 'was stopped (the analyze request was cancelled or ran out of time)'
          : result.timedOut && this.options.timeoutMs !== undefined
            ? `did not finish within ${durationText(this.options.timeoutMs)}`
            : failureOf(result.code, result.signal, result.output);
      const advice = signal.aborted || result.aborted || result.timedOut ? '' : `; ${adviceFor(result.output)}`;
      throw new RustAnalyzerError(
        `rust-analyzer ${why} after ${seconds} s on ${dir}${tail ? `: ${tail}` : ''}${advice}; Phase B keeps the native resolver's edges (set the plugin option rustAnalyzer to false to skip the upgrade)`,
      );
    }
    if (!existsSync(output))
      throw new RustAnalyzerError(
        `rust-analyzer exited 0 but wrote no index at ${output} (on ${dir}); Phase B keeps the native resolver's edges`,
      );
    try {
      return decodeScipIndex(readFileSync(output));
    } catch (e) {
      throw new RustAnalyzerError(
        `rust-analyzer wrote an index that cannot be read (${(e as Error).message}) for ${dir}; Phase B keeps the native resolver's edges`,
      );
    }
  }

  /**
   * Runs rust-analyzer in a process group of its own, so that stopping it also stops the
   * `cargo check` and proc-macro server it started; reports it every `heartbeatMs`.
   */
  private async spawn(
    args: string[],
    cwd: string,
    targetDir: string,
    signal: AbortSignal,
    log: LogFunction,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string; seconds: number; aborted: boolean; timedOut: boolean }> {
    const { spawn } = await import('node:child_process');
    const started = performance.now();
    const seconds = () => Math.round((performance.now() - started) / 1000);
    let output = '';
    let lastLine = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-OUTPUT_TAIL_BYTES);
      const line = text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .at(-1);
      if (line) lastLine = line.slice(0, 120);
    };
    return await new Promise((resolve, reject) => {
      if (signal.aborted) {
        resolve({ code: null, signal: null, output: '', seconds: 0, aborted: true, timedOut: false });
        return;
      }
      const child = spawn(this.tool, args, {
        cwd,
        env: rustAnalyzerEnv({ tool: this.tool, targetDir }),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let aborted = false;
      let timedOut = false;
      const killGroup = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      const onAbort = () => {
        aborted = true;
        killGroup();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const timer =
        this.options.timeoutMs !== undefined
          ? setTimeout(() => {
              timedOut = true;
              killGroup();
            }, this.options.timeoutMs)
          : undefined;
      const heartbeat = setInterval(
        () => log('info', `rust-analyzer is still indexing ${cwd} (${seconds()} s${lastLine ? `; last: ${lastLine}` : ''})`),
        this.heartbeatMs,
      );
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
      // Whatever rust-analyzer left running (a cargo it did not wait for) goes with it.
      child.on('exit', (code, sig) => {
        exit = { code, signal: sig };
        killGroup();
      });
      const done = () => {
        clearInterval(heartbeat);
        if (timer) clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      child.on('error', (e) => {
        done();
        reject(
          new RustAnalyzerError(
            `rust-analyzer could not be started (${e.message}) from ${this.tool}; ${RUST_ANALYZER_HINT}; Phase B keeps the native resolver's edges`,
          ),
        );
      });
      child.on('close', (code, sig) => {
        done();
        const status = exit ?? { code, signal: sig };
        resolve({ ...status, output, seconds: seconds(), aborted, timedOut });
      });
    });
  }
}

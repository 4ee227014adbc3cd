// Runs scip-python (npm @sourcegraph/scip-python, pyright inside) on the repository, in the
// plugin's sandbox: offline (an empty environment file, so it never asks pip what is
// installed), writing only to a scratch directory, stopped when the analyze request is.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TravsrError, type LogFunction } from '@travsr/sdk';
import { ScipPythonIndex } from './scip-python-edges.js';

/** The scip-python release the upgrade is tested with. */
export const SCIP_PYTHON_VERSION = '0.6.6';

/** How to get scip-python, shown when the upgrade is on but the tool is missing. */
export const SCIP_PYTHON_HINT = `install it with \`npm install -g @sourcegraph/scip-python@${SCIP_PYTHON_VERSION}\` (the host looks for scip-python on its PATH)`;

/** How often a running scip-python is reported (well under the host's 2-minute analyze idle timeout). */
const HEARTBEAT_MS = 20_000;

/** scip-python failed: it exited non-zero, was stopped, or wrote no readable index. */
export class ScipPythonError extends TravsrError {
  readonly code = 'SCIP_PYTHON_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'ScipPythonError';
  }
}

/** Options of a {@link ScipPythonUpgrade}. */
export interface ScipPythonRunOptions {
  /** A writable scratch directory (the sandbox's /tmp); default `$TMPDIR` or the OS's. */
  scratchDir?: string;
  /** Interval of the "still indexing" log lines; default 20 s. */
  heartbeatMs?: number;
  /** `--max-old-space-size` of the Node.js that runs scip-python (MiB); default Node's own. */
  maxOldSpaceMiB?: number;
  /** Stop scip-python after this long (ms); default: only when the request's signal aborts. */
  timeoutMs?: number;
}

function enabled(value: unknown): boolean {
  return value === true || value === 'true';
}

/** Why scip-python stopped, from its process error and output. */
function failureOf(error: Error, output: string): string {
  // Node's own OOM report is a native stack trace; say it plainly.
  if (/heap out of memory|Fatal process out of memory|Allocation failed/i.test(output))
    return "ran out of memory (the sandbox limits each process to the plugin's constraints.resources.memoryMiB; large repositories need 2 GiB or more)";
  const { code, signal } = error as { code?: unknown; signal?: unknown };
  if (typeof code === 'number' || (typeof code === 'string' && code !== '')) return `exited with ${String(code)}`;
  if (typeof signal === 'string') return `was killed by ${signal}`;
  return `failed to run (${error.message.split('\n')[0] ?? ''})`;
}

/** The lines of scip-python's output worth showing: its error lines, else its last lines; never a native stack trace. */
function outputTail(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^\d+: 0x[0-9a-f]+ /.test(l));
  const errors = lines.filter((l) => /error|fatal|exception/i.test(l));
  return (errors.length > 0 ? errors : lines).slice(-6).join(' | ').slice(0, 800);
}

/**
 * The scip-python upgrade of Phase B: off unless the plugin option `scipPython` is true, and
 * only when the host found `scip-python` on its PATH (`initialize.options.tools`). Without it
 * the native resolver's edges stand alone.
 *
 * @example
 * ```ts
 * const a = ScipPythonUpgrade.available(session.options);
 * if ('missing' in a) ctx.log('info', a.missing);
 * else {
 *   const index = await new ScipPythonUpgrade(a.tool).run(ctx.root, ctx.signal, ctx.log);
 *   edges.push(...callEdges(index, facts, definitionAt));
 * }
 * ```
 */
export class ScipPythonUpgrade {
  private running: Promise<ScipPythonIndex> | undefined;
  private readonly scratchDir: string | undefined;
  private readonly heartbeatMs: number;

  /** @param tool the path of scip-python as the host passed it (`options.tools['scip-python']`) */
  constructor(
    readonly tool: string,
    private readonly options: ScipPythonRunOptions = {},
  ) {
    this.scratchDir = options.scratchDir ?? process.env['TMPDIR'];
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  }

  /**
   * Whether the upgrade runs in this session: `{ tool }` (the path of scip-python), or
   * `{ missing }` with the reason it does not, for an info log (the option is off, which is the
   * default, or scip-python is not on the host's PATH).
   */
  static available(options: Record<string, unknown>): { tool: string } | { missing: string } {
    if (!enabled(options['scipPython']))
      return {
        missing:
          'the scip-python upgrade is off (the default: it is slow); Phase B resolves natively; turn it on with `travsr config set plugins.options.lang-python.scipPython true`',
      };
    const tools = options['tools'];
    const map = tools !== null && typeof tools === 'object' ? (tools as Record<string, unknown>) : {};
    const tool = map['scip-python'];
    if (typeof tool !== 'string' || tool === '')
      return { missing: `scipPython is on, but scip-python is not on PATH: Phase B resolves natively; ${SCIP_PYTHON_HINT}` };
    return { tool };
  }

  /**
   * Indexes the repository at `root` with scip-python and decodes the index — once per
   * upgrade: later calls get the same index (a failed run is tried again). Logs at info every
   * 20 s while it runs, so the host and the user know why Phase B waits.
   * @throws ScipPythonError with scip-python's last lines of output when it fails or `signal` aborts.
   */
  run(root: string, signal: AbortSignal, log: LogFunction): Promise<ScipPythonIndex> {
    this.running ??= this.index(root, signal, log);
    this.running.catch(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async index(root: string, signal: AbortSignal, log: LogFunction): Promise<ScipPythonIndex> {
    // Loaded here, not at start-up: the upgrade is off by default and every session would pay for them.
    const [{ execFile }, { tmpdir }] = await Promise.all([import('node:child_process'), import('node:os')]);
    const work = mkdtempSync(join(this.scratchDir ?? tmpdir(), 'scip-python-'));
    const output = join(work, 'index.scip');
    // An empty environment: scip-python would otherwise run pip to list installed packages.
    const environment = join(work, 'environment.json');
    writeFileSync(environment, '[]\n');
    // A project name and version keep symbols well-formed ('' leaves a double space) and keep
    // scip-python from asking git for a revision.
    const args = [
      'index',
      '--cwd',
      root,
      '--output',
      output,
      '--environment',
      environment,
      '--project-name',
      'repository',
      '--project-version',
      'local',
      '--quiet',
    ];
    // The host resolves the npm bin link to scip-python's index.js: run it with this Node.js,
    // which the sandbox has (its `#!/usr/bin/env node` may find none).
    const viaNode = /\.[cm]?js$/.test(this.tool);
    const file = viaNode ? process.execPath : this.tool;
    const argv = viaNode
      ? [...(this.options.maxOldSpaceMiB ? [`--max-old-space-size=${this.options.maxOldSpaceMiB}`] : []), this.tool, ...args]
      : args;
    const started = performance.now();
    const seconds = () => Math.round((performance.now() - started) / 1000);
    const heartbeat = setInterval(() => log('info', `scip-python is still indexing the repository (${seconds()} s)`), this.heartbeatMs);
    try {
      await new Promise<void>((resolve, reject) => {
        execFile(
          file,
          argv,
          {
            cwd: root,
            env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8' },
            maxBuffer: 16 << 20,
            signal,
            ...(this.options.timeoutMs !== undefined ? { timeout: this.options.timeoutMs } : {}),
          },
          (error, stdout, stderr) => {
            if (!error) return resolve();
            const output = `${stderr}\n${stdout}`;
            const tail = outputTail(output);
            const why =
              error.name === 'AbortError' || signal.aborted
                ? 'was stopped (the analyze request was cancelled or ran out of time)'
                : (error as { killed?: boolean }).killed && this.options.timeoutMs !== undefined
                  ? `did not finish within ${Math.round(this.options.timeoutMs / 1000)} s`
                  : failureOf(error, output);
            reject(
              new ScipPythonError(
                `scip-python ${why} after ${seconds()} s on ${root}${tail ? `: ${tail}` : ''}; Phase B keeps the native resolver's edges (set the plugin option scipPython to false to skip the upgrade)`,
              ),
            );
          },
        );
      });
      if (!existsSync(output)) throw new ScipPythonError(`scip-python exited 0 but wrote no index at ${output}`);
      let index: ScipPythonIndex;
      try {
        index = ScipPythonIndex.decode(readFileSync(output), root);
      } catch (e) {
        throw new ScipPythonError(`scip-python wrote an index that cannot be read: ${(e as Error).message}`);
      }
      log('info', `scip-python ${index.tool.version} indexed ${index.documentCount} files in ${seconds()} s`);
      return index;
    } finally {
      clearInterval(heartbeat);
      rmSync(work, { recursive: true, force: true });
    }
  }
}

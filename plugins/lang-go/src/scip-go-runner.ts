import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TravsrError } from '@travsr/sdk';
import { decodeScipIndex, type ScipIndex } from '@travsr/sdk/scip';

/** The external programs Phase B runs, as the host passed them in `initialize.options.tools`. */
export interface GoTools {
  /** Absolute path of scip-go inside the sandbox. */
  scipGo: string;
  /** Absolute path of the go command (scip-go runs `go list`), if the host found one. */
  go?: string;
}

/** Options of {@link runScipGo}. */
export interface ScipGoRun {
  tools: GoTools;
  /** The module's directory (holding go.mod), absolute. */
  moduleDir: string;
  /** A writable scratch directory (the sandbox's /tmp). */
  scratchDir: string;
  signal?: AbortSignal;
  /** Default 20 minutes. */
  timeoutMs?: number;
}

/** scip-go failed: it exited non-zero, timed out, or wrote no readable index. */
export class ScipGoError extends TravsrError {
  readonly code = 'SCIP_GO_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'ScipGoError';
  }
}

/**
 * The environment scip-go runs with in a sandbox: no network (GOPROXY=off, no checksum
 * database, no toolchain download), caches in the scratch directory, the module cache of the
 * Go workspace scip-go was installed into when the host bound it (`~/go` for `~/go/bin/scip-go`).
 */
export function scipGoEnv(run: Pick<ScipGoRun, 'tools' | 'scratchDir'>, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const dirs = [run.tools.go, run.tools.scipGo].filter((p): p is string => p !== undefined).map((p) => dirname(p));
  const env: NodeJS.ProcessEnv = {
    PATH: [...new Set([...dirs, ...(base['PATH'] ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)])].join(delimiter),
    HOME: base['HOME'] ?? run.scratchDir,
    LANG: 'C.UTF-8',
    GOPATH: join(run.scratchDir, 'gopath'),
    GOCACHE: join(run.scratchDir, 'gocache'),
    GOPROXY: 'off',
    GOSUMDB: 'off',
    GOTOOLCHAIN: 'local',
    GOTELEMETRY: 'off',
    // No GOFLAGS: go's default is -mod=vendor when vendor/modules.txt is there, else -mod=readonly
    // (go.mod is never written: the repository is read-only anyway).
  };
  const workspaceCache = join(dirname(dirname(run.tools.scipGo)), 'pkg', 'mod');
  if (existsSync(workspaceCache)) env['GOMODCACHE'] = workspaceCache;
  return env;
}

function exitCodeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' || typeof code === 'string' ? String(code) : error.message;
}

/**
 * Runs scip-go on one Go module and decodes the index it writes. The module is indexed
 * whole (`./...`): type information needs every package anyway.
 * @throws ScipGoError with scip-go's last lines of output when it fails.
 *
 * @example
 * ```ts
 * const index = await runScipGo({ tools: { scipGo: '/usr/local/bin/scip-go', go: '/usr/bin/go' }, moduleDir: '/repo', scratchDir: '/tmp' });
 * ```
 */
export async function runScipGo(run: ScipGoRun): Promise<ScipIndex> {
  const work = join(run.scratchDir, `scip-go-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(work, { recursive: true });
  const output = join(work, 'index.scip');
  const args = [
    '--module-root',
    run.moduleDir,
    '--repository-remote',
    'travsr.local/repository',
    '--module-version',
    'local',
    '--output',
    output,
    '--quiet',
    './...',
  ];
  const timeoutMs = run.timeoutMs ?? 20 * 60_000;
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        run.tools.scipGo,
        args,
        {
          cwd: run.moduleDir,
          env: scipGoEnv(run),
          timeout: timeoutMs,
          maxBuffer: 16 << 20,
          ...(run.signal ? { signal: run.signal } : {}),
        },
        (error, stdout, stderr) => {
          if (!error) return resolve();
          const tail = `${stderr}\n${stdout}`.trim().split('\n').slice(-6).join(' | ').slice(0, 800);
          const why =
            (error as { killed?: boolean }).killed && !run.signal?.aborted
              ? `did not finish within ${Math.round(timeoutMs / 1000)} s`
              : error.name === 'AbortError'
                ? 'was cancelled'
                : `exited with ${exitCodeOf(error)}`;
          reject(new ScipGoError(`scip-go ${why} on the module in ${run.moduleDir}${tail ? `: ${tail}` : ''}`));
        },
      );
    });
    if (!existsSync(output)) throw new ScipGoError(`scip-go exited 0 but wrote no index at ${output}`);
    try {
      const index = decodeScipIndex(readFileSync(output));
      // Document paths are relative to the project root; scip-go sets it, but take the module if not.
      if (!index.projectRoot) index.projectRoot = pathToFileURL(run.moduleDir).href;
      return index;
    } catch (e) {
      throw new ScipGoError(`scip-go wrote an index that cannot be read: ${(e as Error).message}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

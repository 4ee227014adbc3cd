import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { TravsrError } from '@travsr/sdk';
import { runExternalIndexer } from '@travsr/sdk/scip';

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
  /** Called now and then while scip-go runs, with the seconds since it started. */
  heartbeat?: (seconds: number) => void;
  heartbeatMs?: number;
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

/**
 * Runs scip-go on one Go module (indexed whole, `./...`: type information needs every package
 * anyway) and returns where its index is, with the module's directory as its project root for an
 * index that names none. The index stays in the scratch directory for the session: it is read a
 * document at a time ({@link ScipGraph.open}).
 * @throws ScipGoError with scip-go's last lines of output when it fails.
 *
 * @example
 * ```ts
 * const index = await runScipGo({ tools: { scipGo: '/usr/local/bin/scip-go', go: '/usr/bin/go' }, moduleDir: '/repo', scratchDir: '/tmp' });
 * ```
 */
export async function runScipGo(run: ScipGoRun): Promise<{ path: string; projectRoot: string }> {
  mkdirSync(run.scratchDir, { recursive: true });
  const work = mkdtempSync(join(run.scratchDir, 'scip-go-'));
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
  try {
    await runExternalIndexer({
      name: 'scip-go',
      command: run.tools.scipGo,
      args,
      cwd: run.moduleDir,
      env: scipGoEnv(run),
      output,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.timeoutMs !== undefined ? { timeoutMs: run.timeoutMs } : {}),
      ...(run.heartbeat ? { heartbeat: run.heartbeat, heartbeatMs: run.heartbeatMs } : {}),
    });
    return { path: output, projectRoot: run.moduleDir };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw new ScipGoError((e as Error).message);
  }
}

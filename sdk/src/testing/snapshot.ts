import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { MANIFEST_FILE, parseManifest, TravsrError, type AnalyzeFile, type GraphFileParams, type PluginManifest } from '@travsr/protocol';
import { renderAnnotatedSource } from './annotate.js';
import { unifiedDiff } from './diff.js';
import { languageForPath, listFixtureFiles } from './fixtures.js';
import { launchUnsandboxed, type Launcher } from './launch.js';
import { PluginSession } from './session.js';

/**
 * Options of {@link snapshotTest}.
 *
 * @example
 * ```ts
 * await snapshotTest({ pluginDir, inputDir: 'test/cases', outputDir: 'test/golden', update: false });
 * ```
 */
export interface SnapshotOptions {
  /** The plugin directory (holding travsr-plugin.json and the built entrypoint). */
  pluginDir: string;
  /** Sources to analyze; default `<pluginDir>/snapshots/input`. */
  inputDir?: string;
  /** Stored annotated outputs; default `<pluginDir>/snapshots/output`. */
  outputDir?: string;
  /** Rewrite the stored outputs instead of comparing. Default: `TRAVSR_UPDATE_SNAPSHOTS=1` in the environment. */
  update?: boolean;
  /** How to start the plugin; default {@link launchUnsandboxed}. */
  launch?: Launcher;
  /** Limit for start-up and for the analysis. Default 30 000 ms. */
  timeoutMs?: number;
  /** The command named in a mismatch message. Default: `TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run <pluginDir>`. */
  updateCommand?: string;
}

/**
 * What happened to each snapshot file.
 *
 * @example
 * ```ts
 * const { files } = await snapshotTest({ pluginDir, update: true });
 * files.filter((f) => f.status !== 'unchanged'); // what the update rewrote
 * ```
 */
export interface SnapshotResult {
  files: { path: string; status: 'unchanged' | 'created' | 'updated' | 'removed' }[];
}

/**
 * Thrown by {@link snapshotTest} when the plugin's output differs from the stored snapshots.
 * The message holds a unified diff per file and the command that accepts the new output.
 *
 * @example
 * ```ts
 * try { await snapshotTest({ pluginDir }); } catch (e) {
 *   if (errorCode(e) === 'SNAPSHOT_MISMATCH') console.error((e as SnapshotMismatchError).diff);
 * }
 * ```
 */
export class SnapshotMismatchError extends TravsrError {
  override readonly name = 'SnapshotMismatchError';
  readonly code = 'SNAPSHOT_MISMATCH';
  constructor(
    message: string,
    /** The diffs alone, without the advice. */
    readonly diff: string,
  ) {
    super(message);
  }
}

/**
 * Golden snapshot test in the style of `scip snapshot`: runs the plugin over every input
 * file, writes each source back with its definitions, references and diagnostics marked on
 * comment lines (see {@link renderAnnotatedSource}), and compares with the stored output of
 * the same relative path. A difference throws {@link SnapshotMismatchError} with a diff and
 * the update command; with `update` the outputs are rewritten (and stale ones removed).
 *
 * @example
 * ```ts
 * import { snapshotTest } from '@travsr/sdk/testing';
 * it('matches the golden snapshots', async () => {
 *   await snapshotTest({ pluginDir: new URL('..', import.meta.url).pathname });
 * });
 * // TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run plugins/example-lua   ← accept new output
 * ```
 */
export async function snapshotTest(options: SnapshotOptions): Promise<SnapshotResult> {
  const pluginDir = resolve(options.pluginDir);
  const inputDir = resolve(options.inputDir ?? join(pluginDir, 'snapshots', 'input'));
  const outputDir = resolve(options.outputDir ?? join(pluginDir, 'snapshots', 'output'));
  const update = options.update ?? process.env.TRAVSR_UPDATE_SNAPSHOTS === '1';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const manifest: PluginManifest = parseManifest(readFileSync(join(pluginDir, MANIFEST_FILE), 'utf8'), join(pluginDir, MANIFEST_FILE));
  if (!existsSync(inputDir)) throw new Error(`snapshot input directory ${inputDir} does not exist: add example sources there`);
  const inputs = listFixtureFiles(inputDir, manifest.extensions);
  if (inputs.length === 0) throw new Error(`no files with the manifest's extensions (${manifest.extensions.join(', ')}) in ${inputDir}`);
  const files: AnalyzeFile[] = inputs.map((path) => ({ path, language: languageForPath(path, manifest.languages) }));

  const graphs = await analyzeAll(
    { pluginDir, manifest, repoRoot: inputDir, launch: options.launch ?? launchUnsandboxed },
    files,
    timeoutMs,
  );

  const result: SnapshotResult = { files: [] };
  const diffs: string[] = [];
  for (const f of files) {
    const source = readFileSync(join(inputDir, f.path), 'utf8');
    const graph = graphs.get(f.path);
    const actual = graph ? renderAnnotatedSource(source, graph) : `${source}\n(no graph/file notification was received for this file)\n`;
    const target = join(outputDir, f.path);
    const stored = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    if (stored === actual) {
      result.files.push({ path: f.path, status: 'unchanged' });
      continue;
    }
    if (update) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, actual);
      result.files.push({ path: f.path, status: stored === undefined ? 'created' : 'updated' });
    } else {
      diffs.push(
        stored === undefined
          ? `+++ ${f.path}: no stored snapshot (${relative(process.cwd(), target)} is missing)\n`
          : unifiedDiff(stored, actual, `stored/${f.path}`, `actual/${f.path}`),
      );
    }
  }
  const wanted = new Set(inputs);
  const stale = existsSync(outputDir) ? listFixtureFiles(outputDir, manifest.extensions).filter((p) => !wanted.has(p)) : [];
  for (const p of stale) {
    if (update) {
      rmSync(join(outputDir, p));
      result.files.push({ path: p, status: 'removed' });
    } else {
      diffs.push(`--- ${p}: stored snapshot has no input file any more\n`);
    }
  }
  if (diffs.length > 0) {
    const command = options.updateCommand ?? `TRAVSR_UPDATE_SNAPSHOTS=1 npx vitest run ${relative(process.cwd(), pluginDir) || '.'}`;
    const diff = diffs.join('\n');
    throw new SnapshotMismatchError(
      `${diffs.length} snapshot(s) in ${relative(process.cwd(), outputDir) || outputDir} differ from the plugin's output:\n\n${diff}\nIf the new output is right, accept it with:\n  ${command}`,
      diff,
    );
  }
  return result;
}

async function analyzeAll(
  target: { pluginDir: string; manifest: PluginManifest; repoRoot: string; launch: Launcher },
  files: AnalyzeFile[],
  timeoutMs: number,
): Promise<Map<string, GraphFileParams>> {
  const s = await PluginSession.start(target);
  try {
    await s.handshake(timeoutMs, 'snapshot');
    const phase = target.manifest.phases?.includes('A') === false ? 'B' : 'A';
    const pending = s.request('analyze', { phase, files }, timeoutMs);
    const requestId = s.lastRequestId;
    await pending;
    const graphs = new Map<string, GraphFileParams>();
    for (const g of s.graphFiles) if (g.requestId === requestId) graphs.set(g.path, g);
    await s.request('shutdown', {}, timeoutMs).catch(() => undefined);
    return graphs;
  } catch (e) {
    await s.settleStderr();
    const stderr = s.stderr.trim();
    throw new Error(
      `the plugin could not analyze the snapshot inputs: ${e instanceof Error && e.name === 'StepFailure' ? e.message : s.describe(e)}${stderr ? `\nplugin stderr:\n${stderr}` : ''}`,
    );
  } finally {
    await s.stop();
  }
}

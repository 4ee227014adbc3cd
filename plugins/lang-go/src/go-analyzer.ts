import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalyzeFile, Node } from '@travsr/sdk';
import {
  FileGraphBuilder,
  type FileAnalysis,
  type FileContext,
  type FileResult,
  type ProgramContext,
  type SessionCapabilities,
  type SessionInfo,
  type SourceFile,
} from '@travsr/sdk';
import type { GoSyntax } from './go-syntax.js';
import { moduleDirsOf } from './go-modules.js';
import { runScipGo, ScipGoError, type GoTools } from './scip-go-runner.js';
import { ScipGraph } from '@travsr/sdk/scip';

/** How often a running scip-go is reported (well under the host's 2-minute analyze idle timeout). */
const HEARTBEAT_MS = 20_000;

/** How to install what Phase B needs, shown when it is missing. */
export const SCIP_GO_HINT =
  'install it with `go install github.com/sourcegraph/scip-go/cmd/scip-go@latest` (the host looks for it on its PATH)';

/** The tools the host resolved (`initialize.options.tools`), or the reason Phase B cannot run. */
export function goToolsFrom(options: Record<string, unknown>): GoTools | { missing: string } {
  const tools = options['tools'];
  const map = tools !== null && typeof tools === 'object' ? (tools as Record<string, unknown>) : {};
  const scipGo = typeof map['scip-go'] === 'string' ? map['scip-go'] : undefined;
  const go = typeof map['go'] === 'string' ? map['go'] : undefined;
  if (!scipGo) return { missing: `scip-go is not on PATH: Go is analyzed at Phase A only (names matched, not resolved); ${SCIP_GO_HINT}` };
  if (!go)
    return {
      missing: 'go is not on PATH, and scip-go needs it to load packages: Go is analyzed at Phase A only; install Go (https://go.dev/dl/)',
    };
  return { scipGo, go };
}

/**
 * Go: Phase A from tree-sitter (definitions, imports, calls, embedding), and Phase B from
 * scip-go when the host found it — each module indexed once per session, its occurrences
 * turning the Phase A refs into resolved edges ({@link ScipGraph.merge}).
 */
export class GoAnalyzer {
  private tools: GoTools | undefined;
  private semantic: Promise<ScipGraph> | undefined;
  private readonly definitionCache = new Map<string, Promise<readonly Node[] | undefined>>();

  constructor(
    readonly syntax: GoSyntax,
    private readonly scratchDir: string = process.env['TMPDIR'] ?? tmpdir(),
    private readonly heartbeatMs: number = HEARTBEAT_MS,
  ) {}

  /** Loads the grammar; says Phase B is unavailable when scip-go or go was not found. */
  async initialize(session: Pick<SessionInfo, 'options'>): Promise<SessionCapabilities> {
    await this.syntax.initialize();
    const tools = goToolsFrom(session.options);
    if ('missing' in tools) return { unavailable: [{ phase: 'B', reason: tools.missing }] };
    this.tools = tools;
    return {};
  }

  /** Phase A: one file's structural graph. */
  analyzeFile(file: SourceFile, ctx: Pick<FileContext, 'graph'>): FileAnalysis {
    this.syntax.addTo(ctx.graph, file.text);
    return ctx.graph.build();
  }

  /** Phase B: every requested file's graph with scip-go's resolutions merged in. */
  async *analyze(files: readonly AnalyzeFile[], ctx: ProgramContext): AsyncIterable<FileResult> {
    if (!this.tools) {
      const t = goToolsFrom(ctx.options);
      throw new ScipGoError(`Phase B was asked for, but ${'missing' in t ? t.missing : 'the session was not initialized'}`);
    }
    const graph = await this.semanticGraph(ctx);
    for (const file of files) {
      if (ctx.signal.aborted) return;
      let source: SourceFile;
      try {
        source = await ctx.readFile(file);
      } catch (e) {
        yield {
          path: file.path,
          status: 'failed',
          nodes: [],
          edges: [],
          diagnostics: [{ severity: 'error', code: 'FILE_UNREADABLE', message: (e as Error).message }],
        };
        continue;
      }
      const builder = ctx.graphFor(file);
      let result: FileResult;
      try {
        const syntax = this.syntax.addTo(builder, source.text);
        // The file's own definitions, for edges from other files to it: parsed just now.
        if (!this.definitionCache.has(file.path))
          this.definitionCache.set(file.path, Promise.resolve([builder.fileNode, ...syntax.definitions]));
        const { analysis } = await graph.merge(builder, syntax, (path) => this.definitionsOf(path, ctx));
        if (!graph.has(file.path)) {
          analysis.diagnostics = [
            ...(analysis.diagnostics ?? []),
            {
              severity: 'info',
              code: 'NOT_IN_SCIP_INDEX',
              message:
                'scip-go did not index this file (a build constraint excludes it, or no go.mod holds it): its calls are matched by name',
            },
          ];
        }
        result = { path: file.path, ...analysis };
      } catch (e) {
        result = {
          path: file.path,
          status: 'failed',
          nodes: [],
          edges: [],
          diagnostics: [{ severity: 'error', code: 'ANALYSIS_FAILED', message: (e as Error).message }],
        };
      }
      yield result;
    }
  }

  /** Runs scip-go on every module of the repository (once per session) and reads the indexes. */
  private semanticGraph(ctx: ProgramContext): Promise<ScipGraph> {
    this.semantic ??= (async () => {
      const tools = this.tools!;
      // Every module the repository has: the requested files are only this batch.
      const modules = moduleDirsOf(await goFilesUnder(ctx.root), (dir) => existsSync(join(ctx.root, dir, 'go.mod')));
      const indexes: { path: string; projectRoot: string }[] = [];
      const failures: string[] = [];
      for (const dir of [...modules.keys()].sort()) {
        const started = performance.now();
        try {
          indexes.push(
            await runScipGo({
              tools,
              moduleDir: join(ctx.root, dir),
              scratchDir: this.scratchDir,
              signal: ctx.signal,
              // A large module takes minutes: a log line now and then tells the host the plugin is alive
              // (it stops a plugin silent for longer than its analyze idle timeout) and the user why it waits.
              heartbeat: (s) => ctx.log('info', `scip-go is still indexing ${dir || '.'} (${s} s)`),
              heartbeatMs: this.heartbeatMs,
            }),
          );
          ctx.log('info', `scip-go indexed ${dir || '.'} in ${Math.round(performance.now() - started)} ms`);
        } catch (e) {
          failures.push((e as Error).message);
          ctx.log('warn', (e as Error).message);
        }
      }
      if (indexes.length === 0 && failures.length > 0) throw new ScipGoError(failures.join('; '));
      // Read a document at a time: a large module's index is never held whole.
      const graph = await ScipGraph.open(indexes, ctx.root, {
        callOfType: 'types',
        // A module whose index cannot be read keeps its Phase A refs; the others are merged.
        onUnreadable: (path, e) => {
          failures.push(`scip-go wrote an index that cannot be read (${path}): ${e.message}`);
          ctx.log('warn', failures.at(-1)!);
        },
      });
      if (graph.documentCount === 0 && failures.length > 0) throw new ScipGoError(failures.join('; '));
      ctx.log('info', `scip-go's indexes hold ${graph.documentCount} files`);
      return graph;
    })();
    this.semantic.catch(() => {
      this.semantic = undefined;
    });
    return this.semantic;
  }

  /** A file's Phase A definitions (with its file node), parsed once per session. */
  private definitionsOf(path: string, ctx: ProgramContext): Promise<readonly Node[] | undefined> {
    let entry = this.definitionCache.get(path);
    if (!entry) {
      entry = (async () => {
        try {
          const source = await ctx.readFile({ path, language: 'go' });
          const builder = new FileGraphBuilder({ corpus: ctx.corpus, path, language: 'go' });
          const { definitions } = this.syntax.addTo(builder, source.text);
          return [builder.fileNode, ...definitions];
        } catch {
          return undefined;
        }
      })();
      this.definitionCache.set(path, entry);
    }
    return entry;
  }
}

/** Repository paths of the `.go` files under `root` (skipping vendor/, testdata/ and dot directories), for module discovery. */
async function goFilesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name.startsWith('.') || e.name === 'vendor' || e.name === 'testdata' || e.name === 'node_modules') continue;
        await walk(rel);
      } else if (e.isFile() && e.name.endsWith('.go')) out.push(rel);
    }
  };
  await walk('');
  return out;
}

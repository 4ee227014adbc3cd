import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalyzeFile, LogLevel } from '@travsr/sdk';
import { FileGraphBuilder, type FileResult } from '@travsr/sdk';
import type ts from 'typescript';
import { failedResult } from '../failed-result.js';
import { isSourcePath } from '../languages.js';
import { parseSource } from '../syntax.js';
import { EdgeResolver, type ResolutionCounts } from './edges.js';
import { ProgramCache, type BuiltProgram } from './programs.js';
import { inferredOptions, ProjectMap, type Project } from './projects.js';

export type Log = (level: LogLevel, message: string) => void;

function realRoot(root: string): string {
  try {
    return realpathSync(root).replace(/\\/g, '/');
  } catch {
    return root.replace(/\\/g, '/');
  }
}

/**
 * Phase B state of one plugin session: the repository's projects, their programs (built
 * once, reused while their files are unchanged), and the inferred project of files no
 * tsconfig names. One instance per thread that runs Phase B.
 */
export class PhaseBSession {
  readonly root: string;
  private projects: ProjectMap;
  private readonly programs: ProgramCache;
  private readonly inferredRoots = new Set<string>();
  private inferred: Project | undefined;
  private readonly resolvers = new WeakMap<BuiltProgram, EdgeResolver>();
  private projectsChanged = false;

  constructor(
    root: string,
    private readonly corpus: string,
    libDir: string,
    private readonly log: Log,
  ) {
    this.root = realRoot(root);
    this.projects = new ProjectMap(this.root);
    this.programs = new ProgramCache(libDir, this.root);
  }

  /** The absolute file name Phase B's program gives a repository path. */
  fileName(path: string): string {
    return join(this.root, path);
  }

  /**
   * The tree of a repository file with this text, for Phase A: a program's, when one parsed
   * exactly this text, else parsed now and offered to the next program build.
   */
  sourceFile(path: string, text: string): ts.SourceFile {
    const fileName = this.fileName(path);
    const existing = this.programs.parsed(fileName, text);
    if (existing) return existing;
    const sf = parseSource(fileName, text);
    this.programs.adopt(sf);
    return sf;
  }

  /**
   * Paths changed since the previous request (a session kept across index runs): a file
   * created or deleted may change what a project's `include` names, so the projects are read
   * again at the next request. Edited files need nothing: the programs see them by their stamps.
   */
  noteChanged(paths: readonly string[]): void {
    for (const p of paths) {
      if (!isSourcePath(p)) continue;
      const abs = join(this.root, p);
      const known = this.projects.ownerOf(abs) !== undefined || this.inferredRoots.has(abs);
      if (!known || !existsSync(abs)) this.projectsChanged = true;
    }
  }

  /** Re-reads the projects when a tsconfig changed, appeared or disappeared, or a source file was created or deleted. */
  refreshProjects(): boolean {
    const forced = this.projectsChanged;
    this.projectsChanged = false;
    if (!forced && !this.projects.isStale()) return false;
    this.projects = new ProjectMap(this.root);
    this.inferred = undefined;
    this.inferredRoots.clear();
    this.programs.clear();
    return true;
  }

  /** The tsconfig/jsconfig project that names a file, if any (changes nothing). */
  configProjectOf(f: AnalyzeFile): Project | undefined {
    return isSourcePath(f.path) ? this.projects.ownerOf(join(this.root, f.path)) : undefined;
  }

  /** Which project analyzes which file; files no config names join the inferred project. */
  plan(files: readonly AnalyzeFile[]): { groups: Map<Project, AnalyzeFile[]>; unsupported: AnalyzeFile[] } {
    const groups = new Map<Project, AnalyzeFile[]>();
    const unsupported: AnalyzeFile[] = [];
    const unowned: AnalyzeFile[] = [];
    for (const f of files) {
      if (!isSourcePath(f.path)) unsupported.push(f);
      else {
        const owner = this.projects.ownerOf(join(this.root, f.path));
        if (owner) groups.set(owner, [...(groups.get(owner) ?? []), f]);
        else unowned.push(f);
      }
    }
    if (unowned.length > 0) {
      let grew = false;
      for (const f of unowned) {
        const abs = join(this.root, f.path);
        if (!this.inferredRoots.has(abs)) {
          this.inferredRoots.add(abs);
          grew = true;
        }
      }
      if (grew || !this.inferred) {
        this.inferred = {
          id: 'inferred',
          configPath: undefined,
          options: inferredOptions(),
          rootNames: [...this.inferredRoots].sort(),
          projectReferences: undefined,
          configStamp: undefined,
          errors: [],
        };
      }
      groups.set(this.inferred, unowned);
    }
    return { groups, unsupported };
  }

  /** The program of a project, current with the files on disk (built, or reused when nothing changed). */
  program(project: Project): BuiltProgram {
    for (const e of project.errors) this.log('warn', `${project.configPath ?? 'inferred project'}: ${e}`);
    const t0 = performance.now();
    const { built, reused } = this.programs.get(project);
    if (!reused) {
      const ms = Math.round(performance.now() - t0);
      this.log(
        'info',
        `program of ${project.configPath ?? 'the inferred project'}: ${built.program.getSourceFiles().length} files in ${ms} ms (${built.takenOver} parsed by Phase A${built.dom ? '; the DOM libraries, which its code refers to' : ''})`,
      );
    }
    return built;
  }

  /** Phase B of one file in a program. */
  analyzeOne(built: BuiltProgram, f: AnalyzeFile): { result: FileResult; counts?: ResolutionCounts } {
    const sf = built.program.getSourceFile(join(this.root, f.path));
    if (!sf) {
      return {
        result: failedResult(
          f,
          'NOT_IN_PROGRAM',
          `${f.path} could not be read into the program of ${built.project.configPath ?? 'the inferred project'}`,
        ),
      };
    }
    let resolver = this.resolvers.get(built);
    if (!resolver) {
      resolver = new EdgeResolver(built.program, this.root, this.corpus);
      this.resolvers.set(built, resolver);
    }
    const graph = new FileGraphBuilder({ corpus: this.corpus, path: f.path, language: f.language });
    try {
      const r = resolver.analyze(sf, graph);
      for (const d of r.diagnostics) graph.diagnostic(d);
      return { result: { path: f.path, ...graph.build() }, counts: r.counts };
    } catch (e) {
      return { result: failedResult(f, 'CHECKER_ERROR', `the type checker failed on this file: ${(e as Error).message}`) };
    }
  }

  /** Logs what a request resolved, per project. */
  logCounts(project: Project, files: number, total: ResolutionCounts): void {
    this.log(
      'info',
      `phase B ${project.configPath ?? 'inferred project'}: ${files} files, ${total.calls} call sites, ${total.resolved} resolved in the repository, ${total.external} outside it, ${total.unresolved} not to a definition`,
    );
  }

  /** Analyzes files one at a time in the programs of their projects; `stop()` is asked between files. */
  *analyze(files: readonly AnalyzeFile[], stop: () => boolean = () => false): Generator<FileResult> {
    this.refreshProjects();
    const { groups, unsupported } = this.plan(files);
    for (const f of unsupported) yield failedResult(f, 'UNSUPPORTED_FILE', `${f.path} is not a TypeScript or JavaScript file`);
    for (const [project, group] of groups) {
      if (stop()) return;
      const built = this.program(project);
      const total = emptyCounts();
      for (const f of group) {
        if (stop()) return;
        const { result, counts } = this.analyzeOne(built, f);
        if (counts) addCounts(total, counts);
        yield result;
      }
      this.logCounts(project, group.length, total);
    }
  }
}

export function emptyCounts(): ResolutionCounts {
  return { calls: 0, resolved: 0, external: 0, unresolved: 0 };
}

export function addCounts(total: ResolutionCounts, c: ResolutionCounts): void {
  for (const k of ['calls', 'resolved', 'external', 'unresolved'] as const) total[k] += c[k];
}

import { statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { Project } from './projects.js';
import { PARSE_MODE } from '../syntax.js';

/** A built program and what it was built from. */
export interface BuiltProgram {
  project: Project;
  program: ts.Program;
  checker: ts.TypeChecker;
  /** mtimeMs:size of every repository file in the program when it was built. */
  stamps: Map<string, string>;
  lastUsed: number;
}

interface CachedSource {
  sf: ts.SourceFile;
  stamp: string;
}

/** How many programs stay in memory at once (a monorepo has one per project). */
const MAX_PROGRAMS = 3;

function stat(path: string): string | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? `${s.mtimeMs}:${s.size}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Builds and keeps the programs of one session. A program is reused for the next request
 * as long as none of its files changed on disk; otherwise it is rebuilt with the old one
 * (`oldProgram`) and a parse cache shared by every program, so only changed files are parsed
 * again. At most {@link MAX_PROGRAMS} programs are kept; parsed files no live program uses
 * are dropped, so memory follows the projects in use, not the session's history.
 */
export class ProgramCache {
  private readonly programs = new Map<string, BuiltProgram>();
  private readonly sources = new Map<string, CachedSource>();
  private clock = 0;

  constructor(
    /** Directory holding TypeScript's lib.*.d.ts (copied next to the bundle). */
    private readonly libDir: string,
    /** Only files under this directory are stamped for change detection (libs never change). */
    private readonly root: string,
  ) {}

  /** The program of `project`, current with the files on disk; `reused` when nothing had to be rebuilt. */
  get(project: Project): { built: BuiltProgram; reused: boolean } {
    const old = this.programs.get(project.id);
    if (old && old.project === project && this.isCurrent(old)) {
      old.lastUsed = ++this.clock;
      return { built: old, reused: true };
    }
    const built = this.build(project, old?.program);
    this.programs.set(project.id, built);
    this.evict();
    return { built, reused: false };
  }

  /** Forgets every program (after the set of projects changed). */
  clear(): void {
    this.programs.clear();
    this.sources.clear();
  }

  private isCurrent(b: BuiltProgram): boolean {
    for (const [path, stamp] of b.stamps) if (stat(path) !== stamp) return false;
    return true;
  }

  private build(project: Project, oldProgram: ts.Program | undefined): BuiltProgram {
    const options = project.options;
    const host = ts.createCompilerHost(options, false) as ts.CompilerHost & { useSourceOfProjectReferenceRedirect?: () => boolean };
    const moduleDetection = String(options.moduleDetection ?? '');
    host.getDefaultLibLocation = () => this.libDir;
    host.getDefaultLibFileName = (o) => join(this.libDir, ts.getDefaultLibFileName(o));
    // Imports of a referenced project land on its sources, not on declaration files that were never built.
    host.useSourceOfProjectReferenceRedirect = () => true;
    host.jsDocParsingMode = PARSE_MODE;
    host.getSourceFile = (fileName, languageVersionOrOptions, onError) => {
      const o = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
      const key = `${fileName}\0${o.languageVersion}\0${String(o.impliedNodeFormat)}\0${String(o.jsDocParsingMode)}\0${moduleDetection}`;
      const stamp = stat(fileName);
      if (stamp === undefined) return undefined;
      const hit = this.sources.get(key);
      if (hit && hit.stamp === stamp) return hit.sf;
      const text = ts.sys.readFile(fileName);
      if (text === undefined) {
        onError?.(`cannot read ${fileName}`);
        return undefined;
      }
      const sf = ts.createSourceFile(fileName, text, languageVersionOrOptions, false);
      this.sources.set(key, { sf, stamp });
      return sf;
    };
    const program = ts.createProgram({
      rootNames: project.rootNames,
      options,
      host,
      ...(project.projectReferences ? { projectReferences: project.projectReferences } : {}),
      ...(oldProgram ? { oldProgram } : {}),
    });
    const checker = program.getTypeChecker();
    const stamps = new Map<string, string>();
    const prefix = this.root.endsWith('/') ? this.root : `${this.root}/`;
    for (const sf of program.getSourceFiles()) {
      if (!sf.fileName.startsWith(prefix)) continue;
      const s = stat(sf.fileName);
      if (s !== undefined) stamps.set(sf.fileName, s);
    }
    if (project.configPath) {
      const s = stat(project.configPath);
      if (s !== undefined) stamps.set(project.configPath, s);
    }
    return { project, program, checker, stamps, lastUsed: ++this.clock };
  }

  private evict(): void {
    if (this.programs.size > MAX_PROGRAMS) {
      const byAge = [...this.programs.values()].sort((a, b) => a.lastUsed - b.lastUsed);
      for (const b of byAge.slice(0, this.programs.size - MAX_PROGRAMS)) this.programs.delete(b.project.id);
    }
    const live = new Set<ts.SourceFile>();
    for (const b of this.programs.values()) for (const sf of b.program.getSourceFiles()) live.add(sf);
    for (const [key, c] of this.sources) if (!live.has(c.sf)) this.sources.delete(key);
  }
}

import { statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { Project } from './projects.js';
import { PARSE_MODE } from '../syntax.js';
import { defaultLibWithoutDom, mayNeedDom, refersToDom } from './dom-libs.js';

/** A built program and what it was built from. */
export interface BuiltProgram {
  project: Project;
  program: ts.Program;
  checker: ts.TypeChecker;
  /** mtimeMs:size of every repository file in the program when it was built. */
  stamps: Map<string, string>;
  /** Files whose Phase A tree the build took over instead of parsing them again. */
  takenOver: number;
  lastUsed: number;
  /** A project without `lib` only: built with the DOM libraries, which its code refers to (see {@link ProgramCache.get}). */
  dom?: boolean;
}

interface CachedSource {
  sf: ts.SourceFile;
  stamp: string;
}

/** How many programs stay in memory at once (a monorepo has one per project). */
const MAX_PROGRAMS = 3;
/** Source text of Phase A trees held for the next program (about 20× that in memory). */
const MAX_ADOPTED_CHARS = 48 * 1024 * 1024;

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
 *
 * Phase A and the programs share trees both ways: a build takes over the trees Phase A
 * parsed ({@link adopt}), and Phase A uses a program's tree of a file it has not parsed yet
 * ({@link parsed}); each file is parsed once per text.
 */
export class ProgramCache {
  private readonly programs = new Map<string, BuiltProgram>();
  private readonly sources = new Map<string, CachedSource>();
  /** The newest tree any program parsed of each file name. */
  private readonly newest = new Map<string, ts.SourceFile>();
  /** Files Phase A parsed, offered to the next program build (by absolute file name). */
  private readonly adopted = new Map<string, ts.SourceFile>();
  private adoptedChars = 0;
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
    const withoutDom = defaultLibWithoutDom(project.options, this.libDir);
    const built = withoutDom ? this.buildWithDomIfUsed(project, old, withoutDom) : this.build(project, old);
    this.programs.set(project.id, built);
    this.evict();
    return { built, reused: false };
  }

  /**
   * Offers a tree Phase A parsed (same parser, same options) to the next program that needs
   * the file, so that the build does not parse it again. TypeScript files only (in JavaScript
   * the JSDoc carries types and the program may parse it otherwise); at most
   * {@link MAX_ADOPTED_CHARS} of source are held.
   */
  adopt(sf: ts.SourceFile): void {
    if (!/\.(?:ts|tsx|mts|cts)$/i.test(sf.fileName)) return;
    const prev = this.adopted.get(sf.fileName);
    if (prev) this.adoptedChars -= prev.text.length;
    if (this.adoptedChars + sf.text.length > MAX_ADOPTED_CHARS) {
      this.adopted.delete(sf.fileName);
      return;
    }
    this.adopted.set(sf.fileName, sf);
    this.adoptedChars += sf.text.length;
  }

  /** A tree of the file with exactly this text that a program already parsed (or took over), if any. */
  parsed(fileName: string, text: string): ts.SourceFile | undefined {
    const sf = this.newest.get(fileName);
    return sf !== undefined && sf.text === text ? sf : undefined;
  }

  /** Forgets every program (after the set of projects changed) and the Phase A trees held. */
  clear(): void {
    this.programs.clear();
    this.sources.clear();
    this.newest.clear();
    this.adopted.clear();
    this.adoptedChars = 0;
  }

  /** Phase A's tree of a file if its text is what is on disk now, made to look as the program would have parsed it. */
  private takeAdopted(fileName: string, text: string, o: ts.CreateSourceFileOptions): ts.SourceFile | undefined {
    const a = this.adopted.get(fileName);
    if (!a) return undefined;
    this.adopted.delete(fileName);
    this.adoptedChars -= a.text.length;
    if (a.text !== text || (o.jsDocParsingMode !== undefined && o.jsDocParsingMode !== PARSE_MODE)) return undefined;
    // What createSourceFile derives from the options rather than from the text.
    const sf = a as ts.SourceFile & { languageVersion: ts.ScriptTarget; impliedNodeFormat?: ts.ResolutionMode };
    sf.languageVersion = o.languageVersion;
    if (o.impliedNodeFormat !== undefined) sf.impliedNodeFormat = o.impliedNodeFormat;
    o.setExternalModuleIndicator?.(sf);
    return sf;
  }

  private isCurrent(b: BuiltProgram): boolean {
    for (const [path, stamp] of b.stamps) if (stat(path) !== stamp) return false;
    return true;
  }

  /**
   * A project with its target's default library (no `lib`: the inferred project of files no
   * tsconfig owns, and every tsconfig that sets none) with the browser's declarations only when
   * its code refers to them. That library holds the DOM, most of what a small project's program
   * parses (about 0.7 s of every session in a fresh plugin process); code that names none of the
   * DOM's globals or types resolves every call the same without it. The outcome depends on the
   * files alone, not on which program was built first: with the DOM when a reference resolves to
   * its declarations only, without it otherwise. A `lib` the project sets is kept as written.
   */
  private buildWithDomIfUsed(project: Project, old: BuiltProgram | undefined, lib: string[]): BuiltProgram {
    const withoutDom = { ...project.options, lib };
    if (old?.dom) {
      const dom = { ...this.build(project, old), dom: true };
      return refersToDom(dom.program, dom.checker, this.libDir) ? dom : this.build(project, undefined, withoutDom);
    }
    const plain = this.build(project, old, withoutDom);
    if (!mayNeedDom(plain.program, plain.checker, this.libDir)) return plain;
    const dom = { ...this.build(project, undefined), dom: true };
    return refersToDom(dom.program, dom.checker, this.libDir) ? dom : plain;
  }

  private build(project: Project, old: BuiltProgram | undefined, options: ts.CompilerOptions = project.options): BuiltProgram {
    const oldProgram = old?.program;
    const host = ts.createCompilerHost(options, false) as ts.CompilerHost & { useSourceOfProjectReferenceRedirect?: () => boolean };
    const moduleDetection = String(options.moduleDetection ?? '');
    host.getDefaultLibLocation = () => this.libDir;
    host.getDefaultLibFileName = (o) => join(this.libDir, ts.getDefaultLibFileName(o));
    // Imports of a referenced project land on its sources, not on declaration files that were never built.
    host.useSourceOfProjectReferenceRedirect = () => true;
    host.jsDocParsingMode = PARSE_MODE;
    // The stamp of each file as it was before its text was read: a file written while the
    // program builds (seconds on a large project) then no longer matches, and the next request
    // rebuilds. Stamped after the build, it would match the new text the program never read.
    const readStamps = new Map<string, string>();
    host.getSourceFile = (fileName, languageVersionOrOptions, onError) => {
      const o = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
      const key = `${fileName}\0${o.languageVersion}\0${String(o.impliedNodeFormat)}\0${String(o.jsDocParsingMode)}\0${moduleDetection}`;
      const stamp = stat(fileName);
      if (stamp === undefined) return undefined;
      const hit = this.sources.get(key);
      if (hit && hit.stamp === stamp) {
        readStamps.set(fileName, hit.stamp);
        return hit.sf;
      }
      const text = ts.sys.readFile(fileName);
      if (text === undefined) {
        onError?.(`cannot read ${fileName}`);
        return undefined;
      }
      const adopted = this.takeAdopted(fileName, text, o);
      if (adopted) takenOver++;
      const sf = adopted ?? ts.createSourceFile(fileName, text, languageVersionOrOptions, false);
      this.sources.set(key, { sf, stamp });
      this.newest.set(fileName, sf);
      readStamps.set(fileName, stamp);
      return sf;
    };
    let takenOver = 0;
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
      // A file TypeScript reused from the old program without asking the host keeps the old stamp.
      const s = readStamps.get(sf.fileName) ?? old?.stamps.get(sf.fileName) ?? stat(sf.fileName);
      if (s !== undefined) stamps.set(sf.fileName, s);
    }
    if (project.configPath) {
      const s = project.configStamp ?? stat(project.configPath); // as it was when the options were read
      if (s !== undefined) stamps.set(project.configPath, s);
    }
    return { project, program, checker, stamps, takenOver, lastUsed: ++this.clock };
  }

  private evict(): void {
    if (this.programs.size > MAX_PROGRAMS) {
      const byAge = [...this.programs.values()].sort((a, b) => a.lastUsed - b.lastUsed);
      for (const b of byAge.slice(0, this.programs.size - MAX_PROGRAMS)) this.programs.delete(b.project.id);
    }
    const live = new Set<ts.SourceFile>();
    for (const b of this.programs.values()) for (const sf of b.program.getSourceFiles()) live.add(sf);
    for (const [key, c] of this.sources) if (!live.has(c.sf)) this.sources.delete(key);
    for (const [fileName, sf] of this.newest) if (!live.has(sf)) this.newest.delete(fileName);
  }
}

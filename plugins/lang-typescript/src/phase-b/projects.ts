import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

/** A TypeScript project: a tsconfig/jsconfig, or the inferred project of files no config owns. */
export interface Project {
  /** Config file path, or `inferred`. */
  id: string;
  configPath: string | undefined;
  options: ts.CompilerOptions;
  rootNames: string[];
  projectReferences: readonly ts.ProjectReference[] | undefined;
  /** mtimeMs:size of the config file when it was read (undefined for the inferred project). */
  configStamp: string | undefined;
  /** Problems reading the config, for the log. */
  errors: string[];
}

const CONFIG_NAMES = new Set(['tsconfig.json', 'jsconfig.json']);
const MAX_DEPTH = 16;
const MAX_DIRS = 50_000;

/**
 * Options of the inferred project: what an editor assumes for files outside any tsconfig.
 * JavaScript is in the program (`allowJs`) but not type-checked (`checkJs` off); module
 * resolution follows package `exports` like a bundler does.
 */
export function inferredOptions(): ts.CompilerOptions {
  return {
    allowJs: true,
    checkJs: false,
    jsx: ts.JsxEmit.Preserve,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    resolveJsonModule: false,
    esModuleInterop: true,
    allowSyntheticDefaultImports: true,
    skipLibCheck: true,
    noEmit: true,
    maxNodeModuleJsDepth: 0,
  };
}

export function stampOf(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return undefined;
  }
}

/** Every tsconfig.json / jsconfig.json below `root`, skipping hidden directories and node_modules. */
export function findConfigFiles(root: string): string[] {
  const out: string[] = [];
  let dirs = 0;
  const walk = (dir: string, depth: number): void => {
    if (depth > MAX_DEPTH || ++dirs > MAX_DIRS) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (e.name.startsWith('.') || e.name === 'node_modules') continue;
        walk(join(dir, e.name), depth + 1);
      } else if (e.isFile() && CONFIG_NAMES.has(e.name)) {
        out.push(join(dir, e.name).replace(/\\/g, '/'));
      }
    }
  };
  walk(root, 0);
  return out.sort();
}

/** Reads a config (following `extends`); the options get `noEmit`. */
export function readProject(configPath: string): Project {
  const errors: string[] = [];
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => errors.push(ts.flattenDiagnosticMessageText(d.messageText, ' ')),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, host);
  const isJsConfig = configPath.endsWith('jsconfig.json');
  if (!parsed) {
    return {
      id: configPath,
      configPath,
      options: inferredOptions(),
      rootNames: [],
      projectReferences: undefined,
      configStamp: stampOf(configPath),
      errors,
    };
  }
  for (const d of parsed.errors) {
    // "No inputs were found" is normal for a solution-style config (files: [] + references).
    if (d.code !== 18003) errors.push(ts.flattenDiagnosticMessageText(d.messageText, ' '));
  }
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true };
  if (isJsConfig && options.allowJs === undefined) options.allowJs = true;
  return {
    id: configPath,
    configPath,
    options,
    rootNames: parsed.fileNames,
    projectReferences: parsed.projectReferences,
    configStamp: stampOf(configPath),
    errors,
  };
}

/**
 * The projects of a repository and which project owns which file: the deepest config whose
 * file list names it (a package's own tsconfig beats the root one). Files no config names
 * belong to the inferred project.
 */
export class ProjectMap {
  readonly projects: Project[];
  private readonly owner = new Map<string, Project>();

  constructor(readonly root: string) {
    this.projects = findConfigFiles(root).map(readProject);
    const depthOf = (p: Project) => (p.configPath ? dirname(p.configPath).split('/').length : 0);
    for (const p of this.projects) {
      for (const f of p.rootNames) {
        const prev = this.owner.get(f);
        if (!prev || depthOf(p) > depthOf(prev)) this.owner.set(f, p);
      }
    }
  }

  /** The project whose config names this absolute path, if any. */
  ownerOf(absolutePath: string): Project | undefined {
    return this.owner.get(absolutePath);
  }

  /** True when a config changed, appeared or disappeared since the map was made. */
  isStale(): boolean {
    const now = findConfigFiles(this.root);
    if (now.length !== this.projects.length) return true;
    return this.projects.some((p, i) => p.configPath !== now[i] || (p.configPath !== undefined && stampOf(p.configPath) !== p.configStamp));
  }
}

import { lstat, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import ignore from 'ignore';

type Ignore = ignore.Ignore;

/** The ignore files the walker reads in every directory, in rising precedence. */
export const IGNORE_FILE_NAMES = ['.gitignore', '.travsrignore'] as const;

/**
 * Gitignore-style rules from every source, for one directory of the walk. Precedence, from
 * weakest to strongest (a stronger source's matching rule overrides a weaker one's):
 * `.git/info/exclude` < `.gitignore` files < `.travsrignore` files < the `exclude` option.
 * Within one kind of file, a deeper directory's rules override a shallower one's, and in one
 * file the last matching rule wins — git's own order. So `.travsrignore` can re-include
 * (`!dist/api.d.ts`) what `.gitignore` leaves out, like ripgrep's `.ignore`.
 *
 * Rules in a nested file are relative to the directory that holds it: before they join the
 * combined list they are rewritten onto the repository root (`*.log` in `src/` becomes
 * `src/**\/*.log`, `/out` becomes `src/out`). One combined list keeps git's rule that a file
 * under an excluded directory cannot be re-included, with every source taken into account.
 */
export class IgnoreRules {
  /** Built on first use and shared by every directory below that adds no ignore file of its own. */
  private shared: IgnoreMatcher | undefined;

  private constructor(
    private readonly infoExclude: readonly Ignore[],
    private readonly gitignore: readonly Ignore[],
    private readonly travsrignore: readonly Ignore[],
    private readonly config: readonly Ignore[],
  ) {}

  /** The rules that hold at the root: `.git/info/exclude` text and the `exclude` option. */
  static create(sources: { infoExclude?: string; exclude?: readonly string[] } = {}): IgnoreRules {
    const info = sources.infoExclude === undefined ? [] : [compileIgnoreText(sources.infoExclude, '', '.git/info/exclude')];
    const config =
      sources.exclude && sources.exclude.length > 0
        ? [compilePatterns(sources.exclude.map((pattern, i) => ({ pattern, mark: describeRule(`exclude option [${i}]`, pattern) })))]
        : [];
    return new IgnoreRules(info, [], [], config);
  }

  /**
   * These rules plus a directory's `.gitignore` / `.travsrignore` texts (`base`: repo-relative, '' for the root).
   * A directory without either gets these very rules back, and with them their matcher and its cache.
   */
  withDirectory(base: string, files: { gitignore?: string | undefined; travsrignore?: string | undefined }): IgnoreRules {
    if (files.gitignore === undefined && files.travsrignore === undefined) return this;
    const label = (name: string) => (base === '' ? name : `${base}/${name}`);
    return new IgnoreRules(
      this.infoExclude,
      files.gitignore === undefined ? this.gitignore : [...this.gitignore, compileIgnoreText(files.gitignore, base, label('.gitignore'))],
      files.travsrignore === undefined
        ? this.travsrignore
        : [...this.travsrignore, compileIgnoreText(files.travsrignore, base, label('.travsrignore'))],
      this.config,
    );
  }

  /**
   * The matcher of these rules: one per set of rules, not per directory. A path's verdict needs
   * the verdicts of all its parent directories (a file under an excluded directory stays out),
   * and the matcher remembers those; a fresh matcher for every directory recomputed the whole
   * chain each time, which made a deep tree cost depth² × rules.
   */
  matcher(): IgnoreMatcher {
    this.shared ??= new IgnoreMatcher([...this.infoExclude, ...this.gitignore, ...this.travsrignore, ...this.config]);
    return this.shared;
  }
}

/**
 * Verdicts remembered by one matcher before it starts over. Starting over costs one
 * recomputation of the current directory's parent chain; the limit keeps the memory of a
 * walk over a huge tree bounded instead of growing with every path tested.
 */
export const MATCHER_CACHE_LIMIT = 50_000;

/** Tests repo-relative paths against one combined list of rules. */
export class IgnoreMatcher {
  private rules: Ignore;
  private tested = 0;

  /** `sources`: compiled rule lists in rising precedence; the last matching rule of all wins. */
  constructor(private readonly sources: readonly Ignore[]) {
    this.rules = this.combine();
  }

  /**
   * Why `path` (repo-relative, `/`-separated) is ignored — the rule that decided, as
   * ``src/.gitignore:3 (`*.log`)`` (file, line, pattern as written there) —
   * or `undefined` when it is not. Directories are tested as `dir/`, so `build/` patterns apply.
   */
  check(path: string, directory: boolean): string | undefined {
    if (++this.tested > MATCHER_CACHE_LIMIT) {
      this.rules = this.combine();
      this.tested = 1;
    }
    const result = this.rules.test(directory ? `${path}/` : path);
    if (!result.ignored) return undefined;
    return result.rule?.mark ?? 'a rule for a parent directory';
  }

  /** Joining compiled lists copies their rules; no pattern is compiled again. */
  private combine(): Ignore {
    return ignore({ ignorecase: false }).add([...this.sources]);
  }
}

/** `src/.gitignore:3 (`*.log`)`: where a rule comes from and how it was written there. */
function describeRule(where: string, pattern: string): string {
  return `${where} (\`${pattern.trim()}\`)`;
}

function compilePatterns(patterns: { pattern: string; mark: string }[]): Ignore {
  return ignore({ ignorecase: false }).add(patterns);
}

/** Compiles an ignore file's text; each rule remembers `source:line` for the skip detail. */
function compileIgnoreText(text: string, base: string, source: string): Ignore {
  const patterns: { pattern: string; mark: string }[] = [];
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const pattern = rebasePattern(line, base);
    if (pattern !== undefined) patterns.push({ pattern, mark: describeRule(`${source}:${i + 1}`, line) });
  }
  return compilePatterns(patterns);
}

/**
 * Rewrites one line of an ignore file held in directory `base` so that it means the same
 * thing when tested against repo-relative paths. Comments and blank lines give `undefined`.
 */
export function rebasePattern(line: string, base: string): string | undefined {
  if (line === '' || line.startsWith('#')) return undefined;
  if (base === '') return line;
  const negative = line.startsWith('!');
  let body = negative ? line.slice(1) : line;
  const trimmed = trimUnescapedTrailingSpaces(body);
  const core = trimmed.endsWith('/') ? trimmed.slice(0, -1) : trimmed;
  if (core === '') return undefined;
  // git: a slash at the start or in the middle anchors the pattern to its directory;
  // without one it matches a name at any depth below it.
  const anchored = core.includes('/');
  if (anchored && body.startsWith('/')) body = body.slice(1);
  return `${negative ? '!' : ''}${escapeGlob(base)}${anchored ? '/' : '/**/'}${body}`;
}

function trimUnescapedTrailingSpaces(s: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === ' ' && s[end - 2] !== '\\') end--;
  return s.slice(0, end);
}

/** A directory name used literally inside a pattern. */
function escapeGlob(path: string): string {
  const escaped = path.replace(/[\\*?[\]]/g, '\\$&');
  return escaped.startsWith('#') || escaped.startsWith('!') ? `\\${escaped}` : escaped;
}

/**
 * Where git keeps this repository's `info/exclude`: `<root>/.git/info/exclude`, or, when
 * `.git` is a file (worktree, submodule), under the git directory it points to (its common
 * directory for a worktree). `undefined` when the root is not a git checkout.
 */
export async function gitInfoExcludePath(root: string): Promise<string | undefined> {
  const dotGit = join(root, '.git');
  const stat = await lstat(dotGit).catch(() => undefined);
  if (!stat) return undefined;
  if (stat.isDirectory()) return join(dotGit, 'info', 'exclude');
  if (!stat.isFile()) return undefined;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''));
  if (!pointer?.[1]) return undefined;
  const gitDir = resolve(root, pointer[1]);
  const common = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
  return join(common === '' ? gitDir : resolve(gitDir, common), 'info', 'exclude');
}

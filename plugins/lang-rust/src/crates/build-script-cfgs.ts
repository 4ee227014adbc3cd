/**
 * The custom cfgs a package's build script sets (`println!("cargo:rustc-cfg=NAME")`), as far as
 * reading its text can tell on the build {@link isActive} assumes: a current stable rustc on
 * Linux x86_64. Cargo sets no other custom cfg in a default build (those of `RUSTFLAGS`, such as
 * `loom` or `tokio_unstable`, are not), so when every cfg the script can emit is written out, a
 * cfg it does not set is known to be off.
 */

/** The rustc minor version a build script's version checks are read against (1.75, a current stable). */
export const ASSUMED_RUSTC_MINOR = 75;

/** What a build script says of custom cfgs. */
export interface BuildScriptCfgs {
  /** Cfgs known to be set (true) or not (false). */
  known: ReadonlyMap<string, boolean>;
  /** Every cfg the script names (known or not). */
  emitted: ReadonlySet<string>;
  /**
   * True when every cfg the script can set is a literal in its text: a custom cfg it does not
   * name is off. False when it builds names (`format!`, autocfg): those are unknown.
   */
  closed: boolean;
}

/** A package without a build script: no custom cfg is set. */
export const NO_BUILD_SCRIPT: BuildScriptCfgs = { known: new Map(), emitted: new Set(), closed: true };

const EMIT = /cargo::?rustc-cfg=/g;
const LITERAL_EMIT = /^cargo::?rustc-cfg=([A-Za-z_][A-Za-z0-9_]*)"/;
/** `cargo:rustc-cfg=feature=\"x\"`: a feature the script turns on. */
const FEATURE_EMIT = /^cargo::?rustc-cfg=feature=\\"([A-Za-z0-9_-]+)\\""/;

/** How {@link BuildScriptCfgs} names a feature the script sets (`feature:folded_multiply`). */
export function featureCfg(name: string): string {
  return `feature:${name}`;
}

/**
 * Reads a build script's text. Each literal `cargo:rustc-cfg=NAME` is judged by the blocks
 * around it up to `fn main`: `if <…minor…> < N` / `>= N` (rustc version checks, read against
 * {@link ASSUMED_RUSTC_MINOR}) and `if !<…>nightly` (a stable compiler) are known; any other
 * condition, an `else`, a helper function or a loop makes the cfg unknown. A cfg emitted in
 * several places is set when one is known to run, off when none can.
 */
export function buildScriptCfgs(text: string): BuildScriptCfgs {
  const set = new Set<string>();
  const maybe = new Set<string>();
  const emitted = new Set<string>();
  const code = withoutComments(text);
  // Names it cannot show: built by autocfg, or in code it does not hold (a `mod` or `include!` of
  // another file; cfg_aliases and other build-dependencies are ruled out by the caller).
  let closed = !/\bautocfg\b|\bmod\s+[A-Za-z_]\w*\s*;|\binclude!|#\[path\b/.test(code);
  const blocks = blockHeaders(code);
  const targetVars = targetVariables(code);
  for (const m of code.matchAll(EMIT)) {
    const at = m.index;
    const head = code.slice(at, at + 200);
    const feature = FEATURE_EMIT.exec(head);
    const literal = feature ? undefined : LITERAL_EMIT.exec(head);
    if (!literal && !feature) {
      closed = false;
      continue;
    }
    const name = feature ? featureCfg(feature[1]!) : literal![1]!;
    emitted.add(name);
    const runs = conditionAt(code, blocks, at, targetVars);
    if (runs === true) set.add(name);
    else if (runs === undefined) maybe.add(name);
  }
  const known = new Map<string, boolean>();
  for (const name of emitted)
    if (set.has(name)) known.set(name, true);
    else if (!maybe.has(name)) known.set(name, false);
  return { known, emitted, closed };
}

/** A custom cfg's value for a package with these build script cfgs: undefined when it cannot be known. */
export function buildCfgValue(cfgs: BuildScriptCfgs, name: string): boolean | undefined {
  const v = cfgs.known.get(name);
  if (v !== undefined) return v;
  return cfgs.emitted.has(name) || !cfgs.closed ? undefined : false;
}

/** An opened `{` of the script: where it is, where it closes, and the text before it (its header). */
interface Block {
  start: number;
  end: number;
  header: string;
}

/** The text with its comments blanked out (positions kept; string literals left as they are). */
function withoutComments(text: string): string {
  const out = text.split('');
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      continue;
    }
    const line = text[i] === '/' && text[i + 1] === '/';
    const block = text[i] === '/' && text[i + 1] === '*';
    if (!line && !block) continue;
    const end = line ? text.indexOf('\n', i) : text.indexOf('*/', i + 2) + 2;
    const stop = end < (line ? 0 : 2) ? text.length : end;
    for (let k = i; k < stop; k++) if (out[k] !== '\n') out[k] = ' ';
    i = stop - 1;
  }
  return out.join('');
}

/** Every `{ … }` block of the code (comments already blanked), string literals skipped. */
function blockHeaders(text: string): Block[] {
  const out: Block[] = [];
  const open: { start: number; headerFrom: number }[] = [];
  let headerFrom = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (c === '{') {
      open.push({ start: i, headerFrom });
      headerFrom = i + 1;
    } else if (c === '}') {
      const b = open.pop();
      if (b) out.push({ start: b.start, end: i, header: text.slice(b.headerFrom, b.start).trim() });
      headerFrom = i + 1;
    } else if (c === ';') headerFrom = i + 1;
  }
  return out;
}

/** Whether the code at `at` runs, from the headers of the blocks around it; undefined when unknown. */
function conditionAt(code: string, blocks: readonly Block[], at: number, targetVars: ReadonlyMap<string, string>): boolean | undefined {
  const around = blocks.filter((b) => b.start < at && at < b.end).sort((a, b) => b.start - a.start);
  let runs = true;
  for (const b of around) {
    const h = b.header.replace(/\s+/g, ' ');
    // `main` may have left before (`return`, `?`, `exit`, `panic!`): then a cfg set here is not known to be.
    if (/^(pub )?fn main\s*\(/.test(h))
      return runs && EARLY_EXIT.test(code.slice(b.start, at).replace(VERSION_UNREADABLE_EXIT, '')) ? undefined : runs;
    const v = headerValue(h, targetVars);
    if (v === undefined) return undefined;
    runs &&= v;
  }
  // Not inside `fn main`: a helper function, whose callers are not read.
  return undefined;
}

/** What leaves `main` early. */
const EARLY_EXIT = /\breturn\b|\?\s*;|\bexit\s*\(|\bpanic!|\bunreachable!/;
/**
 * Leaving `main` when the compiler's version cannot be read (`let minor = match rustc_minor() {
 * Some(n) => n, None => return };`): on the assumed build it can be, so that is no early exit.
 */
const VERSION_UNREADABLE_EXIT =
  /\b(?:minor|version|rustc)\w*\s*\([^;{}]*\)\s*(?:\{[^;{}]*?None\s*=>\s*(?:\{\s*)?return\b|else\s*\{\s*return\b)/gi;

/** The value of one block header on the assumed build: `if minor < 39` → false; undefined when unknown. */
function headerValue(header: string, targetVars: ReadonlyMap<string, string>): boolean | undefined {
  // The rustc minor version (`compiler.minor`, `minor`, `rustc_minor`): a major version is no minor.
  const version = /^if ([\w.]*minor) (<|<=|>=|>) (\d+)$/i.exec(header);
  if (version) {
    const n = Number(version[3]);
    const op = version[2];
    return op === '<'
      ? ASSUMED_RUSTC_MINOR < n
      : op === '<='
        ? ASSUMED_RUSTC_MINOR <= n
        : op === '>='
          ? ASSUMED_RUSTC_MINOR >= n
          : ASSUMED_RUSTC_MINOR > n;
  }
  if (/^if ![\w.]*nightly$/i.test(header)) return true;
  if (/^if [\w.]*nightly$/i.test(header)) return false;
  // `if is_rustc_at_least("1.31.0")`, `if version_check::is_min_version("1.36.0").unwrap_or(true)`.
  const atLeast = /^if (!?)\s*[\w:]*(?:at_least|min_version)\w*\(\s*"1\.(\d+)(?:\.\d+)?"\s*\)(?:\.unwrap_or\(\w+\))?$/.exec(header);
  if (atLeast) return ASSUMED_RUSTC_MINOR >= Number(atLeast[2]) !== (atLeast[1] === '!');
  // The version_check crate's answers on a current stable compiler.
  if (/^if let Some\(\w+\) = (?:version_check::)?(?:Channel|Version)::read\(\)$/.test(header)) return true;
  if (/^if [\w.]*\.(?:supports_features|is_nightly|is_dev)\(\)$/.test(header)) return false;
  if (/^if [\w.]*\.(?:is_stable)\(\)$/.test(header)) return true;
  if (header.startsWith('if ')) return targetCondition(header.slice(3), targetVars);
  return undefined;
}

/** The target the build is assumed for, as Cargo gives it to build scripts (`CARGO_CFG_TARGET_ARCH`). */
const ASSUMED_TARGET_ENV: Readonly<Record<string, string>> = {
  CARGO_CFG_TARGET_ARCH: 'x86_64',
  CARGO_CFG_TARGET_OS: 'linux',
  CARGO_CFG_TARGET_FAMILY: 'unix',
  CARGO_CFG_TARGET_ENV: 'gnu',
  CARGO_CFG_TARGET_VENDOR: 'unknown',
  CARGO_CFG_TARGET_ENDIAN: 'little',
  CARGO_CFG_TARGET_POINTER_WIDTH: '64',
};

/** Variables bound to a target env var (`let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap();`) and their value. */
function targetVariables(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of code.matchAll(
    /\blet\s+(?:mut\s+)?([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*(?:std::)?env::var\(\s*"(CARGO_CFG_TARGET_\w+)"\s*\)\s*\.(?:unwrap|expect)\([^)]*\)\s*;/g,
  )) {
    const value = ASSUMED_TARGET_ENV[m[2]!];
    // A name bound twice is not known to be this one.
    if (value === undefined || out.has(m[1]!)) out.set(m[1]!, '\0');
    else out.set(m[1]!, value);
  }
  return out;
}

/**
 * A condition made only of comparisons of target variables with string literals, joined by one
 * kind of `||` or `&&` (`arch.eq_ignore_ascii_case("x86_64") || arch == "aarch64"`), on the
 * assumed target; undefined for anything else.
 */
function targetCondition(cond: string, targetVars: ReadonlyMap<string, string>): boolean | undefined {
  if (targetVars.size === 0) return undefined;
  const or = cond.includes('||');
  if (or && cond.includes('&&')) return undefined;
  const terms = cond.split(or ? '||' : '&&').map((t) => t.trim());
  const values = terms.map((t) => {
    const m =
      /^([A-Za-z_]\w*)\s*\.\s*eq_ignore_ascii_case\(\s*"([^"]*)"\s*\)$/.exec(t) ??
      /^([A-Za-z_]\w*)(?:\.as_str\(\))?\s*(==|!=)\s*"([^"]*)"$/.exec(t);
    if (!m) return undefined;
    const value = targetVars.get(m[1]!);
    if (value === undefined || value === '\0') return undefined;
    if (m.length === 3) return value.toLowerCase() === m[2]!.toLowerCase();
    return m[2] === '==' ? value === m[3] : value !== m[3];
  });
  if (values.includes(undefined)) return undefined;
  return or ? values.includes(true) : values.every((v) => v === true);
}

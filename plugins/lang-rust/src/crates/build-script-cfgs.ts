/**
 * The custom cfgs a package's build script sets (`println!("cargo:rustc-cfg=NAME")`) on the
 * build {@link isActive} assumes: a current stable rustc on Linux x86_64. Cargo sets no other
 * custom cfg in a default build (those of `RUSTFLAGS`, such as `loom` or `tokio_unstable`, are
 * not), so when every cfg the script can emit is written out, a cfg it does not set is known to
 * be off. build-script-eval.ts reads a script into them; this file holds what they are and the
 * rules for the conditions it cannot evaluate (the compiler's version and channel).
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
   * name is off. False when it builds names it cannot know (`format!` of an unknown value): those are unknown.
   */
  closed: boolean;
}

/** A package without a build script: no custom cfg is set. */
export const NO_BUILD_SCRIPT: BuildScriptCfgs = { known: new Map(), emitted: new Set(), closed: true };

/** How {@link BuildScriptCfgs} names a feature the script sets (`feature:folded_multiply`). */
export function featureCfg(name: string): string {
  return `feature:${name}`;
}

/** A custom cfg's value for a package with these build script cfgs: undefined when it cannot be known. */
export function buildCfgValue(cfgs: BuildScriptCfgs, name: string): boolean | undefined {
  const v = cfgs.known.get(name);
  if (v !== undefined) return v;
  return cfgs.emitted.has(name) || !cfgs.closed ? undefined : false;
}

/** The text with its comments blanked out (positions kept; string literals left as they are). */
export function withoutComments(text: string): string {
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

/** The value of one block header on the assumed build: `if minor < 39` → false; undefined when unknown. */
export function headerValue(header: string): boolean | undefined {
  // The rustc minor version (`compiler.minor`, `minor`, `rustc_minor`, `rustc_minor_ver`): a major version is no minor.
  const version = /^if ([\w.]*minor\w*) (<|<=|>=|>) (\d+)$/i.exec(header);
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
  if (
    /^if [\w.:]*(?:\.|::)(?:supports_features|is_feature_flaggable|is_nightly|is_dev)\(\)(?:\.unwrap_or\((?:true|false)\))?$/.test(header)
  )
    return false;
  if (/^if [\w.]*\.(?:is_stable)\(\)$/.test(header)) return true;
  return undefined;
}

import { type BuildScriptCfgs, buildCfgValue, featureCfg } from './build-script-cfgs.js';

/**
 * `#[cfg(…)]` as a default `cargo build` on Linux x86_64 sees it: the package's default
 * features (and the features they enable), `unix`, `debug_assertions`, not `test`. Resolution
 * uses it only to choose between twins — two items of one name under opposite cfgs
 * (`#[cfg(feature = "std")] mod imp;` / `#[cfg(not(…))] mod imp { … }`) — and indexes both.
 */

/** What a cfg predicate evaluates to: unknown predicates (a custom `--cfg`) are `undefined`. */
export type CfgValue = boolean | undefined;

/**
 * What cfgs are read against for one package: the features its default build enables and,
 * when its build script was read, the custom cfgs that script sets (see build-script-cfgs.ts).
 */
export type CfgFeatures = ReadonlySet<string> & { readonly buildCfgs?: BuildScriptCfgs };

/** Key-value predicates of the assumed target. */
export const ASSUMED_TARGET: Readonly<Record<string, readonly string[]>> = {
  target_os: ['linux'],
  target_family: ['unix'],
  target_arch: ['x86_64'],
  target_pointer_width: ['64'],
  target_endian: ['little'],
  target_env: ['gnu'],
  target_vendor: ['unknown'],
  panic: ['unwind'],
  target_has_atomic: ['8', '16', '32', '64', 'ptr'],
  target_feature: ['sse', 'sse2', 'fxsr'],
};
/** Bare predicates and their value on the assumed target. */
export const ASSUMED_FLAGS: Readonly<Record<string, boolean>> = {
  unix: true,
  windows: false,
  test: false,
  debug_assertions: true,
  doc: false,
  docsrs: false,
  miri: false,
  doctest: false,
  proc_macro: false,
  overflow_checks: true,
};

/**
 * The features a package enables by default: `default` and, transitively, what each enables
 * (`"dep:x"` and `"x/feat"` entries enable no feature of this package, `"x?/feat"` neither).
 */
export function defaultFeatures(table: Record<string, unknown> | undefined): Set<string> {
  const on = new Set<string>();
  if (!table) return on;
  const visit = (name: string): void => {
    if (on.has(name)) return;
    on.add(name);
    const list = table[name];
    if (!Array.isArray(list)) return;
    for (const f of list) if (typeof f === 'string' && !f.includes('/') && !f.startsWith('dep:')) visit(f);
  };
  visit('default');
  return on;
}

/**
 * Evaluates the predicate of a `cfg(…)` attribute's text (`cfg(all(unix, feature = "std"))`).
 * Returns undefined for an attribute that is not a cfg or a predicate that cannot be known.
 */
export function evalCfgAttr(attr: string, features: CfgFeatures): CfgValue {
  const m = /^cfg\s*\((.*)\)\s*$/s.exec(attr);
  if (!m) return undefined;
  const p = new Parser(m[1]!, features);
  const v = p.predicate();
  // One predicate and nothing after it: `cfg(a, b)` is no cfg rustc takes.
  return p.ok && p.atEnd() ? v : undefined;
}

/** Whether an item with these attributes is compiled: false only when a cfg says so for sure. */
export function isActive(attrs: readonly string[] | undefined, features: CfgFeatures): CfgValue {
  let out: CfgValue = true;
  for (const a of attrs ?? []) {
    // `cfg(…)` only: `cfg_attr(docsrs, doc(…))` adds attributes, it does not leave the item out.
    if (!/^cfg\s*\(/.test(a)) continue;
    const v = evalCfgAttr(a, features);
    if (v === false) return false;
    if (v === undefined) out = undefined;
  }
  return out;
}

class Parser {
  private i = 0;
  ok = true;
  constructor(
    private readonly s: string,
    private readonly features: CfgFeatures,
  ) {}

  /** True when only whitespace is left. */
  atEnd(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private ident(): string {
    this.ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i));
    if (!m) {
      this.ok = false;
      return '';
    }
    this.i += m[0].length;
    return m[0];
  }

  private eat(c: string): boolean {
    this.ws();
    if (this.s[this.i] === c) {
      this.i++;
      return true;
    }
    return false;
  }

  predicate(): CfgValue {
    const name = this.ident();
    if (!this.ok) return undefined;
    if ((name === 'all' || name === 'any' || name === 'not') && this.eat('(')) {
      const vals: CfgValue[] = [];
      while (this.ok && !this.eat(')')) {
        vals.push(this.predicate());
        this.eat(',');
        if (this.i >= this.s.length) this.ok = false;
      }
      if (name === 'not') return vals[0] === undefined ? undefined : !vals[0];
      if (name === 'all') return vals.includes(false) ? false : vals.includes(undefined) ? undefined : true;
      return vals.includes(true) ? true : vals.includes(undefined) ? undefined : false;
    }
    if (this.eat('=')) {
      this.ws();
      const m = /^"([^"]*)"/.exec(this.s.slice(this.i));
      if (!m) {
        this.ok = false;
        return undefined;
      }
      this.i += m[0].length;
      if (name === 'feature') {
        if (this.features.has(m[1]!)) return true;
        // A feature the build script sets (`cargo:rustc-cfg=feature="folded_multiply"`).
        const cfgs = this.features.buildCfgs;
        return cfgs?.emitted.has(featureCfg(m[1]!)) ? cfgs.known.get(featureCfg(m[1]!)) : false;
      }
      const values = ASSUMED_TARGET[name];
      return values ? values.includes(m[1]!) : undefined;
    }
    if (name in ASSUMED_FLAGS) return ASSUMED_FLAGS[name];
    // A custom cfg: only the package's build script sets one in a default build.
    return this.features.buildCfgs ? buildCfgValue(this.features.buildCfgs, name) : undefined;
  }
}

/**
 * The file a `mod x;` item names through `#[cfg_attr(pred, path = "file.rs")]` when `pred` holds
 * on the assumed build (`#[cfg_attr(feature = "termcolor", path = "extern_impl.rs")]`), or
 * undefined: none holds, or none can be known.
 */
export function cfgPathAttr(attrs: readonly string[] | undefined, features: CfgFeatures): string | undefined {
  for (const a of attrs ?? []) {
    const m = /^cfg_attr\s*\(([\s\S]*),\s*path\s*=\s*"([^"]*)"\s*\)$/.exec(a);
    if (m && evalCfgAttr(`cfg(${m[1]!})`, features) === true) return m[2]!;
  }
  return undefined;
}

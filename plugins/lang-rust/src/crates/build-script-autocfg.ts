/**
 * The `autocfg` build-dependency as build-script-eval.ts follows it: the cfg lines its functions
 * and an `AutoCfg`'s methods print on the assumed build (a current stable rustc, Linux x86_64,
 * see {@link ASSUMED_RUSTC_MINOR}). What it answers from the compiler's version, and the crates
 * every such target has (`std`, `core`, `alloc`), is known; what it learns by compiling a probe
 * (`probe_type`, `emit_expression_cfg`, …) is not: those cfgs are unknown, never guessed.
 * Follows autocfg 1.x (`emit`, `rerun_path`, `rerun_env`, `new`, `AutoCfg::new`/`with_dir` and
 * the methods below).
 */
import { ASSUMED_RUSTC_MINOR } from './build-script-cfgs.js';
import { bool, some, UNIT, UNKNOWN, type Value } from './build-script-values.js';

/** A cfg line autocfg prints: its name (undefined when not known) and whether it surely prints (else maybe). */
export interface AutoCfgEmit {
  cfg: string | undefined;
  sure: boolean;
}

/** What a call of autocfg gives and prints. */
export interface AutoCfgCall {
  value: Value;
  emits: AutoCfgEmit[];
}

/** The value of an `autocfg::AutoCfg`. */
export const AUTOCFG: Value = { k: 'autocfg' };

/** Crates a build for the assumed target always finds in the sysroot (`probe_sysroot_crate`). */
const SYSROOT_CRATES: ReadonlySet<string> = new Set(['std', 'core', 'alloc']);

/** `emit_has_*` methods: the probe's subject names the cfg (`has_<mangled>`). */
const HAS_PROBES: ReadonlySet<string> = new Set(['emit_has_path', 'emit_has_trait', 'emit_has_type']);
/** `emit_*_cfg` methods: the cfg is their second argument. */
const CFG_PROBES: ReadonlySet<string> = new Set([
  'emit_path_cfg',
  'emit_trait_cfg',
  'emit_type_cfg',
  'emit_expression_cfg',
  'emit_constant_cfg',
]);
/** Methods whose answer comes from compiling a probe: unknown. */
const PROBES: ReadonlySet<string> = new Set(['probe_path', 'probe_trait', 'probe_type', 'probe_expression', 'probe_constant', 'probe_raw']);
/** Methods that print no cfg and answer nothing that matters here. */
const QUIET: ReadonlySet<string> = new Set(['set_no_std', 'edition', 'set_edition', 'no_std']);

/** autocfg's name for a probed path or type: every character but ASCII letters and digits is `_`. */
export function mangle(s: string): string {
  return s.replace(/[^A-Za-z0-9]/g, '_');
}

/** Whether the name says a call prints cfg lines (`emit`, `emit_has_type`, …). */
export function isEmitter(name: string): boolean {
  return name === 'emit' || name.startsWith('emit_');
}

/**
 * A call of one of autocfg's functions by its full path (`autocfg::emit`, `autocfg::AutoCfg::new`);
 * undefined when the path is not autocfg's.
 */
export function autocfgFunction(path: string, args: readonly Value[]): AutoCfgCall | undefined {
  const segs = path.replace(/^::/, '').split('::');
  if (segs[0] !== 'autocfg') return undefined;
  const rest = segs.slice(1).join('::');
  switch (rest) {
    case 'emit': {
      const a = args[0];
      return { value: UNIT, emits: [{ cfg: a?.k === 'str' ? a.v : undefined, sure: true }] };
    }
    case 'rerun_path':
    case 'rerun_env':
      return { value: UNIT, emits: [] };
    case 'new':
      return { value: AUTOCFG, emits: [] };
    // `Result<AutoCfg, Error>`: on the assumed build cargo sets OUT_DIR and rustc runs.
    case 'AutoCfg::new':
    case 'AutoCfg::with_dir':
      return { value: some(AUTOCFG), emits: [] };
    default:
      return isEmitter(segs[segs.length - 1] ?? '')
        ? { value: UNKNOWN, emits: [{ cfg: undefined, sure: false }] }
        : { value: UNKNOWN, emits: [] };
  }
}

/** A method call on an `AutoCfg`. */
export function autocfgMethod(name: string, args: readonly Value[]): AutoCfgCall {
  const text = (k: number): string | undefined => {
    const a = args[k];
    return a?.k === 'str' ? a.v : undefined;
  };
  const num = (k: number): number | undefined => {
    const a = args[k];
    return a?.k === 'num' ? a.v : undefined;
  };
  switch (name) {
    case 'probe_rustc_version': {
      const at = versionAtLeast(num(0), num(1));
      return { value: at === undefined ? UNKNOWN : bool(at), emits: [] };
    }
    case 'emit_rustc_version': {
      const major = num(0);
      const minor = num(1);
      const at = versionAtLeast(major, minor);
      if (at === false) return { value: UNIT, emits: [] };
      const cfg = major !== undefined && minor !== undefined ? `rustc_${major}_${minor}` : undefined;
      return { value: UNIT, emits: [{ cfg, sure: at === true }] };
    }
    case 'probe_sysroot_crate': {
      const c = text(0);
      return { value: c !== undefined && SYSROOT_CRATES.has(c) ? bool(true) : UNKNOWN, emits: [] };
    }
    case 'emit_sysroot_crate': {
      const c = text(0);
      return {
        value: UNIT,
        emits: [{ cfg: c !== undefined ? `has_${mangle(c)}` : undefined, sure: c !== undefined && SYSROOT_CRATES.has(c) }],
      };
    }
  }
  if (HAS_PROBES.has(name)) {
    const subject = text(0);
    return { value: UNIT, emits: [{ cfg: subject !== undefined ? `has_${mangle(subject)}` : undefined, sure: false }] };
  }
  if (CFG_PROBES.has(name)) return { value: UNIT, emits: [{ cfg: text(1), sure: false }] };
  if (PROBES.has(name)) return { value: UNKNOWN, emits: [] };
  if (QUIET.has(name)) return { value: UNIT, emits: [] };
  // A method this model does not know: whatever it prints is unknown.
  return { value: UNKNOWN, emits: isEmitter(name) ? [{ cfg: undefined, sure: false }] : [] };
}

/** Whether the assumed rustc is at least `major.minor`; undefined when either is not known. */
function versionAtLeast(major: number | undefined, minor: number | undefined): boolean | undefined {
  if (major === undefined || minor === undefined) return undefined;
  return major < 1 || (major === 1 && minor <= ASSUMED_RUSTC_MINOR);
}

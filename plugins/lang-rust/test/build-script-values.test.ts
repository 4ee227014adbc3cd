// What the build-script evaluator computes with: its values (equality, arithmetic, format
// strings, literals), the std methods it follows and the environment Cargo gives a build script
// on the assumed build. Each case is what rustc would compute, or unknown where it cannot be known.
import { describe, expect, it, vi } from 'vitest';
import { autocfgFunction, autocfgMethod, mangle } from '../src/crates/build-script-autocfg.js';
import { cargoEnv } from '../src/crates/build-script-env.js';
import { type MethodHooks, stdMethod } from '../src/crates/build-script-std.js';
import { arithmetic, bool, eq, NONE, renderFormat, same, some, str, UNIT, UNKNOWN, type Value } from '../src/crates/build-script-values.js';

const num = (v: number): Value => ({ k: 'num', v });
const list = (...v: Value[]): Value => ({ k: 'list', v });

/** Hooks whose closures double a number, with spies on what the method asked for. */
function hooks(files: Record<string, boolean> = {}): MethodHooks & { ran: ReturnType<typeof vi.fn>; exited: ReturnType<typeof vi.fn> } {
  const ran = vi.fn();
  const exited = vi.fn();
  return {
    apply: (fn, args) => (fn?.k === 'fn' && args[0]?.k === 'num' ? num(args[0].v * 2) : UNKNOWN),
    runClosures: ran,
    exit: exited,
    exists: (p) => files[p],
    ran,
    exited,
  };
}

/** A stand-in closure value (the hooks above double its argument). */
const double = { k: 'fn', params: [], body: null, scope: undefined } as unknown as Value;

describe('build-script values', () => {
  it('compares as Rust does where both sides are known, and is unknown otherwise', () => {
    expect(eq(str('a'), str('a'))).toEqual(bool(true));
    expect(eq(num(1), num(2))).toEqual(bool(false));
    expect(eq(some(str('64')), some(str('64')))).toEqual(bool(true));
    expect(eq(NONE, some(str('x')))).toEqual(bool(false));
    expect(eq(NONE, NONE)).toEqual(bool(true));
    expect(eq(NONE, str('x'))).toEqual(UNKNOWN);
    expect(eq(UNKNOWN, str('x'))).toEqual(UNKNOWN);
    expect(eq(str('1'), num(1))).toEqual(UNKNOWN);
    expect(same(list(str('a'), num(1)), list(str('a'), num(1)))).toBe(true);
    expect(same(list(str('a')), list(str('a'), str('b')))).toBe(false);
    expect(same(some(num(1)), some(num(2)))).toBe(false);
    expect(same(UNKNOWN, UNKNOWN)).toBe(false);
    expect(same(UNIT, UNIT)).toBe(true);
  });

  it('does integer arithmetic and string concatenation, never dividing by zero', () => {
    expect(arithmetic('+', num(2), num(3))).toEqual(num(5));
    expect(arithmetic('-', num(2), num(3))).toEqual(num(-1));
    expect(arithmetic('*', num(4), num(3))).toEqual(num(12));
    expect(arithmetic('/', num(7), num(2))).toEqual(num(3));
    expect(arithmetic('/', num(7), num(0))).toEqual(UNKNOWN);
    expect(arithmetic('%', num(7), num(4))).toEqual(num(3));
    expect(arithmetic('%', num(7), num(0))).toEqual(UNKNOWN);
    expect(arithmetic('<<', num(1), num(3))).toEqual(UNKNOWN);
    expect(arithmetic('+', str('rustc_'), str('1_40'))).toEqual(str('rustc_1_40'));
    expect(arithmetic('+', str('a'), num(1))).toEqual(UNKNOWN);
  });

  it('renders format! strings: positional, numbered and named arguments, escaped braces; unknown for other renderings', () => {
    const none = () => undefined;
    expect(renderFormat(str('{}_{}'), [str('has'), num(64)], new Map(), none)).toEqual(str('has_64'));
    expect(renderFormat(str('{1}{0}'), [str('a'), str('b')], new Map(), none)).toEqual(str('ba'));
    expect(renderFormat(str('{arch}'), [], new Map([['arch', str('x86_64')]]), none)).toEqual(str('x86_64'));
    // A variable the format string captures (`format!("{minor}")`).
    expect(renderFormat(str('v{minor}'), [], new Map(), (n) => (n === 'minor' ? num(75) : undefined))).toEqual(str('v75'));
    expect(renderFormat(str('{{literal}}'), [], new Map(), none)).toEqual(str('{literal}'));
    expect(renderFormat(str('{:?}'), [str('a')], new Map(), none)).toEqual(UNKNOWN);
    expect(renderFormat(str('{'), [str('a')], new Map(), none)).toEqual(UNKNOWN);
    expect(renderFormat(str('{}'), [UNKNOWN], new Map(), none)).toEqual(UNKNOWN);
    expect(renderFormat(UNKNOWN, [], new Map(), none)).toEqual(UNKNOWN);
  });
});

describe('std methods a build script calls', () => {
  it('reads Option and Result combinators, running closures it cannot follow', () => {
    const h = hooks();
    expect(stdMethod('unwrap_or', NONE, [str('d')], h)).toEqual(str('d'));
    expect(stdMethod('unwrap_or', some(str('v')), [str('d')], h)).toEqual(str('v'));
    expect(stdMethod('unwrap_or', UNKNOWN, [str('d')], h)).toEqual(UNKNOWN);
    expect(stdMethod('map', some(num(2)), [double], h)).toEqual(some(num(4)));
    expect(stdMethod('map', NONE, [double], h)).toEqual(NONE);
    expect(stdMethod('map', list(num(1), num(2)), [double], h)).toEqual(list(num(2), num(4)));
    expect(stdMethod('and_then', num(3), [double], h)).toEqual(num(6));
    expect(stdMethod('and_then', NONE, [double], h)).toEqual(NONE);
    expect(stdMethod('map_or', NONE, [bool(false), double], h)).toEqual(bool(false));
    expect(stdMethod('map_or', some(num(1)), [bool(false), double], h)).toEqual(num(2));
    expect(h.ran).not.toHaveBeenCalled();
    expect(stdMethod('map', UNKNOWN, [double], h)).toEqual(UNKNOWN);
    expect(stdMethod('and_then', UNKNOWN, [double], h)).toEqual(UNKNOWN);
    expect(stdMethod('frobnicate', str('x'), [double], h)).toEqual(UNKNOWN);
    expect(h.ran).toHaveBeenCalledTimes(3);
  });

  it('ends the run on unwrap of None, not on unwrap_or_default', () => {
    const h = hooks();
    expect(stdMethod('unwrap_or_default', NONE, [], h)).toEqual(UNKNOWN);
    expect(h.exited).not.toHaveBeenCalled();
    stdMethod('expect', NONE, [str('OUT_DIR')], h);
    expect(h.exited).toHaveBeenCalledTimes(1);
    // rustc's version read from a helper stays that through unwrap.
    const version: Value = { k: 'unknown', version: true };
    expect(stdMethod('unwrap', version, [], h)).toBe(version);
  });

  it('answers any/all and contains over lists only when every element is known', () => {
    const h = hooks();
    const isTwo = double;
    const apply: MethodHooks['apply'] = (_fn, [x]) => (x?.k === 'num' ? bool(x.v === 2) : UNKNOWN);
    const hh = { ...h, apply };
    expect(stdMethod('any', list(num(1), num(2)), [isTwo], hh)).toEqual(bool(true));
    expect(stdMethod('all', list(num(2), num(2)), [isTwo], hh)).toEqual(bool(true));
    expect(stdMethod('all', list(num(2), num(1)), [isTwo], hh)).toEqual(bool(false));
    expect(stdMethod('any', list(num(1), UNKNOWN), [isTwo], hh)).toEqual(UNKNOWN);
    expect(stdMethod('any', UNKNOWN, [isTwo], hh)).toEqual(UNKNOWN);
    expect(h.ran).toHaveBeenCalledTimes(1);
    expect(stdMethod('contains', list(str('sse2'), str('avx')), [str('avx')], h)).toEqual(bool(true));
    expect(stdMethod('contains', list(str('sse2')), [str('avx')], h)).toEqual(bool(false));
    expect(stdMethod('contains', list(str('sse2'), UNKNOWN), [str('avx')], h)).toEqual(UNKNOWN);
    expect(stdMethod('contains', str('x86_64-linux'), [str('linux')], h)).toEqual(bool(true));
  });

  it('follows string methods and the files of the package', () => {
    const h = hooks({ 'src/asm.s': true, 'src/none.s': false });
    expect(stdMethod('split', str('a,b'), [str(',')], h)).toEqual(list(str('a'), str('b')));
    expect(stdMethod('replace', str('a-b-c'), [str('-'), str('_')], h)).toEqual(str('a_b_c'));
    expect(stdMethod('len', list(num(1), num(2)), [], h)).toEqual(num(2));
    expect(stdMethod('is_empty', str(''), [], h)).toEqual(bool(true));
    expect(stdMethod('to_uppercase', str('linux'), [], h)).toEqual(str('LINUX'));
    expect(stdMethod('eq_ignore_ascii_case', str('X86'), [str('x86')], h)).toEqual(bool(true));
    expect(stdMethod('ne', num(1), [num(1)], h)).toEqual(bool(false));
    expect(stdMethod('to_str', str('os'), [], h)).toEqual(some(str('os')));
    expect(stdMethod('success', bool(true), [], h)).toEqual(bool(true));
    expect(stdMethod('success', UNKNOWN, [], h)).toEqual(UNKNOWN);
    expect(stdMethod('exists', stdMethod('join', str('src/'), [str('asm.s')], h), [], h)).toEqual(bool(true));
    expect(stdMethod('is_file', str('src/none.s'), [], h)).toEqual(bool(false));
    expect(stdMethod('is_dir', str('../outside'), [], h)).toEqual(UNKNOWN);
  });
});

describe('the environment Cargo gives a build script', () => {
  it('is the assumed target and profile, the default features, and unset for a user switch', () => {
    const features = new Set(['std', 'serde-json']);
    expect(cargoEnv('TARGET', features)).toEqual(str('x86_64-unknown-linux-gnu'));
    expect(cargoEnv('HOST', features)).toEqual(str('x86_64-unknown-linux-gnu'));
    expect(cargoEnv('PROFILE', features)).toEqual(str('debug'));
    expect(cargoEnv('DEBUG', features)).toEqual(str('true'));
    expect(cargoEnv('OPT_LEVEL', features)).toEqual(str('0'));
    expect(cargoEnv('CARGO_ENCODED_RUSTFLAGS', features)).toEqual(str(''));
    expect(cargoEnv('CARGO_CFG_TARGET_OS', features)).toEqual(str('linux'));
    expect(cargoEnv('CARGO_CFG_SANITIZE', features)).toEqual(NONE);
    expect(cargoEnv('CARGO_FEATURE_SERDE_JSON', features)).toEqual(str('1'));
    expect(cargoEnv('CARGO_FEATURE_NIGHTLY', features)).toEqual(NONE);
    expect(cargoEnv('CARGO_PKG_NAME', features, { name: 'memchr' })).toEqual(str('memchr'));
    expect(cargoEnv('CARGO_PKG_VERSION', features)).toEqual(some(UNKNOWN));
    expect(cargoEnv('OUT_DIR', features)).toEqual(some(UNKNOWN));
    expect(cargoEnv('CARGO_PRIMARY_PACKAGE', features)).toEqual(UNKNOWN);
    expect(cargoEnv('DOCS_RS', features)).toEqual(NONE);
  });
});

describe('autocfg as the evaluator reads it', () => {
  it('knows its functions, the version checks and sysroot crates of the assumed build, and not its probes', () => {
    expect(autocfgFunction('autocfg::emit', [str('has_std')])).toEqual({ value: UNIT, emits: [{ cfg: 'has_std', sure: true }] });
    expect(autocfgFunction('::autocfg::rerun_env', [str('X')])).toEqual({ value: UNIT, emits: [] });
    expect(autocfgFunction('autocfg::AutoCfg::with_dir', [str('out')])?.value).toEqual(some({ k: 'autocfg' }));
    expect(autocfgFunction('autocfg::emit_everything', [])?.emits).toEqual([{ cfg: undefined, sure: false }]);
    expect(autocfgFunction('version_check::is_min_version', [str('1.40')])).toBeUndefined();
    expect(autocfgMethod('probe_rustc_version', [num(1), num(36)]).value).toEqual(bool(true));
    expect(autocfgMethod('probe_rustc_version', [num(1), num(999)]).value).toEqual(bool(false));
    expect(autocfgMethod('probe_rustc_version', [num(1), UNKNOWN]).value).toEqual(UNKNOWN);
    expect(autocfgMethod('emit_rustc_version', [num(1), UNKNOWN]).emits).toEqual([{ cfg: undefined, sure: false }]);
    expect(autocfgMethod('probe_sysroot_crate', [str('core')]).value).toEqual(bool(true));
    expect(autocfgMethod('probe_sysroot_crate', [str('test')]).value).toEqual(UNKNOWN);
    expect(autocfgMethod('emit_sysroot_crate', [str('proc_macro')]).emits).toEqual([{ cfg: 'has_proc_macro', sure: false }]);
    expect(autocfgMethod('emit_has_path', [str('std::ptr::NonNull')]).emits).toEqual([{ cfg: 'has_std__ptr__NonNull', sure: false }]);
    expect(autocfgMethod('emit_type_cfg', [str('i128'), str('has_i128')]).emits).toEqual([{ cfg: 'has_i128', sure: false }]);
    expect(autocfgMethod('probe_expression', [str('1u32.reverse_bits()')]).value).toEqual(UNKNOWN);
    expect(autocfgMethod('set_no_std', [bool(true)])).toEqual({ value: UNIT, emits: [] });
    expect(autocfgMethod('emit_new_kind_of_cfg', [str('x')]).emits).toEqual([{ cfg: undefined, sure: false }]);
    expect(mangle('std::ptr::addr_of')).toBe('std__ptr__addr_of');
  });
});

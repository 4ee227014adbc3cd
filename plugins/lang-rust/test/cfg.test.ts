// cfg as a default build on Linux x86_64 sees it, and the default features of a package.
import { describe, expect, it } from 'vitest';
import { buildScriptCfgs, NO_BUILD_SCRIPT } from '../src/crates/build-script-cfgs.js';
import { cfgPathAttr, defaultFeatures, evalCfgAttr, isActive } from '../src/crates/cfg.js';

describe('cfg', () => {
  const features = defaultFeatures({
    default: ['std', 'perf'],
    perf: ['perf-literal', 'dep:memchr', 'aho/std'],
    std: [],
    'perf-literal': [],
    unicode: [],
  });

  it('enables default features and what they enable, never dependency features', () => {
    expect([...features].sort()).toEqual(['default', 'perf', 'perf-literal', 'std']);
    expect(defaultFeatures(undefined).size).toBe(0);
  });

  it('evaluates features, the target and combinators', () => {
    expect(evalCfgAttr('cfg(feature = "perf-literal")', features)).toBe(true);
    expect(evalCfgAttr('cfg(feature = "unicode")', features)).toBe(false);
    expect(evalCfgAttr('cfg(not(feature = "std"))', features)).toBe(false);
    expect(evalCfgAttr('cfg(all(unix, target_pointer_width = "64"))', features)).toBe(true);
    expect(evalCfgAttr('cfg(any(windows, target_os = "macos"))', features)).toBe(false);
    expect(evalCfgAttr('cfg(test)', features)).toBe(false);
    expect(evalCfgAttr('cfg(debug_assertions)', features)).toBe(true);
  });

  it('does not pretend to know custom cfgs or malformed predicates', () => {
    expect(evalCfgAttr('cfg(my_custom_flag)', features)).toBeUndefined();
    expect(evalCfgAttr('cfg(any(my_flag, windows))', features)).toBeUndefined();
    expect(evalCfgAttr('cfg(all(unix', features)).toBeUndefined();
    expect(evalCfgAttr('derive(Debug)', features)).toBeUndefined();
  });

  it('calls an item inactive only when a cfg says so for sure', () => {
    expect(isActive(['derive(Debug)', 'cfg(unix)'], features)).toBe(true);
    expect(isActive(['cfg(windows)'], features)).toBe(false);
    expect(isActive(['cfg(my_flag)'], features)).toBeUndefined();
    expect(isActive(undefined, features)).toBe(true);
  });

  it('never lets a cfg_attr leave an item out, and takes the module file a holding cfg_attr(…, path) names', () => {
    expect(isActive(['cfg_attr(docsrs, doc(cfg(feature = "std")))'], features)).toBe(true);
    const attrs = ['cfg_attr(feature = "std", path = "std_impl.rs")', 'cfg_attr(not(feature = "std"), path = "core_impl.rs")'];
    expect(cfgPathAttr(attrs, features)).toBe('std_impl.rs');
    expect(cfgPathAttr(['cfg_attr(my_flag, path = "x.rs")'], features)).toBeUndefined();
  });
});

describe('build script cfgs', () => {
  const script = [
    'use std::env;',
    '// cargo:rustc-cfg=in_a_comment',
    'fn main() {',
    '    let compiler = rustc_version().unwrap_or_default();',
    '    if compiler.minor < 39 {',
    '        println!("cargo:rustc-cfg=syn_no_const_vec_new");',
    '    }',
    '    if compiler.minor >= 60 {',
    '        println!("cargo:rustc-cfg=has_new_api");',
    '    }',
    '    if !compiler.nightly {',
    '        println!("cargo:rustc-cfg=stable_only");',
    '    }',
    '    if env::var("TARGET").unwrap().starts_with("thumb") {',
    '        println!("cargo:rustc-cfg=no_atomics");',
    '    }',
    '    println!("cargo:rustc-cfg=always");',
    '}',
    '',
  ].join('\n');
  const cfgs = buildScriptCfgs(script);
  const withScript = Object.assign(defaultFeatures(undefined), { buildCfgs: cfgs });

  it('reads rustc version and nightly checks against a current stable compiler, and what it always sets', () => {
    expect([...cfgs.known].sort()).toEqual([
      ['always', true],
      ['has_new_api', true],
      ['stable_only', true],
      ['syn_no_const_vec_new', false],
    ]);
    expect(cfgs.closed).toBe(true);
    expect(evalCfgAttr('cfg(not(syn_no_const_vec_new))', withScript)).toBe(true);
    expect(evalCfgAttr('cfg(has_new_api)', withScript)).toBe(true);
  });

  it('leaves a cfg set under a condition it cannot read unknown, and a cfg no build script names off', () => {
    expect(evalCfgAttr('cfg(no_atomics)', withScript)).toBeUndefined();
    expect(evalCfgAttr('cfg(in_a_comment)', withScript)).toBe(false);
    expect(evalCfgAttr('cfg(tokio_unstable)', withScript)).toBe(false);
    expect(evalCfgAttr('cfg(loom)', Object.assign(defaultFeatures(undefined), { buildCfgs: NO_BUILD_SCRIPT }))).toBe(false);
  });

  it("reads features a build script sets, under target checks of the assumed build, version helpers and version_check's stable answers", () => {
    const script = [
      'use std::env;',
      'fn main() {',
      '    if let Some(channel) = version_check::Channel::read() {',
      '        if channel.supports_features() {',
      '            println!("cargo:rustc-cfg=feature=\\"specialize\\"");',
      '        }',
      '    }',
      '    let arch = env::var("CARGO_CFG_TARGET_ARCH").expect("CARGO_CFG_TARGET_ARCH was not set");',
      '    if arch.eq_ignore_ascii_case("x86_64") || arch.eq_ignore_ascii_case("aarch64") {',
      '        println!("cargo:rustc-cfg=feature=\\"folded_multiply\\"");',
      '    }',
      '    if is_rustc_at_least("1.31.0") {',
      '        println!("cargo:rustc-cfg=const_fns");',
      '    }',
      '    if !version_check::is_min_version("1.99.0").unwrap_or(true) {',
      '        println!("cargo:rustc-cfg=before_199");',
      '    }',
      '    if arch == "riscv64" {',
      '        println!("cargo:rustc-cfg=riscv_only");',
      '    }',
      '    if env::var("CARGO_CFG_TARGET_OS").unwrap() == "linux" && other() {',
      '        println!("cargo:rustc-cfg=unread");',
      '    }',
      '}',
      '',
    ].join('\n');
    const cfgs = buildScriptCfgs(script);
    const withFeatures = Object.assign(defaultFeatures({ default: ['std'], std: [] }), { buildCfgs: cfgs });
    expect(evalCfgAttr('cfg(feature = "folded_multiply")', withFeatures)).toBe(true);
    expect(evalCfgAttr('cfg(feature = "specialize")', withFeatures)).toBe(false);
    expect(evalCfgAttr('cfg(feature = "std")', withFeatures)).toBe(true);
    expect(evalCfgAttr('cfg(feature = "nowhere")', withFeatures)).toBe(false);
    expect(evalCfgAttr('cfg(riscv_only)', withFeatures)).toBe(false);
    expect(evalCfgAttr('cfg(const_fns)', withFeatures)).toBe(true);
    expect(evalCfgAttr('cfg(before_199)', withFeatures)).toBe(true);
    expect(evalCfgAttr('cfg(unread)', withFeatures)).toBeUndefined();
  });

  it('knows nothing of custom cfgs when the script builds their names (format!, autocfg)', () => {
    const built = buildScriptCfgs('fn main() { let ac = autocfg::new(); ac.emit_has_type("i128"); println!("cargo:rustc-cfg={}", "x"); }');
    expect(built.closed).toBe(false);
    expect(evalCfgAttr('cfg(has_i128)', Object.assign(defaultFeatures(undefined), { buildCfgs: built }))).toBeUndefined();
  });

  it('is not sure of a cfg set after main may have left, of a major version check, or of names other code holds', () => {
    const early = buildScriptCfgs(
      'fn main() {\n    if env::var("TARGET").is_err() { return; }\n    if minor < 40 {\n        println!("cargo:rustc-cfg=old");\n    }\n    println!("cargo:rustc-cfg=after");\n}\n',
    );
    expect(early.known.get('old')).toBe(false);
    expect(early.known.has('after')).toBe(false);
    // Leaving when the compiler's version cannot be read does not happen on the assumed build (crc32fast).
    const version = buildScriptCfgs(
      'fn main() {\n    let v = match rustc_minor_version() { Some(v) => v, None => return };\n    if v.minor < 40 {\n        println!("cargo:rustc-cfg=old");\n    }\n    println!("cargo:rustc-cfg=current");\n}\n',
    );
    expect(version.known.get('old')).toBe(false);
    expect(version.known.get('current')).toBe(true);
    // Another exit after a version read is still an exit.
    const other = buildScriptCfgs(
      'fn main() {\n    if let Some(minor) = rustc_minor_version() { if minor >= 40 { println!("cargo:rustc-cfg=new") } }\n    let t = match env::var_os("CARGO_CFG_FOO") { Some(t) => t, None => return };\n    println!("cargo:rustc-cfg=after");\n}\n',
    );
    expect(other.known.has('after')).toBe(false);
    const major = buildScriptCfgs('fn main() {\n    if version.major < 2 {\n        println!("cargo:rustc-cfg=rust1");\n    }\n}\n');
    expect(major.known.has('rust1')).toBe(false);
    expect(buildScriptCfgs('mod probes;\nfn main() { probes::run(); }\n').closed).toBe(false);
  });

  it('reads a cfg list of several predicates as no cfg at all', () => {
    expect(evalCfgAttr('cfg(unix, windows)', defaultFeatures(undefined))).toBeUndefined();
  });
});

// A build script's custom cfgs, read by evaluating its `fn main` on the assumed build (Linux
// x86_64, a current stable rustc, default features, no RUSTFLAGS).
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuildScriptCfgs, NO_BUILD_SCRIPT } from '../src/crates/build-script-cfgs.js';
import { readBuildScript } from '../src/crates/build-script-eval.js';
import { defaultFeatures, evalCfgAttr } from '../src/crates/cfg.js';
import { RustSyntax } from '../src/syntax/rust-syntax.js';
import { GRAMMAR } from './helpers/analyze-project.js';

const syntax = new RustSyntax({ grammar: GRAMMAR });
beforeAll(() => syntax.initialize());

/** The script's cfgs with these features on and these package files present (path → text). */
function read(
  script: string | string[],
  opts: { features?: string[]; files?: Record<string, string>; pkg?: { name?: string; version?: string } } = {},
): BuildScriptCfgs {
  const files = new Map(Object.entries(opts.files ?? {}));
  const key = (p: string) => p.replace(/^\.\//, '');
  return readBuildScript(Array.isArray(script) ? script.join('\n') : script, {
    features: new Set(opts.features ?? []),
    ...(opts.pkg ? { pkg: opts.pkg } : {}),
    exists: (p) => files.has(key(p)),
    read: (p) => files.get(key(p)),
    parse: (text) => syntax.parseScript(text),
  });
}

/** cfg → true (set), false (off) or undefined (unknown), as cfg.ts reads it with these cfgs. */
function value(cfgs: BuildScriptCfgs, cfg: string, features: string[] = []): boolean | undefined {
  return evalCfgAttr(`cfg(${cfg})`, Object.assign(new Set(features), { buildCfgs: cfgs }));
}

describe('a build script read by evaluating it', () => {
  it('reads rustc version and nightly checks against a current stable compiler, the target, and what it always sets', () => {
    const cfgs = read([
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
    ]);
    expect([...cfgs.known].sort()).toEqual([
      ['always', true],
      ['has_new_api', true],
      ['no_atomics', false],
      ['stable_only', true],
      ['syn_no_const_vec_new', false],
    ]);
    expect(cfgs.closed).toBe(true);
    expect(value(cfgs, 'not(syn_no_const_vec_new)')).toBe(true);
    // A comment is no cfg line; a cfg no build script names is off.
    expect(value(cfgs, 'in_a_comment')).toBe(false);
    expect(value(cfgs, 'tokio_unstable')).toBe(false);
    expect(evalCfgAttr('cfg(loom)', Object.assign(defaultFeatures(undefined), { buildCfgs: NO_BUILD_SCRIPT }))).toBe(false);
  });

  it("reads features a build script sets, under target checks, version helpers and version_check's stable answers", () => {
    const cfgs = read([
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
    ]);
    const withFeatures = Object.assign(defaultFeatures({ default: ['std'], std: [] }), { buildCfgs: cfgs });
    expect(evalCfgAttr('cfg(feature = "folded_multiply")', withFeatures)).toBe(true);
    expect(evalCfgAttr('cfg(feature = "specialize")', withFeatures)).toBe(false);
    expect(evalCfgAttr('cfg(feature = "std")', withFeatures)).toBe(true);
    expect(evalCfgAttr('cfg(feature = "nowhere")', withFeatures)).toBe(false);
    expect(value(cfgs, 'riscv_only')).toBe(false);
    expect(value(cfgs, 'const_fns')).toBe(true);
    expect(value(cfgs, 'before_199')).toBe(true);
    expect(value(cfgs, 'unread')).toBeUndefined();
  });

  it('reads autocfg: version checks and sysroot crates of the assumed build known, compiled probes unknown', () => {
    const cfgs = read([
      'extern crate autocfg;',
      'use autocfg::AutoCfg;',
      'fn main() {',
      '    let ac = autocfg::new();',
      '    if ac.probe_rustc_version(1, 61) { println!("cargo:rustc-cfg=has_const_fn_trait_bound"); }',
      '    if !ac.probe_rustc_version(1, 36) { autocfg::emit("no_maybe_uninit"); }',
      '    ac.emit_rustc_version(1, 40);',
      '    ac.emit_rustc_version(2, 0);',
      '    ac.emit_sysroot_crate("alloc");',
      '    ac.emit_has_type("i128");',
      '    ac.emit_expression_cfg("1u32.reverse_bits()", "has_reverse_bits");',
      '    if ac.probe_path("std::ptr::addr_of") { autocfg::emit("has_addr_of"); }',
      '    match AutoCfg::new() {',
      '        Ok(checked) => checked.emit_sysroot_crate("std"),',
      '        Err(_) => autocfg::emit("no_autocfg"),',
      '    }',
      '    autocfg::rerun_path("build.rs");',
      '}',
    ]);
    expect(cfgs.closed).toBe(true);
    expect(value(cfgs, 'has_const_fn_trait_bound')).toBe(true);
    expect(value(cfgs, 'no_maybe_uninit')).toBe(false);
    expect(value(cfgs, 'rustc_1_40')).toBe(true);
    expect(value(cfgs, 'rustc_2_0')).toBe(false);
    expect(value(cfgs, 'has_alloc')).toBe(true);
    expect(value(cfgs, 'has_std')).toBe(true);
    expect(value(cfgs, 'no_autocfg')).toBe(false);
    // What only compiling the probe can tell.
    expect(value(cfgs, 'has_i128')).toBeUndefined();
    expect(value(cfgs, 'has_reverse_bits')).toBeUndefined();
    expect(value(cfgs, 'has_addr_of')).toBeUndefined();
    // A cfg it never names is off.
    expect(value(cfgs, 'unnamed')).toBe(false);
  });

  it('applies a std method named as a function (num-bigint: `.map(String::as_str) == Ok("64")`)', () => {
    const cfgs = read([
      'use std::env;',
      'fn main() {',
      '    let pointer_width = env::var("CARGO_CFG_TARGET_POINTER_WIDTH");',
      '    let u64_digit = pointer_width.as_ref().map(String::as_str) == Ok("64");',
      '    if u64_digit { autocfg::emit("u64_digit"); }',
      '    let os = env::var("CARGO_CFG_TARGET_OS").ok().map(|s| s.to_string());',
      '    if os.as_deref().map(str::trim) == Some("windows") { autocfg::emit("windows_only"); }',
      '    if env::var("DOCS_RS").ok().map(String::from).is_some() { autocfg::emit("docs"); }',
      '}',
    ]);
    expect(value(cfgs, 'u64_digit')).toBe(true);
    expect(value(cfgs, 'windows_only')).toBe(false);
    expect(value(cfgs, 'docs')).toBe(false);
  });

  it('leaves any cfg unknown when an autocfg emitter is out of its sight (an unknown method, a macro, a name it cannot read)', () => {
    expect(read('fn main() { let ac = autocfg::new(); ac.emit_future_probe("x"); }').closed).toBe(false);
    expect(read('fn main() { let ac = autocfg::new(); let name = format!("has_{:?}", 1); autocfg::emit(&name); }').closed).toBe(false);
    expect(
      read(
        'macro_rules! probe { ($ac:expr, $e:expr) => { $ac.emit_expression_cfg($e, "has_e") } }\nfn main() { let ac = autocfg::new(); }\n',
      ).closed,
    ).toBe(false);
    // A helper the run cannot follow the call of (its caller's argument is unknown).
    const helper = read(
      'fn probe(ac: &autocfg::AutoCfg) { ac.emit_has_type("u128"); }\nfn main() { let ac = autocfg::new(); run_elsewhere(probe); }\n',
    );
    expect(helper.closed).toBe(false);
  });

  it('knows nothing of custom cfgs when the script builds names it cannot know (a value of the machine, a module elsewhere)', () => {
    const machine = read('fn main() { let j = std::env::var("NUM_JOBS").unwrap(); println!("cargo:rustc-cfg=jobs_{}", j); }');
    expect(machine.closed).toBe(false);
    expect(read('mod probes;\nfn main() { probes::run(); }\n').closed).toBe(false);
  });

  it('is not sure of a cfg set after main may have left, and knows main left when Cargo does not set what it reads', () => {
    const early = read(
      'fn main() {\n    if other_check() { return; }\n    if minor < 40 {\n        println!("cargo:rustc-cfg=old");\n    }\n    println!("cargo:rustc-cfg=after");\n}\n',
    );
    expect(early.known.get('old')).toBe(false);
    expect(early.known.has('after')).toBe(false);
    expect(early.emitted.has('after')).toBe(true);
    // Cargo sets TARGET for every build script: this `return` is not taken.
    expect(
      read('fn main() {\n    if std::env::var("TARGET").is_err() { return; }\n    println!("cargo:rustc-cfg=after");\n}\n').known.get(
        'after',
      ),
    ).toBe(true);
    // Leaving when the compiler's version cannot be read does not happen on the assumed build (crc32fast).
    const version = read(
      'fn main() {\n    let v = match rustc_minor_version() { Some(v) => v, None => return };\n    if v.minor < 40 {\n        println!("cargo:rustc-cfg=old");\n    }\n    println!("cargo:rustc-cfg=current");\n}\n',
    );
    expect(version.known.get('old')).toBe(false);
    expect(version.known.get('current')).toBe(true);
    // A custom cfg comes from RUSTFLAGS, which a default build has none of: main returns here.
    const custom = read(
      'fn main() {\n    let t = match std::env::var_os("CARGO_CFG_FOO") { Some(t) => t, None => return };\n    println!("cargo:rustc-cfg=after");\n}\n',
    );
    expect(custom.known.get('after')).toBe(false);
    const major = read('fn main() {\n    if version.major < 2 {\n        println!("cargo:rustc-cfg=rust1");\n    }\n}\n');
    expect(major.known.has('rust1')).toBe(false);
  });

  it('follows helper functions, consts, file checks and the features Cargo sets, as rustix 0.35 chooses its backend', () => {
    const script = [
      'use std::env::var;',
      'use std::io::Write;',
      'const OUTLINE_PATH: &str = "src/backend/linux_raw/arch/outline";',
      'fn main() {',
      '    use_feature_or_nothing("rustc_attrs");',
      '    #[cfg(not(feature = "std"))]',
      '    {',
      '        use_feature_or_nothing("core_ffi_c");',
      '    }',
      '    let arch = var("CARGO_CFG_TARGET_ARCH").unwrap();',
      '    let asm_name = format!("{}/{}.s", OUTLINE_PATH, arch);',
      '    let asm_name_present = std::fs::metadata(&asm_name).is_ok();',
      '    let os_name = var("CARGO_CFG_TARGET_OS").unwrap();',
      '    let pointer_width = var("CARGO_CFG_TARGET_POINTER_WIDTH").unwrap();',
      '    let is_x32 = arch == "x86_64" && pointer_width == "32";',
      '    let feature_use_libc = var("CARGO_FEATURE_USE_LIBC").is_ok();',
      '    let miri = var("CARGO_CFG_MIRI").is_ok();',
      '    if feature_use_libc || os_name != "linux" || !asm_name_present || is_x32 || miri {',
      '        use_feature("libc");',
      '    } else {',
      '        use_feature("linux_raw");',
      '        if can_compile("use std::arch::asm;") {',
      '            use_feature("asm");',
      '        } else {',
      '            use_feature("outline_asm");',
      '        }',
      '    }',
      '}',
      'fn use_feature_or_nothing(feature: &str) {',
      '    if has_feature(feature) {',
      '        use_feature(feature);',
      '    }',
      '}',
      'fn use_feature(feature: &str) {',
      '    println!("cargo:rustc-cfg={}", feature);',
      '}',
      'fn has_feature(feature: &str) -> bool {',
      '    can_compile(&format!("#![allow(stable_features)]\\n#![feature({})]", feature))',
      '}',
      'fn can_compile(code: &str) -> bool {',
      '    let rustc = var("RUSTC").unwrap();',
      '    let mut child = std::process::Command::new(rustc).arg("-").spawn().unwrap();',
      '    writeln!(child.stdin.take().unwrap(), "{}", code).unwrap();',
      '    child.wait().unwrap().success()',
      '}',
    ];
    const linuxRaw = read(script, { features: ['std', 'default'], files: { 'src/backend/linux_raw/arch/outline/x86_64.s': '' } });
    expect(linuxRaw.closed).toBe(true);
    expect(value(linuxRaw, 'linux_raw')).toBe(true);
    expect(value(linuxRaw, 'libc')).toBe(false);
    // A nightly feature probe fails on a stable compiler; a probe of stable code is not known.
    expect(value(linuxRaw, 'rustc_attrs')).toBe(false);
    expect(value(linuxRaw, 'asm')).toBeUndefined();
    expect(value(linuxRaw, 'outline_asm')).toBeUndefined();
    // The block under `#[cfg(not(feature = "std"))]` is not compiled with std on.
    expect(value(linuxRaw, 'core_ffi_c')).toBe(false);
    // Without the outline file, or with the use-libc feature, the libc backend.
    expect(value(read(script, { features: ['std'] }), 'libc')).toBe(true);
    const useLibc = read(script, { features: ['std', 'use-libc'], files: { 'src/backend/linux_raw/arch/outline/x86_64.s': '' } });
    expect(value(useLibc, 'libc')).toBe(true);
    expect(value(useLibc, 'linux_raw')).toBe(false);
  });

  it('reads match on the target, closures over env values and early returns of helpers, as memchr 2.5 does', () => {
    const script = [
      'use std::env;',
      'fn main() {',
      '    enable_simd_optimizations();',
      '    enable_libc();',
      '}',
      'fn enable_simd_optimizations() {',
      '    if is_env_set("CARGO_CFG_MEMCHR_DISABLE_AUTO_SIMD") {',
      '        return;',
      '    }',
      '    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap();',
      '    match &arch[..] {',
      '        "x86_64" => {',
      '            if !target_has_feature("sse2") {',
      '                return;',
      '            }',
      '            println!("cargo:rustc-cfg=memchr_runtime_simd");',
      '            println!("cargo:rustc-cfg=memchr_runtime_sse2");',
      '        }',
      '        "wasm32" | "wasm64" => {',
      '            println!("cargo:rustc-cfg=memchr_runtime_wasm128");',
      '        }',
      '        _ => {}',
      '    }',
      '}',
      'fn enable_libc() {',
      '    const NO_ARCH: &\'static [&\'static str] = &["wasm32", "windows"];',
      '    if !is_feature_set("LIBC") {',
      '        return;',
      '    }',
      '    let arch = match env::var("CARGO_CFG_TARGET_ARCH") {',
      '        Err(_) => return,',
      '        Ok(arch) => arch,',
      '    };',
      '    if NO_ARCH.contains(&&*arch) {',
      '        return;',
      '    }',
      '    println!("cargo:rustc-cfg=memchr_libc");',
      '}',
      'fn is_feature_set(name: &str) -> bool {',
      '    is_env_set(&format!("CARGO_FEATURE_{}", name))',
      '}',
      'fn is_env_set(name: &str) -> bool {',
      '    env::var_os(name).is_some()',
      '}',
      'fn target_has_feature(feature: &str) -> bool {',
      '    env::var("CARGO_CFG_TARGET_FEATURE")',
      '        .map(|features| features.contains(feature))',
      '        .unwrap_or(false)',
      '}',
    ];
    const std = read(script, { features: ['std'] });
    expect(std.closed).toBe(true);
    expect(value(std, 'memchr_runtime_simd')).toBe(true);
    expect(value(std, 'memchr_runtime_sse2')).toBe(true);
    expect(value(std, 'memchr_runtime_wasm128')).toBe(false);
    expect(value(std, 'memchr_libc')).toBe(false);
    expect(value(read(script, { features: ['std', 'libc'] }), 'memchr_libc')).toBe(true);
  });

  it("walks the target's feature list as Cargo gives it (httparse)", () => {
    const cfgs = read([
      'use std::env;',
      'fn main() {',
      '    let list = match env::var_os("CARGO_CFG_TARGET_FEATURE") {',
      '        Some(v) => match v.into_string() { Ok(s) => s, Err(_) => return },',
      '        None => return,',
      '    };',
      "    for feature in list.split(',') {",
      '        let feature = feature.trim();',
      '        if feature == "sse4.2" { println!("cargo:rustc-cfg=sse42"); }',
      '        if feature == "sse2" { println!("cargo:rustc-cfg=has_sse2"); }',
      '    }',
      '}',
    ]);
    expect(value(cfgs, 'sse42')).toBe(false);
    expect(value(cfgs, 'has_sse2')).toBe(true);
  });

  it("reads what a rustc version helper gives as the assumed compiler's version, whatever the variable is called (anyhow, semver)", () => {
    const cfgs = read([
      'fn main() {',
      '    let rustc = match rustc_minor_version() {',
      '        Some(rustc) => rustc,',
      '        None => return,',
      '    };',
      '    if rustc < 51 {',
      '        println!("cargo:rustc-cfg=no_ptr_addr_of");',
      '    }',
      '    let v = rustc_version::version().unwrap();',
      '    if v.major == 1 && v.minor >= 60 {',
      '        println!("cargo:rustc-cfg=has_60");',
      '    }',
      '    println!("cargo:rustc-cfg=after");',
      '}',
      'fn rustc_minor_version() -> Option<u32> {',
      '    let rustc = std::env::var_os("RUSTC")?;',
      '    let output = std::process::Command::new(rustc).arg("--version").output().ok()?;',
      '    let version = std::str::from_utf8(&output.stdout).ok()?;',
      "    let mut pieces = version.split('.');",
      '    if pieces.next() != Some("rustc 1") {',
      '        return None;',
      '    }',
      '    pieces.next()?.parse().ok()',
      '}',
    ]);
    expect(value(cfgs, 'no_ptr_addr_of')).toBe(false);
    expect(value(cfgs, 'has_60')).toBe(true);
    expect(value(cfgs, 'after')).toBe(true);
  });

  it('reads a probe of nightly code held in a const as failing, its exit status as no success (anyhow)', () => {
    const cfgs = read([
      'const PROBE: &str = r#"',
      '    #![feature(error_generic_member_access)]',
      '    fn main() {}',
      '"#;',
      'fn main() {',
      '    match compile_probe() {',
      '        Some(status) if status.success() => println!("cargo:rustc-cfg=backtrace"),',
      '        _ => {}',
      '    }',
      '}',
      'fn compile_probe() -> Option<std::process::ExitStatus> {',
      '    let out_dir = std::env::var_os("OUT_DIR")?;',
      '    std::fs::write(std::path::Path::new(&out_dir).join("probe.rs"), PROBE).ok()?;',
      '    std::process::Command::new("rustc").arg("probe.rs").status().ok()',
      '}',
    ]);
    expect(value(cfgs, 'backtrace')).toBe(false);
  });

  it("reads the target lists an include! of the package brings (crossbeam's no_atomic.rs), and knows nothing of an include! it cannot read", () => {
    const script = [
      'include!("no_atomic.rs");',
      'fn main() {',
      '    let target = match std::env::var("TARGET") { Ok(t) => t, Err(_) => return };',
      '    if NO_ATOMIC_CAS.contains(&&*target) {',
      '        println!("cargo:rustc-cfg=no_atomic_cas");',
      '    }',
      '    if !NO_ATOMIC_CAS.contains(&&*target) {',
      '        println!("cargo:rustc-cfg=has_cas");',
      '    }',
      '}',
    ];
    const cfgs = read(script, {
      files: { 'no_atomic.rs': 'const NO_ATOMIC_CAS: &[&str] = &[\n    "thumbv6m-none-eabi",\n    "riscv32i-unknown-none-elf",\n];\n' },
    });
    expect(cfgs.closed).toBe(true);
    expect(value(cfgs, 'no_atomic_cas')).toBe(false);
    expect(value(cfgs, 'has_cas')).toBe(true);
    const missing = read(script);
    expect(missing.closed).toBe(false);
    expect(value(missing, 'has_cas')).toBeUndefined();
  });

  it('is not sure of cfgs printed in code it cannot follow, and knows those of helpers never called are off', () => {
    const cfgs = read([
      'fn main() {',
      '    std::thread::spawn(|| println!("cargo:rustc-cfg=in_a_closure"));',
      '    for f in ["a", "b"] { println!("cargo:rustc-cfg=loop_{}", f); }',
      '    let mut n = 0;',
      '    while n < 3 { n += 1; println!("cargo:rustc-cfg=in_while"); }',
      '}',
      'fn unused() { println!("cargo:rustc-cfg=never"); }',
    ]);
    expect(value(cfgs, 'in_a_closure')).toBeUndefined();
    expect(value(cfgs, 'loop_a')).toBe(true);
    expect(value(cfgs, 'loop_b')).toBe(true);
    expect(value(cfgs, 'in_while')).toBeUndefined();
    expect(value(cfgs, 'never')).toBe(false);
    expect(cfgs.closed).toBe(true);
    // A method of the script's own type is not followed (winapi's `Graph::emit_features`): any cfg may be set.
    const method = read([
      "struct Graph(Vec<&'static str>);",
      'impl Graph {',
      '    fn emit_features(&self) { for name in &self.0 { println!("cargo:rustc-cfg=feature=\\"{}\\"", name); } }',
      '}',
      'fn main() { Graph(vec!["a"]).emit_features(); }',
    ]);
    expect(method.closed).toBe(false);
  });

  it('reads a probe compiling #![feature] written into the compiler (io-lifetimes) as failing, another probe as unknown', () => {
    const cfgs = read([
      'use std::env::var;',
      'use std::io::Write;',
      'fn main() {',
      '    use_feature_or_nothing("rustc_attrs");',
      '    if has_panic_in_const_fn() {',
      '        use_feature("panic_in_const_fn")',
      '    }',
      '}',
      'fn use_feature_or_nothing(feature: &str) { if has_feature(feature) { use_feature(feature); } }',
      'fn use_feature(feature: &str) { println!("cargo:rustc-cfg={}", feature); }',
      'fn has_feature(feature: &str) -> bool {',
      '    let mut child = std::process::Command::new(var("RUSTC").unwrap()).spawn().unwrap();',
      '    writeln!(child.stdin.take().unwrap(), "#![feature({})]", feature).unwrap();',
      '    child.wait().unwrap().success()',
      '}',
      'fn has_panic_in_const_fn() -> bool {',
      '    let mut child = std::process::Command::new(var("RUSTC").unwrap()).spawn().unwrap();',
      '    writeln!(child.stdin.take().unwrap(), "const fn foo() {{ panic!() }}").unwrap();',
      '    child.wait().unwrap().success()',
      '}',
    ]);
    expect(value(cfgs, 'rustc_attrs')).toBe(false);
    expect(value(cfgs, 'panic_in_const_fn')).toBeUndefined();
  });

  it('stops on a script that would run away (recursion, a string doubled in a loop, a deep chain of calls)', () => {
    const ones = Array.from({ length: 200 }, () => '1').join(', ');
    const cfgs = read([
      'fn main() {',
      '    let mut s = String::from("a");',
      `    for _ in [${ones}] { s = s.clone() + &s; }`,
      '    println!("cargo:rustc-cfg={}", s);',
      '    forever(1);',
      '    println!("cargo:rustc-cfg=after");',
      '}',
      'fn forever(n: u32) -> u32 { forever(n + 1) }',
    ]);
    expect(cfgs.closed).toBe(false);
    expect(value(cfgs, 'after')).toBe(true);
    // Loops in loops past the evaluator's step budget: nothing of the script is known.
    const loops = read([
      'fn main() {',
      '    let mut n = 0;',
      `    for a in [${ones}] { for b in [${ones}] { for c in [${ones}] { n += a * b * c; } } }`,
      '    println!("cargo:rustc-cfg=counted");',
      '}',
    ]);
    expect(loops.closed).toBe(false);
    expect(loops.known.size).toBe(0);
  });

  it("follows let-else, string and list methods, Option combinators and a script's own closures", () => {
    const cfgs = read(
      [
        'use std::env;',
        'fn main() {',
        '    let Ok(target) = env::var("TARGET") else { return };',
        '    let parts: Vec<&str> = target.split("-").collect();',
        '    if parts.len() == 4 && !parts.is_empty() && parts.iter().all(|p| !p.is_empty()) {',
        '        println!("cargo:rustc-cfg=four_parts");',
        '    }',
        '    if parts.iter().any(|p| p.trim() == "linux") && target.ends_with("-gnu") {',
        '        println!("cargo:rustc-cfg=linux_gnu");',
        '    }',
        '    let arch = env::var("CARGO_CFG_TARGET_ARCH").ok().and_then(|a| if a.starts_with("x86") { Some(a) } else { None });',
        '    if arch.map_or(false, |a| a.replace("_", "-") == "x86-64") {',
        '        println!("cargo:rustc-cfg=x86_64_dashed");',
        '    }',
        '    let opt = env::var("OPT_LEVEL").unwrap_or_else(|_| String::from("3"));',
        '    let fast = |level: &str| level != "0";',
        '    if fast(&opt) {',
        '        println!("cargo:rustc-cfg=optimized");',
        '    }',
        '    let name = env::var("CARGO_PKG_NAME").unwrap();',
        '    if name.to_uppercase() == "DEMO" && name.contains("em") {',
        '        println!("cargo:rustc-cfg=named_demo");',
        '    }',
        '    let Some(_missing) = env::var_os("DOCS_RS") else { return };',
        '    println!("cargo:rustc-cfg=docs_rs");',
        '}',
      ],
      { pkg: { name: 'demo' } },
    );
    expect(value(cfgs, 'four_parts')).toBe(true);
    expect(value(cfgs, 'linux_gnu')).toBe(true);
    expect(value(cfgs, 'x86_64_dashed')).toBe(true);
    expect(value(cfgs, 'optimized')).toBe(false);
    expect(value(cfgs, 'named_demo')).toBe(true);
    // DOCS_RS is unset in a default build: `let … else` returns before it is printed.
    expect(value(cfgs, 'docs_rs')).toBe(false);
  });

  it('knows nothing of a script it cannot read', () => {
    const none = read('// no main here\n');
    expect(none.closed).toBe(false);
    expect(none.known.size).toBe(0);
  });
});

// A Cargo workspace of 30 member crates with what real Rust repositories hold and a structural
// reader stumbles on: path dependencies from crate to crate (`c07::run` calls `c06::run`), one
// through `[workspace.dependencies]`, a re-export, a trait implemented in another crate, a
// `build.rs` whose output is included from OUT_DIR (not in the repository), macros by example
// with calls in their bodies, `#[cfg(unix)]`/`#[cfg(windows)]` duplicates of one function, a
// binary and an integration test using their package's library, and a module with syntax
// errors. Apart from that module, every crate is valid Rust that `cargo check` would accept.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Member crates: `c00` … `c29`. */
export const CRATE_COUNT = 30;

/** The crate name of member `i` (`c07`). */
export const crateName = (i: number): string => `c${String(i).padStart(2, '0')}`;

/** The files that hold each special case, relative to the workspace root. */
export const SPECIAL = {
  /** `c03`'s build script: writes `gen.rs` into OUT_DIR. */
  buildScript: 'crates/c03/build.rs',
  /** `c03`'s lib: `include!(concat!(env!("OUT_DIR"), "/gen.rs"))`, and a call of `generated_table` defined there. */
  generatedInclude: 'crates/c03/src/lib.rs',
  /** `c10` defines a `generated_table` too: what name matching would link `c03::run`'s call to. */
  decoy: 'crates/c10/src/lib.rs',
  /** `c05::Counter`, re-exported by `c05`'s lib (`pub use counter::Counter`). */
  reExported: 'crates/c05/src/counter.rs',
  /** `c08::Stage`, a trait, and `c08::drive`, which calls it through `&dyn Stage`. */
  trait: 'crates/c08/src/lib.rs',
  /** `c09::Gear`, implementing `c08::Stage`. */
  traitImpl: 'crates/c09/src/lib.rs',
  /** `c12`: macros by example (`twice!` calls `note()` in its body) and their invocations. */
  macros: 'crates/c12/src/lib.rs',
  /** `c13`: invokes `c12`'s exported `call_run!`, whose body names `$crate::run`. */
  macroUser: 'crates/c13/src/lib.rs',
  /** `c17`: `platform_name` twice, under `#[cfg(unix)]` and `#[cfg(windows)]`. */
  cfgDuplicates: 'crates/c17/src/lib.rs',
  /** `c20::net::tcp::connect`, in a module directory. */
  nestedModule: 'crates/c20/src/net/tcp.rs',
  /** `c21::broken`: syntax errors between two good functions. */
  syntaxErrors: 'crates/c21/src/broken.rs',
  /** `c29`'s binary, calling its package's lib. */
  binary: 'crates/c29/src/main.rs',
  /** `c29`'s integration test, calling its package's lib. */
  integrationTest: 'crates/c29/tests/smoke.rs',
} as const;

/** Lines of Rust, joined with a final newline. */
const rs = (...lines: string[]): string => `${lines.join('\n')}\n`;

function memberManifest(i: number): string {
  const lines = ['[package]', `name = "${crateName(i)}"`, 'version.workspace = true', 'edition.workspace = true', ''];
  if (i === 1) lines.push('[dependencies]', 'c00 = { workspace = true }', '');
  else if (i > 1) lines.push('[dependencies]', `${crateName(i - 1)} = { path = "../${crateName(i - 1)}" }`, '');
  return lines.join('\n');
}

/** `pub fn run() -> u64` of member `i`: the previous member's `run` plus `extra`. */
function runFn(i: number, extra = `${i}`): string[] {
  return i === 0 ? ['pub fn run() -> u64 {', '    0', '}'] : ['pub fn run() -> u64 {', `    ${crateName(i - 1)}::run() + ${extra}`, '}'];
}

/** The lib.rs of an ordinary member and of the special ones. */
function memberLib(i: number): string {
  const name = crateName(i);
  switch (name) {
    case 'c03':
      return rs(
        '//! A crate with a build script: `generated_table` is defined in `gen.rs`, which build.rs',
        '//! writes into OUT_DIR at build time; the repository does not hold it.',
        '',
        'include!(concat!(env!("OUT_DIR"), "/gen.rs"));',
        '',
        ...runFn(i, 'generated_table().len() as u64'),
      );
    case 'c05':
      return rs('//! Re-exports its counter.', '', 'mod counter;', '', 'pub use counter::Counter;', '', ...runFn(i));
    case 'c06':
      return rs(
        'use c05::Counter;',
        '',
        'pub fn run() -> u64 {',
        '    let mut counter = Counter::new();',
        '    counter.bump();',
        '    c05::run() + counter.bump()',
        '}',
      );
    case 'c08':
      return rs(
        '/// One step of a pipeline.',
        'pub trait Stage {',
        '    fn step(&self) -> u64;',
        '}',
        '',
        '/// Runs any stage.',
        'pub fn drive(stage: &dyn Stage) -> u64 {',
        '    stage.step()',
        '}',
        '',
        ...runFn(i),
      );
    case 'c09':
      return rs(
        'use c08::Stage;',
        '',
        'pub struct Gear;',
        '',
        'impl Stage for Gear {',
        '    fn step(&self) -> u64 {',
        '        9',
        '    }',
        '}',
        '',
        ...runFn(i, 'c08::drive(&Gear)'),
      );
    case 'c10':
      return rs(
        '/// Same name as the function c03 includes from OUT_DIR: a name match would link them.',
        "pub fn generated_table() -> &'static [u8] {",
        '    &[]',
        '}',
        '',
        ...runFn(i, 'generated_table().len() as u64'),
      );
    case 'c12':
      return rs(
        '//! Macros by example: calls in their bodies, items they define, invocations inside invocations.',
        '',
        '/// Doubles an expression, noting it first.',
        'macro_rules! twice {',
        '    ($e:expr) => {{',
        '        note();',
        '        $e + $e',
        '    }};',
        '}',
        '',
        '/// Defines a function returning a constant.',
        'macro_rules! constant_fn {',
        '    ($name:ident, $value:expr) => {',
        '        pub fn $name() -> u64 {',
        '            $value',
        '        }',
        '    };',
        '}',
        '',
        "/// This crate's `run`, from any crate.",
        '#[macro_export]',
        'macro_rules! call_run {',
        '    () => {',
        '        $crate::run()',
        '    };',
        '}',
        '',
        'fn note() {}',
        '',
        'constant_fn!(twelve, 12);',
        'constant_fn!(thirteen, 13);',
        '',
        'pub fn run() -> u64 {',
        '    c11::run() + twice!(twelve()) + twice!(thirteen())',
        '}',
        '',
        'pub fn nested() -> u64 {',
        '    twice!(twice!(twelve()))',
        '}',
        '',
        '#[cfg(test)]',
        'mod tests {',
        '    use super::*;',
        '',
        '    #[test]',
        '    fn doubles() {',
        '        assert_eq!(twice!(2), 4);',
        '        assert!(nested() > 0, "{}", format!("{:?}", vec![run()]));',
        '    }',
        '}',
      );
    case 'c13':
      return rs(...runFn(i), '', 'pub fn again() -> u64 {', '    c12::call_run!() + c12::nested()', '}');
    case 'c14':
      return rs(
        ...runFn(i),
        '',
        'pub fn report() -> String {',
        '    let values = vec![c13::run(), c13::again()];',
        '    println!("{}", values.len());',
        '    format!("{:?} {}", values, c13::run())',
        '}',
      );
    case 'c17':
      return rs(
        "/// The platform's name, on Unix.",
        '#[cfg(unix)]',
        "pub fn platform_name() -> &'static str {",
        '    "unix"',
        '}',
        '',
        "/// The platform's name, on Windows.",
        '#[cfg(windows)]',
        "pub fn platform_name() -> &'static str {",
        '    "windows"',
        '}',
        '',
        ...runFn(i, 'platform_name().len() as u64'),
      );
    case 'c20':
      return rs('pub mod net;', '', ...runFn(i, 'net::tcp::connect()'));
    case 'c21':
      return rs('pub mod broken;', '', ...runFn(i));
    default:
      return rs(`//! Member ${name} of the workspace.`, '', ...runFn(i));
  }
}

/**
 * The workspace's files, path (relative to the root) → text: the root manifest, a shell script
 * (a language lang-structural serves, so that it runs beside lang-rust), and the members.
 */
export function workspaceFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'Cargo.toml': [
      '[workspace]',
      'members = ["crates/*"]',
      'resolver = "2"',
      '',
      '[workspace.package]',
      'version = "0.1.0"',
      'edition = "2021"',
      '',
      '[workspace.dependencies]',
      'c00 = { path = "crates/c00" }',
      '',
    ].join('\n'),
    'scripts/check.sh': '#!/bin/sh\nset -e\ncargo check --workspace\n',
  };
  for (let i = 0; i < CRATE_COUNT; i++) {
    const dir = `crates/${crateName(i)}`;
    files[`${dir}/Cargo.toml`] = memberManifest(i);
    files[`${dir}/src/lib.rs`] = memberLib(i);
  }
  files[SPECIAL.buildScript] = rs(
    'use std::{env, fs, path::Path};',
    '',
    'fn main() {',
    '    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");',
    '    let table = "pub fn generated_table() -> &\'static [u8] { &[1, 2, 3] }\\n";',
    '    fs::write(Path::new(&out).join("gen.rs"), table).expect("OUT_DIR is writable");',
    '    println!("cargo:rerun-if-changed=build.rs");',
    '}',
  );
  files[SPECIAL.reExported] = rs(
    'pub struct Counter {',
    '    n: u64,',
    '}',
    '',
    'impl Counter {',
    '    pub fn new() -> Self {',
    '        Counter { n: 0 }',
    '    }',
    '',
    '    pub fn bump(&mut self) -> u64 {',
    '        self.n += 1;',
    '        self.n',
    '    }',
    '}',
  );
  files['crates/c20/src/net/mod.rs'] = rs('pub mod tcp;');
  files[SPECIAL.nestedModule] = rs('pub fn connect() -> u64 {', '    20', '}');
  files[SPECIAL.syntaxErrors] = rs(
    'pub fn before_the_break() -> u64 {',
    '    super::run()',
    '}',
    '',
    'pub fn unfinished(x: u64 -> u64 {',
    '    let y = ;',
    '    x +',
    '}',
    '',
    'pub fn after_the_break() -> u64 {',
    '    before_the_break()',
    '}',
  );
  files[SPECIAL.binary] = rs('fn main() {', '    println!("{}", c29::run());', '}');
  files[SPECIAL.integrationTest] = rs('#[test]', 'fn smoke() {', '    assert!(c29::run() > 0);', '}');
  return files;
}

/** The `.rs` files of {@link workspaceFiles}, sorted. */
export function rustFiles(): string[] {
  return Object.keys(workspaceFiles())
    .filter((p) => p.endsWith('.rs'))
    .sort();
}

/** Writes the workspace into `root` (default: a new temp directory) and returns `root`. */
export function writeWorkspace(root: string = mkdtempSync(join(tmpdir(), 'lang-rust-workspace-'))): string {
  for (const [path, text] of Object.entries(workspaceFiles())) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

// A small Rust crate, the SCIP index rust-analyzer would write for it, the plugin's view of its
// definitions (the callbacks the upgrade asks), and a stand-in `rust-analyzer` executable.
// rust-analyzer cannot be installed here, so the tests put a script on PATH that checks how it
// is called and writes this index; the symbols follow rust-analyzer's monikers
// (crates/ide/src/moniker.rs: `impl#[Self][Trait]member().`, UTF-8 columns, no relationships).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodeScipIndex, type ScipDocumentSpec, type ScipOccurrenceSpec, type ScipSymbolSpec } from '@travsr/sdk/testing';
import type { ScipRustCallbacks } from '../src/scip/scip-rust-edges.js';

export const SOURCES: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/lib.rs': `pub mod ledger;
pub mod store;

use crate::ledger::{audit, check, Ledger};
use crate::store::{Memory, Store};

pub const LIMIT: u32 = limit();

const fn limit() -> u32 {
    100
}

pub fn run(names: &[&str]) -> usize {
    let mut ledger = Ledger::new();
    let mem = Memory::default();
    let note = "é😀"; ledger.post(3);
    let _ = mem.load(note);
    let _ = total(&mem);
    let n = parse::<Vec<u8>>("7");
    let _ = names.iter().filter(|s| check(s)).count();
    let _ = names.iter().map(audit).count();
    run(&[]) + n.len()
}

fn total<S: Store>(s: &S) -> usize {
    s.names().len()
}

fn parse<T: Default>(_: &str) -> T {
    T::default()
}
`,
  'src/ledger.rs': `use std::fmt;

pub struct Ledger {
    entries: Vec<u32>,
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger { entries: Vec::new() }
    }

    pub fn post(&mut self, amount: u32) {
        self.entries.push(amount);
    }

    pub fn show(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt(f)
    }
}

impl fmt::Display for Ledger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.entries.len())
    }
}

pub fn audit(name: &str) -> bool {
    check(name)
}

pub fn check(name: &str) -> bool {
    !name.is_empty()
}
`,
  'src/store/mod.rs': `mod memory;

pub use memory::Memory;

pub trait Store {
    fn load(&self, name: &str) -> Option<u32>;
    fn names(&self) -> Vec<String>;
    const KIND: &'static str;
}
`,
  'src/store/memory.rs': `use super::Store;
use std::collections::BTreeMap;

#[derive(Default)]
pub struct Memory {
    accounts: BTreeMap<String, u32>,
}

impl Store for Memory {
    fn load(&self, name: &str) -> Option<u32> {
        self.accounts.get(name).copied()
    }

    fn names(&self) -> Vec<String> {
        self.accounts.keys().cloned().collect()
    }

    const KIND: &'static str = "memory";
}
`,
};

/** Symbols of the crate (`rust-analyzer cargo <package> <version> <descriptors>`). */
export const SHOP = 'rust-analyzer cargo shop 0.1.0 ';
const CORE = 'rust-analyzer cargo core https://github.com/rust-lang/rust/library/core ';
const ALLOC = 'rust-analyzer cargo alloc https://github.com/rust-lang/rust/library/alloc ';

/** `[line, startChar, endChar]` (0-based line, UTF-8 bytes) of the `nth` `needle` on the first line of `text` holding `lineHolds`. */
export function rangeOf(text: string, lineHolds: string, needle: string, nth = 0): [number, number, number] {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(lineHolds));
  if (line < 0) throw new Error(`fixture: no line with ${lineHolds}`);
  let at = lines[line]!.indexOf(lineHolds) - 1;
  for (let i = 0; i <= nth; i++) {
    at = lines[line]!.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`fixture: no ${needle} on the line with ${lineHolds}`);
  }
  const start = Buffer.byteLength(lines[line]!.slice(0, at));
  return [line, start, start + Buffer.byteLength(needle)];
}

/** An occurrence spec: `[lineHolds, needle, symbol, definition?, nth?]`. */
export type Occ = [string, string, string, boolean?, number?];

/** A document of an index, with occurrences placed in `text` as rust-analyzer places them. */
export function document(path: string, text: string, occurrences: Occ[], symbols: ScipSymbolSpec[] = []): ScipDocumentSpec {
  return {
    path,
    language: 'rust',
    positionEncoding: 1,
    occurrences: occurrences.map(([lineHolds, needle, symbol, definition, nth]): ScipOccurrenceSpec => ({
      range: rangeOf(text, lineHolds, needle, nth),
      symbol,
      ...(definition ? { definition: true } : {}),
    })),
    symbols,
  };
}

/** The documents rust-analyzer writes for {@link SOURCES} (the part these tests read). */
export function fixtureDocuments(): ScipDocumentSpec[] {
  const S = SHOP;
  const lib = SOURCES['src/lib.rs']!;
  const ledger = SOURCES['src/ledger.rs']!;
  const store = SOURCES['src/store/mod.rs']!;
  const memory = SOURCES['src/store/memory.rs']!;
  return [
    document('src/lib.rs', lib, [
      ['pub mod ledger', 'ledger', `${S}ledger/`, true],
      ['use crate::ledger', 'ledger', `${S}ledger/`],
      ['use crate::ledger', 'audit', `${S}ledger/audit().`],
      ['use crate::ledger', 'check', `${S}ledger/check().`],
      ['use crate::ledger', 'Ledger', `${S}ledger/Ledger#`],
      ['use crate::store', 'Memory', `${S}store/memory/Memory#`],
      ['use crate::store', 'Store', `${S}store/Store#`],
      ['pub const LIMIT', 'LIMIT', `${S}LIMIT.`, true],
      ['pub const LIMIT', 'limit', `${S}limit().`],
      ['const fn limit', 'limit', `${S}limit().`, true],
      ['pub fn run', 'run', `${S}run().`, true],
      ['pub fn run', 'names', 'local 0', true],
      ['let mut ledger', 'ledger', 'local 1', true],
      ['Ledger::new()', 'Ledger', `${S}ledger/Ledger#`],
      ['Ledger::new()', 'new', `${S}ledger/impl#[Ledger]new().`],
      ['let mem =', 'mem', 'local 2', true],
      ['Memory::default()', 'Memory', `${S}store/memory/Memory#`],
      // The derived impl has no source: rust-analyzer names the trait's item.
      ['Memory::default()', 'default', `${CORE}default/Default#default().`],
      ['let note', 'note', 'local 3', true],
      ['ledger.post(3)', 'ledger', 'local 1'],
      ['ledger.post(3)', 'post', `${S}ledger/impl#[Ledger]post().`],
      ['mem.load(note)', 'mem', 'local 2'],
      // A concrete receiver: rust-analyzer resolves the call to the impl's method.
      ['mem.load(note)', 'load', `${S}store/memory/impl#[Memory][Store]load().`],
      ['total(&mem)', 'total', `${S}total().`],
      ['parse::<Vec<u8>>', 'parse', `${S}parse().`],
      ['parse::<Vec<u8>>', 'Vec', `${ALLOC}vec/Vec#`],
      ['names.iter().filter', 'iter', `${CORE}slice/impl#[\`[T]\`]iter().`],
      ['names.iter().filter', 'filter', `${CORE}iter/traits/iterator/Iterator#filter().`],
      ['names.iter().filter', 'check', `${S}ledger/check().`],
      // Passed as a value, not called.
      ['map(audit)', 'audit', `${S}ledger/audit().`],
      ['run(&[])', 'run', `${S}run().`],
      ['run(&[])', 'len', `${ALLOC}vec/impl#[\`Vec<T, A>\`]len().`],
      ['fn total', 'total', `${S}total().`, true],
      ['fn total', 'Store', `${S}store/Store#`],
      ['s.names()', 'names', `${S}store/Store#names().`],
      ['fn parse', 'parse', `${S}parse().`, true],
      ['T::default()', 'default', `${CORE}default/Default#default().`],
    ]),
    document('src/ledger.rs', ledger, [
      ['use std::fmt', 'fmt', `${CORE}fmt/`],
      ['pub struct Ledger', 'Ledger', `${S}ledger/Ledger#`, true],
      ['entries: Vec', 'entries', `${S}ledger/Ledger#entries.`, true],
      ['impl Ledger', 'Ledger', `${S}ledger/Ledger#`],
      ['pub fn new', 'new', `${S}ledger/impl#[Ledger]new().`, true],
      ['Ledger { entries', 'Vec', `${ALLOC}vec/Vec#`],
      ['Ledger { entries', 'new', `${ALLOC}vec/impl#[\`Vec<T>\`]new().`],
      ['pub fn post', 'post', `${S}ledger/impl#[Ledger]post().`, true],
      ['self.entries.push', 'push', `${ALLOC}vec/impl#[\`Vec<T, A>\`]push().`],
      ['pub fn show', 'show', `${S}ledger/impl#[Ledger]show().`, true],
      ['pub fn show', 'Formatter', `${CORE}fmt/Formatter#`],
      ['self.fmt(f)', 'fmt', `${S}ledger/impl#[Ledger][\`fmt::Display\`]fmt().`],
      ['impl fmt::Display', 'fmt', `${CORE}fmt/`],
      ['impl fmt::Display', 'Display', `${CORE}fmt/Display#`],
      ['impl fmt::Display', 'Ledger', `${S}ledger/Ledger#`],
      ['fn fmt(&self', 'fmt', `${S}ledger/impl#[Ledger][\`fmt::Display\`]fmt().`, true],
      ['fn fmt(&self', 'Formatter', `${CORE}fmt/Formatter#`],
      ['write!(f', 'write', `${CORE}macros/write!`],
      ['pub fn audit', 'audit', `${S}ledger/audit().`, true],
      ['check(name)', 'check', `${S}ledger/check().`],
      ['pub fn check', 'check', `${S}ledger/check().`, true],
      ['!name.is_empty()', 'is_empty', `${CORE}str/impl#[str]is_empty().`],
    ]),
    document('src/store/mod.rs', store, [
      ['mod memory', 'memory', `${S}store/memory/`, true],
      ['pub use memory::Memory', 'Memory', `${S}store/memory/Memory#`],
      ['pub trait Store', 'Store', `${S}store/Store#`, true],
      ['fn load', 'load', `${S}store/Store#load().`, true],
      ['fn names', 'names', `${S}store/Store#names().`, true],
      ['const KIND', 'KIND', `${S}store/Store#KIND.`, true],
    ]),
    document('src/store/memory.rs', memory, [
      ['use super::Store', 'Store', `${S}store/Store#`],
      ['use std::collections', 'BTreeMap', `${ALLOC}collections/btree/map/BTreeMap#`],
      ['pub struct Memory', 'Memory', `${S}store/memory/Memory#`, true],
      ['accounts: BTreeMap', 'accounts', `${S}store/memory/Memory#accounts.`, true],
      ['impl Store for Memory', 'Store', `${S}store/Store#`],
      ['impl Store for Memory', 'Memory', `${S}store/memory/Memory#`],
      ['fn load', 'load', `${S}store/memory/impl#[Memory][Store]load().`, true],
      ['fn load', 'name', 'local 0', true],
      ['.get(name)', 'get', `${ALLOC}collections/btree/map/impl#[\`BTreeMap<K, V, A>\`]get().`],
      ['fn names', 'names', `${S}store/memory/impl#[Memory][Store]names().`, true],
      ['.keys()', 'keys', `${ALLOC}collections/btree/map/impl#[\`BTreeMap<K, V, A>\`]keys().`],
      ['const KIND', 'KIND', `${S}store/memory/impl#[Memory][Store]KIND.`, true],
    ]),
  ];
}

/** The index rust-analyzer writes for {@link SOURCES} at `root` (its project root is the directory it ran on). */
export function fixtureIndex(root = '/repo', toolVersion = '0.3.2045-standalone'): Uint8Array {
  return encodeScipIndex({ projectRoot: `file://${root}`, toolName: 'rust-analyzer', toolVersion, documents: fixtureDocuments() });
}

/** A definition of the plugin: its signature, the line of its name, and for a function its range (lines). */
interface Def {
  path: string;
  sig: string;
  name: string;
  nameLine: number;
  /** Body lines, for functions: [first, last]. */
  body?: [number, number];
}

/** 1-based line of the first line of `path` holding `needle`. */
export function lineOf(path: string, needle: string): number {
  const i = SOURCES[path]!.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`fixture: no line with ${needle} in ${path}`);
  return i + 1;
}

function def(path: string, sig: string, lineHolds: string, fn?: { to: string }): Def {
  const name = sig.split('::').at(-1)!;
  const nameLine = lineOf(path, lineHolds);
  const out: Def = { path, sig, name, nameLine };
  if (fn) {
    const lines = SOURCES[path]!.split('\n');
    const end = lines.findIndex((l, i) => i >= nameLine && l === fn.to);
    out.body = [nameLine, end + 1];
  }
  return out;
}

/** What the plugin's Phase A would give for {@link SOURCES}: signatures as lang-rust writes them. */
export const DEFINITIONS: Def[] = [
  def('src/lib.rs', 'LIMIT', 'pub const LIMIT'),
  def('src/lib.rs', 'limit', 'const fn limit', { to: '}' }),
  def('src/lib.rs', 'run', 'pub fn run', { to: '}' }),
  def('src/lib.rs', 'total', 'fn total', { to: '}' }),
  def('src/lib.rs', 'parse', 'fn parse', { to: '}' }),
  def('src/ledger.rs', 'Ledger', 'pub struct Ledger'),
  def('src/ledger.rs', 'Ledger::new', 'pub fn new', { to: '    }' }),
  def('src/ledger.rs', 'Ledger::post', 'pub fn post', { to: '    }' }),
  def('src/ledger.rs', 'Ledger::show', 'pub fn show', { to: '    }' }),
  def('src/ledger.rs', '<Ledger as fmt::Display>::fmt', 'fn fmt(&self', { to: '    }' }),
  def('src/ledger.rs', 'audit', 'pub fn audit', { to: '}' }),
  def('src/ledger.rs', 'check', 'pub fn check', { to: '}' }),
  def('src/store/mod.rs', 'Store', 'pub trait Store'),
  def('src/store/mod.rs', 'Store::load', 'fn load'),
  def('src/store/mod.rs', 'Store::names', 'fn names'),
  def('src/store/mod.rs', 'Store::KIND', 'const KIND'),
  def('src/store/memory.rs', 'Memory', 'pub struct Memory'),
  def('src/store/memory.rs', '<Memory as Store>::load', 'fn load', { to: '    }' }),
  def('src/store/memory.rs', '<Memory as Store>::names', 'fn names', { to: '    }' }),
  def('src/store/memory.rs', '<Memory as Store>::KIND', 'const KIND'),
];

/** The callbacks the plugin hands the upgrade, over `defs` and `sources`. */
export function callbacksOver(defs: readonly Def[] = DEFINITIONS, sources: Record<string, string> = SOURCES): ScipRustCallbacks {
  return {
    definitionAt: (path, line, name) => defs.find((d) => d.path === path && d.nameLine === line && d.name === name)?.sig,
    callerAt: (path, line) => {
      let best: Def | undefined;
      for (const d of defs) {
        if (d.path !== path || !d.body || line < d.body[0] || line > d.body[1]) continue;
        if (!best || d.body[1] - d.body[0] < best.body![1] - best.body![0]) best = d;
      }
      return best?.sig;
    },
    textOf: (path) => sources[path],
  };
}

/** Writes {@link SOURCES} under `dir`. */
export function writeCrate(dir: string): void {
  for (const [path, text] of Object.entries(SOURCES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * How the stand-in behaves: `ok` writes the index; `fail` exits 1 as rust-analyzer does when
 * cargo cannot read the workspace offline; `old` rejects `--exclude-vendored-libraries` as
 * releases before 2024-08 do; `hang` starts a child process (as rust-analyzer starts cargo) and
 * never ends, writing both pids to `<targetDir>/pids`; `slow` takes 1 s then fails; `no-index`
 * exits 0 without writing; `garbage` writes bytes that are not SCIP. A workspace directory
 * holding a file `BROKEN` fails whatever the mode.
 */
/** The project root the encoded index names until the fake tool writes the real one over it. */
const STAND_IN_ROOT = '/stand-in-root';

export type FakeMode = 'ok' | 'fail' | 'old' | 'hang' | 'slow' | 'no-index' | 'garbage';

/**
 * Writes `<binDir>/rust-analyzer`: a script run by this Node.js that refuses to run unless
 * called as `rust-analyzer scip <dir> --output <file>` with cargo offline and a target
 * directory, records its arguments, working directory and environment in
 * `<CARGO_TARGET_DIR>/fake-rust-analyzer.json`, and writes the index of {@link fixtureDocuments}
 * rooted at the directory it was given (the index is encoded here; the script appends a second
 * `metadata` field with the project root, which protobuf merges into the first).
 */
export function writeFakeRustAnalyzer(binDir: string, mode: FakeMode = 'ok'): string {
  mkdirSync(binDir, { recursive: true });
  // Encoded for a stand-in root; the script appends a metadata field with the real root, which protobuf merges in.
  const index = Buffer.from(fixtureIndex(STAND_IN_ROOT)).toString('base64');
  const script = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const mode = ${JSON.stringify(mode)};
const args = process.argv.slice(2);
const out = args[args.indexOf('--output') + 1];
const dir = args[1];
const fail = (code, ...lines) => { for (const l of lines) console.error(l); process.exit(code); };
if (args[0] !== 'scip' || !dir || args.indexOf('--output') < 0 || !out) fail(2, 'error: expected scip <path> --output <file>');
if (mode === 'old' && args.includes('--exclude-vendored-libraries')) fail(2, 'error: unexpected flag: \\\`--exclude-vendored-libraries\\\`');
if (process.env.CARGO_NET_OFFLINE !== 'true') fail(3, 'error: expected CARGO_NET_OFFLINE=true');
const target = process.env.CARGO_TARGET_DIR;
if (!target || !fs.existsSync(target)) fail(3, 'error: expected CARGO_TARGET_DIR to be a directory');
fs.writeFileSync(path.join(target, 'fake-rust-analyzer.json'), JSON.stringify({ args, cwd: process.cwd(), env: process.env }));
console.error('Generating SCIP start...');
console.error('rust-analyzer: Loading crate graph');
if (mode === 'fail' || fs.existsSync(path.join(dir, 'BROKEN')))
  fail(1,
    'Error: Failed to load workspace: Failed to read Cargo metadata from Cargo.toml file ' + dir + '/Cargo.toml: \\\`cargo metadata\\\` exited with an error: error: failed to get \\\`serde\\\` as a dependency of package \\\`shop v0.1.0\\\`',
    '',
    'Caused by:',
    '  attempting to make an HTTP request, but --offline was specified');
if (mode === 'hang') {
  // As rust-analyzer runs cargo: a child in its process group.
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  // Written whole, then renamed: a test that waits for the file never reads it half written.
  fs.writeFileSync(path.join(target, 'pids.tmp'), process.pid + ' ' + child.pid);
  fs.renameSync(path.join(target, 'pids.tmp'), path.join(target, 'pids'));
  setInterval(() => {}, 1000);
  return;
}
if (mode === 'slow') { setTimeout(() => fail(1, 'error: gave up'), 1000); return; }
if (mode === 'no-index') process.exit(0);
if (mode === 'garbage') { fs.writeFileSync(out, Buffer.from([0x0a, 0xff, 0xff, 0xff])); process.exit(0); }
const varint = (n) => { const b = []; while (n >= 0x80) { b.push((n & 0x7f) | 0x80); n >>>= 7; } b.push(n); return Buffer.from(b); };
const root = Buffer.from('file://' + path.resolve(dir));
const metadata = Buffer.concat([Buffer.from([0x1a]), varint(root.length), root]);
fs.writeFileSync(out, Buffer.concat([Buffer.from(${JSON.stringify(index)}, 'base64'), Buffer.from([0x0a]), varint(metadata.length), metadata]));
console.error('Generating SCIP finished 12.3ms');
`;
  const file = join(binDir, 'rust-analyzer');
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  return file;
}

// Fixtures for testing a plugin whose Phase B is a SCIP indexer, without the indexer: the
// documents it would write for a small project, located by the text they point at, and a
// stand-in executable that checks how it is called and writes them.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeScipIndex, type ScipDocumentSpec, type ScipIndexSpec, type ScipSymbolSpec } from './scip-writer.js';

/**
 * One occurrence, found in the text: the `nth` (0-based) `ident` on the first line containing
 * `lineNeedle`, with its symbol, and whether it is the definition.
 */
export type ScipOccurrenceAt = [lineNeedle: string, ident: string, symbol: string, definition?: boolean, nth?: number];

/** `[line, startChar, endChar]` (0-based) of the `nth` `ident` on the first line of `text` containing `lineNeedle`. */
export function scipRangeAt(text: string, lineNeedle: string, ident: string, nth = 0): [number, number, number] {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(lineNeedle));
  if (line < 0) throw new Error(`fixture: no line with ${JSON.stringify(lineNeedle)}`);
  let col = -1;
  for (let i = 0; i <= nth; i++) col = lines[line]!.indexOf(ident, col + 1);
  if (col < 0) throw new Error(`fixture: no ${JSON.stringify(ident)} on line ${line + 1} (${JSON.stringify(lineNeedle)})`);
  return [line, col, col + ident.length];
}

/**
 * A SCIP document for `text`, its occurrences located by the text they point at (positions in
 * UTF-8 bytes equal characters for ASCII sources).
 *
 * @example
 * ```ts
 * scipDocumentAt('lib/shop.rb', text, [['def total', 'total', 'scip-ruby gem shop 1.0 Shop#total().', true]], [], 'ruby');
 * ```
 */
export function scipDocumentAt(
  path: string,
  text: string,
  occurrences: readonly ScipOccurrenceAt[],
  symbols: ScipSymbolSpec[] = [],
  language = '',
): ScipDocumentSpec {
  return {
    path,
    language,
    occurrences: occurrences.map(([needle, ident, symbol, definition, nth]) => ({
      range: scipRangeAt(text, needle, ident, nth ?? 0),
      symbol,
      definition: definition ?? false,
    })),
    symbols,
  };
}

/**
 * What the `ipc` stand-in runs under python3: a POSIX shared memory segment and a POSIX message
 * queue (mq_open/mq_send/mq_receive from librt through ctypes), then a TCP connection that must fail.
 */
const IPC_PROBE = `
import ctypes, ctypes.util, os, socket, sys
from multiprocessing import shared_memory
try:
    shm = shared_memory.SharedMemory(create=True, size=4096)
    shm.buf[0] = 42
    other = shared_memory.SharedMemory(name=shm.name)
    assert other.buf[0] == 42
    other.close(); shm.close(); shm.unlink()
except OSError as e:
    sys.exit('shared memory: ' + str(e))
rt = ctypes.CDLL(ctypes.util.find_library('rt') or 'librt.so.1', use_errno=True)
class Attr(ctypes.Structure):
    _fields_ = [('flags', ctypes.c_long), ('maxmsg', ctypes.c_long), ('msgsize', ctypes.c_long), ('curmsgs', ctypes.c_long), ('pad', ctypes.c_long * 4)]
attr = Attr(0, 4, 64, 0)
rt.mq_open.restype = ctypes.c_int
name = ('/travsr-probe-%d' % os.getpid()).encode()
q = rt.mq_open(name, os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(attr))
if q < 0: sys.exit('mq_open: ' + os.strerror(ctypes.get_errno()))
if rt.mq_send(q, b'work', 4, 0) != 0: sys.exit('mq_send: ' + os.strerror(ctypes.get_errno()))
buf = ctypes.create_string_buffer(64)
if rt.mq_receive(q, buf, 64, None) != 4: sys.exit('mq_receive: ' + os.strerror(ctypes.get_errno()))
rt.mq_close(q); rt.mq_unlink(name)
try:
    socket.create_connection(('1.1.1.1', 443), timeout=3)
    sys.exit('the network is open')
except OSError:
    pass
`;

/** How a stand-in indexer ({@link writeFakeIndexer}) is called and what it does. */
export interface FakeIndexerSpec {
  /** The executable's name: `scip-ruby`. */
  readonly name: string;
  /** What it writes. */
  readonly index: ScipIndexSpec;
  /**
   * Where it writes the index: the argument after `flag` (`--index-file`); the rest of the
   * argument that starts with `prefix` (`--index-output-path=`); with `positional`, the first
   * argument; or `file`, a name in its working directory.
   */
  readonly output: { readonly flag: string } | { readonly prefix: string } | { readonly file: string } | { readonly positional: true };
  /** Arguments it refuses to run without (`['index']`, `['--compdb-path']`). */
  readonly requireArgs?: readonly string[];
  /** Files (any one of them) its working directory must hold (`Gemfile`, `*.csproj`). */
  readonly requireInCwd?: readonly string[];
  /** Other programs it runs, to be on PATH (`java`, `dotnet`). */
  readonly requireOnPath?: readonly string[];
  /** Environment variables it checks (name → value). */
  readonly requireEnv?: Readonly<Record<string, string>>;
  /**
   * `ok` (default); `fail`: exits 1 with `failMessage`; `slow`: takes 0.7 s; `download`: fetches
   * `downloadUrl` first (as a build tool fetching a dependency would: through `HTTPS_PROXY` or
   * `HTTP_PROXY` with `CONNECT` when set, directly otherwise), writes the index when the answer is
   * 200 and exits 1 with the error otherwise; `ipc`: works the way a parallel indexer's driver and
   * workers do (scip-clang) — POSIX shared memory and a POSIX message queue, through python3's
   * ctypes — and checks that the network stays closed, writing the index only when all that holds.
   */
  readonly mode?: 'ok' | 'fail' | 'slow' | 'download' | 'ipc';
  readonly failMessage?: string;
  readonly downloadUrl?: string;
  /**
   * More checks, as JavaScript run before it writes: `args` (its arguments), `die(message)`, `fs`
   * and `path` are in scope (e.g. that a file an argument names exists).
   */
  readonly check?: string;
}

/**
 * Writes a stand-in for an external SCIP indexer into `binDir` (and stand-ins for the programs
 * it needs, each printing a version), and returns its path. It runs under this Node.js (an
 * absolute interpreter path, which a sandbox binds), checks that it is called as the real tool
 * would be, and writes the index given. Real indexers cannot be fetched on a machine without
 * their ecosystems; what the plugin does with the index, and how the host finds, binds and
 * passes the tools, is what such a test checks.
 *
 * @example
 * ```ts
 * writeFakeIndexer(bin, { name: 'scip-ruby', index: { projectRoot: '', documents }, output: { flag: '--index-file' } });
 * ```
 */
export function writeFakeIndexer(binDir: string, spec: FakeIndexerSpec): string {
  mkdirSync(binDir, { recursive: true });
  const index = Buffer.from(encodeScipIndex(spec.index)).toString('base64');
  const config = {
    name: spec.name,
    output: spec.output,
    requireArgs: spec.requireArgs ?? [],
    requireInCwd: spec.requireInCwd ?? [],
    requireOnPath: spec.requireOnPath ?? [],
    requireEnv: spec.requireEnv ?? {},
    mode: spec.mode ?? 'ok',
    failMessage: spec.failMessage ?? `error: ${spec.name} could not build the project`,
    downloadUrl: spec.downloadUrl ?? 'https://repo1.maven.org/maven2/',
  };
  const script = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const c = ${JSON.stringify(config)};
const args = process.argv.slice(2);
const die = (m) => { process.stderr.write(c.name + ': ' + m + '\\n'); process.exit(1); };
for (const a of c.requireArgs) if (!args.includes(a)) { process.stderr.write('usage: ' + c.name + ' needs ' + a + '\\n'); process.exit(2); }
const cwd = process.cwd();
if (c.requireInCwd.length > 0) {
  const names = fs.readdirSync(cwd);
  const has = (m) => m.startsWith('*.') ? names.some((n) => n.endsWith(m.slice(1))) : names.includes(m);
  if (!c.requireInCwd.some(has)) die('no ' + c.requireInCwd.join(' or ') + ' in ' + cwd);
}
for (const t of c.requireOnPath)
  if (!(process.env.PATH || '').split(':').some((d) => d && fs.existsSync(path.join(d, t)))) die(t + ' not found on PATH');
for (const [k, v] of Object.entries(c.requireEnv)) if (process.env[k] !== v) die('expected ' + k + '=' + v + ', got ' + process.env[k]);
${spec.check ?? ''}
let out;
if ('flag' in c.output) { const i = args.indexOf(c.output.flag); out = i >= 0 ? args[i + 1] : undefined; if (!out) die(c.output.flag + ' is required'); }
else if ('prefix' in c.output) { const a = args.find((x) => x.startsWith(c.output.prefix)); out = a && a.slice(c.output.prefix.length); if (!out) die(c.output.prefix + ' is required'); }
else if ('file' in c.output) out = path.join(cwd, c.output.file);
else out = args[0];
const write = () => fs.writeFileSync(out, Buffer.from(${JSON.stringify(index)}, 'base64'));
if (c.mode === 'fail') die(c.failMessage);
if (c.mode === 'slow') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700);
if (c.mode === 'ipc') {
  const r = require('node:child_process').spawnSync('python3', ['-c', ${JSON.stringify(IPC_PROBE)}], { encoding: 'utf8' });
  if (r.status !== 0) die('IPC probe failed: ' + ((r.stderr || '') + (r.stdout || '')).trim().split('\\n').slice(-2).join(' | ') + (r.error ? ' ' + r.error.message : ''));
}
if (c.mode === 'download') {
  const proxy = process.env.HTTPS_PROXY || process.env.HTTP_PROXY;
  if (proxy) {
    // Through the proxy, as a build tool does: CONNECT, then a request over the tunnel.
    const p = new URL(proxy);
    const t = new URL(c.downloadUrl);
    const target = t.hostname + ':' + (t.port || (t.protocol === 'https:' ? 443 : 80));
    const req = require('node:http').request({ host: p.hostname, port: Number(p.port), method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) die('could not download ' + c.downloadUrl + ': the proxy answered ' + res.statusCode);
      socket.write('GET ' + t.pathname + ' HTTP/1.1\\r\\nHost: ' + t.host + '\\r\\nConnection: close\\r\\n\\r\\n');
      let head = '';
      socket.on('data', (d) => { head += d; });
      socket.on('end', () => { if (/^HTTP\\/1\\.[01] 200/.test(head)) write(); else die('could not download ' + c.downloadUrl + ': ' + head.split('\\r\\n')[0]); });
    });
    req.on('error', (e) => die('could not download ' + c.downloadUrl + ': ' + (e.code || e.message)));
    req.end();
  } else
  fetch(c.downloadUrl, { signal: AbortSignal.timeout(10000) }).then(
    () => write(),
    (e) => die('could not download ' + c.downloadUrl + ': ' + ((e.cause && (e.cause.code || e.cause.message)) || e.message)),
  );
} else write();
`;
  const file = join(binDir, spec.name);
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  for (const t of spec.requireOnPath ?? []) {
    writeFileSync(join(binDir, t), `#!/bin/sh\necho "${t} (stand-in) 1.0"\n`);
    chmodSync(join(binDir, t), 0o755);
  }
  return file;
}

// A small C project with the compile_commands.json CMake wrote for it on another machine
// (/home/dev/ring), the SCIP index scip-clang would write for it, and a stand-in for the
// `scip-clang` executable. scip-clang cannot be fetched here, so the tests put a script on PATH
// that checks how it is called — the compilation database it is given must name files it can
// see — and writes this index (with the SDK's SCIP writer); what the plugin does with the index,
// and how the host finds, binds and passes the tool, is real.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scipDocumentAt, writeFakeIndexer, type FakeIndexerSpec, type ScipDocumentSpec } from '@travsr/sdk/testing';

/** Where the compilation database says the project is: the machine that generated it. */
export const HOST_ROOT = '/home/dev/ring';

const entry = (file: string) => ({
  directory: `${HOST_ROOT}/build`,
  arguments: ['cc', `-I${HOST_ROOT}/src`, '-o', `CMakeFiles/ring.dir/${file}.o`, '-c', `${HOST_ROOT}/${file}`],
  file: `${HOST_ROOT}/${file}`,
});

export const PROJECT_FILES: Record<string, string> = {
  'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.16)\nproject(ring C)\nadd_executable(ring src/main.c src/ring.c)\n',
  'src/ring.h': '#ifndef RING_H\n#define RING_H\nstruct ring { int len; };\nint ring_push(struct ring *r, int v);\n#endif\n',
  'src/ring.c':
    '#include "ring.h"\n\nstatic int clamp(int v) { return v < 0 ? 0 : v; }\n\nint ring_push(struct ring *r, int v) {\n  r->len += clamp(v);\n  return r->len;\n}\n',
  'src/main.c':
    '#include <stdio.h>\n#include "ring.h"\n\nint main(void) {\n  struct ring r = {0};\n  ring_push(&r, 3);\n  printf("%d\\n", r.len);\n  return 0;\n}\n',
  'build/compile_commands.json': `${JSON.stringify([entry('src/main.c'), entry('src/ring.c')], null, 2)}\n`,
};

const S = 'cxx . . $ ';
const doc = (path: string, occ: Parameters<typeof scipDocumentAt>[2]) => scipDocumentAt(path, PROJECT_FILES[path]!, occ, [], 'c');

/** The documents scip-clang writes for {@link PROJECT_FILES} (symbols in its form: `cxx . . $ ring_push(<hash>).`). */
export function fixtureDocuments(): ScipDocumentSpec[] {
  return [
    doc('src/ring.h', [
      ['struct ring', 'ring', `${S}ring#`, true],
      // A prototype: scip-clang gives it the forward-definition role, not the definition one.
      ['int ring_push', 'ring_push', `${S}ring_push(9b79fb2b9ab8a3bc).`],
      ['int ring_push', 'ring', `${S}ring#`],
    ]),
    doc('src/ring.c', [
      ['static int clamp', 'clamp', `${S}clamp(93b1ba0b4e9c1a1f).`, true],
      ['int ring_push', 'ring_push', `${S}ring_push(9b79fb2b9ab8a3bc).`, true],
      ['int ring_push', 'ring', `${S}ring#`],
      ['r->len += clamp', 'clamp', `${S}clamp(93b1ba0b4e9c1a1f).`],
    ]),
    doc('src/main.c', [
      ['int main', 'main', `${S}main(0f4a8bd6d4ad1e4b).`, true],
      ['struct ring r', 'ring', `${S}ring#`],
      ['ring_push(&r', 'ring_push', `${S}ring_push(9b79fb2b9ab8a3bc).`],
      ['printf(', 'printf', 'cxx . glibc 2.36 printf(a9e1cbad51d1f0ad).'],
    ]),
  ];
}

/** Writes the project under `dir`. */
export function writeProject(dir: string): void {
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * Writes `<binDir>/scip-clang`: it refuses to run without `--compdb-path=` and
 * `--index-output-path=`, or when an entry of the database names a file it cannot see (a
 * database whose paths were not moved into the sandbox), then writes the index of
 * {@link fixtureDocuments}. In `ipc` mode it first uses POSIX shared memory and a message queue as
 * scip-clang's driver and workers do (what the native-ipc tier grants; the end-to-end test runs it so).
 */
export function writeFakeTools(binDir: string, mode: FakeIndexerSpec['mode'] = 'ok'): string {
  return writeFakeIndexer(binDir, {
    name: 'scip-clang',
    index: { projectRoot: '', toolName: 'scip-clang', toolVersion: '0.4.0', documents: fixtureDocuments() },
    output: { prefix: '--index-output-path=' },
    mode,
    requireInCwd: ['CMakeLists.txt'],
    check: `
const compdb = args.find((a) => a.startsWith('--compdb-path='));
if (!compdb) die('--compdb-path= is required');
const entries = JSON.parse(fs.readFileSync(compdb.slice('--compdb-path='.length), 'utf8'));
for (const e of entries) if (!fs.existsSync(e.file)) die('compile_commands.json names ' + e.file + ', which does not exist');
`,
    failMessage: 'error: src/ring.c:6:13: use of undeclared identifier (scip-clang could not compile it)',
  });
}

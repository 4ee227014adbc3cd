import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ScipIndexer } from '@travsr/sdk/scip';
import { findCompilationDatabase, projectOfDatabase, rewriteCompilationDatabase } from './compilation-database.js';

// What this relies on, from sourcegraph/scip-clang (indexer/main.cc, indexer/Driver.cc,
// indexer/JsonIpcQueue.h, indexer/CompilationDatabase.cc): `scip-clang --compdb-path=<file>
// --index-output-path=<file> [-j N] [--temporary-output-dir=<dir>]`, run from the project root; a
// driver and N workers talk through Boost.Interprocess message queues in POSIX shared memory
// (/dev/shm, about 2 MB per worker), which is why this plugin is in the native-ipc tier; it
// re-executes itself by argv[0] and runs the compilers the database names (`-print-resource-dir`);
// columns are Clang's, bytes (UTF-8), the encoding unset.

/** How to install scip-clang, shown when it is missing. */
export const SCIP_CLANG_HINT =
  'download scip-clang from https://github.com/sourcegraph/scip-clang/releases (scip-clang-x86_64-linux) and put it on the PATH of the process running Travsr';

/** What to do without a compilation database. */
export const NO_COMPDB =
  'scip-clang needs a compile_commands.json (at the root, or in build/, out/, builddir/, cmake-build-*/): generate it with `cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON` or `bear -- make`; C and C++ stay at Phase A until then';

/** Workers scip-clang runs: two is what the sandbox's shared memory and the 2-core machines it is tested on hold. */
const JOBS = 2;

/**
 * scip-clang as lang-clang runs it: once, from the project the repository's compile_commands.json
 * belongs to ({@link projectOfDatabase}), on that database ({@link findCompilationDatabase}) rewritten so that its paths — those of
 * the machine that generated it — point into the sandbox's view of the repository
 * ({@link rewriteCompilationDatabase}); its temporary files in the run's scratch directory.
 */
export const scipClang: ScipIndexer = {
  name: 'scip-clang',
  languageName: 'C and C++',
  tools: ['scip-clang'],
  installHint: SCIP_CLANG_HINT,
  projects: (root) => {
    const found = findCompilationDatabase(root);
    return Promise.resolve(found === undefined ? [] : [projectOfDatabase(found)]);
  },
  noProjects: NO_COMPDB,
  invocation: ({ root, projectDir, output, scratchDir }) => {
    const found = findCompilationDatabase(root)!;
    // Run from the project (the directory holding the build directory): scip-clang wants its root.
    const compdb = join(scratchDir, 'compile_commands.json');
    // Its paths are the machine's that generated it: moved under the project (the CMake source
    // directory, usually), else under the repository root.
    try {
      rewriteCompilationDatabase(join(root, found), compdb, projectDir);
    } catch (e) {
      if (projectDir === root) throw e;
      rewriteCompilationDatabase(join(root, found), compdb, root);
    }
    mkdirSync(join(scratchDir, 'tmp'), { recursive: true });
    return {
      args: [
        `--compdb-path=${compdb}`,
        `--index-output-path=${output}`,
        `-j`,
        String(JOBS),
        `--temporary-output-dir=${join(scratchDir, 'tmp')}`,
      ],
    };
  },
  notIndexed:
    'scip-clang did not index this file (no entry of compile_commands.json compiles it, nor includes it): its refs are matched by name',
};

import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { projectDirs, ScipPhaseBError, type ScipIndexer } from '@travsr/sdk/scip';

// What this relies on, from Workiva/scip-dart (bin/scip_dart.dart, README.md, CHANGELOG.md):
// `scip_dart <package root> [-o <file>]` (`-o` since 1.6.0; `dart pub global activate scip_dart`
// installs the `scip_dart` executable in the pub cache's bin/, a script that runs it with `dart`);
// it reads the package's pubspec.yaml and .dart_tool/package_config.json (written by `dart pub
// get`, whose paths point into the pub cache) and exits with an error without them; offsets are
// the Dart analyzer's, UTF-16 code units, the encoding unset.

/** How to install scip-dart, shown when it is missing. */
export const SCIP_DART_HINT =
  "install it with `dart pub global activate scip_dart` and put the pub cache's bin/ (~/.pub-cache/bin) on the PATH of the process running Travsr";

/** How to install Dart, shown when it is missing. */
export const DART_HINT = 'install the Dart SDK (https://dart.dev/get-dart) so that `dart` is on the PATH: scip_dart runs on it';

/**
 * The pub cache scip_dart was activated in (`<cache>/bin/scip_dart`), which its launcher script
 * and the packages' own package_config.json point into; undefined for a scip_dart elsewhere.
 */
export function pubCacheOf(scipDart: string): string | undefined {
  const cache = dirname(dirname(scipDart));
  return basename(dirname(scipDart)) === 'bin' && existsSync(join(cache, 'global_packages')) ? cache : undefined;
}

/**
 * scip-dart as lang-dart runs it: once per Dart package of the repository (every directory with
 * a pubspec.yaml: packages of a workspace are indexed on their own), offline, as
 * `scip_dart ./ -o <index>` in the package, with PUB_CACHE the pub cache it was activated in. A
 * package without .dart_tool/package_config.json is refused with what to run (`dart pub get`),
 * since the sandbox cannot fetch its dependencies.
 */
export const scipDart: ScipIndexer = {
  name: 'scip-dart',
  languageName: 'Dart',
  tools: ['scip_dart', 'dart'],
  installHint: SCIP_DART_HINT,
  toolHints: { dart: DART_HINT },
  projects: (root) => projectDirs(root, ['pubspec.yaml'], { nesting: 'every' }),
  noProjects: 'scip-dart has nothing to index: no pubspec.yaml in the repository',
  graph: { unspecifiedEncoding: 'utf16' },
  invocation: ({ projectDir, project, output, tools, env }) => {
    if (!existsSync(join(projectDir, '.dart_tool', 'package_config.json')))
      throw new ScipPhaseBError(
        `scip-dart cannot index ${project || '.'}: it has no .dart_tool/package_config.json; run \`dart pub get\` there (the sandbox has no network to fetch the packages)`,
      );
    const cache = pubCacheOf(tools['scip_dart']!);
    return { args: ['./', '-o', output], env: { ...env, ...(cache ? { PUB_CACHE: cache } : {}) } };
  },
  notIndexed: 'scip-dart did not index this file (no package holds it): its refs are matched by name',
};

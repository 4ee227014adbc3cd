import { projectDirs, type ScipIndexer } from '@travsr/sdk/scip';

/** How to install scip-swift, shown when it is missing. */
export const SCIP_SWIFT_HINT =
  'install scip-swift (https://github.com/jarvis-intelligence/scip-swift; macOS 14+ with Xcode: `brew install phuongddx/scip-swift/scip-swift`) on the PATH, or any SCIP emitter named scip-swift that takes `index <project dir> --output <file>`';

/** How to install swift, shown when it is missing. */
export const SWIFT_HINT =
  'install a Swift toolchain (Xcode, or https://www.swift.org/install) so that `swift` is on the PATH: scip-swift builds the project with it';

/** What makes a directory a Swift project of its own: a SwiftPM package or an Xcode project or workspace. */
export const SWIFT_PROJECT_FILES = ['Package.swift', '*.xcodeproj', '*.xcworkspace'];

/**
 * scip-swift (github.com/jarvis-intelligence/scip-swift, v0.3.0: the compiler's index store,
 * read with IndexStoreDB, written as SCIP) as lang-swift runs it: once per project — the
 * outermost directories holding a `Package.swift`, an `*.xcodeproj` or an `*.xcworkspace` —
 * offline, as `scip-swift index <project> --output <index>`.
 *
 * What its CLI takes, from its source (Sources/scip-swift/Commands/IndexCommand.swift,
 * Build/SwiftPMBuildRunner.swift, Platform/ToolchainInfo.swift at 4ad1ce9e, 2026-08; README,
 * docs/CONFIGURATION.md): `index` (the default subcommand) with the project directory as its
 * argument and `--output <path>` (default `<repo>/index.scip`); it picks the build from the
 * project (`Package.swift` → `swift build --enable-index-store --scratch-path <temp>`, else
 * `xcodebuild` on the one `.xcworkspace`/`.xcodeproj`), with its scratch, index store and
 * database under `$TMPDIR` unless `--cache-dir` is given; it finds `swift` on PATH and the
 * toolchain's libIndexStore.dylib through `xcrun` — macOS only. Symbols are
 * `scip-swift swiftpm <Module> . Cart#total().` for the project's modules and
 * `scip-swift swift <Module> <Swift version> …` for the SDK's, positions UTF-8 (stated).
 *
 * It runs on a copy of the project (the build writes beside the sources: `Package.resolved`,
 * `.swiftpm/`). Its display names are the compiler's signatures (`Shop.Checkout.total() ->
 * Swift.Int`) and stay in the index: the SDK matches a definition by the symbol's descriptor name
 * (`total`) first. A constructor call (`Item(…)`) has two references ending at one place, the
 * type and its `init`: the SDK takes the one defined in the repository (a declared `init`, else
 * the type: a memberwise `init` has no definition and is not taken as external). Any
 * program named `scip-swift` with this command line (`index <dir> --output <file>`, SCIP out) can
 * stand in for it.
 */
export const scipSwift: ScipIndexer = {
  name: 'scip-swift',
  languageName: 'Swift',
  tools: ['scip-swift', 'swift'],
  installHint: SCIP_SWIFT_HINT,
  toolHints: { swift: SWIFT_HINT },
  projects: (root) => projectDirs(root, SWIFT_PROJECT_FILES),
  noProjects: 'scip-swift found no Swift package (Package.swift) or Xcode project (*.xcodeproj, *.xcworkspace) in the repository',
  // SwiftPM's build directories (a local dependency's too) are output, not sources.
  copyProject: { skip: ['.scip-cache', 'DerivedData', 'index.scip'], skipAnywhere: ['.build'] },
  // A Swift build: a large app takes a while.
  timeoutMs: 40 * 60_000,
  invocation: ({ projectDir, output, scratchDir, env }) => ({
    args: ['index', projectDir, '--output', output],
    // SwiftPM keeps its caches and configuration under HOME (~/.cache, ~/.swiftpm): the run's own.
    env: { ...env, HOME: scratchDir },
  }),
  notIndexed:
    'scip-swift did not index this file (compiled by no target it built: a manifest, a script, a file its target excludes, or outside every project): its refs are matched by name',
};

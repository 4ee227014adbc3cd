import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectDirs, type ScipIndexer, type ScipProjectRun } from '@travsr/sdk/scip';

// What this relies on, from sourcegraph/scip-dotnet (read at 118955c, v0.2.13):
// - `scip-dotnet index [<.sln|.csproj|.vbproj> ...] [--output <file>] [--dotnet-restore-timeout <ms>]`
//   (ScipDotnet/Program.cs: `projects` is zero or more files, `--output` defaults to index.scip and
//   may be absolute, IndexCommandHandler.OutputFile). Without files it takes every .sln, .csproj
//   and .vbproj at the top of the working directory — a solution and its own project side by side
//   would both be opened — so the plugin names them: the solutions, else the projects.
// - Before loading each file into Roslyn's MSBuildWorkspace it runs `dotnet restore <sln>` (or
//   `dotnet restore` in the directory for a project) with `/p:EnableWindowsTargeting=true`, and
//   goes on when the restore exceeds `--dotnet-restore-timeout` (default 300000 ms, the option
//   since v0.2.x, cd2a9d9): restore and build write obj/ (and bin/) in every project directory.
//   `dotnet` is taken from PATH (ScipProjectIndexer.Restore) and MSBuild located from it
//   (MSBuildLocator.RegisterDefaults).
// - Document paths are relative to the working directory; positions are Roslyn's LinePosition
//   (UTF-16 code units) and the index leaves `position_encoding` unset
//   (ScipDocumentIndexer.LocationToRange).
// - Symbols: `scip-dotnet nuget . . Checkout/Cart#Add().` for Shop.Checkout.Cart.Add, defined
//   in the project (index-local unless --allow-global-symbol-definitions; a type's owner is its
//   innermost namespace alone, so `A.Models` and `B.Models` share `Models/`), `scip-dotnet nuget System.Runtime
//   8.0.0.0 System/Console#WriteLine(+5).` for referenced assemblies; `new Cart()` is a reference
//   to the type `Cart#`; base types and interfaces are implementation relationships of the type's
//   SymbolInformation (ScipSymbol.cs, ScipDocumentIndexer.cs, snapshots/output-net10.0).
// The .NET side: DOTNET_CLI_HOME, NUGET_PACKAGES, DOTNET_NOLOGO, DOTNET_CLI_TELEMETRY_OPTOUT and
// DOTNET_ROOT (for an apphost such as the scip-dotnet global tool) are the documented variables
// (learn.microsoft.com/dotnet/core/tools/dotnet-environment-variables); NuGet and the runtime's
// HttpClient take HTTPS_PROXY/HTTP_PROXY; NUGET_CERT_REVOCATION_MODE=offline keeps the signature
// check of restored packages but skips the certificate revocation lists it would fetch from hosts
// outside any allowlist (NuGet/Home#13062, learn.microsoft.com/nuget/reference/errors-and-warnings/nu3028).

/** How to install scip-dotnet, shown when it is missing. */
export const SCIP_DOTNET_HINT =
  'install scip-dotnet (`dotnet tool install --global scip-dotnet`, https://github.com/sourcegraph/scip-dotnet) and put ~/.dotnet/tools on the PATH of the process running Travsr';

/** How to install the .NET SDK scip-dotnet restores and loads projects with. */
export const DOTNET_SDK_HINT =
  'install the .NET SDK 8 or newer (https://dotnet.microsoft.com/download) with `dotnet` on the PATH: scip-dotnet restores and loads the projects with its MSBuild';

/** The files that make a directory a C# build of its own: a solution, else a project. */
export const CSHARP_PROJECT_FILES = ['*.sln', '*.csproj'];

/**
 * What the copy of a project leaves out, at every depth: MSBuild's output (obj/ with the restore's
 * project.assets.json, bin/) of each project the solution holds, and Visual Studio's state.
 */
export const COPY_SKIP_ANYWHERE = ['bin', 'obj', '.vs'];

/** Directories never searched for projects: the SDK's defaults, MSBuild output and old-style NuGet package folders. */
export const PROJECT_SEARCH_SKIP = ['node_modules', 'vendor', 'testdata', 'target', 'build', 'out', 'dist', 'bin', 'obj', 'packages'];

/** How long scip-dotnet waits for `dotnet restore` of one solution or project (it waits 5 minutes by default, then goes on without it). */
export const RESTORE_TIMEOUT_MS = 20 * 60_000;

/**
 * The solution or project files scip-dotnet is given in a project directory: its solutions, else
 * its C# projects, sorted. Extensions match as scip-dotnet compares them (`.sln` and `.csproj`,
 * case-sensitively: it restores and opens anything else as a project it is not).
 */
export function projectFilesIn(projectDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(projectDir);
  } catch {
    return [];
  }
  const of = (ext: string) => names.filter((n) => n.endsWith(ext)).sort();
  const solutions = of('.sln');
  return solutions.length > 0 ? solutions : of('.csproj');
}

/** The .NET installation a `dotnet` executable belongs to (`<root>/dotnet` beside `sdk/` and `shared/`), for DOTNET_ROOT; undefined when it is not one. */
export function dotnetRootOf(dotnet: string | undefined): string | undefined {
  if (!dotnet) return undefined;
  let real: string;
  try {
    real = realpathSync(dotnet);
  } catch {
    return undefined;
  }
  const root = dirname(real);
  return existsSync(join(root, 'sdk')) && existsSync(join(root, 'shared')) ? root : undefined;
}

/** Where NuGet keeps what the restore downloads: the plugin's cache when the host gives one (kept between sessions), else the run's scratch directory. */
export function nugetCachesDir(run: Pick<ScipProjectRun, 'scratchDir' | 'cacheDir'>): string {
  return run.cacheDir !== undefined && run.cacheDir !== '' ? join(run.cacheDir, 'nuget') : join(run.scratchDir, 'nuget');
}

/**
 * The environment scip-dotnet and the `dotnet restore` it runs get: the run's (PATH with the
 * tools first, HOME, the proxy as HTTPS_PROXY/HTTP_PROXY), no first-run experience, telemetry or
 * logo, the CLI's home in the scratch directory, the NuGet package and HTTP caches in
 * {@link nugetCachesDir}, DOTNET_ROOT of the `dotnet` found, MSBuild without worker nodes that
 * outlive the build, and offline certificate revocation checks.
 */
export function scipDotnetEnv(run: Pick<ScipProjectRun, 'env' | 'tools' | 'scratchDir' | 'cacheDir'>): NodeJS.ProcessEnv {
  const caches = nugetCachesDir(run);
  const env: NodeJS.ProcessEnv = {
    ...run.env,
    DOTNET_CLI_TELEMETRY_OPTOUT: '1',
    DOTNET_NOLOGO: '1',
    DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
    DOTNET_CLI_HOME: join(run.scratchDir, 'dotnet-home'),
    NUGET_PACKAGES: join(caches, 'packages'),
    NUGET_HTTP_CACHE_PATH: join(caches, 'http-cache'),
    NUGET_CERT_REVOCATION_MODE: 'offline',
    // MSBuild keeps worker nodes alive for the next build by default; there is none.
    MSBUILDDISABLENODEREUSE: '1',
    TERM: 'dumb',
  };
  const root = dotnetRootOf(run.tools['dotnet']);
  if (root) env['DOTNET_ROOT'] = root;
  return env;
}

/**
 * scip-dotnet as lang-csharp runs it: once per C# build — the outermost directories holding a
 * solution or a project file (a solution indexes the projects it lists) — on a copy of the
 * directory without bin/ and obj/ (the restore and MSBuild write them; the repository is
 * read-only), given the solutions there, else the projects, with the packages restored through
 * the host's allowlist proxy (nuget.org) into the plugin's cache.
 */
export const scipDotnet: ScipIndexer = {
  name: 'scip-dotnet',
  languageName: 'C#',
  tools: ['scip-dotnet', 'dotnet'],
  installHint: SCIP_DOTNET_HINT,
  toolHints: { dotnet: DOTNET_SDK_HINT },
  async projects(root) {
    return projectDirs(root, CSHARP_PROJECT_FILES, { skip: PROJECT_SEARCH_SKIP });
  },
  invocation: (run) => ({
    args: ['index', ...projectFilesIn(run.projectDir), '--output', run.output, '--dotnet-restore-timeout', String(RESTORE_TIMEOUT_MS)],
    env: scipDotnetEnv(run),
  }),
  copyProject: { skip: [], skipAnywhere: COPY_SKIP_ANYWHERE },
  graph: { unspecifiedEncoding: 'utf16' },
  // A restore downloads the packages first, then Roslyn compiles every project.
  timeoutMs: 45 * 60_000,
  notIndexed:
    'scip-dotnet did not index this file (outside every solution and project it loaded, or not compiled by them): its refs are matched by name',
  noProjects: 'scip-dotnet has nothing to index: no .sln or .csproj file in the repository',
};

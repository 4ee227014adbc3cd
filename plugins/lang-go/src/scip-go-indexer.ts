import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScipIndexer, ToolPaths } from '@travsr/sdk/scip';
import { goFilesUnder, moduleDirsOf } from './go-modules.js';

/** How to install scip-go, shown when it is missing. */
export const SCIP_GO_HINT =
  'install it with `go install github.com/sourcegraph/scip-go/cmd/scip-go@latest` (the host looks for it on its PATH)';

/**
 * The environment scip-go runs with in a sandbox: no network (GOPROXY=off, no checksum
 * database, no toolchain download), caches in the scratch directory, the module cache of the
 * Go workspace scip-go was installed into when the host bound it (`~/go` for `~/go/bin/scip-go`).
 */
export function scipGoEnv(tools: ToolPaths, scratchDir: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    ...env,
    GOPATH: join(scratchDir, 'gopath'),
    GOCACHE: join(scratchDir, 'gocache'),
    GOPROXY: 'off',
    GOSUMDB: 'off',
    GOTOOLCHAIN: 'local',
    GOTELEMETRY: 'off',
    // No GOFLAGS: go's default is -mod=vendor when vendor/modules.txt is there, else -mod=readonly
    // (go.mod is never written: the repository is read-only anyway).
  };
  const scipGo = tools['scip-go'];
  const workspaceCache = scipGo ? join(dirname(dirname(scipGo)), 'pkg', 'mod') : undefined;
  if (workspaceCache && existsSync(workspaceCache)) out['GOMODCACHE'] = workspaceCache;
  return out;
}

/**
 * scip-go as lang-go runs it: once per module of the repository (a directory with a go.mod
 * holding .go files), each indexed whole (`./...`: type information needs every package
 * anyway), offline. A conversion `T(x)` is a use of the type, not a call.
 */
export const scipGo: ScipIndexer = {
  name: 'scip-go',
  languageName: 'Go',
  tools: ['scip-go', 'go'],
  installHint: SCIP_GO_HINT,
  toolHints: { go: 'install Go (https://go.dev/dl/); scip-go runs `go list` to load packages' },
  async projects(root) {
    return [...moduleDirsOf(await goFilesUnder(root), (dir) => existsSync(join(root, dir, 'go.mod'))).keys()].sort();
  },
  invocation: ({ projectDir, output, tools, scratchDir, env }) => ({
    args: [
      '--module-root',
      projectDir,
      '--repository-remote',
      'travsr.local/repository',
      '--module-version',
      'local',
      '--output',
      output,
      '--quiet',
      './...',
    ],
    env: scipGoEnv(tools, scratchDir, env),
  }),
  graph: { callOfType: 'types' },
  notIndexed: 'scip-go did not index this file (a build constraint excludes it, or no go.mod holds it): its calls are matched by name',
  noProjects: 'scip-go has nothing to index: no go.mod holds a .go file of the repository',
};

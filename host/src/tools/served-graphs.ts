import { CodeGraph } from '../retrieval/code-graph.js';
import { persistentTraceSink } from '../traces/trace-sink.js';
import { openWorkspace, type Workspace } from '../workspace/workspace.js';
import type { ToolHost } from './tool-runner.js';

/** The repositories a server or command answers for, opened, and how to close them. */
export interface ServedGraphs {
  host: ToolHost;
  workspaces: Workspace[];
  close(): void;
}

/**
 * Opens the graphs of `repos` (each an initialized repository; its corpus is the corpus of
 * its nodes). Two repositories with the same corpus are refused: their nodes would be
 * indistinguishable to RBAC. Tool-call traces go to the first repository's store.
 */
export async function openServedGraphs(repos: readonly string[]): Promise<ServedGraphs> {
  const workspaces: Workspace[] = [];
  try {
    for (const r of repos) workspaces.push(await openWorkspace(r));
    const seen = new Map<string, string>();
    for (const ws of workspaces) {
      const other = seen.get(ws.settings.corpus);
      if (other !== undefined && other !== ws.root)
        throw new Error(
          `${other} and ${ws.root} both have the corpus ${ws.settings.corpus}; give one another corpus (\`travsr config set corpus <name> --repo <path>\`, then \`travsr index --rebuild\`)`,
        );
      seen.set(ws.settings.corpus, ws.root);
    }
  } catch (e) {
    for (const ws of workspaces) ws.close();
    throw e;
  }
  const unique = workspaces.filter((ws, i) => workspaces.findIndex((w) => w.root === ws.root) === i);
  const graphs = unique.map((ws) => new CodeGraph(ws.root, ws.store, ws.settings.corpus));
  const sink = persistentTraceSink(unique[0]?.root, unique[0]?.logger);
  return {
    host: { graphs, saveTrace: sink, ...(unique[0] ? { logger: unique[0].logger } : {}) },
    workspaces: unique,
    close: () => {
      for (const ws of unique) ws.close();
    },
  };
}

import { travsr } from './run-cli.js';

/** A plugin session as its trace recorded it. */
export interface PluginSessionTrace {
  /** The details of its requests, in order (`analyze 2 file(s), phase A`). */
  requests: (string | undefined)[];
  /** What the sandbox granted, a line each (the node flags among them). */
  sandbox: string[];
}

/** The last session of `plugin` in the repository at `repoRoot`, read with `travsr trace list` and `trace show`. */
export async function lastPluginSession(repoRoot: string, plugin: string): Promise<PluginSessionTrace> {
  const list = await travsr([
    'trace',
    'list',
    '--repo',
    repoRoot,
    '--kind',
    'plugin-session',
    '--subject',
    plugin,
    '--limit',
    '1',
    '--json',
  ]);
  if (list.code !== 0) throw new Error(`travsr trace list exited ${list.code}: ${list.stderr}`);
  const id = (JSON.parse(list.stdout) as { traces: { id: string }[] }).traces[0]?.id;
  if (id === undefined) throw new Error(`no plugin-session trace of ${plugin} in ${repoRoot}`);
  const shown = await travsr(['trace', 'show', id, '--repo', repoRoot, '--json']);
  const trace = JSON.parse(shown.stdout) as { transitions: { state: string; detail?: string }[]; details: { sandbox?: string[] } };
  return {
    requests: trace.transitions.filter((t) => t.state === 'busy').map((t) => t.detail),
    sandbox: trace.details.sandbox ?? [],
  };
}

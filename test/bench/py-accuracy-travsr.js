// The travsr side of the `py-accuracy` benchmark: `travsr init` on a Python repository (the
// real CLI, sandboxed plugins), which plugin served Python and which phases it ran, and the
// graph export that calls-bench's scorer reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './common.js';
import { benchTravsrHome, runTravsr } from './travsr-cli.js';

/** The plugin entry of an index summary that analyzed the Python files, or undefined. */
export function pythonPlugin(summary) {
  return summary.plugins.find((p) => p.languages.includes('python') && p.files > 0);
}

/** "lang-python 0.1.0, phases A+B" — what served Python in a run. */
export function describePlugin(plugin) {
  return plugin ? `${plugin.id} ${plugin.version}, phases ${plugin.phases.join('+')}` : 'no plugin analyzed the .py files';
}

/**
 * `travsr init <repo> --no-hook --json` with its own TRAVSR_HOME (a fresh one, so plugin caches
 * under it start cold, unless `home` is given; `extraEnv`, e.g. TRAVSR_INDEX_SEMANTIC=false, is
 * added), measured by runTravsr (wall, peak RSS and CPU of host and plugin). Returns
 * `{ init, summary, plugin, home, env }`.
 */
export async function initPython(repo, corpus, extraEnv = {}, { hook = false, home = benchTravsrHome() } = {}) {
  const env = { TRAVSR_CORPUS: corpus, ...extraEnv };
  const init = await runTravsr(['init', repo, ...(hook ? [] : ['--no-hook']), '--json'], { home, env, timeoutMs: 1_800_000 });
  if (init.code !== 0) throw new Error(`travsr init exited with ${init.code}: ${init.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const summary = JSON.parse(init.stdout).summary;
  const plugin = pythonPlugin(summary);
  // A run that indexed nothing (no Python plugin registered, or a plugin being rebuilt while the
  // bench ran) would score as a recall of 0: say what happened instead.
  if (!plugin) throw new Error(`travsr init analyzed no .py file in ${repo} (unclaimed: ${JSON.stringify(summary.unclaimed)})`);
  if (summary.failed > 0) throw new Error(`travsr init: ${summary.failed} files failed in ${repo}, e.g. ${failureText(summary)}`);
  return { init, summary, plugin, home, env };
}

/** The first failure of an index summary, for an error message. */
export function failureText(summary) {
  const f = summary.failures?.[0];
  if (!f) return 'no reason given';
  const text = `${f.path} (${f.plugin}): ${f.reason}`;
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** `travsr graph export --format jsonl` of an initialised repository; returns the file and its calls edges by provenance. */
export async function exportGraph(repo, { home, env }) {
  const out = join(tempDir('export'), 'graph.jsonl');
  const exp = await runTravsr(['graph', 'export', repo, '--format', 'jsonl', '--out', out], { home, env, timeoutMs: 600_000 });
  if (exp.code !== 0) throw new Error(`travsr graph export exited with ${exp.code}: ${exp.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const calls = {};
  const text = readFileSync(out, 'utf8');
  if (!text.includes('"type":"node"')) throw new Error(`travsr graph export wrote no nodes for ${repo}`);
  for (const line of text.split('\n')) {
    if (!line.includes('"type":"edge"') || !line.includes('"kind":"calls"')) continue;
    const e = JSON.parse(line);
    if (e.kind === 'calls') calls[e.provenance ?? 'unknown'] = (calls[e.provenance ?? 'unknown'] ?? 0) + 1;
  }
  return { out, calls };
}

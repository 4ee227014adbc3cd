import { FULL_ACCESS } from '../retrieval/access-policy.js';
import type { CodeGraph } from '../retrieval/code-graph.js';
import { runTool } from './tool-runner.js';

/** How many questions a worker answers for itself: after about 40 the next ones are no faster. */
export const WARM_UP_QUESTIONS = 48;

/**
 * The questions a long-lived tool worker (tool-worker.ts) answers for itself once, when it has
 * nothing else to do: V8 optimizes a function only after it has run a while, so a fresh
 * worker's first few dozen get_context answers took about half again as long as later ones
 * (effect@3, 235k lines: p50 27 ms against 18). The questions are made of the graphs' own
 * definition names, so they go through every stage real ones do (lexical evidence, PageRank,
 * Steiner tree, knapsack, rendering); their answers are dropped and leave no trace. After a
 * change of the graph the daemon's workers answer a few again (tool-worker.ts): the first
 * answers on a changed graph pay for its new term lookups and derived tables.
 */
export class QueryWarmUp {
  private readonly questions: string[];
  /** Questions answered so far. */
  answered = 0;

  constructor(
    private readonly graphs: readonly CodeGraph[],
    count = WARM_UP_QUESTIONS,
  ) {
    this.questions = warmUpQuestions(graphs, count);
  }

  /** Answers the next question; true when none is left. A failing answer ends the warm-up. */
  step(): boolean {
    const q = this.questions.pop();
    if (q === undefined) return true;
    const host = { graphs: this.graphs, saveTrace() {} };
    const r = runTool(host, 'get_context', { query: q, token_budget: 4000 }, FULL_ACCESS);
    this.answered++;
    if (r.isError) this.questions.length = 0;
    return this.questions.length === 0;
  }
}

/**
 * `count` questions of two definition names each, in words (`parseConfigFile` → "parse config
 * file"), spread over the functions and methods of the graphs; none when they have none.
 */
export function warmUpQuestions(graphs: readonly CodeGraph[], count: number): string[] {
  const names: string[] = [];
  for (const g of graphs) {
    const snap = g.snapshot();
    for (let d = 0; d < snap.nodeCount; d++) if (snap.kinds[d] === 'function' || snap.kinds[d] === 'method') names.push(snap.names[d]!);
  }
  if (names.length === 0) return [];
  const words = (s: string) =>
    s
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_$]+/g, ' ')
      .toLowerCase()
      .trim();
  // Spread over the graph by a stride coprime with nearly any count: no two questions alike.
  const at = (i: number) => names[(i * 7919) % names.length]!;
  return Array.from({ length: count }, (_, i) => `where does ${words(at(2 * i))} use ${words(at(2 * i + 1))}`);
}

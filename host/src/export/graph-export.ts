import type { Writable } from 'node:stream';
import type { GraphStore } from '../store/index.js';

/** Formats of `travsr graph export`. */
export type ExportFormat = 'jsonl' | 'dot';

/**
 * Writes the live graph to `out`.
 * - `jsonl`: one JSON object a line, nodes then edges, in a deterministic order — the
 *   contract other tools and the accuracy checks read (see README "graph export").
 * - `dot`: Graphviz, nodes labelled `name` with their path, edges labelled by kind;
 *   name-matched (low-confidence) edges dashed.
 * Honours back-pressure; resolves with the counts written.
 */
export async function exportGraph(store: GraphStore, format: ExportFormat, out: Writable): Promise<{ nodes: number; edges: number }> {
  // One read snapshot across the awaits, so a concurrent index run cannot tear the export.
  const snapshot = store.beginSnapshot();
  try {
    return await writeGraph(store, format, out);
  } finally {
    snapshot.end();
  }
}

async function writeGraph(store: GraphStore, format: ExportFormat, out: Writable): Promise<{ nodes: number; edges: number }> {
  const { nodes, edges } = store.exportGraph();
  let n = 0;
  let e = 0;
  const write = async (s: string) => {
    if (!out.write(s)) await new Promise<void>((r) => out.once('drain', r));
  };
  if (format === 'jsonl') {
    for (const node of nodes) {
      await write(`${JSON.stringify(node)}\n`);
      n++;
    }
    for (const edge of edges) {
      await write(`${JSON.stringify(edge)}\n`);
      e++;
    }
    return { nodes: n, edges: e };
  }
  await write('digraph travsr {\n  rankdir=LR;\n  node [shape=box, fontname="monospace", fontsize=10];\n');
  for (const node of nodes) {
    const label =
      node.kind === 'file'
        ? node.path
        : `${node.qualified_name ?? node.name}\\n${node.path}${node.start_line ? `:${node.start_line}` : ''}`;
    await write(
      `  "${node.id}" [label="${dotEscape(label)}"${node.kind === 'file' ? ', shape=folder' : node.kind === 'external' ? ', style=dotted' : ''}];\n`,
    );
    n++;
  }
  for (const edge of edges) {
    const style = edge.provenance === 'phase-a' && edge.confidence < 1 ? ', style=dashed' : '';
    await write(`  "${edge.src}" -> "${edge.dst}" [label="${edge.kind}"${style}];\n`);
    e++;
  }
  await write('}\n');
  return { nodes: n, edges: e };
}

function dotEscape(s: string): string {
  return s.replace(/\\(?!n)/g, '\\\\').replace(/"/g, '\\"');
}

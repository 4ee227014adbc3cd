import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { exportGraph, type ExportFormat } from '../../../export/graph-export.js';
import { openWorkspace } from '../../../workspace/workspace.js';

export default class GraphExport extends TravsrCommand {
  static override summary = 'Export the graph as JSON lines, Graphviz dot, or a self-contained HTML page that draws it';
  static override description = `jsonl: one object a line —
{"type":"node","id","kind","name","qualified_name","path","language","signature","start_line","start_col","end_line","end_col"} (1-based lines, paths relative to the repository root), then
{"type":"edge","src","dst","kind","confidence","provenance"}; ids are NodeIds (BLAKE3 of the VName).
html: one file that opens in any browser with nothing else — the neighbourhood of --focus (a file path, a qualified
name or a name) within --depth hops, every edge kind both ways, at most --max-nodes nodes (nearest first), drawn with
Cytoscape.js: edge kinds coloured, name-matched edges dashed, a search box, the selected node's place and links.`;
  static override examples = [
    '<%= config.bin %> graph export --format jsonl > graph.jsonl',
    '<%= config.bin %> graph export --format dot --out graph.dot',
    '<%= config.bin %> graph export --format html --focus src/session.ts --depth 2 --out session.html',
  ];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };
  static override flags = {
    format: Flags.string({ options: ['jsonl', 'dot', 'html'], default: 'jsonl', description: 'output format' }),
    out: Flags.file({ description: 'write to this file instead of stdout' }),
    focus: Flags.string({ description: 'html: draw the part around this file path, qualified name or name (default: the whole graph)' }),
    depth: Flags.integer({ min: 0, max: 10, default: 2, description: 'html: hops from --focus, over every edge kind' }),
    'max-nodes': Flags.integer({ min: 1, max: 5000, default: 400, description: 'html: the most nodes drawn, nearest first' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GraphExport);
    if (flags.format !== 'html' && (flags.focus !== undefined || flags['max-nodes'] !== 400 || flags.depth !== 2))
      this.error('--focus, --depth and --max-nodes choose the part an html export draws: add --format html', { exit: 2 });
    const ws = await openWorkspace(args.path, { readonly: true });
    try {
      if (flags.format === 'html') return await this.writeHtml(ws, flags);
      const out = flags.out ? createWriteStream(flags.out) : process.stdout;
      const counts = await exportGraph(ws.store, flags.format as ExportFormat, out);
      if (flags.out) {
        (out as ReturnType<typeof createWriteStream>).end();
        await finished(out);
        this.logToStderr(`wrote ${counts.nodes} nodes and ${counts.edges} edges to ${flags.out}`);
      }
    } finally {
      ws.close();
    }
  }

  /** `--format html`: the subgraph around --focus as one page. */
  private async writeHtml(
    ws: Awaited<ReturnType<typeof openWorkspace>>,
    flags: { out?: string | undefined; focus?: string | undefined; depth: number; 'max-nodes': number },
  ): Promise<void> {
    const [{ selectSubgraph }, { renderGraphHtml }] = await Promise.all([
      import('../../../export/subgraph.js'),
      import('../../../export/graph-html.js'),
    ]);
    // One read snapshot, so a concurrent index run cannot tear the page; a focus that names
    // nothing is a SubgraphError (SUBGRAPH_FOCUS_NOT_FOUND), said as any coded error.
    let html: string;
    let counts: { nodes: number; edges: number; leftOut: number };
    const snapshot = ws.store.beginSnapshot();
    try {
      const sub = selectSubgraph(ws.store.exportGraph(), {
        ...(flags.focus === undefined ? {} : { focus: flags.focus }),
        depth: flags.depth,
        maxNodes: flags['max-nodes'],
      });
      counts = { nodes: sub.nodes.length, edges: sub.edges.length, leftOut: sub.leftOut };
      html = renderGraphHtml(sub, { title: `Travsr graph: ${flags.focus ?? ws.settings.corpus}` });
    } finally {
      snapshot.end();
    }
    if (!flags.out) {
      process.stdout.write(html);
      return;
    }
    const { writeFileSync } = await import('node:fs');
    writeFileSync(flags.out, html);
    this.logToStderr(
      `wrote ${counts.nodes} nodes and ${counts.edges} edges to ${flags.out}${counts.leftOut ? ` (${counts.leftOut} more within --depth left out by --max-nodes)` : ''}`,
    );
  }
}

import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { exportGraph, type ExportFormat } from '../../../export/graph-export.js';
import { openWorkspace } from '../../../workspace/workspace.js';

export default class GraphExport extends TravsrCommand {
  static override summary = 'Export the graph as JSON lines or Graphviz dot';
  static override description = `jsonl: one object a line —
{"type":"node","id","kind","name","qualified_name","path","language","signature","start_line","start_col","end_line","end_col"} (1-based lines, paths relative to the repository root), then
{"type":"edge","src","dst","kind","confidence","provenance"}; ids are NodeIds (BLAKE3 of the VName).`;
  static override examples = [
    '<%= config.bin %> graph export --format jsonl > graph.jsonl',
    '<%= config.bin %> graph export --format dot --out graph.dot',
  ];
  static override args = {
    path: Args.directory({ description: 'repository (default: the current directory)', default: '.', exists: true }),
  };
  static override flags = {
    format: Flags.string({ options: ['jsonl', 'dot'], default: 'jsonl', description: 'output format' }),
    out: Flags.file({ description: 'write to this file instead of stdout' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GraphExport);
    const ws = await openWorkspace(args.path, { readonly: true });
    try {
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
}

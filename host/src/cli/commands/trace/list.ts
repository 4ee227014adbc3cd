import { Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { TraceStore } from '../../../traces/trace-store.js';
import type { TraceKind, TraceStatus } from '../../../traces/trace.js';

export default class TraceList extends TravsrCommand {
  static override summary = 'List recent traces of plugin sessions, plugin tests and tool calls';
  static override description =
    'Traces are kept in the repository (.travsr/traces.db) when the current directory (or --repo) has a .travsr folder, otherwise in ~/.travsr/traces.db.';
  static override examples = [
    '<%= config.bin %> trace list',
    '<%= config.bin %> trace list --status error --json',
    '<%= config.bin %> trace list --global',
  ];
  static override flags = {
    repo: Flags.string({ description: 'repository whose traces to read (default: the current directory)' }),
    global: Flags.boolean({ description: 'read ~/.travsr/traces.db even inside a repository', default: false }),
    limit: Flags.integer({ description: 'how many traces', default: 20, min: 1 }),
    status: Flags.string({ options: ['running', 'completed', 'error'], description: 'only traces with this status' }),
    kind: Flags.string({ options: ['plugin-session', 'plugin-test', 'index-run', 'tool-call'], description: 'only traces of this kind' }),
    subject: Flags.string({ description: 'only traces whose subject contains this text (e.g. a plugin id)' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(TraceList);
    const store = TraceStore.forRepo(flags.global ? undefined : (flags.repo ?? process.cwd()));
    try {
      const rows = store.list({
        limit: flags.limit,
        ...(flags.status ? { status: flags.status as TraceStatus } : {}),
        ...(flags.kind ? { kind: flags.kind as TraceKind } : {}),
        ...(flags.subject ? { subject: flags.subject } : {}),
      });
      if (flags.json) {
        this.log(JSON.stringify({ store: store.path, traces: rows }, null, 2));
        return;
      }
      if (rows.length === 0) {
        this.log(`no traces in ${store.path}`);
        return;
      }
      for (const r of rows) {
        const status = r.status === 'error' ? `error ${r.error ?? ''}` : r.status;
        this.log(
          `${r.id.slice(0, 8)}  ${r.startedAt}  ${r.kind.padEnd(14)}  ${r.subject.padEnd(28)}  ${String(Math.round(r.durationMs)).padStart(7)} ms  ${status}`,
        );
      }
      this.log(`(${rows.length} shown, from ${store.path}; \`travsr trace show <id>\` for details)`);
    } finally {
      store.close();
    }
  }
}

import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';
import { TraceStore } from '../../../traces/trace-store.js';
import { formatTrace } from '../../render/trace.js';

export default class TraceShow extends TravsrCommand {
  static override summary = 'Show one trace: constraints, tier, state transitions, counts and outcome';
  static override examples = ['<%= config.bin %> trace show 3f2a9c1b', '<%= config.bin %> trace show 3f2a9c1b --json'];
  static override args = { id: Args.string({ required: true, description: 'trace id or a unique prefix of it (≥ 4 characters)' }) };
  static override flags = {
    repo: Flags.string({ description: 'repository whose traces to read (default: the current directory)' }),
    global: Flags.boolean({ description: 'read ~/.travsr/traces.db even inside a repository', default: false }),
    json: Flags.boolean({ description: 'print the trace as JSON', default: false }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(TraceShow);
    const store = TraceStore.forRepo(flags.global ? undefined : (flags.repo ?? process.cwd()));
    try {
      const trace = store.get(args.id);
      this.log(flags.json ? JSON.stringify(trace, null, 2) : formatTrace(trace));
    } finally {
      store.close();
    }
  }
}

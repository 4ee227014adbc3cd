import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../base-command.js';

export default class Ask extends TravsrCommand {
  static override summary = 'Ask the graph: the code that answers a question, cut to a token budget (get_context)';
  static override description = `Runs get_context: BM25 over symbols and files, exact names and paths the question quotes,
Personalized PageRank over the graph, k-core lift, a Steiner tree connecting the winners, and a 0-1 knapsack
over the snippets within --budget tokens (cl100k_base); then ranks definitions (functions, methods, classes) as
the places to look or change. --json prints {query, files:[{path, score}], functions:[{path, qualified_name,
start_line, end_line, score, why, …}], nodes:[{id, kind, name, qualified_name, path, start_line, end_line, score}],
tokens, trace_id, …}.`;
  static override examples = [
    '<%= config.bin %> ask "where are redirects resolved?"',
    '<%= config.bin %> ask "why does login fail with a 401" --budget 4000 --json',
    '<%= config.bin %> ask --file issue.md',
    'gh issue view 42 | <%= config.bin %> ask -',
  ];
  static override args = {
    question: Args.string({ description: 'the question, task or issue text; - reads it from standard input', required: false }),
  };
  static override flags = {
    budget: Flags.integer({ default: 8000, min: 200, max: 200000, description: 'hard limit on the answer, in tokens' }),
    repo: Flags.directory({ default: '.', exists: true, description: 'repository (default: the current directory)' }),
    json: Flags.boolean({ default: false, description: 'print JSON' }),
    file: Flags.string({
      char: 'f',
      description: 'read the question from this file (a whole issue with its logs; - for standard input)',
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Ask);
    const { runToolLocalOrDaemon } = await import('../shared/local-or-daemon-tool.js');
    const { stderrLogger } = await import('../../log/logger.js');
    const { readQuestion } = await import('../shared/read-question.js');
    const query = await readQuestion(args.question, flags.file);
    const r = await runToolLocalOrDaemon(
      flags.repo,
      'get_context',
      { query, token_budget: flags.budget },
      stderrLogger(),
      flags.json ? 'structured' : 'text',
    );
    if (r.isError) this.error(r.text, { exit: 1 });
    if (flags.json) this.log(JSON.stringify({ ...r.structured, trace_id: r.traceId }, null, 2));
    else this.log(r.text);
  }
}

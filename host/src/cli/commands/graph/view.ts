import { Args, Flags } from '@oclif/core';
import { TravsrCommand } from '../../base-command.js';

export default class GraphView extends TravsrCommand {
  static override summary = 'Draw the graph around a symbol or file in your browser (a page on 127.0.0.1 for this run only)';
  static override description = `Starts a page on 127.0.0.1 (a free port) whose URL carries a token made for this run: any
request without it is refused (403). It opens in the browser when there is one; the URL is printed either way. The
page shows the neighbourhood of SYMBOL (a name, qualified name, node id or file path) — callers, what it uses
(calls, imports, inheritance, types) — with edge kinds coloured and name-matched edges dashed; a click on a node
shows its source and adds its own neighbours; "Blast radius" lists what depends on the selected node, by depth;
"Export SVG" saves the drawing. It reads through the same tools as MCP. Ctrl-C stops it.`;
  static override examples = ['<%= config.bin %> graph view checkout', '<%= config.bin %> graph view src/session.ts --depth 2 --no-open'];
  static override args = {
    symbol: Args.string({ description: 'what to start from: a symbol, node id or file path (default: search on the page)' }),
  };
  static override flags = {
    repo: Flags.directory({ multiple: true, exists: true, description: 'repository to show (repeatable; default: the current directory)' }),
    depth: Flags.integer({ default: 1, min: 1, max: 5, description: 'hops shown around the symbol at first' }),
    port: Flags.integer({ default: 0, min: 0, max: 65535, description: 'port on 127.0.0.1 (0: a free one)' }),
    open: Flags.boolean({ default: true, allowNo: true, description: 'open the page in the browser (--no-open: only print the URL)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GraphView);
    const [{ openServedGraphs }, { startGraphView }, { openInBrowser }] = await Promise.all([
      import('../../../tools/served-graphs.js'),
      import('../../../view/graph-view-server.js'),
      import('../../../view/open-browser.js'),
    ]);
    const served = await openServedGraphs(flags.repo && flags.repo.length > 0 ? flags.repo : ['.']);
    const view = await startGraphView({
      host: served.host,
      ...(args.symbol === undefined ? {} : { focus: args.symbol }),
      depth: flags.depth,
      port: flags.port,
    });
    this.log(`graph view: ${view.url}`);
    if (flags.open && !(await openInBrowser(view.url))) this.log('(no browser to open here: open the URL above in one)');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await view.close();
    served.close();
  }
}

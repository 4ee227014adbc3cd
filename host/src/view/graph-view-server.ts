import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FULL_ACCESS, type AccessPolicy } from '../retrieval/access-policy.js';
import type { ToolHost } from '../tools/tool-runner.js';
import { runTool } from '../tools/tool-runner.js';
import { renderGraphViewPage } from './graph-view-page.js';
import { neighbourhoodOf, type ViewGraph } from './view-graph.js';

/** How to start {@link startGraphView}. */
export interface GraphViewOptions {
  /** The graphs to show, read through the MCP tools. */
  host: ToolHost;
  /** What the page opens on: a symbol, a node id or a file path (undefined: a search box only). */
  focus?: string;
  /** Hops shown around the focus at first (default 1). */
  depth?: number;
  /** Port on 127.0.0.1 (default 0: a free one). */
  port?: number;
  /** Whose view it is: the tools answer within it (default: the local user, every corpus). */
  policy?: AccessPolicy;
}

/** A running graph view. */
export interface GraphView {
  /** The page's URL, with its token: the only way in. */
  url: string;
  close(): Promise<void>;
}

/**
 * `travsr graph view`: a page on 127.0.0.1 that draws the neighbourhood of a symbol and grows
 * it on click. Only someone who has the URL (a random token made for this run) gets anything:
 * every other request is answered 403, so another local user or a web page the browser has open
 * cannot read the graph. The page asks for its data through the same tools MCP serves
 * (`get_callers`, `get_dependencies`, `get_blast_radius`, `search_symbols`, `get_definition`),
 * under `policy`, so what it shows is what an agent with that access would see.
 */
export async function startGraphView(opts: GraphViewOptions): Promise<GraphView> {
  const token = randomBytes(24).toString('base64url');
  const policy = opts.policy ?? FULL_ACCESS;
  const tool = (name: string, args: Record<string, unknown>) => runTool(opts.host, name, args, policy);
  // The same page for every load of this run: made once.
  const page = renderGraphViewPage({ focus: opts.focus ?? null, depth: opts.depth ?? 1 });
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      if (!res.headersSent) json(res, 500, { error: (e as Error).message });
      else res.end();
    }
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://view.invalid');
    if (req.method !== 'GET') return void res.writeHead(405, { Allow: 'GET' }).end();
    const presented = url.searchParams.get('token') ?? req.headers['x-travsr-token'];
    if (typeof presented !== 'string' || !sameToken(presented, token))
      return void res
        .writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Forbidden: open the URL `travsr graph view` printed; it carries this run’s token.\n');
    if (url.pathname === '/') {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
      });
      return void res.end(page);
    }
    const symbol = url.searchParams.get('symbol') ?? '';
    const depth = Math.min(5, Math.max(1, Number(url.searchParams.get('depth')) || 1));
    switch (url.pathname) {
      case '/api/neighbourhood':
        return json(res, 200, neighbourhoodOf(tool, symbol, depth) satisfies ViewGraph);
      case '/api/blast-radius': {
        const r = tool('get_blast_radius', { symbol, depth });
        return json(res, 200, r.isError ? { error: r.text } : r.structured);
      }
      case '/api/search': {
        const r = tool('search_symbols', { query: url.searchParams.get('q') ?? '', limit: 20 });
        return json(res, 200, r.isError ? { error: r.text } : r.structured);
      }
      case '/api/definition': {
        const r = tool('get_definition', { symbol });
        return json(res, 200, r.isError ? { error: r.text } : { text: r.text, ...r.structured });
      }
      default:
        return json(res, 404, { error: `no such path: ${url.pathname}` });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sameToken(presented: string, token: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
}

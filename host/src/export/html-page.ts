import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The graph-drawing library inlined in every page: Cytoscape.js (MIT), its layouts included. */
const CYTOSCAPE = 'cytoscape/dist/cytoscape.min.js';

/** What {@link htmlGraphPage} puts together. */
export interface HtmlGraphPage {
  title: string;
  css: string;
  /** The page's body, before its scripts. */
  body: string;
  /** Data for the page's script, in a JSON script element `#graph-data`. */
  data: unknown;
  /** The page's own script (runs after Cytoscape.js and the data). */
  script: string;
  /** Whether the page may call its own origin (the graph view); a saved page loads nothing. */
  connectSelf?: boolean;
}

/**
 * One HTML page with Cytoscape.js and the data inside: nothing is fetched from elsewhere (a
 * Content-Security-Policy says so to the browser). Strings from the repository go in as JSON data
 * that cannot end its script element, and the page's script inserts them as text only.
 */
export function htmlGraphPage(p: HtmlGraphPage): string {
  const csp = `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:${p.connectSelf ? "; connect-src 'self'" : ''}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(p.title)}</title>
<style>${p.css}</style>
</head>
<body>
${p.body}
<script>${cytoscapeSource()}</script>
<script type="application/json" id="graph-data">${jsonForScript(p.data)}</script>
<script>${inlineScript(p.script)}</script>
</body>
</html>
`;
}

/** The style both graph pages share: a side panel and the graph beside it. */
export const GRAPH_PAGE_CSS = `
html, body { margin: 0; height: 100%; font: 13px/1.4 system-ui, sans-serif; color: #1f2328; }
body { display: flex; }
#side { width: 340px; padding: 12px; box-sizing: border-box; overflow: auto; border-right: 1px solid #d0d7de; background: #f6f8fa; }
#graph { flex: 1; height: 100%; }
h1 { font-size: 15px; margin: 0 0 8px; word-break: break-all; }
h2 { font-size: 14px; margin: 10px 0 4px; word-break: break-all; }
h3 { font-size: 13px; margin: 8px 0 2px; }
input[type=search] { width: 100%; box-sizing: border-box; padding: 4px 6px; margin-bottom: 8px; }
button { margin: 0 4px 6px 0; }
#legend span { display: inline-block; margin: 0 8px 4px 0; }
#legend i { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 3px; vertical-align: -1px; }
code, pre { font: 12px ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
pre { background: #fff; border: 1px solid #d0d7de; padding: 6px; max-height: 40vh; overflow: auto; }
ul { padding-left: 16px; margin: 4px 0; }
.hint { color: #57606a; }
`;

/** Node colours by kind and edge colours by kind, as page script (both pages draw alike). */
export const GRAPH_PAGE_COLORS = `
  var COLORS = { file: '#8c959f', module: '#8c959f', namespace: '#8c959f', package: '#8c959f', class: '#bf8700', interface: '#9a6700',
    struct: '#bf8700', trait: '#9a6700', enum: '#bc4c00', function: '#0969da', method: '#1a7f37', constructor: '#1a7f37',
    property: '#8250df', variable: '#8250df', field: '#8250df', type: '#cf222e', external: '#d0d7de' };
  var EDGE_COLORS = { calls: '#0969da', imports: '#8c959f', contains: '#d0d7de', inherits: '#bf8700', implements: '#9a6700',
    references: '#8250df', types: '#cf222e', overrides: '#bc4c00' };
  var GRAPH_STYLE = [
    { selector: 'node', style: { 'background-color': 'data(color)', label: 'data(label)', 'font-size': 10, 'text-valign': 'bottom',
      'text-margin-y': 3, width: 14, height: 14 } },
    { selector: 'node.focus', style: { 'border-width': 3, 'border-color': '#cf222e', width: 20, height: 20 } },
    { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#1f2328' } },
    { selector: 'node.dim', style: { opacity: 0.15 } },
    { selector: 'node.blast', style: { 'border-width': 3, 'border-color': '#bc4c00' } },
    { selector: 'edge', style: { width: 1.5, 'line-color': 'data(color)', 'target-arrow-color': 'data(color)',
      'target-arrow-shape': 'triangle', 'curve-style': 'bezier', 'arrow-scale': 0.8 } },
    { selector: 'edge.matched', style: { 'line-style': 'dashed' } },
  ];
  function text(tag, s, cls) { var e = document.createElement(tag); e.textContent = s; if (cls) e.className = cls; return e; }
  /** Appends "title (n)" and the items, sorted, as a list; nothing when there are none. */
  function titledList(box, title, items) {
    if (!items.length) return;
    box.appendChild(text('h3', title + ' (' + items.length + ')'));
    var ul = document.createElement('ul');
    items.slice().sort().forEach(function (s) { ul.appendChild(text('li', s)); });
    box.appendChild(ul);
  }
`;

let cytoscape: string | undefined;

/** Cytoscape.js's source, read once per process (the graph view serves its page again on every load). */
function cytoscapeSource(): string {
  cytoscape ??= inlineScript(readFileSync(createRequire(import.meta.url).resolve(CYTOSCAPE), 'utf8'));
  return cytoscape;
}

/** JSON that cannot end the script element it is in (`</script>`, `<!--`) whatever the strings hold. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function inlineScript(source: string): string {
  if (/<\/script/i.test(source)) throw new Error('an inline script holds </script>: it would end its element early');
  return source;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

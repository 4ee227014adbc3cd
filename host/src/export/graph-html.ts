import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Subgraph } from './subgraph.js';

/** The graph-drawing library inlined in every page: Cytoscape.js (MIT), its layouts included. */
const CYTOSCAPE = 'cytoscape/dist/cytoscape.min.js';

/**
 * One self-contained HTML page that draws `sub` (no request leaves it: the library and the data
 * are inside): nodes coloured by kind, the focus ringed, edges by kind, name-matched edges
 * (Phase A, below full confidence) dashed and resolved ones solid; a search box, and a panel with
 * the selected node's kind, qualified name, place, signature and its edges. Laid out by
 * Cytoscape's force-directed `cose` layout. Names, paths and signatures come from the repository
 * and are only ever inserted as text.
 */
export function renderGraphHtml(sub: Subgraph, opts: { title: string }): string {
  const data = {
    title: opts.title,
    leftOut: sub.leftOut,
    nodes: sub.nodes.map((n) => ({
      id: n.id,
      kind: n.kind,
      name: n.name,
      qualifiedName: n.qualified_name,
      path: n.path,
      line: n.start_line,
      endLine: n.end_line,
      signature: n.signature,
      depth: sub.depthOf.get(n.id) ?? 0,
      focus: sub.focus.includes(n.id),
    })),
    edges: sub.edges.map((e, i) => ({
      id: `e${i}`,
      source: e.src,
      target: e.dst,
      kind: e.kind,
      confidence: e.confidence,
      resolved: e.provenance !== 'phase-a' || e.confidence >= 1,
    })),
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(opts.title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<div id="side">
  <h1 id="title"></h1>
  <input id="search" type="search" placeholder="find a node by name" autocomplete="off">
  <div id="summary"></div>
  <div id="legend"></div>
  <div id="selected"><p class="hint">Click a node to see where it is and what it links to.</p></div>
</div>
<div id="graph"></div>
<script>${inlineScript(cytoscapeSource())}</script>
<script type="application/json" id="graph-data">${jsonForScript(data)}</script>
<script>${inlineScript(PAGE_SCRIPT)}</script>
</body>
</html>
`;
}

function cytoscapeSource(): string {
  return readFileSync(createRequire(import.meta.url).resolve(CYTOSCAPE), 'utf8');
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

const PAGE_CSS = `
html, body { margin: 0; height: 100%; font: 13px/1.4 system-ui, sans-serif; color: #1f2328; }
body { display: flex; }
#side { width: 320px; padding: 12px; box-sizing: border-box; overflow: auto; border-right: 1px solid #d0d7de; background: #f6f8fa; }
#graph { flex: 1; height: 100%; }
h1 { font-size: 15px; margin: 0 0 8px; word-break: break-all; }
#search { width: 100%; box-sizing: border-box; padding: 4px 6px; margin-bottom: 8px; }
#legend span { display: inline-block; margin: 0 8px 4px 0; }
#legend i { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 3px; vertical-align: -1px; }
#selected code, #selected pre { font: 12px ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
#selected ul { padding-left: 16px; margin: 4px 0; }
.hint { color: #57606a; }
`;

/** The page's own script: builds the Cytoscape graph from #graph-data; every repository string goes in as text. */
const PAGE_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('graph-data').textContent);
  var COLORS = { file: '#8c959f', module: '#8c959f', class: '#bf8700', interface: '#9a6700', struct: '#bf8700', trait: '#9a6700',
    enum: '#bc4c00', function: '#0969da', method: '#1a7f37', constructor: '#1a7f37', variable: '#8250df', field: '#8250df',
    type: '#cf222e', external: '#d0d7de' };
  var EDGE_COLORS = { calls: '#0969da', imports: '#8c959f', contains: '#d0d7de', inherits: '#bf8700', implements: '#9a6700',
    references: '#8250df', types: '#cf222e', overrides: '#bc4c00' };
  function text(tag, s, cls) { var e = document.createElement(tag); e.textContent = s; if (cls) e.className = cls; return e; }
  document.title = data.title;
  document.getElementById('title').textContent = data.title;
  document.getElementById('summary').textContent = data.nodes.length + ' nodes, ' + data.edges.length + ' edges' +
    (data.leftOut ? ' (' + data.leftOut + ' more nodes within reach left out)' : '') + '; dashed: name-matched, solid: resolved';
  var kinds = {};
  data.nodes.forEach(function (n) { kinds[n.kind] = true; });
  var legend = document.getElementById('legend');
  Object.keys(kinds).sort().forEach(function (k) {
    var s = document.createElement('span'); var dot = document.createElement('i');
    dot.style.background = COLORS[k] || '#57606a'; s.appendChild(dot); s.appendChild(document.createTextNode(k)); legend.appendChild(s);
  });
  var elements = data.nodes.map(function (n) {
    return { group: 'nodes', data: { id: n.id, label: n.kind === 'file' ? n.path : n.name, kind: n.kind, color: COLORS[n.kind] || '#57606a' },
      classes: n.focus ? 'focus' : '' };
  }).concat(data.edges.map(function (e) {
    return { group: 'edges', data: { id: e.id, source: e.source, target: e.target, kind: e.kind, color: EDGE_COLORS[e.kind] || '#57606a' },
      classes: e.resolved ? 'resolved' : 'matched' };
  }));
  var cy = cytoscape({
    container: document.getElementById('graph'),
    elements: elements,
    wheelSensitivity: 0.3,
    style: [
      { selector: 'node', style: { 'background-color': 'data(color)', label: 'data(label)', 'font-size': 10, 'text-valign': 'bottom',
        'text-margin-y': 3, width: 14, height: 14 } },
      { selector: 'node.focus', style: { 'border-width': 3, 'border-color': '#cf222e', width: 20, height: 20 } },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#1f2328' } },
      { selector: 'node.dim', style: { opacity: 0.15 } },
      { selector: 'edge', style: { width: 1.5, 'line-color': 'data(color)', 'target-arrow-color': 'data(color)',
        'target-arrow-shape': 'triangle', 'curve-style': 'bezier', 'arrow-scale': 0.8 } },
      { selector: 'edge.matched', style: { 'line-style': 'dashed' } },
    ],
    layout: { name: 'cose', animate: false, randomize: false, nodeRepulsion: function () { return 8000; } },
  });
  var byId = {};
  data.nodes.forEach(function (n) { byId[n.id] = n; });
  function show(n) {
    var box = document.getElementById('selected');
    box.textContent = '';
    box.appendChild(text('h2', n.kind + ' ' + (n.qualifiedName || n.name)));
    box.appendChild(text('code', n.path + (n.line ? ':' + n.line + (n.endLine && n.endLine !== n.line ? '-' + n.endLine : '') : '')));
    if (n.signature) box.appendChild(text('pre', n.signature));
    var lists = { out: [], in: [] };
    data.edges.forEach(function (e) {
      if (e.source === n.id && byId[e.target]) lists.out.push(e.kind + ' \\u2192 ' + (byId[e.target].qualifiedName || byId[e.target].name) + (e.resolved ? '' : ' (name-matched)'));
      if (e.target === n.id && byId[e.source]) lists.in.push((byId[e.source].qualifiedName || byId[e.source].name) + ' \\u2192 ' + e.kind + (e.resolved ? '' : ' (name-matched)'));
    });
    [['Links from it', lists.out], ['Links to it', lists.in]].forEach(function (pair) {
      if (!pair[1].length) return;
      box.appendChild(text('h3', pair[0] + ' (' + pair[1].length + ')'));
      var ul = document.createElement('ul');
      pair[1].sort().forEach(function (s) { ul.appendChild(text('li', s)); });
      box.appendChild(ul);
    });
  }
  cy.on('tap', 'node', function (ev) { show(byId[ev.target.id()]); });
  document.getElementById('search').addEventListener('input', function (ev) {
    var q = ev.target.value.trim().toLowerCase();
    cy.nodes().forEach(function (node) {
      var n = byId[node.id()];
      var hit = !q || (n.name + ' ' + (n.qualifiedName || '') + ' ' + n.path).toLowerCase().indexOf(q) >= 0;
      node.toggleClass('dim', !hit);
    });
  });
  window.travsrGraph = cy;
})();
`;

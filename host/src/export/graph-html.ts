import { GRAPH_PAGE_COLORS, GRAPH_PAGE_CSS, htmlGraphPage } from './html-page.js';
import type { Subgraph } from './subgraph.js';

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
  return htmlGraphPage({
    title: opts.title,
    css: GRAPH_PAGE_CSS,
    body: `<div id="side">
  <h1 id="title"></h1>
  <input id="search" type="search" placeholder="find a node by name" autocomplete="off">
  <div id="summary"></div>
  <div id="legend"></div>
  <div id="selected"><p class="hint">Click a node to see where it is and what it links to.</p></div>
</div>
<div id="graph"></div>`,
    data,
    script: PAGE_SCRIPT,
  });
}

/** The page's own script: builds the Cytoscape graph from #graph-data; every repository string goes in as text. */
const PAGE_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('graph-data').textContent);
${GRAPH_PAGE_COLORS}  document.title = data.title;
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
    style: GRAPH_STYLE,
    layout: { name: 'cose', animate: false, randomize: false, nodeRepulsion: function () { return 8000; } },
  });
  if (cy.zoom() > 1.5) { cy.zoom(1.5); cy.center(); }
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
    titledList(box, 'Links from it', lists.out);
    titledList(box, 'Links to it', lists.in);
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

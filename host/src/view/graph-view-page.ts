import { GRAPH_PAGE_COLORS, GRAPH_PAGE_CSS, htmlGraphPage } from '../export/html-page.js';

/**
 * The page of `travsr graph view`: it starts from `focus` (or a search) and asks its server for
 * more as the user goes — a click on a node shows its source and adds its callers and what it
 * uses; "blast radius" marks what depends on it, by depth; "export SVG" saves the drawing. It
 * reads the token from its own URL and sends it with every request.
 */
export function renderGraphViewPage(opts: { focus: string | null; depth: number }): string {
  return htmlGraphPage({
    title: `Travsr graph view${opts.focus ? `: ${opts.focus}` : ''}`,
    css: GRAPH_PAGE_CSS,
    body: `<div id="side">
  <h1>Travsr graph view</h1>
  <input id="search" type="search" placeholder="search symbols, then Enter" autocomplete="off">
  <ul id="results"></ul>
  <div><button id="blast" disabled>Blast radius</button><button id="svg">Export SVG</button></div>
  <div id="summary"></div>
  <div id="legend"><span>dashed: name-matched</span><span>solid: resolved</span></div>
  <div id="selected"><p class="hint">Click a node: its source, and its callers and what it uses are added.</p></div>
</div>
<div id="graph"></div>`,
    data: opts,
    script: VIEW_SCRIPT,
    connectSelf: true,
  });
}

const VIEW_SCRIPT = `
(function () {
  ${GRAPH_PAGE_COLORS}
  var start = JSON.parse(document.getElementById('graph-data').textContent);
  var token = new URLSearchParams(location.search).get('token') || '';
  var nodes = {};
  var selected = null;
  var cy = cytoscape({ container: document.getElementById('graph'), elements: [], wheelSensitivity: 0.3, style: GRAPH_STYLE });
  window.travsrGraph = cy;
  function api(path, params) {
    var q = new URLSearchParams(params);
    return fetch(path + '?' + q.toString(), { headers: { 'x-travsr-token': token } }).then(function (r) { return r.json(); });
  }
  function summary(note) {
    document.getElementById('summary').textContent = cy.nodes().length + ' nodes, ' + cy.edges().length + ' edges' + (note ? '; ' + note : '');
  }
  function add(g, focus) {
    if (g.error) { summary(g.error); return; }
    var added = [];
    g.nodes.forEach(function (n) {
      nodes[n.id] = n;
      if (cy.getElementById(n.id).length) return;
      added.push({ group: 'nodes', data: { id: n.id, label: n.kind === 'file' ? n.path : n.name, kind: n.kind, color: COLORS[n.kind] || '#57606a' } });
    });
    g.edges.forEach(function (e) {
      var id = e.source + ' ' + e.kind + ' ' + e.target;
      if (cy.getElementById(id).length) return;
      added.push({ group: 'edges', data: { id: id, source: e.source, target: e.target, kind: e.kind, color: EDGE_COLORS[e.kind] || '#57606a' },
        classes: e.resolved ? 'resolved' : 'matched' });
    });
    cy.add(added);
    if (focus) g.roots.forEach(function (id) { cy.getElementById(id).addClass('focus'); });
    cy.layout({ name: 'cose', animate: false, randomize: false, nodeRepulsion: function () { return 8000; } }).run();
    // A few nodes would be fitted to huge sizes: no closer than 1.5.
    if (cy.zoom() > 1.5) { cy.zoom(1.5); cy.center(); }
    summary();
    document.body.dataset.loads = String(Number(document.body.dataset.loads || 0) + 1);
  }
  function expand(symbol, depth, focus) {
    return api('/api/neighbourhood', { symbol: symbol, depth: String(depth) }).then(function (g) { add(g, focus); return g; });
  }
  function place(n) { return n.path + (n.startLine ? ':' + n.startLine + (n.endLine && n.endLine !== n.startLine ? '-' + n.endLine : '') : ''); }
  function show(n) {
    var box = document.getElementById('selected');
    box.textContent = '';
    box.appendChild(text('h2', n.kind + ' ' + (n.qualifiedName || n.name)));
    box.appendChild(text('code', place(n)));
    var links = { out: [], in: [] };
    cy.getElementById(n.id).connectedEdges().forEach(function (e) {
      var d = e.data(); var other = nodes[d.source === n.id ? d.target : d.source];
      if (!other) return;
      var s = d.kind + ' ' + (other.qualifiedName || other.name) + (e.hasClass('matched') ? ' (name-matched)' : '');
      (d.source === n.id ? links.out : links.in).push(s);
    });
    titledList(box, 'Uses', links.out);
    titledList(box, 'Used by', links.in);
    var source = text('pre', 'loading the source\\u2026');
    source.id = 'source';
    box.appendChild(source);
    api('/api/definition', { symbol: n.id }).then(function (d) {
      source.textContent = d.error || (d.definition === null ? d.text : d.source != null ? d.source : (d.source_withheld ? 'source not shown: ' + d.source_withheld.detail : d.skeleton || ''));
    });
  }
  cy.on('tap', 'node', function (ev) {
    var n = nodes[ev.target.id()];
    selected = n;
    document.getElementById('blast').disabled = false;
    show(n);
    expand(n.id, 1, false).then(function () { show(n); });
  });
  document.getElementById('search').addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter') return;
    api('/api/search', { q: ev.target.value }).then(function (r) {
      var ul = document.getElementById('results');
      ul.textContent = '';
      (r.results || []).forEach(function (hit) {
        var li = text('li', hit.kind + ' ' + (hit.qualifiedName || hit.name) + ' \\u2014 ' + place(hit));
        li.style.cursor = 'pointer';
        li.addEventListener('click', function () { expand(hit.id, start.depth, true); });
        ul.appendChild(li);
      });
      if (r.error) ul.appendChild(text('li', r.error));
    });
  });
  document.getElementById('blast').addEventListener('click', function () {
    if (!selected) return;
    api('/api/blast-radius', { symbol: selected.id, depth: '3' }).then(function (r) {
      cy.nodes().removeClass('blast');
      var box = document.getElementById('selected');
      box.appendChild(text('h3', 'Blast radius of ' + (selected.qualifiedName || selected.name)));
      var byDepth = {};
      (r.nodes || []).forEach(function (n) { (byDepth[n.depth] = byDepth[n.depth] || []).push(n); });
      Object.keys(byDepth).sort().forEach(function (d) {
        byDepth[d].forEach(function (n) { cy.getElementById(n.id).addClass('blast'); });
        titledList(box, 'depth ' + d, byDepth[d].map(function (n) { return (n.qualifiedName || n.name) + ' \\u2014 ' + place(n); }));
      });
      if (!(r.nodes || []).length) box.appendChild(text('p', 'Nothing depends on it.', 'hint'));
    });
  });
  function escapeXml(s) { return String(s).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; }); }
  /** The drawing as SVG: the positions Cytoscape laid out, edges as lines (dashed when name-matched), nodes as labelled circles. */
  function toSvg() {
    var bb = cy.elements().boundingBox();
    var pad = 40;
    var out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + (bb.x1 - pad) + ' ' + (bb.y1 - pad) + ' ' + (bb.w + 2 * pad) + ' ' + (bb.h + 2 * pad) +
      '" font-family="sans-serif" font-size="10">'];
    cy.edges().forEach(function (e) {
      var a = e.source().position(); var b = e.target().position();
      out.push('<line x1="' + a.x + '" y1="' + a.y + '" x2="' + b.x + '" y2="' + b.y + '" stroke="' + e.data('color') + '" stroke-width="1.5"' +
        (e.hasClass('matched') ? ' stroke-dasharray="4 3"' : '') + '><title>' + escapeXml(e.data('kind')) + '</title></line>');
    });
    cy.nodes().forEach(function (n) {
      var p = n.position();
      out.push('<circle cx="' + p.x + '" cy="' + p.y + '" r="7" fill="' + n.data('color') + '"' + (n.hasClass('focus') ? ' stroke="#cf222e" stroke-width="3"' : '') + '/>');
      out.push('<text x="' + p.x + '" y="' + (p.y + 18) + '" text-anchor="middle">' + escapeXml(n.data('label')) + '</text>');
    });
    out.push('</svg>');
    return out.join('\\n');
  }
  window.travsrSvg = toSvg;
  document.getElementById('svg').addEventListener('click', function () {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([toSvg()], { type: 'image/svg+xml' }));
    a.download = 'travsr-graph.svg';
    a.click();
  });
  summary();
  if (start.focus) expand(start.focus, start.depth, true);
})();
`;

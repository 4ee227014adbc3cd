// {{id}}: a Travsr analyzer plugin for {{language}}.
//
// runAnalyzer() speaks the protocol; you write analyzeFile(). This starting point finds
// definitions and calls line by line with two regular expressions, which is enough to see
// the whole loop work (`npm run build && npx travsr plugin test .`). Replace it with a real
// parser: @travsr/sdk/tree-sitter turns a grammar .wasm and a tags query into nodes and
// edges (see plugins/example-lua in the Travsr repository).
import { runAnalyzer } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };

const DEFINITION = /^(\s*)(?:export\s+)?(?:async\s+)?(?:def|function|func|fn|sub|proc)\s+([A-Za-z_][A-Za-z0-9_]*)/;
const CALL = /\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'def', 'function', 'func', 'fn', 'sub', 'proc', 'print']);

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  analyzeFile(file, { graph }) {
    const lines = file.text.split('\n');
    let current = graph.fileNode;
    lines.forEach((line, i) => {
      const def = DEFINITION.exec(line);
      if (def) {
        const name = def[2]!;
        const col = line.indexOf(name);
        current = graph.define({
          kind: 'function',
          name,
          range: { startLine: i + 1, startCol: col, endLine: i + 1, endCol: col + name.length },
          skeleton: line.trim(),
        });
        return;
      }
      for (const m of line.matchAll(CALL)) {
        const callee = m[1]!;
        if (KEYWORDS.has(callee)) continue;
        const col = m.index ?? 0;
        graph.ref(current, 'calls', callee, { startLine: i + 1, startCol: col, endLine: i + 1, endCol: col + callee.length });
      }
    });
    return graph.build();
  },
});

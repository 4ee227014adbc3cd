import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertSchema, GraphFileParamsSchema } from '@travsr/protocol';
import { FileGraphBuilder, type FileContext } from '../../src/index.js';
import {
  countParseErrors,
  createTagsAnalyzer,
  LineIndex,
  loadGrammar,
  parseErrorDiagnostic,
  runTagsQuery,
  tagsToGraph,
  type Grammar,
} from '../../src/tree-sitter/index.js';

const require = createRequire(import.meta.url);
const grammars = join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');

// Our own small tags query for Python, enough to exercise every role the converter knows.
const PYTHON_TAGS = `
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
(class_definition superclasses: (argument_list (identifier) @name @reference.inherits))
(call function: [(identifier) (attribute)] @name) @reference.call
(import_statement name: (dotted_name) @name) @reference.import
(import_from_statement module_name: (dotted_name) @name) @reference.import
`;

const SOURCE = `import os
from collections import OrderedDict

# A stack of plates.
class Stack(Base):
    def push(self, x):
        self.items.append(x)

    def pop(self):
        return helper(self.items)

def helper(items):
    café = "é"; return os.path.join(café)
`;

let python: Grammar;
beforeAll(async () => {
  python = await loadGrammar(join(grammars, 'tree-sitter-python.wasm'));
});

function graphFor(path: string, language = 'python') {
  return new FileGraphBuilder({ corpus: 'c', path, language });
}

describe('loadGrammar', () => {
  it('loads a grammar from tree-sitter-wasms and parses', () => {
    const tree = python.parse('x = 1\n');
    try {
      expect(tree.rootNode.type).toBe('module');
    } finally {
      tree.delete();
    }
  });

  it('names the path when the grammar is missing', async () => {
    await expect(loadGrammar('/nonexistent/tree-sitter-nope.wasm')).rejects.toThrow(
      /grammar not found at \/nonexistent\/tree-sitter-nope\.wasm/,
    );
  });

  it('accepts a file: URL', async () => {
    const go = await loadGrammar(new URL(`file://${join(grammars, 'tree-sitter-go.wasm')}`));
    const tree = go.parse('package main\n');
    expect(tree.rootNode.type).toBe('source_file');
    tree.delete();
  });
});

describe('runTagsQuery + tagsToGraph', () => {
  it('builds nodes with qualified names, contains edges from the enclosing scope and refs from the innermost definition', () => {
    const tree = python.parse(SOURCE);
    const graph = graphFor('pkg/stack.py');
    try {
      tagsToGraph(runTagsQuery(python.language, tree, PYTHON_TAGS), graph, { text: SOURCE });
    } finally {
      tree.delete();
    }
    const { nodes, edges, refs } = graph.build();
    expect(nodes.map((n) => [n.kind, n.vname.signature, n.name, n.qualifiedName])).toEqual([
      ['file', '', 'stack.py', 'pkg/stack.py'],
      ['class', 'Stack', 'Stack', 'Stack'],
      ['function', 'Stack.push', 'push', 'Stack.push'],
      ['function', 'Stack.pop', 'pop', 'Stack.pop'],
      ['function', 'helper', 'helper', 'helper'],
    ]);
    expect(edges.map((e) => [e.kind, e.src.signature, e.dst.signature, e.confidence, e.provenance])).toEqual([
      ['contains', '', 'Stack', 1, 'phase-a'],
      ['contains', 'Stack', 'Stack.push', 1, 'phase-a'],
      ['contains', 'Stack', 'Stack.pop', 1, 'phase-a'],
      ['contains', '', 'helper', 1, 'phase-a'],
    ]);
    expect(refs!.map((r) => [r.kind, r.name, r.src.signature])).toEqual([
      ['imports', 'os', ''],
      ['imports', 'collections', ''],
      ['inherits', 'Base', 'Stack'],
      ['calls', 'self.items.append', 'Stack.push'],
      ['calls', 'helper', 'Stack.pop'],
      ['calls', 'os.path.join', 'helper'],
    ]);
    const stack = nodes[1]!;
    expect(stack.range).toEqual({ startLine: 5, startCol: 0, endLine: 10, endCol: 33 });
    expect(stack.skeleton).toBe('# A stack of plates.\nclass Stack(Base):');
    expect(nodes[2]!.skeleton).toBe('def push(self, x):');
  });

  it('reports columns in UTF-8 bytes, not UTF-16 units', () => {
    const tree = python.parse(SOURCE);
    const graph = graphFor('pkg/stack.py');
    try {
      tagsToGraph(runTagsQuery(python.language, tree, PYTHON_TAGS), graph, { text: SOURCE });
    } finally {
      tree.delete();
    }
    const join = graph.build().refs!.find((r) => r.name === 'os.path.join')!;
    // `    café = "é"; return ` is 23 UTF-16 units but 25 UTF-8 bytes.
    expect(join.range).toEqual({ startLine: 13, startCol: 25, endLine: 13, endCol: 37 });
    expect(Buffer.from(SOURCE.split('\n')[12]!).subarray(25, 37).toString()).toBe('os.path.join');
  });

  it('strips quotes from imports written as strings and skips tags without a mapping', async () => {
    const js = await loadGrammar(join(grammars, 'tree-sitter-javascript.wasm'));
    const text = "import { readFile } from 'node:fs/promises';\nconst x = 1;\n";
    const tree = js.parse(text);
    const graph = graphFor('a.js', 'javascript');
    try {
      const query = `(import_statement source: (string) @name) @reference.import
        (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.binding`;
      const out = tagsToGraph(runTagsQuery(js.language, tree, query), graph, { text });
      expect(out.definitions).toEqual([]);
      expect(out.refs.map((r) => [r.name, r.range])).toEqual([
        ['node:fs/promises', { startLine: 1, startCol: 25, endLine: 1, endCol: 43 }],
      ]);
    } finally {
      tree.delete();
    }
  });

  it('lets a plugin map its own tag kinds', () => {
    const text = 'def f():\n    pass\n';
    const tree = python.parse(text);
    const graph = graphFor('m.py');
    try {
      tagsToGraph(runTagsQuery(python.language, tree, '(function_definition name: (identifier) @name) @definition.routine'), graph, {
        text,
        definitionKinds: { routine: 'method' },
      });
    } finally {
      tree.delete();
    }
    expect(graph.build().nodes.map((n) => n.kind)).toEqual(['file', 'method']);
  });

  it('explains an invalid query', () => {
    const tree = python.parse('x = 1\n');
    try {
      expect(() => runTagsQuery(python.language, tree, '(no_such_node) @name')).toThrow(/invalid tags query: .*no_such_node/);
    } finally {
      tree.delete();
    }
  });
});

describe('parse errors', () => {
  it('counts ERROR and MISSING nodes into one warning diagnostic, not a failure', () => {
    const text = 'def ok():\n    return 1\n\ndef broken(:\n    pass\n';
    const tree = python.parse(text);
    try {
      const summary = countParseErrors(tree);
      expect(summary.errors + summary.missing).toBeGreaterThan(0);
      const d = parseErrorDiagnostic(tree, new LineIndex(text))!;
      expect(d.severity).toBe('warning');
      expect(d.code).toBe('PARSE_ERRORS');
      expect(d.message).toMatch(/^\d+ syntax errors? \(/);
      expect(d.range?.startLine).toBe(4);
    } finally {
      tree.delete();
    }
  });

  it('gives no diagnostic for a clean tree', () => {
    const tree = python.parse('x = 1\n');
    expect(parseErrorDiagnostic(tree, new LineIndex('x = 1\n'))).toBeUndefined();
    tree.delete();
  });
});

describe('createTagsAnalyzer', () => {
  it('loads in initialize and returns a schema-valid graph per file, with a parse warning when broken', async () => {
    const hooks = createTagsAnalyzer({ grammar: join(grammars, 'tree-sitter-python.wasm'), query: PYTHON_TAGS });
    await hooks.initialize();
    const file = {
      path: 'broken.py',
      language: 'python',
      absolutePath: '/x/broken.py',
      text: 'class A:\n    def m(self:\n',
      bytes: new Uint8Array(),
    };
    const ctx = { graph: graphFor('broken.py') } as FileContext;
    const analysis = await hooks.analyzeFile(file, ctx);
    expect(analysis.nodes.map((n) => n.vname.signature)).toContain('A');
    expect(analysis.diagnostics?.map((d) => d.code)).toEqual(['PARSE_ERRORS']);
    assertSchema(
      GraphFileParamsSchema,
      {
        requestId: 1,
        path: 'broken.py',
        language: 'python',
        phase: 'A',
        status: 'ok',
        nodes: analysis.nodes,
        edges: analysis.edges,
        refs: analysis.refs,
        diagnostics: analysis.diagnostics,
      },
      'graph',
    );
  });

  it('names the grammar when its query does not compile', async () => {
    const hooks = createTagsAnalyzer({
      grammar: join(grammars, 'tree-sitter-python.wasm'),
      query: '(function_definition nme: (identifier) @name) @definition.function',
    });
    await expect(hooks.initialize()).rejects.toThrow(/invalid tags query for .*tree-sitter-python\.wasm/);
  });

  it('fails initialize with the reason when the grammar is missing', async () => {
    const hooks = createTagsAnalyzer({ grammar: '/missing/grammar.wasm', query: PYTHON_TAGS });
    await expect(hooks.initialize()).rejects.toThrow(/grammar not found at \/missing\/grammar\.wasm/);
  });
});

describe('LineIndex', () => {
  it('converts UTF-16 columns to UTF-8 byte columns per line, CRLF included', () => {
    const lines = new LineIndex('ab\r\n€x 😀y\n');
    expect(lines.line(0)).toBe('ab');
    expect(lines.utf8Column(1, 1)).toBe(3);
    expect(lines.utf8Column(1, 5)).toBe(9); // € (3 bytes) x space 😀 (2 units, 4 bytes)
    expect(lines.range({ row: 1, column: 3 }, { row: 1, column: 6 })).toEqual({ startLine: 2, startCol: 5, endLine: 2, endCol: 10 });
  });
});

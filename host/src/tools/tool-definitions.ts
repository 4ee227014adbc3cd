/** Arguments of each tool, as validated against its JSON Schema. */
export interface ToolArgs {
  get_context: { query: string; token_budget?: number; corpus?: string };
  get_dependencies: { symbol: string; depth?: number; limit?: number; resolved_only?: boolean; corpus?: string };
  get_callers: { symbol: string; depth?: number; limit?: number; resolved_only?: boolean; corpus?: string };
  get_blast_radius: { symbol: string; depth?: number; limit?: number; resolved_only?: boolean; corpus?: string };
  get_execution_path: { from: string; to: string; resolved_only?: boolean; corpus?: string };
  get_index_status: { corpus?: string };
  search_symbols: { query: string; limit?: number; kinds?: string[]; corpus?: string };
  get_definition: { symbol: string; corpus?: string };
  get_file_outline: { path: string; corpus?: string };
}

/** A tool's name. */
export type ToolName = keyof ToolArgs;

/** Name, description and input schema of a tool, as listed to MCP clients. */
export interface ToolDefinition<N extends ToolName = ToolName> {
  name: N;
  title: string;
  description: string;
  /** JSON Schema (draft-07 subset) of the arguments. */
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
}

/**
 * The longest get_context query, in characters: far beyond any real question or issue text (a
 * whole log pasted in is some 100 kB), so nothing a user pastes is refused, while a runaway
 * caller still gets a clear error instead of a server busy reading megabytes.
 */
export const QUERY_MAX_CHARS = 1_000_000;

const corpus = {
  type: 'string',
  nullable: true,
  minLength: 1,
  maxLength: 512,
  description: 'Only this corpus (repository); default every corpus the caller may read.',
} as const;
const symbol = {
  type: 'string',
  minLength: 1,
  maxLength: 4096,
  description: 'A node id (or 8+ hex digit prefix), `path:line`, a qualified name, a name, or a file path.',
} as const;
const depth = (def: number) =>
  ({ type: 'integer', nullable: true, minimum: 1, maximum: 3, description: `Hops to follow (default ${def}).` }) as const;
const limit = {
  type: 'integer',
  nullable: true,
  minimum: 1,
  maximum: 5000,
  description: 'At most this many nodes (default 200).',
} as const;
const resolvedOnly = {
  type: 'boolean',
  nullable: true,
  description: 'Leave out name-matched (structural, low-confidence) edges; default false: they are included and marked.',
} as const;

/** The tools, in the order they are listed. */
export const TOOL_DEFINITIONS: { [N in ToolName]: ToolDefinition<N> } = {
  get_context: {
    name: 'get_context',
    title: 'Code context for a question',
    description:
      'The code that answers a question or task, ranked (lexical match, graph relevance, structure) and cut to a token budget. It leads with the best definitions (functions, methods, classes) to look at or change, then the snippets; each names its file, line range and why it was chosen. Paste a whole issue with its stack traces and logs. Start here.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: QUERY_MAX_CHARS,
          description: 'The question, task or whole issue text (stack traces and logs included).',
        },
        token_budget: {
          type: 'integer',
          nullable: true,
          minimum: 200,
          maximum: 200000,
          description: 'Hard limit on the answer (default 8000).',
        },
        corpus,
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
  get_dependencies: {
    name: 'get_dependencies',
    title: 'What a symbol depends on',
    description: 'What a symbol (or every definition in a file) calls, imports, extends and refers to, up to 3 hops.',
    inputSchema: {
      type: 'object',
      properties: { symbol, depth: depth(1), limit, resolved_only: resolvedOnly, corpus },
      required: ['symbol'],
      additionalProperties: false,
    },
  },
  get_callers: {
    name: 'get_callers',
    title: 'Who calls a symbol',
    description:
      'The callers of a function or method, up to 3 hops. Name-matched calls are marked; the answer says how complete the graph is.',
    inputSchema: {
      type: 'object',
      properties: { symbol, depth: depth(1), limit, resolved_only: resolvedOnly, corpus },
      required: ['symbol'],
      additionalProperties: false,
    },
  },
  get_blast_radius: {
    name: 'get_blast_radius',
    title: 'What a change can break',
    description: 'Everything that depends on a symbol or file within 3 hops (callers, importers, subclasses, type users), grouped by file.',
    inputSchema: {
      type: 'object',
      properties: { symbol, depth: depth(3), limit, resolved_only: resolvedOnly, corpus },
      required: ['symbol'],
      additionalProperties: false,
    },
  },
  get_execution_path: {
    name: 'get_execution_path',
    title: 'How one symbol reaches another',
    description: 'A shortest chain of calls from one symbol to another (or of any dependency edge when no call chain exists).',
    inputSchema: {
      type: 'object',
      properties: {
        from: { ...symbol, description: `Start. ${symbol.description}` },
        to: { ...symbol, description: `Target. ${symbol.description}` },
        resolved_only: resolvedOnly,
        corpus,
      },
      required: ['from', 'to'],
      additionalProperties: false,
    },
  },
  get_index_status: {
    name: 'get_index_status',
    title: 'Index status',
    description: 'Schema version, counts, languages with their analysis phase, failed and skipped files: how far the graph can be trusted.',
    inputSchema: { type: 'object', properties: { corpus }, additionalProperties: false },
  },
  search_symbols: {
    name: 'search_symbols',
    title: 'Search symbols',
    description: 'Definitions whose name, qualified name, path or doc match the query (BM25; camelCase and snake_case split alike).',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 2000 },
        limit: { type: 'integer', nullable: true, minimum: 1, maximum: 200, description: 'Default 20.' },
        kinds: {
          type: 'array',
          nullable: true,
          items: { type: 'string', minLength: 1, maxLength: 32 },
          maxItems: 32,
          description: 'Only these node kinds (function, method, class, …).',
        },
        corpus,
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
  get_definition: {
    name: 'get_definition',
    title: 'Definition of a symbol',
    description: 'Where a symbol is defined, its signature and doc, and its source.',
    inputSchema: { type: 'object', properties: { symbol, corpus }, required: ['symbol'], additionalProperties: false },
  },
  get_file_outline: {
    name: 'get_file_outline',
    title: 'Outline of a file',
    description: 'The definitions in a file, nested as in the source, with line ranges and signatures.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', minLength: 1, maxLength: 4096, description: 'Path relative to the repository root.' }, corpus },
      required: ['path'],
      additionalProperties: false,
    },
  },
};

import type { GraphStore, NodeRow } from '../store/index.js';
import { mayRead, type AccessPolicy } from './access-policy.js';

/** How a tool argument named a symbol, and what it matched. */
export interface SymbolLookup {
  spec: string;
  /** Matches the caller may see, best first. More than one = ambiguous: the caller chooses. */
  matches: NodeRow[];
  /** How `spec` was read. */
  as: 'node-id' | 'location' | 'name' | 'search';
}

const HEX = /^[0-9a-f]{8,64}$/i;
const LOCATION = /^(.+?):(\d+)$/;

/**
 * Finds the node a tool argument names: a node id (or a prefix of 8+ hex digits), a
 * `path:line` location (the innermost definition covering the line), an exact name or
 * qualified name, or else the best symbol-search hits. Only nodes `policy` may see are
 * considered, so an ambiguity never reveals a hidden node.
 */
export function lookupSymbol(store: GraphStore, spec: string, policy: AccessPolicy, limit = 10): SymbolLookup {
  const s = spec.trim();
  const visible = (rows: NodeRow[]) => rows.filter((r) => !r.tombstoned && r.kind !== 'external' && mayRead(policy, r.vname.corpus, r.acl));
  if (HEX.test(s)) {
    const rows = visible(store.nodesByNodeIdPrefix(s, limit));
    if (rows.length > 0) return { spec, matches: rows, as: 'node-id' };
  }
  const loc = LOCATION.exec(s);
  if (loc) {
    const line = Number(loc[2]);
    const inFile = visible(store.fileNodes(loc[1]!)).filter(
      (r) => r.kind !== 'file' && r.startLine !== null && r.endLine !== null && r.startLine <= line && line <= r.endLine,
    );
    inFile.sort((a, b) => a.endLine! - a.startLine! - (b.endLine! - b.startLine!));
    if (inFile.length > 0) return { spec, matches: inFile.slice(0, 1), as: 'location' };
  }
  const named = visible(store.nodesNamed(s, 200));
  if (named.length > 0) {
    // A qualified-name match is exact; several plain-name matches are a real ambiguity.
    const exact = named.filter((r) => r.qualifiedName === s);
    return { spec, matches: (exact.length > 0 ? exact : named).slice(0, limit), as: 'name' };
  }
  const hits = visible(store.searchSymbols(s, { limit: limit * 4 }).map((h) => h.node));
  return { spec, matches: hits.slice(0, limit), as: 'search' };
}

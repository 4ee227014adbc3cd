/**
 * The graph algorithms of the retrieval layer: a CSR graph and the traversals run on it (BFS,
 * shortest paths, Personalized PageRank, k-cores), and the selection steps that turn scores
 * into a context (Prize-Collecting Steiner Tree, token-budget knapsack). Every traversal takes
 * a visibility mask and never enters a hidden node.
 */
export { buildCsrGraph, edgeList, type CsrGraph, type EdgeList, type EdgeSpec } from './csr-graph.js';
export { RetrievalError, RetrievalErrorCode } from './errors.js';
export { ALL_EDGE_KINDS, edgeKindMask, type Direction, type EdgeKindFilter } from './traversal-options.js';
export {
  bfs,
  bfsPath,
  shortestPath,
  type BfsOptions,
  type BfsResult,
  type PathHop,
  type ShortestPathOptions,
  type TraversalOptions,
} from './bfs.js';
export type { PprSeeds, TransitionOptions } from './transition-model.js';
export {
  localPersonalizedPageRank,
  personalizedPageRank,
  type LocalPageRankOptions,
  type LocalPageRankResult,
  type PageRankOptions,
} from './personalized-pagerank.js';
export { inducedSubgraph, type InducedSubgraph, type InducedSubgraphOptions } from './induced-subgraph.js';
export { coreNumbers, type CoreOptions } from './kcore.js';
export { prizeCollectingSteinerTree, type PcstEdges, type PcstOptions, type PcstResult } from './pcst.js';
export { knapsack, type KnapsackItem, type KnapsackOptions, type KnapsackResult } from './knapsack.js';

/** How get_context weighs its evidence. Chosen with the localization benchmark (test/bench/localization.js). */
export interface ContextWeights {
  nodeLexical: number;
  nodeBody: number;
  nodeMention: number;
  nodePpr: number;
  nodeFileText: number;
  nodePathMention: number;
  /** The node's file's score relative to the best file's. */
  nodeFileRank: number;
  coreLift: number;
  fileText: number;
  fileSymbol: number;
  fileBody: number;
  fileMention: number;
  filePpr: number;
  fileNamed: number;
  fileQuoted: number;
  fileNameWord: number;
  /** The vector channel (a registered embedding model): not tuned — no model can be downloaded where the benchmark runs. */
  fileVector: number;
  /** Multiplies the score of an auxiliary file (`isAuxiliary` in file-ranking.ts). */
  auxiliaryFactor: number;
  /** The function stage (definition-ranking.ts): the weights of each `DefinitionSignals` signal. */
  definitionText: number;
  definitionIdentifiers: number;
  definitionQuoted: number;
  definitionName: number;
  definitionMention: number;
  definitionFrame: number;
  definitionNeighbour: number;
  definitionPpr: number;
  definitionOwnerMention: number;
  definitionFile: number;
  definitionSize: number;
  /** The vector channel's similarity (relative to its best hit); like fileVector, not tuned. */
  definitionVector: number;
  /** Multiplies the score of a definition in an auxiliary file (a test, a doc, an example). */
  definitionAuxiliaryFactor: number;
}

/** The weights get_context uses unless told otherwise. */
export const DEFAULT_WEIGHTS: ContextWeights = {
  nodeLexical: 0.35,
  nodeBody: 1,
  nodeMention: 0.9,
  nodePpr: 0.35,
  nodeFileText: 0.3,
  nodePathMention: 0.3,
  nodeFileRank: 1,
  coreLift: 0.15,
  // Files (localization benchmark, 66 SWE-bench issues: 841 of 5,184 weightings on the grid
  // around these reach file Acc@5 ≥ 80; these reach 81.8).
  fileText: 1,
  fileSymbol: 0.3,
  fileBody: 0.3,
  fileMention: 0.5,
  filePpr: 0.15,
  fileNamed: 0.25,
  fileQuoted: 1,
  fileNameWord: 0.6,
  // The vector channel weighs like a symbol match for files and like the definition's own text for
  // definitions; without an embedding model it finds nothing and these do not count.
  fileVector: 0.3,
  auxiliaryFactor: 0.5,
  // The function stage (localization benchmark, 63 SWE-bench issues with functions; tuned on the
  // part the benchmark marks as tuned, see test/bench/localization/split.js).
  definitionText: 1,
  definitionIdentifiers: 0.75,
  definitionQuoted: 1,
  definitionName: 0.3,
  definitionMention: 0.3,
  definitionFrame: 1.5,
  definitionNeighbour: 0.5,
  definitionPpr: 0.05,
  definitionOwnerMention: 0.5,
  definitionFile: 1,
  definitionSize: 0.05,
  definitionVector: 1,
  definitionAuxiliaryFactor: 0.3,
};

import type { PluginManifest } from '@travsr/protocol';

/**
 * Which Phase B a plugin runs, in the words `travsr status` and `travsr lang list` use:
 * `native` for a plugin's own resolver (edges with provenance `phase-b`), the indexer it runs
 * for `scip` (its declared `scip-*` tool, e.g. `scip-go`, or `rust-analyzer`; `scip` when it declares none) and
 * `lsif` for an LSIF emitter.
 */
export type PhaseBEngine = string;

type ToolsOf = Pick<PluginManifest, 'constraints'>;

/** Tools that write SCIP without being named `scip-*` (`rust-analyzer scip`). */
const SCIP_WRITERS = new Set(['rust-analyzer']);

/**
 * The SCIP indexer among a plugin's declared tools (`scip-go`), if any; with `optional`, also
 * among its optional ones (lang-python's `scip-python` upgrade, lang-rust's `rust-analyzer`).
 */
function scipTool(manifest: ToolsOf | undefined, optional = false): string | undefined {
  const tools = [...(manifest?.constraints.tools ?? []), ...(optional ? (manifest?.constraints.optionalTools ?? []) : [])];
  return tools.find((t) => t.startsWith('scip-') || SCIP_WRITERS.has(t));
}

/**
 * The engine an edge provenance stands for.
 *
 * @example
 * engineOfProvenance('phase-b'); // 'native'
 * engineOfProvenance('scip', { constraints: { network: false, ipc: 'none', hostApi: false, tools: ['scip-go', 'go'] } }); // 'scip-go'
 */
export function engineOfProvenance(provenance: string, manifest?: ToolsOf): PhaseBEngine {
  if (provenance === 'phase-b') return 'native';
  if (provenance === 'scip') return scipTool(manifest, true) ?? 'scip';
  return provenance;
}

/**
 * The engines behind a language's stored Phase B edges (`{ provenance → edges }`, from
 * `GraphStore.phaseBProvenance`), native first: `['native', 'scip-python']` when a plugin
 * merged an indexer's edges into its own.
 */
export function enginesOfEdges(provenances: Readonly<Record<string, number>> | undefined, manifest?: ToolsOf): PhaseBEngine[] {
  return enginesOfProvenances(
    Object.entries(provenances ?? {})
      .filter(([, edges]) => edges > 0)
      .map(([provenance]) => provenance),
    manifest,
  );
}

/** {@link enginesOfEdges} from the provenances present (`GraphStore.phaseBProvenances`), native first. */
export function enginesOfProvenances(provenances: readonly string[], manifest?: ToolsOf): PhaseBEngine[] {
  const engines = new Set<PhaseBEngine>(provenances.map((p) => engineOfProvenance(p, manifest)));
  return [...engines].sort((a, b) => (a === 'native' ? -1 : b === 'native' ? 1 : a < b ? -1 : 1));
}

/**
 * The Phase B a plugin is expected to run before any index says otherwise: the SCIP indexer
 * it declares as a tool (lang-go's Phase B is scip-go), else its own resolver. Undefined when
 * it implements no Phase B.
 */
export function expectedPhaseBEngine(manifest: Pick<PluginManifest, 'phases' | 'constraints'>): PhaseBEngine | undefined {
  if (!(manifest.phases ?? ['A']).includes('B')) return undefined;
  return scipTool(manifest) ?? 'native';
}

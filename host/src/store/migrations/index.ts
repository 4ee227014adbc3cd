import type { Migration } from './migration.js';
import { v01SeedSchema } from './v01-seed-schema.js';
import { v02EdgeProvenance } from './v02-edge-provenance.js';
import { v03NodeDetails } from './v03-node-details.js';
import { v04Packages } from './v04-packages.js';
import { v05Rbac } from './v05-rbac.js';
import { v06SymbolSearch } from './v06-symbol-search.js';
import { v07Vectors } from './v07-vectors.js';
import { v08KcoreShells } from './v08-kcore-shells.js';
import { v09Tombstones } from './v09-tombstones.js';
import { v10Traces } from './v10-traces.js';
import { v11FileTextSearch } from './v11-file-text-search.js';
import { v12DefinitionTextSearch } from './v12-definition-text-search.js';
import { v13IndexRuns } from './v13-index-runs.js';
import { v14LiveNodes } from './v14-live-nodes.js';
import { v15FileInterfaces } from './v15-file-interfaces.js';
import { v16SynonymOrigins } from './v16-synonym-origins.js';
import { v17VectorSources } from './v17-vector-sources.js';

export type { Migration } from './migration.js';

/** The graph store's migrations, in order. Append only: never edit a released one. */
export const GRAPH_MIGRATIONS: readonly Migration[] = [
  v01SeedSchema,
  v02EdgeProvenance,
  v03NodeDetails,
  v04Packages,
  v05Rbac,
  v06SymbolSearch,
  v07Vectors,
  v08KcoreShells,
  v09Tombstones,
  v10Traces,
  v11FileTextSearch,
  v12DefinitionTextSearch,
  v13IndexRuns,
  v14LiveNodes,
  v15FileInterfaces,
  v16SynonymOrigins,
  v17VectorSources,
];

import { neighbourhoodCommand } from '../../shared/graph-tool-command.js';

/** `travsr graph blast-radius`: the get_blast_radius tool on the command line. */
const GraphBlastRadius = neighbourhoodCommand({
  name: 'blast-radius',
  tool: 'get_blast_radius',
  summary: 'What a change to a symbol or file can break (everything depending on it within --depth)',
  defaultDepth: 3,
});
export default GraphBlastRadius;

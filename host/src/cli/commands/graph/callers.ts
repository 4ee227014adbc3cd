import { neighbourhoodCommand } from '../../shared/graph-tool-command.js';

/** `travsr graph callers`: the get_callers tool on the command line. */
const GraphCallers = neighbourhoodCommand({
  name: 'callers',
  tool: 'get_callers',
  summary: 'Who calls a symbol (transitively up to --depth)',
  defaultDepth: 1,
});
export default GraphCallers;

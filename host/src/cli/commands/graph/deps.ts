import { neighbourhoodCommand } from '../../shared/graph-tool-command.js';

/** `travsr graph deps`: the get_dependencies tool on the command line. */
const GraphDeps = neighbourhoodCommand({
  name: 'deps',
  tool: 'get_dependencies',
  summary: 'What a symbol or file depends on: calls, imports, inheritance, types',
  defaultDepth: 1,
});
export default GraphDeps;

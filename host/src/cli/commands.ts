// Every command of the CLI, by id (oclif's "explicit" strategy: no directory scan at start-up,
// and a command may be called `index` without clashing with oclif's index.js convention).
import ConfigGet from './commands/config/get.js';
import ConfigList from './commands/config/list.js';
import ConfigSet from './commands/config/set.js';
import ConfigUnset from './commands/config/unset.js';
import GraphExport from './commands/graph/export.js';
import HookRun from './commands/hook-run.js';
import Index from './commands/index.js';
import Init from './commands/init.js';
import LangAllowUnsandboxed from './commands/lang/allow-unsandboxed.js';
import PluginNew from './commands/plugin/new.js';
import PluginTest from './commands/plugin/test.js';
import Status from './commands/status.js';
import TraceList from './commands/trace/list.js';
import TraceShow from './commands/trace/show.js';

export const COMMANDS = {
  init: Init,
  index: Index,
  status: Status,
  'hook-run': HookRun,
  'graph:export': GraphExport,
  'config:list': ConfigList,
  'config:get': ConfigGet,
  'config:set': ConfigSet,
  'config:unset': ConfigUnset,
  'lang:allow-unsandboxed': LangAllowUnsandboxed,
  'plugin:new': PluginNew,
  'plugin:test': PluginTest,
  'trace:list': TraceList,
  'trace:show': TraceShow,
};

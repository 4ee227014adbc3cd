// Every command of the CLI, by id (oclif's "explicit" strategy: no directory scan at start-up,
// and a command may be called `index` without clashing with oclif's index.js convention).
import Ask from './commands/ask.js';
import GraphBlastRadius from './commands/graph/blast-radius.js';
import GraphCallers from './commands/graph/callers.js';
import GraphDeps from './commands/graph/deps.js';
import GraphPath from './commands/graph/path.js';
import Mcp from './commands/mcp/serve.js';
import ConfigGet from './commands/config/get.js';
import ConfigList from './commands/config/list.js';
import ConfigSet from './commands/config/set.js';
import ConfigUnset from './commands/config/unset.js';
import Connect from './commands/connect.js';
import GraphExport from './commands/graph/export.js';
import HookRun from './commands/hook-run.js';
import Index from './commands/index.js';
import Init from './commands/init.js';
import LangAllowUnsandboxed from './commands/lang/allow-unsandboxed.js';
import LangInstall from './commands/lang/install.js';
import LangList from './commands/lang/list.js';
import LangMirror from './commands/lang/mirror.js';
import LangPrune from './commands/lang/prune.js';
import LangPin from './commands/lang/pin.js';
import LangRemove from './commands/lang/remove.js';
import LangUpdate from './commands/lang/update.js';
import LangVerify from './commands/lang/verify.js';
import McpTokenAdd from './commands/mcp/token/add.js';
import McpTokenList from './commands/mcp/token/list.js';
import McpTokenRemove from './commands/mcp/token/remove.js';
import PluginNew from './commands/plugin/new.js';
import PluginPack from './commands/plugin/pack.js';
import PluginTest from './commands/plugin/test.js';
import RegistryKeygen from './commands/registry/keygen.js';
import RegistryPublish from './commands/registry/publish.js';
import RegistryServe from './commands/registry/serve.js';
import RegistrySign from './commands/registry/sign.js';
import RegistryVerify from './commands/registry/verify.js';
import Status from './commands/status.js';
import TraceList from './commands/trace/list.js';
import TraceShow from './commands/trace/show.js';
import Trust from './commands/trust.js';

export const COMMANDS = {
  init: Init,
  index: Index,
  status: Status,
  'hook-run': HookRun,
  connect: Connect,
  ask: Ask,
  mcp: Mcp,
  'graph:export': GraphExport,
  'graph:callers': GraphCallers,
  'graph:deps': GraphDeps,
  'graph:blast-radius': GraphBlastRadius,
  'graph:path': GraphPath,
  'config:list': ConfigList,
  'config:get': ConfigGet,
  'config:set': ConfigSet,
  'config:unset': ConfigUnset,
  'lang:allow-unsandboxed': LangAllowUnsandboxed,
  'lang:list': LangList,
  'lang:install': LangInstall,
  'lang:remove': LangRemove,
  'lang:update': LangUpdate,
  'lang:pin': LangPin,
  'lang:verify': LangVerify,
  'lang:mirror': LangMirror,
  'lang:prune': LangPrune,
  'mcp:token:add': McpTokenAdd,
  'mcp:token:list': McpTokenList,
  'mcp:token:remove': McpTokenRemove,
  'plugin:new': PluginNew,
  'plugin:pack': PluginPack,
  'plugin:test': PluginTest,
  'registry:keygen': RegistryKeygen,
  'registry:publish': RegistryPublish,
  'registry:sign': RegistrySign,
  'registry:verify': RegistryVerify,
  'registry:serve': RegistryServe,
  'trace:list': TraceList,
  'trace:show': TraceShow,
  trust: Trust,
};

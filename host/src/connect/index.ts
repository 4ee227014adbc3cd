/** `travsr connect`: the Travsr MCP server in the configuration of MCP clients. */
export { ConnectError, type ConnectErrorCode } from './errors.js';
export {
  CLIENTS,
  CLIENT_IDS,
  MCP_SERVERS_KEY,
  clientConfigPath,
  clientServerEntry,
  homeDirectory,
  isClientId,
  type ClientId,
  type ClientScope,
  type ClientSpec,
  type HostEnvironment,
} from './client-configs.js';
export { travsrEntryRepo, travsrEntryScript, travsrServerLaunch, type ServerLaunch } from './server-launch.js';
export {
  applyServerChange,
  readClientConfig,
  type ClientConfigFile,
  type ServerChange,
  type ServerChangeAction,
  type ServerChangeResult,
} from './write-client-config.js';
export {
  checkServerName,
  connectClient,
  currentHost,
  listClientConfigs,
  type ClientConfigStatus,
  type ConnectOutcome,
  type ConnectRequest,
} from './connect-client.js';

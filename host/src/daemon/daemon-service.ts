import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';

/**
 * The daemon's gRPC service, `travsr.daemon.v1.Daemon`, loaded from the `.proto` file the
 * protocol package ships (`protocol/daemon/travsr_daemon.proto`, specified in
 * `protocol/DAEMON.md`). Messages are plain objects with camelCase fields; 64-bit integers are
 * numbers; enums are their names; absent fields have their proto3 defaults.
 */
export const DAEMON_SERVICE_NAME = 'travsr.daemon.v1.Daemon';

/** The `.proto` file of the control plane. */
export function daemonProtoPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@travsr/protocol/package.json')), 'daemon', 'travsr_daemon.proto');
}

let loaded: grpc.ServiceDefinition | undefined;

/** How a decoded message becomes a plain object (what @grpc/proto-loader calls its options). */
const OBJECT_OPTIONS: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: true, oneofs: true };

/**
 * The service definition (parsed once per process), built with protobufjs directly: the
 * messages of each method encoded and decoded as @grpc/proto-loader would, without the
 * descriptor reflection it also builds (protobufjs' own `descriptor.proto`, read at every
 * start of a client — `travsr mcp` through the daemon, a hook telling it of a commit — and
 * needed by nothing here).
 */
export function daemonServiceDefinition(): grpc.ServiceDefinition {
  if (loaded) return loaded;
  const root = protobuf.loadSync(daemonProtoPath());
  root.resolveAll();
  const service = root.lookup(DAEMON_SERVICE_NAME);
  if (!(service instanceof protobuf.Service))
    throw new Error(`${daemonProtoPath()} defines no service ${DAEMON_SERVICE_NAME}: the protocol package is incomplete`);
  const def: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const m of service.methodsArray) {
    const request = m.resolvedRequestType!;
    const response = m.resolvedResponseType!;
    def[m.name] = {
      path: `/${DAEMON_SERVICE_NAME}/${m.name}`,
      requestStream: m.requestStream === true,
      responseStream: m.responseStream === true,
      requestSerialize: serializer(request),
      requestDeserialize: deserializer(request),
      responseSerialize: serializer(response),
      responseDeserialize: deserializer(response),
      // The client's method names: `callTool` beside `CallTool`.
      originalName: m.name.charAt(0).toLowerCase() + m.name.slice(1),
    };
  }
  return (loaded = def);
}

function serializer(type: protobuf.Type): (value: object) => Buffer {
  return (value) => type.encode(type.fromObject(value)).finish() as Buffer;
}

function deserializer(type: protobuf.Type): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), OBJECT_OPTIONS);
}

/** The client constructor of the service. */
export function daemonClientConstructor(): grpc.ServiceClientConstructor {
  return grpc.makeGenericClientConstructor(daemonServiceDefinition(), 'Daemon');
}

/** Metadata key of the token every call carries. */
export const TOKEN_METADATA = 'travsr-token';

// The messages, as the loader gives them (see the .proto for each field's meaning).

export interface HelloRequest {
  version: string;
  build: string;
}
export interface HelloReply {
  version: string;
  build: string;
  pid: number;
  startedAt: number;
  hostDir: string;
  repos: string[];
}
export interface RepoStatus {
  root: string;
  corpus: string;
  graphVersion: number;
  watchMode: string;
  watchNote: string;
  watchedDirectories: number;
  dirtyFiles: string[];
  dirtyCount: number;
  queuedFiles: number;
  phaseBOwedFiles: number;
  updateState: string;
  lastError: string;
  lastUpdateFiles: number;
  lastUpdateMs: number;
  lastUpdateAt: number;
  updates: number;
  warmPlugins: string[];
}
export interface CacheStatus {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}
export interface StatusReply {
  daemon: HelloReply;
  repos: RepoStatus[];
  cache: CacheStatus;
  rss: number;
  endpoint: string;
  /** The MCP endpoint served over HTTP; '' when none. */
  mcpHttpUrl: string;
}
export interface IndexRequestMessage {
  repo: string;
  mode: string;
}
export interface IndexEvent {
  progress?: { stage: string; done: number; total: number; plugin: string } | null;
  summaryJson?: string;
  event?: 'progress' | 'summaryJson';
}
export interface ToolDefinitionMessage {
  name: string;
  title: string;
  description: string;
  inputSchemaJson: string;
}
export interface CallToolRequest {
  tool: string;
  argumentsJson: string;
  repos: string[];
  corpora: string[];
  fullAccess: boolean;
  timeoutMs: number;
  groups: string[];
  /** The parts of the answer to send (absent: both). */
  parts?: AnswerParts;
}
/** What of an answer a `CallTool` reply carries (the .proto's `AnswerParts`). */
export type AnswerParts = 'ANSWER_PARTS_BOTH' | 'ANSWER_PARTS_TEXT' | 'ANSWER_PARTS_STRUCTURED';
export interface CallToolReply {
  text: string;
  structuredJson: string;
  traceId: string;
  isError: boolean;
  cached: boolean;
  graphVersions: Record<string, number>;
}
export interface GraphChange {
  root: string;
  graphVersion: number;
  stage: string;
  files: string[];
  at: number;
}
export interface NotifyRequest {
  repo: string;
  event: string;
  wait: boolean;
}
export interface NotifyReply {
  accepted: boolean;
  message: string;
}
export interface RepoReply {
  root: string;
  changed: boolean;
  message: string;
}

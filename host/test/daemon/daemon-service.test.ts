import { describe, expect, it } from 'vitest';
import { DAEMON_SERVICE_NAME, daemonClientConstructor, daemonServiceDefinition } from '../../src/daemon/daemon-service.js';

describe('daemonServiceDefinition', () => {
  const def = daemonServiceDefinition();

  it('has every method of the .proto at its gRPC path, streams marked', () => {
    expect(Object.keys(def)).toEqual(
      expect.arrayContaining(['Hello', 'Status', 'Index', 'ListTools', 'CallTool', 'WatchGraph', 'Shutdown']),
    );
    expect(def.CallTool!.path).toBe(`/${DAEMON_SERVICE_NAME}/CallTool`);
    expect(def.CallTool!.requestStream).toBe(false);
    expect(def.CallTool!.responseStream).toBe(false);
    expect(def.Index!.responseStream).toBe(true);
    expect(def.WatchGraph!.responseStream).toBe(true);
  });

  it('gives the client camelCase aliases beside the method names', () => {
    const Ctor = daemonClientConstructor();
    expect(typeof Ctor.prototype.CallTool).toBe('function');
    expect(typeof Ctor.prototype.callTool).toBe('function');
  });

  it('round-trips messages as plain camelCase objects: 64-bit integers as numbers, maps, absent fields at their defaults', () => {
    const reply = def.CallTool!;
    const bytes = reply.responseSerialize({
      text: 'answer',
      structuredJson: '{"a":1}',
      cached: true,
      graphVersions: { '/repo': 2 ** 40 + 3 },
    });
    expect(reply.responseDeserialize(bytes)).toEqual({
      text: 'answer',
      structuredJson: '{"a":1}',
      traceId: '',
      isError: false,
      cached: true,
      graphVersions: { '/repo': 2 ** 40 + 3 },
    });
    const request = def.CallTool!.requestDeserialize(def.CallTool!.requestSerialize({ tool: 'get_context', repos: ['/a', '/b'] }));
    expect(request).toMatchObject({
      tool: 'get_context',
      argumentsJson: '',
      repos: ['/a', '/b'],
      corpora: [],
      fullAccess: false,
      timeoutMs: 0,
    });
  });
});

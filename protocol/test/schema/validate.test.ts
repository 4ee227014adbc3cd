import { describe, expect, it } from 'vitest';
import { assertEnvelope, assertParams, assertResult, assertSchema, describeSchemaErrors } from '../../src/schema/validate.js';
import { METHODS, PingParamsSchema } from '../../src/schema/generated/schemas.js';

describe('assertEnvelope', () => {
  it('returns a valid envelope and refuses an invalid one with SCHEMA_VIOLATION naming the path', () => {
    const env = { kind: 'request', id: 1, method: 'ping' };
    expect(assertEnvelope(env)).toBe(env);
    expect(() => assertEnvelope({ kind: 'request', id: -1, method: 'ping' })).toThrow(
      expect.objectContaining({ code: 'SCHEMA_VIOLATION', message: expect.stringMatching(/^frame envelope failed validation: \/id/) }),
    );
  });
});

describe('assertParams / assertResult', () => {
  it('treats absent params as an empty map', () => {
    expect(assertParams('ping', undefined)).toEqual({});
    expect(assertParams('shutdown', undefined)).toEqual({});
    expect(() => assertParams('hello', undefined)).toThrow(/hello params failed validation: \/ must have required property/);
  });

  it('validates the result of request methods and passes notifications through', () => {
    expect(assertResult('ping', { nonce: 3 })).toEqual({ nonce: 3 });
    expect(() => assertResult('analyze', { files: 1 })).toThrow(/analyze result failed validation/);
    expect(assertResult('cancel', 'anything')).toBe('anything');
  });

  it('knows a params schema for every method and a result schema for every request', () => {
    for (const [name, spec] of Object.entries(METHODS)) {
      expect(spec.params, name).toBeDefined();
      expect('result' in spec, name).toBe(spec.type === 'request');
    }
  });
});

describe('describeSchemaErrors', () => {
  it('names the member an unknown property was found under', () => {
    try {
      assertSchema(PingParamsSchema, { nonce: 1, extra: 2 }, 'ping params');
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toBe('ping params failed validation: / must NOT have additional properties (extra)');
    }
  });

  it('has a fallback for no errors', () => {
    expect(describeSchemaErrors(null)).toBe('unknown schema violation');
  });
});

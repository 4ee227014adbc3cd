import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { TOOL_DEFINITIONS } from '../../src/tools/tool-definitions.js';

// runTool compiles the tools' input schemas without checking them against the JSON Schema
// meta-schema (a CLI call would pay for compiling it): this is where they are checked.
describe('TOOL_DEFINITIONS', () => {
  it('gives every tool an input schema that is valid JSON Schema and compiles', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const def of Object.values(TOOL_DEFINITIONS)) {
      expect(ajv.validateSchema(def.inputSchema), `${def.name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
      expect(() => ajv.compile(def.inputSchema), def.name).not.toThrow();
    }
  });
});

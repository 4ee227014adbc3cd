import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { LOG_LEVELS, stringEnum } from '../../src/schema/kinds.js';

describe('stringEnum', () => {
  it('builds exactly what Type.Unsafe builds, TypeBox kind symbol included, without loading TypeBox', () => {
    const levels = stringEnum(LOG_LEVELS);
    expect(levels).toStrictEqual(Type.Unsafe({ type: 'string', enum: [...LOG_LEVELS] }));
    expect(Object.getOwnPropertySymbols(levels)).toEqual([Symbol.for('TypeBox.Kind')]);
  });
});

import { expect } from 'vitest';
import { LangError } from '../../src/catalog/errors.js';

/** The LangError `fn` throws (fails the test when it throws nothing or something else). */
export function langErrorOf(fn: () => unknown): LangError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(LangError);
    return e as LangError;
  }
  throw new Error('expected a LangError, nothing was thrown');
}

/** The LangError `p` rejects with (fails the test when it resolves or rejects with something else). */
export async function langErrorOfAsync(p: Promise<unknown>): Promise<LangError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LangError);
  return e as LangError;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The method typing of Connection is only worth something if wrong calls fail to compile, and
 * vitest does not type-check. So this test compiles fixtures/typed-connection.ts against the
 * built package's declarations (`npx tsc -b` first) with the repository's compiler options,
 * as it is and, in the same program, a copy with its `@ts-expect-error` directives removed.
 */

const here = fileURLToPath(new URL('.', import.meta.url));
const FIXTURE = join(here, 'fixtures', 'typed-connection.ts');
const EXPECT = /\/\/ @ts-expect-error (TS\d+) /;

function compilerOptions(): ts.CompilerOptions {
  const base = join(here, '../../../tsconfig.base.json');
  const read = ts.readConfigFile(base, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, join(here, '../../..'));
  return { ...parsed.options, noEmit: true, composite: false, declaration: false, declarationMap: false, sourceMap: false };
}

/**
 * Compiles `files` (path → text, all beside the fixture) as one program and returns each file's
 * diagnostics as "line TSnnnn message" (1-based lines).
 */
function diagnostics(files: Record<string, string>): Record<string, string[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) => {
    const text = files[name];
    return text === undefined ? getSourceFile(name, language, onError) : ts.createSourceFile(name, text, language);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name in files || fileExists(name);
  const program = ts.createProgram({ rootNames: Object.keys(files), options, host });
  return Object.fromEntries(
    Object.keys(files).map((name) => [
      name,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(name)).map((d) => {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        return `${line} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 120)}`;
      }),
    ]),
  );
}

describe('Connection method typing', () => {
  const source = readFileSync(FIXTURE, 'utf8');
  const lines = source.split('\n');
  /** "line TSnnnn" of every line a directive says must not compile. */
  const expected = lines.flatMap((l, i) => {
    const m = EXPECT.exec(l);
    return m ? [`${i + 2} ${m[1]}`] : [];
  });

  // the fixture as it is, and a copy without the directives (same folder, so its imports resolve alike)
  const BARE = join(here, 'fixtures', 'typed-connection-bare.ts');
  let compiled: Record<string, string[]> = {};
  beforeAll(() => {
    compiled = diagnostics({ [FIXTURE]: source, [BARE]: lines.map((l) => (EXPECT.test(l) ? '' : l)).join('\n') });
  });

  it('compiles every correct call, and every wrong one is marked', () => {
    // an unused @ts-expect-error is itself an error (TS2578), so none here means each marked line fails
    expect(compiled[FIXTURE]).toEqual([]);
    expect(expected.length).toBeGreaterThanOrEqual(15);
  });

  it('rejects wrong params, unknown methods, a request for a notification and wrong handler results, each with its error', () => {
    expect(compiled[BARE]!.map((d) => d.split(' ').slice(0, 2).join(' '))).toEqual(expected);
  });
});

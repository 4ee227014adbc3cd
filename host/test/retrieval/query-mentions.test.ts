import { describe, expect, it } from 'vitest';
import { queryMentions } from '../../src/retrieval/query-mentions.js';

describe('queryMentions', () => {
  it('reads stack frames: the files and the functions they pass through', () => {
    const m = queryMentions(
      [
        'Traceback (most recent call last):',
        '  File "/usr/lib/python3/site-packages/requests/sessions.py", line 581, in request',
        '  File "requests/models.py", line 80, in register_hook',
        'TypeError: unhashable type',
      ].join('\n'),
    );
    expect(m.paths).toEqual(expect.arrayContaining(['/usr/lib/python3/site-packages/requests/sessions.py', 'requests/models.py']));
    expect(m.frames).toEqual(['request', 'register_hook']);
    expect(m.identifiers).toContain('register_hook');
  });

  it('reads quoted code, dotted names, calls, snake_case and camelCase — not prose', () => {
    const m = queryMentions(
      'Calling `Session.resolve_redirects` after pytest.raises() breaks parseHttpResponse, e.g. in the TestClient. See the docs.',
    );
    expect(m.identifiers).toEqual(
      expect.arrayContaining([
        'Session.resolve_redirects',
        'resolve_redirects',
        'Session',
        'pytest.raises',
        'raises',
        'parseHttpResponse',
        'TestClient',
      ]),
    );
    expect(m.identifiers).not.toContain('Calling');
    expect(m.identifiers).not.toContain('docs');
    expect(m.identifiers).not.toContain('e.g');
  });

  it('keeps a hyphenated name in quoted code whole: a command-line option or a config key', () => {
    const m = queryMentions('Setting `min-similarity-lines` to 0 or passing `--collect-only` fails; a well-known bug.');
    expect(m.identifiers).toEqual(expect.arrayContaining(['min-similarity-lines', 'collect-only', 'similarity', 'collect']));
    expect(m.identifiers).not.toContain('well-known');
  });

  it('keeps each frame as a site: file, line and function', () => {
    const m = queryMentions(
      [
        'Traceback (most recent call last):',
        '  File "/usr/lib/python3/dist-packages/requests/api.py", line 55, in request',
        '    at Router.dispatch (src/router.ts:42:7)',
        '\tat com.acme.pool.Pool.borrow(Pool.java:88)',
      ].join('\n'),
    );
    expect(m.frameSites).toEqual([
      { path: '/usr/lib/python3/dist-packages/requests/api.py', line: 55, name: 'request' },
      { name: 'Router.dispatch', path: 'src/router.ts', line: 42 },
      { name: 'Pool.borrow', path: 'Pool.java', line: 88 },
    ]);
  });

  it('reads JavaScript stack frames and bare file names', () => {
    const m = queryMentions('Error: boom\n    at verifyToken (src/auth/token.ts:12:5)\nand also utils.py is slow');
    expect(m.frames).toContain('verifyToken');
    expect(m.paths).toEqual(expect.arrayContaining(['src/auth/token.ts', 'utils.py']));
  });

  it("reads Java, Go and Rust traces: each frame's function (with its type) and file", () => {
    const java = queryMentions(
      'Exception in thread "main" java.lang.IllegalStateException: closed\n\tat com.acme.net.Pool.borrow(Pool.java:88)\n\tat com.acme.Main.main(Main.java:12)',
    );
    expect(java.frames).toEqual(['Pool.borrow', 'Main.main']);
    expect(java.paths).toEqual(expect.arrayContaining(['Pool.java', 'Main.java']));
    expect(java.identifiers).toEqual(expect.arrayContaining(['borrow', 'Pool']));

    const go = queryMentions(
      [
        'panic: runtime error: invalid memory address or nil pointer dereference',
        'goroutine 1 [running]:',
        'example.com/app/server.(*Server).handle(0xc000010000, {0x0, 0x0})',
        '\t/home/u/app/server/server.go:42 +0x1d',
        'main.main()',
        '\t/home/u/app/main.go:10 +0x25',
      ].join('\n'),
    );
    expect(go.frames).toEqual(['Server.handle', 'main']);
    expect(go.paths).toEqual(expect.arrayContaining(['/home/u/app/server/server.go', '/home/u/app/main.go']));

    const rust = queryMentions(
      [
        "thread 'main' panicked at src/parser.rs:77:9:",
        'stack backtrace:',
        '   0: app::parser::Parser::expect',
        '             at ./src/parser.rs:77:9',
        '   1: app::run::h0123456789abcdef',
        '             at ./src/lib.rs:20:5',
      ].join('\n'),
    );
    expect(rust.frames).toEqual(['Parser.expect', 'run']);
    expect(rust.paths).toEqual(expect.arrayContaining(['src/parser.rs', 'src/lib.rs']));
    expect(rust.identifiers).toEqual(expect.arrayContaining(['expect', 'Parser']));
  });

  it('reads JavaScript frames with no function name, and async ones', () => {
    const m = queryMentions('TypeError: x is undefined\n    at async Router.dispatch (lib/router.js:40:11)\n    at lib/app.js:7:3');
    expect(m.frames).toEqual(['Router.dispatch']);
    expect(m.paths).toEqual(expect.arrayContaining(['lib/router.js', 'lib/app.js']));
  });

  it('bounds what a long log yields: a capped number of identifiers and paths, the frames first', () => {
    const log = [
      '  File "app/core.py", line 3, in crash_here',
      ...Array.from({ length: 2000 }, (_, i) => `DEBUG worker_${i}.step_${i}() in mod_${i}/file_${i}.py took ${i} ms`),
    ].join('\n');
    const m = queryMentions(log);
    expect(m.identifiers.length).toBeLessThanOrEqual(256);
    expect(m.paths.length).toBeLessThanOrEqual(64);
    expect(m.identifiers[0]).toBe('crash_here');
    expect(m.paths[0]).toBe('app/core.py');
    expect(m.phrases.length).toBeLessThanOrEqual(160);
  });

  it('reads a megabyte of one line, or of dotted names, without backtracking through it', () => {
    // Shapes that make a careless pattern quadratic: no line breaks, and long dotted runs with no call.
    const oneLine = queryMentions('a.b'.repeat(300_000));
    expect(oneLine.frames).toEqual([]);
    const dotted = queryMentions(`${'pkg.'.repeat(50)}name\n`.repeat(5000));
    expect(dotted.frames).toEqual([]);
  });
});

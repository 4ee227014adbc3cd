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

  it('reads JavaScript stack frames and bare file names', () => {
    const m = queryMentions('Error: boom\n    at verifyToken (src/auth/token.ts:12:5)\nand also utils.py is slow');
    expect(m.frames).toContain('verifyToken');
    expect(m.paths).toEqual(expect.arrayContaining(['src/auth/token.ts', 'utils.py']));
  });
});

import { describe, expect, it } from 'vitest';
import { LineTokens, identifierTokens, tokenDocument } from '../../src/store/identifier-tokens.js';

describe('identifierTokens', () => {
  it.each([
    ['parseHTTPResponse2', ['parse', 'http', 'response', '2']],
    ['__init__', ['init']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['getUserByID', ['get', 'user', 'by', 'id']],
    ['get_user_by_id', ['get', 'user', 'by', 'id']],
    ['GET_USER_BY_ID', ['get', 'user', 'by', 'id']],
    ['kebab-case-name', ['kebab', 'case', 'name']],
    ['os.path.join', ['os', 'path', 'join']],
    ['src/auth/jwt.ts', ['src', 'auth', 'jwt', 'ts']],
    ['std::collections::HashMap', ['std', 'collections', 'hash', 'map']],
    ['sha256sum', ['sha', '256', 'sum']],
    ['$scope', ['scope']],
    ['ÉtatInitial', ['état', 'initial']],
    ['日本語Name', ['日本語', 'name']],
    ['how does auth work?', ['how', 'does', 'auth', 'work']],
    ['', []],
    ['___', []],
    // ASCII next to non-ASCII: the Unicode rules decide (no ASCII shortcut).
    ['caféBar', ['café', 'bar']],
    ['Ré', ['ré']],
    ['v2\u0663x', ['v', '2\u0663', 'x']],
    ['ABc', ['a', 'bc']],
    ['e\u0301tat', ['état']],
  ])('%j → %j', (text, tokens) => {
    expect(identifierTokens(text)).toEqual(tokens);
  });

  it('splits camelCase, PascalCase, snake_case and kebab-case of the same words identically', () => {
    const forms = [
      'parseHttpResponse',
      'ParseHttpResponse',
      'parse_http_response',
      'parse-http-response',
      'PARSE_HTTP_RESPONSE',
      'parse.http.response',
    ];
    for (const f of forms) expect(identifierTokens(f)).toEqual(['parse', 'http', 'response']);
  });

  it('stops after maxTokens', () => {
    expect(identifierTokens('a_b_c_d', 2)).toEqual(['a', 'b']);
    expect(identifierTokens('a_b_cé', 2)).toEqual(['a', 'b']);
    expect(identifierTokens('a_bé_c', 2)).toEqual(['a', 'bé']);
  });

  it('LineTokens gives the document of the whole text line by line, and of any subset of lines', () => {
    const text = 'const parseHTTPResponse = 1;\r\nE\u0301tatInitial\n\n  user_ID2 // 日本語Name\r lone\nlast';
    const lines = new LineTokens(text);
    expect(lines.count).toBe(5);
    expect(lines.document(0, lines.count - 1)).toBe(tokenDocument(text));
    expect(lines.document(0, lines.count - 1, 5)).toBe(tokenDocument(text, 5));
    expect(lines.document(1, 3, Infinity, (i) => i !== 2)).toBe(tokenDocument('E\u0301tatInitial\n  user_ID2 // 日本語Name\r lone'));
    expect(lines.document(4, 99)).toBe('last');
    expect(new LineTokens('').document(0, 0)).toBe('');
  });
});

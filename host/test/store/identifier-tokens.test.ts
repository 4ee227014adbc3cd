import { describe, expect, it } from 'vitest';
import { identifierTokens } from '../../src/store/identifier-tokens.js';

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
  });
});

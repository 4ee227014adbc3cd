// Module customization hooks (node --import) that print every ES module URL the process
// resolves to stderr, one `resolved <url>` line each: test/loading.test.ts reads them to see
// what importing the package loads. CommonJS modules do not pass through here (see require.cache).
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  process._rawDebug('resolved ' + result.url);
  return result;
}`),
);

// Module customization hooks (node --import) that print every ES module URL the process
// resolves to stderr, one `resolved <url>` line each: test/loading.test.ts reads them to see
// what importing the package loads. CommonJS modules do not pass through here (see require.cache).
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  writeSync(2, 'resolved ' + result.url + '\\n');
  return result;
}`),
);

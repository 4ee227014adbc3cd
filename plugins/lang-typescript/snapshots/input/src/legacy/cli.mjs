import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { slugify, Parser } = require('./util.js');

export async function run(argv) {
  const parser = new Parser({ strict: true });
  const parts = parser.parse(argv.join('/'));
  const { shout } = await import('../lib/format.js');
  return shout(parts.map((p) => slugify(p)).join(' '));
}

import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { MANIFEST_FILE, PLUGIN_COOKIE_ENV, PLUGIN_COOKIE_VALUE } from '@travsr/protocol';

/** True when the process was started by a Travsr host (the handshake cookie is set). */
export function hasHostCookie(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[PLUGIN_COOKIE_ENV] === PLUGIN_COOKIE_VALUE;
}

/** The directory holding travsr-plugin.json above the entry script, if there is one. */
function findPluginDir(entry: string | undefined): string | undefined {
  if (!entry) return undefined;
  let dir = dirname(entry);
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, MANIFEST_FILE))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** The one line a plugin prints when started by hand (without the cookie). */
export function startedByHandMessage(id: string, version: string, entry: string | undefined = process.argv[1]): string {
  const found = findPluginDir(entry);
  let dir = '<plugin-dir>';
  if (found) {
    const rel = relative(process.cwd(), found);
    dir = rel === '' ? '.' : rel.startsWith('..') ? found : rel;
  }
  return (
    `${id}@${version} is a Travsr analyzer plugin: the Travsr host starts it and talks to it in frames on stdin/stdout, ` +
    `so it does nothing when run by hand. To try it, run: travsr plugin test ${dir}`
  );
}

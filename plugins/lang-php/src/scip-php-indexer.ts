import { spawnSync } from 'node:child_process';
import { projectDirs, type ScipIndexer } from '@travsr/sdk/scip';

/** How to install scip-php, shown when it is missing. */
export const SCIP_PHP_HINT =
  'install scip-php (https://github.com/davidrjenni/scip-php: `composer global require davidrjenni/scip-php`, or a checkout with `composer install --no-dev`) and put its bin/scip-php on the PATH of the process running Travsr (the host binds its Composer project, vendor/ included, into the sandbox)';

/** How to install php, shown when it is missing. */
export const PHP_HINT = 'install PHP 8.3 or newer (the php CLI) on the PATH: scip-php is a PHP script';

/** The file that makes a directory a PHP project of its own: a Composer project. */
export const PHP_PROJECT_FILES = ['composer.json'];

/** The name scip-php writes its index under, in its working directory (it takes no output path). */
export const SCIP_PHP_OUTPUT = 'index.scip';

/**
 * The PHP extensions scip-php's libraries call (nikic/php-parser requires ext-tokenizer and
 * ext-ctype, google/protobuf calls ctype_upper): compiled in by some PHP builds, shared modules
 * an ini under /etc/php loads in others (Debian's and Ubuntu's php-cli) — and the sandbox binds
 * no /etc. Those the php found does not load are loaded on its command line.
 */
export const SCIP_PHP_EXTENSIONS = ['ctype', 'tokenizer'];

/** `-d extension=…` for each of {@link SCIP_PHP_EXTENSIONS} `php -m` does not list (none when it cannot say). */
export function extensionFlags(php: string, env: NodeJS.ProcessEnv): string[] {
  const modules = spawnSync(php, ['-m'], { env, encoding: 'utf8', timeout: 30_000 });
  if (modules.status !== 0 || typeof modules.stdout !== 'string') return [];
  const loaded = new Set(modules.stdout.split('\n').map((line) => line.trim().toLowerCase()));
  return SCIP_PHP_EXTENSIONS.filter((e) => !loaded.has(e)).flatMap((e) => ['-d', `extension=${e}`]);
}

/** The memory limit scip-php sets itself (its default, 1G, is small for a large project); the sandbox allows 4 GiB. */
export const SCIP_PHP_MEMORY_LIMIT = '3G';

/**
 * scip-php (github.com/davidrjenni/scip-php, PHP-Parser and Composer's autoloader writing
 * SCIP) as lang-php runs it: once per Composer project — the outermost directories holding a
 * `composer.json`, not inside `vendor/` — offline, as `php [-d extension=…] scip-php --memory-limit=3G`.
 * Checked against a real scip-php (a16caaf~1, PHP 8.2): its index for test/fixture-project.ts is
 * the fixture's, and it ran this way in the bwrap sandbox.
 *
 * What its CLI takes, from its source (bin/scip-php, src/Indexer.php, src/Composer/Composer.php
 * at 71a5b117, 2026-04): only `-h/--help` and `--memory-limit=<php size>`; the project is the
 * working directory (`getcwd()` is the project root, whose `composer.json`, `composer.lock`,
 * `vendor/autoload.php` and `vendor/composer/installed.php` it reads — `composer install` must
 * have run), and it always writes `index.scip` there (`file_put_contents('index.scip', …)`).
 * Its project files are those the root package's autoload and autoload-dev sections (and `bin`)
 * name; symbols are `scip-php composer <package> <version> App/Shop/Cart#total().`, the PHP
 * stubs' `scip-php composer php <PHP_VERSION> …`. Positions are PHP-Parser's byte offsets: newer
 * versions say so in each document (UTF8CodeUnitOffsetFromLineStart), older ones (2024) leave the
 * encoding unspecified.
 *
 * The repository is read-only in the sandbox, so it runs on a copy of the project (vendor/
 * included: it is the project's autoloader), and the `index.scip` it writes there is the index
 * the SDK reads (`writes`). It runs as `php [-d extension=…] <scip-php> --memory-limit=3G` with the php the host found
 * ({@link extensionFlags}: the sandbox has no /etc/php to load extensions from).
 */
export const scipPhp: ScipIndexer = {
  name: 'scip-php',
  languageName: 'PHP',
  tools: ['scip-php', 'php'],
  installHint: SCIP_PHP_HINT,
  toolHints: { php: PHP_HINT },
  projects: (root) => projectDirs(root, PHP_PROJECT_FILES),
  noProjects:
    'scip-php found no Composer project (a directory with composer.json, composer.lock and vendor/ from `composer install`) in the repository',
  copyProject: { skip: ['node_modules', SCIP_PHP_OUTPUT] },
  graph: { unspecifiedEncoding: 'utf8' },
  invocation: ({ tools, env }) => {
    const php = tools['php']!;
    return {
      command: php,
      args: [...extensionFlags(php, env), tools['scip-php']!, `--memory-limit=${SCIP_PHP_MEMORY_LIMIT}`],
      // It takes no output path: the SDK moves what it writes in the copy to where the index is read.
      writes: SCIP_PHP_OUTPUT,
    };
  },
  notIndexed:
    'scip-php did not index this file (outside every Composer project, or not under its autoload paths): its refs are matched by name',
};

// A small Composer project and the SCIP index scip-php would write for it, plus a stand-in for
// the `scip-php` executable (and `php`, which runs it). scip-php cannot be fetched here, so the
// tests put a script on PATH that checks how it is called and writes this index (with the SDK's
// SCIP writer) where scip-php writes it — `index.scip` in its working directory; what the plugin
// does with the index, and how the host finds, binds and passes the tools, is real.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scipDocumentAt, writeFakeIndexer, type FakeIndexerSpec, type ScipDocumentSpec } from '@travsr/sdk/testing';

export const PROJECT_FILES: Record<string, string> = {
  'composer.json': `{
    "name": "acme/shop",
    "type": "library",
    "require": {
        "php": "^8.3",
        "psr/log": "^3.0"
    },
    "autoload": {
        "psr-4": { "App\\\\": "src/" },
        "files": ["src/helpers.php"]
    }
}
`,
  'composer.lock': `{
    "content-hash": "5d41402abc4b2a76b9719d911017c592",
    "packages": [
        {
            "name": "psr/log",
            "version": "3.0.2",
            "source": {
                "type": "git",
                "url": "https://github.com/php-fig/log.git",
                "reference": "f16e1d5863e37f8d8c2a01719f5b34baa2b714d3"
            },
            "type": "library",
            "autoload": { "psr-4": { "Psr\\\\Log\\\\": "src" } }
        }
    ],
    "packages-dev": []
}
`,
  'src/helpers.php': `<?php

declare(strict_types=1);

namespace App;

function money(int $cents): string
{
    return sprintf('%d.%02d', intdiv($cents, 100), $cents % 100);
}
`,
  'src/Shop/Item.php': `<?php

declare(strict_types=1);

namespace App\\Shop;

final class Item implements \\JsonSerializable
{
    public function __construct(
        public readonly string $name,
        public readonly int $cents,
    ) {
    }

    public function jsonSerialize(): array
    {
        return ['name' => $this->name, 'cents' => $this->cents];
    }
}
`,
  'src/Shop/Base.php': `<?php

declare(strict_types=1);

namespace App\\Shop;

abstract class Base
{
    /** @var list<Item> */
    protected array $items = [];

    public function add(Item $item): static
    {
        $this->items[] = $item;
        return $this;
    }

    /** @return list<Item> */
    public function items(): array
    {
        return $this->items;
    }
}
`,
  'src/Shop/Totals.php': `<?php

declare(strict_types=1);

namespace App\\Shop;

interface Totals
{
    public function total(): int;
}
`,
  'src/Shop/Tariff.php': `<?php

declare(strict_types=1);

namespace App\\Shop;

final class Tariff
{
    public const TAX = 0.2;

    public static function price(Item $item): int
    {
        return $item->cents + self::tax($item->cents);
    }

    public static function tax(int $cents): int
    {
        return (int) round($cents * self::TAX);
    }
}
`,
  'src/Shop/Order.php': `<?php

declare(strict_types=1);

namespace App\\Shop;

use Psr\\Log\\LoggerInterface;

use function App\\money;

final class Order extends Base implements Totals, \\Countable
{
    public function __construct(private LoggerInterface $logger)
    {
    }

    public function total(): int
    {
        $sum = 0;
        foreach ($this->items() as $item) {
            $sum += Tariff::price($item);
        }
        $this->logger->info('order total', ['total' => money($sum)]);
        return $sum;
    }

    public function count(): int
    {
        return \\count($this->items);
    }

    public function toJson(): string
    {
        return json_encode(['items' => $this->items(), 'total' => $this->total()], JSON_THROW_ON_ERROR);
    }
}
`,
};

// scip-php's symbols: the root package at its git reference, Composer packages at theirs, PHP's
// own functions and classes (phpstorm-stubs) as the package `php` at the running PHP's version.
// These documents are what a real scip-php (commit a16caaf~1, PHP 8.2) wrote for this project,
// occurrence for occurrence (the order aside).
const P = 'scip-php composer acme/shop 2b7f3c9a1e4d5f60718293a4b5c6d7e8f9012345 ';
const PHP = 'scip-php composer php 8.3.6 ';
const PSR = 'scip-php composer psr/log f16e1d5863e37f8d8c2a01719f5b34baa2b714d3 ';
const doc = (path: string, occ: Parameters<typeof scipDocumentAt>[2]) => scipDocumentAt(path, PROJECT_FILES[path]!, occ, [], 'php');

/** The documents scip-php writes for {@link PROJECT_FILES} (its autoload paths), symbols in its form. */
export function fixtureDocuments(): ScipDocumentSpec[] {
  return [
    doc('src/helpers.php', [
      ['function money', 'money', `${P}App/money().`, true],
      ['function money', '$cents', `${P}App/money().($cents)`, true],
      ["return sprintf('%d.%02d'", 'sprintf', `${PHP}sprintf().`],
      ["return sprintf('%d.%02d'", 'intdiv', `${PHP}intdiv().`],
    ]),
    doc('src/Shop/Item.php', [
      ['final class Item', 'Item', `${P}App/Shop/Item#`, true],
      ['final class Item', '\\JsonSerializable', `${PHP}JsonSerializable#`],
      ['public function __construct', '__construct', `${P}App/Shop/Item#__construct().`, true],
      ['public readonly string $name', '$name', `${P}App/Shop/Item#$name.`, true],
      ['public readonly int $cents', '$cents', `${P}App/Shop/Item#$cents.`, true],
      ['public function jsonSerialize', 'jsonSerialize', `${P}App/Shop/Item#jsonSerialize().`, true],
      ["return ['name' => $this->name", 'name', `${P}App/Shop/Item#$name.`, false, 1],
      ["return ['name' => $this->name", 'cents', `${P}App/Shop/Item#$cents.`, false, 1],
    ]),
    doc('src/Shop/Base.php', [
      ['abstract class Base', 'Base', `${P}App/Shop/Base#`, true],
      ['protected array $items', '$items', `${P}App/Shop/Base#$items.`, true],
      ['public function add', 'add', `${P}App/Shop/Base#add().`, true],
      ['public function add', 'Item', `${P}App/Shop/Item#`],
      ['public function add', '$item', `${P}App/Shop/Base#add().($item)`, true],
      ['public function add', 'static', `${P}App/Shop/Base#`],
      ['$this->items[] = $item', 'items', `${P}App/Shop/Base#$items.`],
      ['public function items', 'items', `${P}App/Shop/Base#items().`, true],
      ['return $this->items;', 'items', `${P}App/Shop/Base#$items.`],
    ]),
    doc('src/Shop/Totals.php', [
      ['interface Totals', 'Totals', `${P}App/Shop/Totals#`, true],
      ['public function total', 'total', `${P}App/Shop/Totals#total().`, true],
    ]),
    doc('src/Shop/Tariff.php', [
      ['final class Tariff', 'Tariff', `${P}App/Shop/Tariff#`, true],
      ['public const TAX', 'TAX', `${P}App/Shop/Tariff#TAX.`, true],
      ['public static function price', 'price', `${P}App/Shop/Tariff#price().`, true],
      ['public static function price', 'Item', `${P}App/Shop/Item#`],
      ['public static function price', '$item', `${P}App/Shop/Tariff#price().($item)`, true],
      // No occurrence for `$item->cents`: scip-php left the promoted property read unresolved.
      ['return $item->cents + self::tax', 'self', `${P}App/Shop/Tariff#`],
      ['return $item->cents + self::tax', 'tax', `${P}App/Shop/Tariff#tax().`],
      ['public static function tax', 'tax', `${P}App/Shop/Tariff#tax().`, true],
      ['public static function tax', '$cents', `${P}App/Shop/Tariff#tax().($cents)`, true],
      ['return (int) round', 'round', `${PHP}round().`],
      ['return (int) round', 'self', `${P}App/Shop/Tariff#`],
      ['return (int) round', 'TAX', `${P}App/Shop/Tariff#TAX.`],
    ]),
    doc('src/Shop/Order.php', [
      ['use Psr\\Log\\LoggerInterface', 'Psr\\Log\\LoggerInterface', `${PSR}Psr/Log/LoggerInterface#`],
      ['use function App\\money', 'App\\money', `${P}App/money().`],
      ['final class Order', 'Order', `${P}App/Shop/Order#`, true],
      ['final class Order', 'Base', `${P}App/Shop/Base#`],
      ['final class Order', 'Totals', `${P}App/Shop/Totals#`],
      ['final class Order', '\\Countable', `${PHP}Countable#`],
      ['public function __construct', '__construct', `${P}App/Shop/Order#__construct().`, true],
      ['public function __construct', 'LoggerInterface', `${PSR}Psr/Log/LoggerInterface#`],
      ['public function __construct', '$logger', `${P}App/Shop/Order#$logger.`, true],
      ['public function total', 'total', `${P}App/Shop/Order#total().`, true],
      ['foreach ($this->items()', 'items', `${P}App/Shop/Base#items().`],
      ['$sum += Tariff::price', 'Tariff', `${P}App/Shop/Tariff#`],
      ['$sum += Tariff::price', 'price', `${P}App/Shop/Tariff#price().`],
      ['$this->logger->info', 'logger', `${P}App/Shop/Order#$logger.`],
      ['$this->logger->info', 'info', `${PSR}Psr/Log/LoggerInterface#info().`],
      ['$this->logger->info', 'money', `${P}App/money().`],
      ['public function count', 'count', `${P}App/Shop/Order#count().`, true],
      ['return \\count($this->items)', '\\count', `${PHP}count().`],
      ['return \\count($this->items)', 'items', `${P}App/Shop/Base#$items.`],
      ['public function toJson', 'toJson', `${P}App/Shop/Order#toJson().`, true],
      ['return json_encode', 'json_encode', `${PHP}json_encode().`],
      ['return json_encode', 'items', `${P}App/Shop/Base#items().`, false, 1],
      ['return json_encode', 'total', `${P}App/Shop/Order#total().`, false, 1],
      ['return json_encode', 'JSON_THROW_ON_ERROR', `${PHP}JSON_THROW_ON_ERROR.`],
    ]),
  ];
}

/** Writes the project under `dir`. */
export function writeProject(dir: string): void {
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * A stand-in for `php` as the sandbox has it on a Debian host: its ctype and tokenizer are shared
 * modules that an ini under /etc/php would load, and the sandbox binds no /etc. `php -m` lists
 * what it loads; run on a script, it refuses to without `-d extension=ctype` and
 * `-d extension=tokenizer` (as scip-php's libraries do) and runs the script with its arguments.
 */
const FAKE_PHP = `#!/bin/sh
if [ "$1" = "-m" ]; then
  printf '[PHP Modules]\\nCore\\ndate\\nhash\\njson\\npcre\\nReflection\\nSPL\\nstandard\\n\\n[Zend Modules]\\n\\n'
  exit 0
fi
flags=""
while [ "$1" = "-d" ]; do flags="$flags $2"; shift 2; done
case "$flags" in *extension=ctype*) ;; *) printf '%s\\n' "PHP Fatal error:  Uncaught Error: Call to undefined function Google\\Protobuf\\Internal\\ctype_upper()" >&2; exit 255 ;; esac
case "$flags" in *extension=tokenizer*) ;; *) printf '%s\\n' "PHP Fatal error:  Uncaught Error: Class \\"PhpToken\\" not found" >&2; exit 255 ;; esac
exec "$@"
`;

/**
 * Writes `<binDir>/scip-php` and a `php` beside it ({@link FAKE_PHP}) that runs it: scip-php
 * refuses to run outside a directory holding composer.json or without php on PATH, and writes
 * the index of {@link fixtureDocuments} to `index.scip` in its working directory, as scip-php
 * does (its project root names the copy it ran in, which the plugin reads as the project).
 * Modes as {@link FakeIndexerSpec.mode}.
 */
export function writeFakeTools(binDir: string, mode: FakeIndexerSpec['mode'] = 'ok'): string {
  const scipPhp = writeFakeIndexer(binDir, {
    name: 'scip-php',
    index: {
      projectRoot: 'file:///tmp/scip-php-run/project',
      toolName: 'scip-php',
      toolVersion: '0.0.1',
      documents: fixtureDocuments(),
    },
    output: { file: 'index.scip' },
    requireInCwd: ['composer.json'],
    requireOnPath: ['php'],
    mode,
    failMessage:
      'PHP Fatal error:  Uncaught RuntimeException: Cannot read file: /tmp/scip-php-run/project/vendor/autoload.php. in src/File/Reader.php:18',
    downloadUrl: 'https://repo.packagist.org/p2/psr/log.json',
  });
  writeFileSync(join(binDir, 'php'), FAKE_PHP);
  chmodSync(join(binDir, 'php'), 0o755);
  return scipPhp;
}

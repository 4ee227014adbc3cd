// A small Dart package and the SCIP index scip-dart would write for it, plus stand-ins for the
// `scip_dart` and `dart` executables. scip-dart cannot be fetched here, so the tests put a script
// on PATH that checks how it is called and writes this index (written with the SDK's SCIP
// writer); what the plugin does with the index, and how the host finds, binds and passes the
// tools, is real.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scipDocumentAt, writeFakeIndexer, type FakeIndexerSpec, type ScipDocumentSpec } from '@travsr/sdk/testing';

export const PROJECT_FILES: Record<string, string> = {
  'pubspec.yaml': 'name: till\nenvironment:\n  sdk: ">=3.0.0 <4.0.0"\n',
  // What `dart pub get` writes (the sandbox cannot run it: no network).
  '.dart_tool/package_config.json': '{"configVersion": 2, "packages": [{"name": "till", "rootUri": "../", "packageUri": "lib/"}]}\n',
  'lib/pricing.dart':
    'class Pricing {\n  static int price(int cents) => cents + tax(cents);\n  static int tax(int cents) => cents ~/ 5;\n}\n',
  'lib/cart.dart':
    "import 'pricing.dart';\n\nclass Base {\n  List<int> items() => [];\n}\n\nclass Cart extends Base {\n  int total() {\n    return items().fold(0, (sum, i) => sum + Pricing.price(i));\n  }\n}\n",
};

const P = 'scip-dart pub till 1.0.0 ';
const CORE = 'scip-dart pub dart:core 3.5.0 ';
const doc = (path: string, occ: Parameters<typeof scipDocumentAt>[2]) => scipDocumentAt(path, PROJECT_FILES[path]!, occ, [], 'dart');

/** The documents scip-dart writes for {@link PROJECT_FILES}. */
export function fixtureDocuments(): ScipDocumentSpec[] {
  return [
    doc('lib/pricing.dart', [
      ['class Pricing', 'Pricing', `${P}lib/\`pricing.dart\`/Pricing#`, true],
      ['static int price', 'price', `${P}lib/\`pricing.dart\`/Pricing#price().`, true],
      ['cents + tax', 'tax', `${P}lib/\`pricing.dart\`/Pricing#tax().`],
      ['static int tax', 'tax', `${P}lib/\`pricing.dart\`/Pricing#tax().`, true],
    ]),
    doc('lib/cart.dart', [
      ['class Base', 'Base', `${P}lib/\`cart.dart\`/Base#`, true],
      ['List<int> items', 'items', `${P}lib/\`cart.dart\`/Base#items().`, true],
      ['class Cart', 'Cart', `${P}lib/\`cart.dart\`/Cart#`, true],
      ['class Cart', 'Base', `${P}lib/\`cart.dart\`/Base#`],
      ['int total', 'total', `${P}lib/\`cart.dart\`/Cart#total().`, true],
      ['return items()', 'items', `${P}lib/\`cart.dart\`/Base#items().`],
      ['return items()', 'fold', `${CORE}core/\`iterable.dart\`/Iterable#fold().`],
      ['Pricing.price(i)', 'Pricing', `${P}lib/\`pricing.dart\`/Pricing#`],
      ['Pricing.price(i)', 'price', `${P}lib/\`pricing.dart\`/Pricing#price().`],
    ]),
  ];
}

/** Writes the package under `dir`. */
export function writeProject(dir: string): void {
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * Writes `<binDir>/scip_dart` (and a `dart`): it refuses to run without `-o`, outside a package
 * with a pubspec.yaml or without .dart_tool/package_config.json, and writes the index of
 * {@link fixtureDocuments}. Modes as {@link FakeIndexerSpec.mode}.
 */
export function writeFakeTools(binDir: string, mode: FakeIndexerSpec['mode'] = 'ok'): string {
  return writeFakeIndexer(binDir, {
    name: 'scip_dart',
    index: { projectRoot: '', toolName: 'scip-dart', toolVersion: '1.6.1', documents: fixtureDocuments() },
    output: { flag: '-o' },
    requireArgs: ['./'],
    requireInCwd: ['pubspec.yaml'],
    requireOnPath: ['dart'],
    check: "if (!fs.existsSync('.dart_tool/package_config.json')) die('Unable to locate packageConfig');",
    mode,
    failMessage: "error: lib/cart.dart:9:46: Undefined name 'Pricing' (the analyzer could not resolve the package)",
    downloadUrl: 'https://pub.dev/api/packages/meta',
  });
}

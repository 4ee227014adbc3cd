// A small Gradle (Kotlin DSL) project and the SCIP index scip-java would write for it, plus a
// stand-in for the `scip-java` executable. scip-java (and the Gradle build it runs) cannot be
// fetched here, so the tests put a script on PATH that checks how it is called and writes this
// index (written with the SDK's SCIP writer); what the plugin does with the index, and how the
// host finds, binds and passes the tools, is real. Symbols are in scip-java 0.13's form for Kotlin
// (`scip-java maven . . shop/Cart#total().`, top-level functions as `shop/describe().`, the standard
// library with its Maven coordinates), positions in UTF-16 code units with the encoding left unset,
// constructors as `<init>` named after their class (the primary one defined at the class name, a
// secondary one over its whole declaration), a call `Item(…)` referring to `Item#<init>().` on
// `Item`, supertypes as implementation relationships: as its snapshot tests
// (scip-snapshots/expected/kotlin) show.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scipDocumentAt, writeFakeIndexer, type FakeIndexerSpec, type ScipDocumentSpec, type ScipOccurrenceAt } from '@travsr/sdk/testing';

const SRC = 'src/main/kotlin/shop';

export const PROJECT_FILES: Record<string, string> = {
  'settings.gradle.kts': 'rootProject.name = "shop"\n',
  'build.gradle.kts': `plugins {
    kotlin("jvm") version "2.1.0"
}

repositories {
    mavenCentral()
}
`,
  [`${SRC}/Priced.kt`]: `package shop

/** Anything with a price in cents. */
interface Priced {
    fun cents(): Long
}
`,
  [`${SRC}/Item.kt`]: `package shop

class Item(val name: String, private val price: Long) : Priced {
    constructor(name: String) : this(name, 0)

    override fun cents(): Long = price

    fun label(): String = name.trim()
}
`,
  [`${SRC}/BaseCart.kt`]: `package shop

open class BaseCart {
    protected val items = mutableListOf<Item>()

    fun add(item: Item) {
        items.add(item)
    }
}
`,
  [`${SRC}/Pricing.kt`]: `package shop

import kotlin.math.roundToLong

object Pricing {
    const val TAX = 0.2

    fun price(p: Priced): Long = p.cents() + tax(p.cents())

    fun tax(cents: Long): Long = (cents * TAX).roundToLong()
}
`,
  // The em dash makes UTF-16 and UTF-8 columns differ after it: scip-java counts UTF-16 units.
  [`${SRC}/Cart.kt`]: `package shop

class Cart : BaseCart() {
    fun total(): Long = items.sumOf { Pricing.price(it) }

    fun fill(): Cart {
        add(Item("pen", 120))
        return this
    }
}

fun describe(cart: Cart): String = "\${cart.total()} cents — \${format(cart)}"

private fun format(cart: Cart): String = cart.toString()

fun sample(): Cart = Cart().apply { add(Item("gift")) }
`,
};

const P = 'scip-java maven . . shop/';
const KT = 'scip-java maven maven/org.jetbrains.kotlin/kotlin-stdlib 2.1.0 kotlin/';
const INIT = '`<init>`().';
// scip-java leaves position_encoding unset (0); scipDocumentAt finds ranges by JavaScript string
// index, which is what scip-java writes: UTF-16 code units.
const doc = (file: string, occ: ScipOccurrenceAt[], symbols: ScipDocumentSpec['symbols'] = []): ScipDocumentSpec => ({
  ...scipDocumentAt(`${SRC}/${file}`, PROJECT_FILES[`${SRC}/${file}`]!, occ, symbols, 'kotlin'),
  positionEncoding: 0,
});

/** The documents scip-java writes for {@link PROJECT_FILES} (paths relative to the project). */
export function fixtureDocuments(): ScipDocumentSpec[] {
  return [
    doc('Priced.kt', [
      ['package shop', 'shop', P],
      ['interface Priced', 'Priced', `${P}Priced#`, true],
      ['fun cents()', 'cents', `${P}Priced#cents().`, true],
      ['fun cents()', 'Long', `${KT}Long#`],
    ]),
    doc(
      'Item.kt',
      [
        ['package shop', 'shop', P],
        ['class Item(', 'Item', `${P}Item#`, true],
        ['class Item(', 'Item', `${P}Item#${INIT}`, true],
        ['class Item(', 'name', `${P}Item#name.`, true],
        ['class Item(', 'name', `${P}Item#getName().`, true],
        ['class Item(', 'String', `${KT}String#`],
        ['class Item(', 'price', `${P}Item#price.`, true],
        ['class Item(', 'Long', `${KT}Long#`],
        ['class Item(', 'Priced', `${P}Priced#`],
        ['constructor(name: String)', 'constructor(name: String) : this(name, 0)', `${P}Item#\`<init>\`(+1).`, true],
        ['constructor(name: String)', 'String', `${KT}String#`],
        ['override fun cents()', 'cents', `${P}Item#cents().`, true],
        ['override fun cents()', 'Long', `${KT}Long#`],
        ['override fun cents()', 'price', `${P}Item#price.`],
        ['fun label()', 'label', `${P}Item#label().`, true],
        ['fun label()', 'String', `${KT}String#`],
        ['fun label()', 'name', `${P}Item#name.`],
        ['fun label()', 'trim', `${KT}text/trim(+9).`],
      ],
      [
        { symbol: `${P}Item#`, displayName: 'Item', implements: [`${P}Priced#`] },
        { symbol: `${P}Item#cents().`, displayName: 'cents', implements: [`${P}Priced#cents().`] },
        { symbol: `${P}Item#${INIT}`, displayName: 'Item' },
        { symbol: `${P}Item#\`<init>\`(+1).`, displayName: 'Item' },
      ],
    ),
    doc('BaseCart.kt', [
      ['package shop', 'shop', P],
      ['open class BaseCart', 'BaseCart', `${P}BaseCart#`, true],
      ['open class BaseCart', 'BaseCart', `${P}BaseCart#${INIT}`, true],
      ['protected val items', 'items', `${P}BaseCart#items.`, true],
      ['protected val items', 'items', `${P}BaseCart#getItems().`, true],
      ['protected val items', 'mutableListOf', `${KT}collections/mutableListOf().`],
      ['protected val items', 'Item', `${P}Item#`],
      ['fun add(item: Item)', 'add', `${P}BaseCart#add().`, true],
      ['fun add(item: Item)', 'item', `${P}BaseCart#add().(item)`, true],
      ['fun add(item: Item)', 'Item', `${P}Item#`],
      ['items.add(item)', 'items', `${P}BaseCart#items.`],
      ['items.add(item)', 'add', `${KT}collections/MutableList#add().`],
      ['items.add(item)', 'item', `${P}BaseCart#add().(item)`, false, 1],
    ]),
    doc('Pricing.kt', [
      ['package shop', 'shop', P],
      ['import kotlin.math.roundToLong', 'roundToLong', `${KT}math/roundToLong(+1).`],
      ['object Pricing', 'Pricing', `${P}Pricing#`, true],
      ['object Pricing', 'Pricing', `${P}Pricing#${INIT}`, true],
      ['const val TAX', 'TAX', `${P}Pricing#TAX.`, true],
      ['fun price(p: Priced)', 'price', `${P}Pricing#price().`, true],
      ['fun price(p: Priced)', 'Priced', `${P}Priced#`],
      ['fun price(p: Priced)', 'Long', `${KT}Long#`],
      ['fun price(p: Priced)', 'cents', `${P}Priced#cents().`],
      ['fun price(p: Priced)', 'tax', `${P}Pricing#tax().`],
      ['fun price(p: Priced)', 'cents', `${P}Priced#cents().`, false, 1],
      ['fun tax(cents: Long)', 'tax', `${P}Pricing#tax().`, true],
      ['fun tax(cents: Long)', 'Long', `${KT}Long#`],
      ['fun tax(cents: Long)', '*', `${KT}Long#times(+4).`],
      ['fun tax(cents: Long)', 'TAX', `${P}Pricing#TAX.`],
      ['fun tax(cents: Long)', 'roundToLong', `${KT}math/roundToLong(+1).`],
    ]),
    doc(
      'Cart.kt',
      [
        ['package shop', 'shop', P],
        ['class Cart : BaseCart()', 'Cart', `${P}Cart#`, true],
        ['class Cart : BaseCart()', 'Cart', `${P}Cart#${INIT}`, true],
        ['class Cart : BaseCart()', 'BaseCart', `${P}BaseCart#`],
        ['fun total()', 'total', `${P}Cart#total().`, true],
        ['fun total()', 'Long', `${KT}Long#`],
        ['fun total()', 'items', `${P}BaseCart#items.`],
        ['fun total()', 'sumOf', `${KT}collections/sumOf(+5).`],
        ['fun total()', 'Pricing', `${P}Pricing#`],
        ['fun total()', 'price', `${P}Pricing#price().`],
        ['fun fill(): Cart', 'fill', `${P}Cart#fill().`, true],
        ['fun fill(): Cart', 'Cart', `${P}Cart#`],
        ['add(Item("pen"', 'add', `${P}BaseCart#add().`],
        ['add(Item("pen"', 'Item', `${P}Item#${INIT}`],
        ['fun describe(cart: Cart)', 'describe', `${P}describe().`, true],
        ['fun describe(cart: Cart)', 'Cart', `${P}Cart#`],
        ['fun describe(cart: Cart)', 'String', `${KT}String#`],
        ['fun describe(cart: Cart)', 'total', `${P}Cart#total().`],
        ['fun describe(cart: Cart)', 'format', `${P}format().`],
        ['private fun format', 'format', `${P}format().`, true],
        ['private fun format', 'Cart', `${P}Cart#`],
        ['private fun format', 'toString', `${KT}Any#toString().`],
        ['fun sample()', 'sample', `${P}sample().`, true],
        ['fun sample()', 'Cart', `${P}Cart#`],
        ['fun sample()', 'Cart', `${P}Cart#${INIT}`, false, 1],
        ['fun sample()', 'apply', `${KT}apply().`],
        ['fun sample()', 'add', `${P}BaseCart#add().`],
        ['fun sample()', 'Item', `${P}Item#\`<init>\`(+1).`],
      ],
      [{ symbol: `${P}Cart#`, displayName: 'Cart', implements: [`${P}BaseCart#`] }],
    ),
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
 * Checks spliced into the stand-in (one file: its directory is no JDK or Gradle distribution, no
 * `lib/` beside the `bin/`, so the sandbox binds the file alone): Gradle's
 * home is set, and with a proxy in `HTTPS_PROXY`, JAVA_TOOL_OPTIONS sends the JVMs' HTTP and
 * HTTPS through it (JVMs ignore `HTTPS_PROXY`).
 */
const JVM_ENV_CHECK = `
{
  const fail = (m) => { process.stderr.write('scip-java: ' + m + '\\n'); process.exit(1); };
  if (!process.env.GRADLE_USER_HOME) fail('GRADLE_USER_HOME is not set');
  const proxy = process.env.HTTPS_PROXY;
  if (proxy) {
    const u = new URL(proxy);
    const opts = (process.env.JAVA_TOOL_OPTIONS || '').split(/\\s+/);
    for (const want of ['-Dhttps.proxyHost=' + u.hostname, '-Dhttps.proxyPort=' + u.port, '-Dhttp.proxyHost=' + u.hostname, '-Dhttp.proxyPort=' + u.port])
      if (!opts.includes(want)) fail('Gradle cannot reach the network: JAVA_TOOL_OPTIONS lacks ' + want + ' (HTTPS_PROXY=' + proxy + ')');
  }
}
`;

/**
 * Writes `<binDir>/scip-java` (and a `java` stand-in): it refuses to run without `index`,
 * `--build-tool` and `--output`, outside a directory holding a Gradle settings or build script,
 * without `java` on PATH, without GRADLE_USER_HOME, or with a proxy JAVA_TOOL_OPTIONS does not
 * carry, and writes the index of {@link fixtureDocuments} with a project root elsewhere (the copy
 * it ran in). Modes as {@link FakeIndexerSpec.mode} (`download` fetches from the Gradle plugin portal).
 */
export function writeFakeTools(binDir: string, mode: FakeIndexerSpec['mode'] = 'ok'): string {
  const file = writeFakeIndexer(binDir, {
    name: 'scip-java',
    index: {
      projectRoot: 'file:///tmp/scip-java-run/project',
      toolName: 'scip-java',
      toolVersion: '0.13.0',
      documents: fixtureDocuments(),
    },
    output: { flag: '--output' },
    requireArgs: ['index', '--build-tool', 'Gradle', '--output'],
    requireInCwd: ['settings.gradle.kts', 'settings.gradle', 'build.gradle.kts', 'build.gradle'],
    requireOnPath: ['java'],
    mode,
    failMessage:
      "e: file:///tmp/project/src/main/kotlin/shop/Cart.kt:4:27 Unresolved reference 'sumOf'. FAILURE: Build failed with an exception.",
    downloadUrl: 'https://plugins.gradle.org/m2/',
  });
  const [shebang, ...rest] = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, [shebang, JVM_ENV_CHECK, ...rest].join('\n'));
  return file;
}

// A small sbt build and the SCIP index scip-java would write for it, plus a stand-in for the
// `scip-java` executable (and for `java` and `sbt`, which it runs). scip-java, sbt and the Scala
// compiler cannot be fetched here, so the tests put a script on PATH that checks how it is called
// and writes this index (written with the SDK's SCIP writer); what the plugin does with the index,
// and how the host finds, binds and passes the tools, is real. Symbols are in scip-java 0.12's form
// for SemanticDB (`semanticdb maven . . shop/Cart#total().`; the Scala library under `. .` too,
// the JDK as `semanticdb maven jdk 11 java/…`), positions in UTF-16 code units with the encoding
// left unset, a primary constructor `<init>` defined (zero-width) just after its class name and
// referenced just after `new Cart`, parents as references and overrides as implementation
// relationships of the member: as its snapshot tests (tests/snapshots/…/minimized-scala) show.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  scipDocumentAt,
  scipRangeAt,
  writeFakeIndexer,
  type FakeIndexerSpec,
  type ScipDocumentSpec,
  type ScipOccurrenceAt,
  type ScipSymbolSpec,
} from '@travsr/sdk/testing';

const SRC = 'src/main/scala/shop';

export const PROJECT_FILES: Record<string, string> = {
  'build.sbt': `ThisBuild / scalaVersion := "2.13.14"

lazy val shop = (project in file("."))
  .settings(name := "shop")
`,
  'project/build.properties': 'sbt.version=1.10.2\n',
  [`${SRC}/Priced.scala`]: `package shop

/** Anything with a price in cents. */
trait Priced {
  def cents: Long
}
`,
  [`${SRC}/BaseCart.scala`]: `package shop

import scala.collection.mutable.ListBuffer

abstract class BaseCart {
  protected val items: ListBuffer[Priced] = ListBuffer.empty[Priced]

  def add(item: Priced): Unit = items.append(item)

  def count(): Int = items.size
}
`,
  [`${SRC}/Pricing.scala`]: `package shop

object Pricing {
  val TaxRate: Double = 0.2

  def price(item: Priced): Long = item.cents + tax(item.cents)

  def tax(cents: Long): Long = math.round(cents * TaxRate)
}
`,
  [`${SRC}/Cart.scala`]: `package shop

class Cart extends BaseCart with Priced {
  def total(): Long = items.map(i => Pricing.price(i)).sum

  def cents: Long = total()

  def describe(): String = {
    println(s"cart of \${count()} items")
    s"Cart(\${total()})"
  }
}

object Cart {
  def empty(): Cart = new Cart()
}
`,
};

const P = 'semanticdb maven . . shop/';
const SCALA = 'semanticdb maven . . scala/';
const JDK = 'semanticdb maven jdk 11 ';

/** A zero-width occurrence right after the `nth` `ident` on the line with `needle` (SemanticDB's synthetic constructor positions). */
function after(text: string, needle: string, ident: string, symbol: string, definition = false, nth = 0) {
  const [line, , end] = scipRangeAt(text, needle, ident, nth);
  return { range: [line, end, end] as [number, number, number], symbol, definition };
}

/** A zero-width occurrence where `ident` starts on the line with `needle` (a super constructor call, which SemanticDB places before the next token). */
function at(text: string, needle: string, ident: string, symbol: string) {
  const [line, start] = scipRangeAt(text, needle, ident);
  return { range: [line, start, start] as [number, number, number], symbol, definition: false };
}

// scip-java writes the compiler's UTF-16 columns and leaves the encoding unspecified (0).
const doc = (
  path: string,
  occ: readonly ScipOccurrenceAt[],
  symbols: ScipSymbolSpec[] = [],
  extra: ScipDocumentSpec['occurrences'] = [],
): ScipDocumentSpec => {
  const d = scipDocumentAt(path, PROJECT_FILES[path]!, occ, symbols, 'scala');
  return { ...d, occurrences: [...d.occurrences, ...extra], positionEncoding: 0 };
};

/** The documents scip-java writes for {@link PROJECT_FILES} (paths relative to the build it ran in). */
export function fixtureDocuments(): ScipDocumentSpec[] {
  const cart = PROJECT_FILES[`${SRC}/Cart.scala`]!;
  const base = PROJECT_FILES[`${SRC}/BaseCart.scala`]!;
  return [
    doc(`${SRC}/Priced.scala`, [
      ['package shop', 'shop', P, true],
      ['trait Priced', 'Priced', `${P}Priced#`, true],
      ['def cents: Long', 'cents', `${P}Priced#cents().`, true],
      ['def cents: Long', 'Long', `${SCALA}Long#`],
    ]),
    doc(
      `${SRC}/BaseCart.scala`,
      [
        ['package shop', 'shop', P, true],
        ['import scala.collection.mutable.ListBuffer', 'scala', 'semanticdb maven . . scala/'],
        ['import scala.collection.mutable.ListBuffer', 'collection', `${SCALA}collection/`],
        ['import scala.collection.mutable.ListBuffer', 'mutable', `${SCALA}collection/mutable/`],
        ['import scala.collection.mutable.ListBuffer', 'ListBuffer', `${SCALA}collection/mutable/ListBuffer.`],
        ['abstract class BaseCart', 'BaseCart', `${P}BaseCart#`, true],
        ['protected val items', 'items', `${P}BaseCart#items.`, true],
        ['protected val items', 'ListBuffer', `${SCALA}collection/mutable/ListBuffer#`],
        ['protected val items', 'Priced', `${P}Priced#`],
        ['protected val items', 'ListBuffer', `${SCALA}collection/mutable/ListBuffer.`, false, 1],
        ['protected val items', 'empty', `${SCALA}collection/IterableFactory.Delegate#empty().`],
        ['protected val items', 'Priced', `${P}Priced#`, false, 1],
        ['def add(item: Priced)', 'add', `${P}BaseCart#add().`, true],
        ['def add(item: Priced)', 'Priced', `${P}Priced#`],
        ['def add(item: Priced)', 'items', `${P}BaseCart#items.`],
        ['def add(item: Priced)', 'append', `${SCALA}collection/mutable/ListBuffer#append().`],
        ['def count()', 'count', `${P}BaseCart#count().`, true],
        ['def count()', 'items', `${P}BaseCart#items.`],
        ['def count()', 'size', `${SCALA}collection/mutable/ListBuffer#size().`],
      ],
      [],
      [
        after(base, 'abstract class BaseCart', 'BaseCart ', `${P}BaseCart#\`<init>\`().`, true),
        // A class without parents calls java.lang.Object's constructor.
        at(base, 'abstract class BaseCart', '{', `${JDK}java/lang/Object#\`<init>\`().`),
      ],
    ),
    doc(`${SRC}/Pricing.scala`, [
      ['package shop', 'shop', P, true],
      ['object Pricing', 'Pricing', `${P}Pricing.`, true],
      ['val TaxRate', 'TaxRate', `${P}Pricing.TaxRate.`, true],
      ['def price(item: Priced)', 'price', `${P}Pricing.price().`, true],
      ['def price(item: Priced)', 'Priced', `${P}Priced#`],
      ['def price(item: Priced)', 'cents', `${P}Priced#cents().`],
      ['def price(item: Priced)', '+', `${SCALA}Long#\`+\`(+4).`],
      ['def price(item: Priced)', 'tax', `${P}Pricing.tax().`],
      ['def price(item: Priced)', 'cents', `${P}Priced#cents().`, false, 1],
      ['def tax(cents: Long)', 'tax', `${P}Pricing.tax().`, true],
      ['def tax(cents: Long)', 'math', `${SCALA}math/package.`],
      ['def tax(cents: Long)', 'round', `${SCALA}math/package.round(+2).`],
      ['def tax(cents: Long)', 'TaxRate', `${P}Pricing.TaxRate.`],
    ]),
    doc(
      `${SRC}/Cart.scala`,
      [
        ['package shop', 'shop', P, true],
        ['class Cart extends', 'Cart', `${P}Cart#`, true],
        ['class Cart extends', 'BaseCart', `${P}BaseCart#`],
        ['class Cart extends', 'Priced', `${P}Priced#`],
        ['def total()', 'total', `${P}Cart#total().`, true],
        ['def total()', 'items', `${P}BaseCart#items.`],
        ['def total()', 'map', `${SCALA}collection/StrictOptimizedIterableOps#map().`],
        ['def total()', 'Pricing', `${P}Pricing.`],
        ['def total()', 'price', `${P}Pricing.price().`],
        ['def total()', 'sum', `${SCALA}collection/IterableOnceOps#sum().`],
        ['def cents: Long', 'cents', `${P}Cart#cents().`, true],
        ['def cents: Long', 'total', `${P}Cart#total().`],
        ['def describe()', 'describe', `${P}Cart#describe().`, true],
        ['println(s"cart', 'println', `${SCALA}Predef.println(+1).`],
        ['println(s"cart', 'count', `${P}BaseCart#count().`],
        ['s"Cart(', 'total', `${P}Cart#total().`],
        ['object Cart', 'Cart', `${P}Cart.`, true],
        ['def empty(): Cart', 'empty', `${P}Cart.empty().`, true],
        ['def empty(): Cart', 'Cart', `${P}Cart#`],
        ['def empty(): Cart', 'Cart', `${P}Cart#`, false, 1],
      ],
      // Overrides are implementation relationships of the member; a class has none for its parents.
      [{ symbol: `${P}Cart#cents().`, displayName: 'cents', implements: [`${P}Priced#cents().`] }],
      [
        after(cart, 'class Cart extends', 'Cart ', `${P}Cart#\`<init>\`().`, true),
        at(cart, 'class Cart extends', 'with', `${P}BaseCart#\`<init>\`().`),
        after(cart, 'def empty(): Cart', 'Cart', `${P}Cart#\`<init>\`().`, false, 1),
      ],
    ),
  ];
}

/** Writes the build under `dir`. */
export function writeProject(dir: string): void {
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * What the stand-in checks of its environment besides {@link FakeIndexerSpec.requireEnv}: sbt's
 * directories and the JVM's home in JAVA_TOOL_OPTIONS, coursier's cache, and — when the plugin
 * runs with the host's proxy (HTTPS_PROXY set) — the same proxy as JVM system properties, which
 * is all sbt, coursier and scip-java read.
 */
const ENV_CHECK = `{
  const o = (process.env.JAVA_TOOL_OPTIONS || '').split(' ');
  for (const p of ['-Duser.home=', '-Dsbt.global.base=', '-Dsbt.boot.directory=', '-Dsbt.ivy.home=', '-Dsbt.server.autostart=false'])
    if (!o.some((x) => x.startsWith(p))) die('JAVA_TOOL_OPTIONS lacks ' + p + ' (' + process.env.JAVA_TOOL_OPTIONS + ')');
  if (!process.env.COURSIER_CACHE) die('COURSIER_CACHE is not set');
  const proxy = process.env.HTTPS_PROXY;
  if (proxy) {
    const u = new URL(proxy);
    for (const p of ['-Dhttps.proxyHost=' + u.hostname, '-Dhttps.proxyPort=' + u.port, '-Dhttp.proxyHost=' + u.hostname, '-Dhttp.proxyPort=' + u.port])
      if (!o.includes(p)) die('HTTPS_PROXY=' + proxy + ' but JAVA_TOOL_OPTIONS lacks ' + p + ': the JVM would not use the proxy');
  }
}
`;

/**
 * Writes `<binDir>/scip-java` (and `java` and `sbt` stand-ins beside it): it refuses to run
 * without `index`, `--build-tool=sbt` and `--output`, outside a directory holding a build.sbt,
 * without `java` and `sbt` on PATH, or without the JVM options and caches the plugin sets (with
 * the proxy when HTTPS_PROXY is set), and writes the index of {@link fixtureDocuments} (no
 * project root: the plugin takes the directory it ran in). With `download` it first fetches
 * sbt-sourcegraph's POM from Maven Central, through HTTPS_PROXY when set, as sbt would. Modes as
 * {@link FakeIndexerSpec.mode}.
 */
export function writeFakeTools(binDir: string, mode: FakeIndexerSpec['mode'] = 'ok'): string {
  const file = writeFakeIndexer(binDir, {
    name: 'scip-java',
    index: { projectRoot: '', toolName: 'scip-java', toolVersion: '0.12.3', documents: fixtureDocuments() },
    output: { flag: '--output' },
    requireArgs: ['index', '--build-tool=sbt'],
    requireInCwd: ['build.sbt'],
    requireOnPath: ['java', 'sbt'],
    requireEnv: { TERM: 'dumb' },
    mode,
    failMessage:
      'error: [error] (shop / Compile / compileIncremental) Compilation failed: Cart.scala:4: value sum is not a member of ListBuffer[Long] (sbt exited with 1)',
    downloadUrl: 'https://repo1.maven.org/maven2/com/sourcegraph/sbt-sourcegraph_2.12_1.0/0.4.4/sbt-sourcegraph_2.12_1.0-0.4.4.pom',
  });
  insertAfterDie(file, ENV_CHECK);
  return file;
}

/** Adds checks to a stand-in written by writeFakeIndexer, right after it defines `die` (one file: the sandbox binds the tool's file alone). */
export function insertAfterDie(file: string, code: string): void {
  const script = readFileSync(file, 'utf8');
  const at = script.indexOf('\n', script.indexOf('const die = '));
  if (script.indexOf('const die = ') < 0 || at < 0) throw new Error(`${file}: not a writeFakeIndexer stand-in`);
  writeFileSync(file, script.slice(0, at + 1) + code + script.slice(at + 1));
}

// A small Maven project and the SCIP index scip-java would write for it, plus a stand-in for the
// `scip-java` executable. scip-java (and the Maven build it runs) cannot be fetched here, so the
// tests put a script on PATH that checks how it is called and writes this index (written with the
// SDK's SCIP writer); what the plugin does with the index, and how the host finds, binds and
// passes the tools, is real. Symbols are in scip-java 0.13's form (`scip-java maven . . <pkg>/<Class>#`,
// the JDK as `scip-java maven jdk 17 …`), positions in UTF-16 code units with the encoding left
// unset, constructors as `<init>` (defined at their name when declared, at the class name when
// implicit; `new Item(…)` refers to `Item#<init>().` on `Item`), superclasses and interfaces as
// implementation relationships: as its snapshot tests (scip-snapshots/expected) show.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scipDocumentAt, writeFakeIndexer, type FakeIndexerSpec, type ScipDocumentSpec, type ScipOccurrenceAt } from '@travsr/sdk/testing';

const SRC = 'src/main/java/com/example/shop';

export const PROJECT_FILES: Record<string, string> = {
  'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
</project>
`,
  [`${SRC}/Priced.java`]: `package com.example.shop;

/** Anything with a price in cents. */
public interface Priced {
  long cents();
}
`,
  [`${SRC}/Item.java`]: `package com.example.shop;

public final class Item implements Priced {
  private final String name;
  private final long price;

  public Item(String name, long price) {
    this.name = name;
    this.price = price;
  }

  @Override
  public long cents() {
    return price;
  }

  public String name() {
    return name.trim();
  }
}
`,
  [`${SRC}/BaseCart.java`]: `package com.example.shop;

import java.util.ArrayList;
import java.util.List;

public abstract class BaseCart {
  protected final List<Item> items = new ArrayList<>();

  public void add(Item item) {
    items.add(item);
  }
}
`,
  [`${SRC}/Pricing.java`]: `package com.example.shop;

final class Pricing {
  static final double TAX = 0.2;

  static long price(Priced p) {
    return p.cents() + tax(p.cents());
  }

  static long tax(long cents) {
    return Math.round(cents * TAX);
  }
}
`,
  // The em dash makes UTF-16 and UTF-8 columns differ after it: scip-java counts UTF-16 units.
  [`${SRC}/Cart.java`]: `package com.example.shop;

public class Cart extends BaseCart {
  public long total() {
    long sum = 0;
    for (Item item : items) sum += Pricing.price(item);
    return sum;
  }

  public Cart fill() {
    add(new Item("pen", 120));
    return this;
  }

  public static Cart empty() {
    return new Cart();
  }

  public String describe() {
    return String.format("%d items — %d cents", items.size(), total());
  }
}
`,
};

const P = 'scip-java maven . . com/example/shop/';
const JDK = 'scip-java maven jdk 17 java/';
// scip-java leaves position_encoding unset (0); scipDocumentAt finds ranges by JavaScript string
// index, which is what scip-java writes: UTF-16 code units.
const doc = (file: string, occ: ScipOccurrenceAt[], symbols: ScipDocumentSpec['symbols'] = []): ScipDocumentSpec => ({
  ...scipDocumentAt(`${SRC}/${file}`, PROJECT_FILES[`${SRC}/${file}`]!, occ, symbols, 'java'),
  positionEncoding: 0,
});

/** The documents scip-java writes for {@link PROJECT_FILES} (paths relative to the project). */
export function fixtureDocuments(): ScipDocumentSpec[] {
  return [
    doc('Priced.java', [
      ['public interface Priced', 'Priced', `${P}Priced#`, true],
      ['long cents()', 'cents', `${P}Priced#cents().`, true],
    ]),
    doc(
      'Item.java',
      [
        ['public final class Item', 'Item', `${P}Item#`, true],
        ['implements Priced', 'Priced', `${P}Priced#`],
        ['private final String name', 'String', `${JDK}lang/String#`],
        ['private final String name', 'name', `${P}Item#name.`, true],
        ['private final long price', 'price', `${P}Item#price.`, true],
        ['public Item(String', 'Item', `${P}Item#\`<init>\`().`, true],
        ['public Item(String', 'String', `${JDK}lang/String#`],
        ['this.name = name', 'name', `${P}Item#name.`],
        ['this.price = price', 'price', `${P}Item#price.`],
        ['@Override', 'Override', `${JDK}lang/Override#`],
        ['public long cents()', 'cents', `${P}Item#cents().`, true],
        ['return price;', 'price', `${P}Item#price.`],
        ['public String name()', 'String', `${JDK}lang/String#`],
        ['public String name()', 'name', `${P}Item#name().`, true],
        ['return name.trim()', 'name', `${P}Item#name.`],
        ['return name.trim()', 'trim', `${JDK}lang/String#trim().`],
      ],
      [
        { symbol: `${P}Item#`, displayName: 'Item', implements: [`${P}Priced#`] },
        { symbol: `${P}Item#cents().`, displayName: 'cents', implements: [`${P}Priced#cents().`] },
        { symbol: `${P}Item#\`<init>\`().`, displayName: '<init>' },
      ],
    ),
    doc('BaseCart.java', [
      ['import java.util.ArrayList', 'ArrayList', `${JDK}util/ArrayList#`],
      ['import java.util.List', 'List', `${JDK}util/List#`],
      ['public abstract class BaseCart', 'BaseCart', `${P}BaseCart#`, true],
      ['public abstract class BaseCart', 'BaseCart', `${P}BaseCart#\`<init>\`().`, true],
      ['List<Item> items', 'List', `${JDK}util/List#`],
      ['List<Item> items', 'Item', `${P}Item#`],
      ['List<Item> items', 'items', `${P}BaseCart#items.`, true],
      ['new ArrayList', 'ArrayList', `${JDK}util/ArrayList#\`<init>\`().`],
      ['public void add', 'add', `${P}BaseCart#add().`, true],
      ['public void add', 'Item', `${P}Item#`],
      ['items.add(item)', 'items', `${P}BaseCart#items.`],
      ['items.add(item)', 'add', `${JDK}util/List#add().`],
    ]),
    doc('Pricing.java', [
      ['final class Pricing', 'Pricing', `${P}Pricing#`, true],
      ['final class Pricing', 'Pricing', `${P}Pricing#\`<init>\`().`, true],
      ['static final double TAX', 'TAX', `${P}Pricing#TAX.`, true],
      ['static long price', 'price', `${P}Pricing#price().`, true],
      ['static long price', 'Priced', `${P}Priced#`],
      ['return p.cents() + tax', 'cents', `${P}Priced#cents().`],
      ['return p.cents() + tax', 'tax', `${P}Pricing#tax().`],
      ['return p.cents() + tax', 'cents', `${P}Priced#cents().`, false, 1],
      ['static long tax', 'tax', `${P}Pricing#tax().`, true],
      ['Math.round', 'Math', `${JDK}lang/Math#`],
      ['Math.round', 'round', `${JDK}lang/Math#round(+1).`],
      ['Math.round', 'TAX', `${P}Pricing#TAX.`],
    ]),
    doc(
      'Cart.java',
      [
        ['public class Cart', 'Cart', `${P}Cart#`, true],
        ['public class Cart', 'Cart', `${P}Cart#\`<init>\`().`, true],
        ['extends BaseCart', 'BaseCart', `${P}BaseCart#`],
        ['public long total()', 'total', `${P}Cart#total().`, true],
        ['for (Item item', 'Item', `${P}Item#`],
        ['for (Item item', 'items', `${P}BaseCart#items.`],
        ['Pricing.price(item)', 'Pricing', `${P}Pricing#`],
        ['Pricing.price(item)', 'price', `${P}Pricing#price().`],
        ['public Cart fill()', 'Cart', `${P}Cart#`],
        ['public Cart fill()', 'fill', `${P}Cart#fill().`, true],
        ['add(new Item', 'add', `${P}BaseCart#add().`],
        ['add(new Item', 'Item', `${P}Item#\`<init>\`().`],
        ['public static Cart empty()', 'Cart', `${P}Cart#`],
        ['public static Cart empty()', 'empty', `${P}Cart#empty().`, true],
        ['return new Cart()', 'Cart', `${P}Cart#\`<init>\`().`],
        ['public String describe()', 'String', `${JDK}lang/String#`],
        ['public String describe()', 'describe', `${P}Cart#describe().`, true],
        ['String.format', 'String', `${JDK}lang/String#`],
        ['String.format', 'format', `${JDK}lang/String#format().`],
        ['items.size()', 'items', `${P}BaseCart#items.`],
        ['items.size()', 'size', `${JDK}util/List#size().`],
        ['items.size(), total()', 'total', `${P}Cart#total().`],
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
 * Checks spliced into the stand-in (one file: its directory is no JDK, Maven or Gradle
 * distribution, no `lib/` beside the `bin/`, so the sandbox binds the file alone): Maven's
 * local repository and Gradle's home are set, and with a proxy in `HTTPS_PROXY`, JAVA_TOOL_OPTIONS
 * sends the JVMs' HTTP and HTTPS through it (JVMs ignore `HTTPS_PROXY`).
 */
const JVM_ENV_CHECK = `
{
  const fail = (m) => { process.stderr.write('scip-java: ' + m + '\\n'); process.exit(1); };
  if (!/-Dmaven\\.repo\\.local=\\S/.test(process.env.MAVEN_OPTS || '')) fail('MAVEN_OPTS sets no -Dmaven.repo.local');
  if (!process.env.GRADLE_USER_HOME) fail('GRADLE_USER_HOME is not set');
  const proxy = process.env.HTTPS_PROXY;
  if (proxy) {
    const u = new URL(proxy);
    const opts = (process.env.JAVA_TOOL_OPTIONS || '').split(/\\s+/);
    for (const want of ['-Dhttps.proxyHost=' + u.hostname, '-Dhttps.proxyPort=' + u.port, '-Dhttp.proxyHost=' + u.hostname, '-Dhttp.proxyPort=' + u.port])
      if (!opts.includes(want)) fail('Maven cannot reach the network: JAVA_TOOL_OPTIONS lacks ' + want + ' (HTTPS_PROXY=' + proxy + ')');
  }
}
`;

/**
 * Writes `<binDir>/scip-java` (and a `java` stand-in): it refuses to run without `index`,
 * `--build-tool` and `--output`, outside a directory holding a pom.xml, without `java` on PATH,
 * without Maven's and Gradle's caches set, or with a proxy JAVA_TOOL_OPTIONS does not carry, and
 * writes the index of {@link fixtureDocuments} with a project root elsewhere (the copy it ran in).
 * Modes as {@link FakeIndexerSpec.mode} (`download` fetches from Maven Central).
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
    requireArgs: ['index', '--build-tool', '--output'],
    requireInCwd: ['pom.xml'],
    requireOnPath: ['java'],
    mode,
    failMessage: '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile: Compilation failure',
    downloadUrl: 'https://repo.maven.apache.org/maven2/',
  });
  const [shebang, ...rest] = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, [shebang, JVM_ENV_CHECK, ...rest].join('\n'));
  return file;
}

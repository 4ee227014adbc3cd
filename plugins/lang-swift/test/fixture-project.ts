// A small Swift package and the SCIP index scip-swift would write for it, plus a stand-in for the
// `scip-swift` executable (and `swift`, which it builds with). scip-swift cannot run here (it is
// macOS-only), so the tests put a script on PATH that checks how it is called and writes this
// index (with the SDK's SCIP writer), display names as the compiler writes them; what the plugin
// does with the index — the merge — and how the host finds, binds and passes the tools, is real.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scipDocumentAt, writeFakeIndexer, type FakeIndexerSpec, type ScipDocumentSpec, type ScipSymbolSpec } from '@travsr/sdk/testing';

export const PROJECT_FILES: Record<string, string> = {
  'Package.swift': `// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Shop",
    products: [.library(name: "Shop", targets: ["Shop"])],
    targets: [.target(name: "Shop")]
)
`,
  'Sources/Shop/Item.swift': `public struct Item: Codable, Equatable {
    public let name: String
    public let cents: Int

    public init(name: String, cents: Int) {
        self.name = name
        self.cents = cents
    }
}
`,
  'Sources/Shop/Money.swift': `import Foundation

func money(_ cents: Int) -> String {
    String(format: "%d.%02d", cents / 100, cents % 100)
}

public struct Receipt {
    public let cents: Int
}
`,
  'Sources/Shop/Rates.swift': `public enum Rates {
    static let rate = 0.2

    public static func price(_ item: Item) -> Int {
        tax(item.cents) + item.cents
    }

    static func tax(_ cents: Int) -> Int {
        Int((Double(cents) * rate).rounded())
    }
}
`,
  'Sources/Shop/Totals.swift': `public protocol Totals {
    func total() -> Int
}
`,
  'Sources/Shop/Basket.swift': `public class Basket {
    public private(set) var items: [Item] = []

    public init() {}

    public func add(_ item: Item) {
        items.append(item)
    }
}
`,
  'Sources/Shop/Checkout.swift': `import Foundation

public final class Checkout: Basket, Totals {
    public func total() -> Int {
        items.map { Rates.price($0) }.reduce(0, +)
    }

    public func summary() -> String {
        String(format: "%d items, %@", items.count, money(total()))
    }

    public func receipt() -> Receipt {
        Receipt(cents: total())
    }
}

extension Checkout {
    public func adding(_ item: Item) -> Checkout {
        add(item)
        return self
    }

    public func withTea() -> Checkout {
        adding(Item(name: "tea", cents: 250))
    }
}
`,
};

// scip-swift's symbols: the package's modules as `swiftpm <Module> .`, the SDK's as
// `swift <Module> <toolchain version>`; parameters as raw USRs.
const S = 'scip-swift swiftpm Shop . ';
const SWIFT = 'scip-swift swift Swift 6.2.4 ';
const FOUNDATION = 'scip-swift swift Foundation 6.2.4 ';
const doc = (path: string, occ: Parameters<typeof scipDocumentAt>[2], symbols: ScipSymbolSpec[] = []) =>
  scipDocumentAt(path, PROJECT_FILES[path]!, occ, symbols, 'swift');
/** A symbol defined here, with the compiler's display name as scip-swift writes it (demangled). */
const info = (descriptor: string, displayName: string, implemented: string[] = []): ScipSymbolSpec => ({
  symbol: `${S}${descriptor}`,
  displayName,
  implements: implemented,
});

/** The documents scip-swift writes for {@link PROJECT_FILES} (the files the Shop target compiles). */
export function fixtureDocuments(): ScipDocumentSpec[] {
  return [
    doc(
      'Sources/Shop/Item.swift',
      [
        ['public struct Item', 'Item', `${S}Item#`, true],
        ['public struct Item', 'Codable', `${SWIFT}Codable#`],
        ['public struct Item', 'Equatable', `${SWIFT}Equatable#`],
        ['public let name', 'name', `${S}Item#name.`, true],
        ['public let name', 'String', `${SWIFT}String#`],
        ['public let cents', 'cents', `${S}Item#cents.`, true],
        ['public let cents', 'Int', `${SWIFT}Int#`],
        ['public init(name', 'init', `${S}Item#init().`, true],
        ['self.name = name', 'name', `${S}Item#name.`],
        ['self.cents = cents', 'cents', `${S}Item#cents.`],
      ],
      [
        info('Item#', 'Shop.Item', [`${SWIFT}Decodable#`, `${SWIFT}Encodable#`, `${SWIFT}Equatable#`]),
        info('Item#name.', 'Shop.Item.name : Swift.String'),
        info('Item#cents.', 'Shop.Item.cents : Swift.Int'),
        info('Item#init().', 'Shop.Item.init(name: Swift.String, cents: Swift.Int) -> Shop.Item'),
      ],
    ),
    doc(
      'Sources/Shop/Money.swift',
      [
        ['import Foundation', 'Foundation', `${FOUNDATION}Foundation/`],
        ['func money', 'money', `${S}money().`, true],
        ['func money', 'Int', `${SWIFT}Int#`],
        ['func money', 'String', `${SWIFT}String#`],
        ['String(format:', 'String', `${FOUNDATION}String#init(+22).`],
        ['String(format:', '/', `${SWIFT}Int#\`/\`().`],
        ['public struct Receipt', 'Receipt', `${S}Receipt#`, true],
        ['public let cents', 'cents', `${S}Receipt#cents.`, true],
        ['public let cents', 'Int', `${SWIFT}Int#`],
      ],
      [
        info('money().', 'Shop.money(Swift.Int) -> Swift.String'),
        info('Receipt#', 'Shop.Receipt'),
        info('Receipt#cents.', 'Shop.Receipt.cents : Swift.Int'),
      ],
    ),
    doc(
      'Sources/Shop/Rates.swift',
      [
        ['public enum Rates', 'Rates', `${S}Rates#`, true],
        ['static let rate', 'rate', `${S}Rates#rate.`, true],
        ['public static func price', 'price', `${S}Rates#price().`, true],
        ['public static func price', 'Item', `${S}Item#`],
        ['tax(item.cents) + item.cents', 'tax', `${S}Rates#tax().`],
        ['tax(item.cents) + item.cents', 'cents', `${S}Item#cents.`],
        ['tax(item.cents) + item.cents', 'cents', `${S}Item#cents.`, false, 1],
        ['static func tax', 'tax', `${S}Rates#tax().`, true],
        ['Int((Double(cents)', 'Int', `${SWIFT}Int#init(+9).`],
        ['Int((Double(cents)', 'Double', `${SWIFT}Double#init(+14).`],
        ['Int((Double(cents)', 'rate', `${S}Rates#rate.`],
        ['Int((Double(cents)', 'rounded', `${SWIFT}Double#rounded().`],
      ],
      [
        info('Rates#', 'Shop.Rates'),
        info('Rates#rate.', 'static Shop.Rates.rate : Swift.Double'),
        info('Rates#price().', 'static Shop.Rates.price(Shop.Item) -> Swift.Int'),
        info('Rates#tax().', 'static Shop.Rates.tax(Swift.Int) -> Swift.Int'),
      ],
    ),
    doc(
      'Sources/Shop/Totals.swift',
      [
        ['public protocol Totals', 'Totals', `${S}Totals#`, true],
        ['func total', 'total', `${S}Totals#total().`, true],
      ],
      [info('Totals#', 'Shop.Totals'), info('Totals#total().', 'Shop.Totals.total() -> Swift.Int')],
    ),
    doc(
      'Sources/Shop/Basket.swift',
      [
        ['public class Basket', 'Basket', `${S}Basket#`, true],
        ['var items', 'items', `${S}Basket#items.`, true],
        ['var items', 'Item', `${S}Item#`],
        ['public init()', 'init', `${S}Basket#init().`, true],
        ['public func add', 'add', `${S}Basket#add().`, true],
        ['public func add', 'Item', `${S}Item#`],
        ['items.append(item)', 'items', `${S}Basket#items.`],
        ['items.append(item)', 'append', `${SWIFT}Array#append().`],
      ],
      [
        info('Basket#', 'Shop.Basket'),
        info('Basket#items.', 'Shop.Basket.items : [Shop.Item]'),
        info('Basket#init().', 'Shop.Basket.init() -> Shop.Basket'),
        info('Basket#add().', 'Shop.Basket.add(Shop.Item) -> ()'),
      ],
    ),
    doc(
      'Sources/Shop/Checkout.swift',
      [
        ['import Foundation', 'Foundation', `${FOUNDATION}Foundation/`],
        ['public final class Checkout', 'Checkout', `${S}Checkout#`, true],
        ['public final class Checkout', 'Basket', `${S}Basket#`],
        ['public final class Checkout', 'Totals', `${S}Totals#`],
        ['public func total', 'total', `${S}Checkout#total().`, true],
        ['items.map', 'items', `${S}Basket#items.`],
        ['items.map', 'map', `${SWIFT}Sequence#map().`],
        ['items.map', 'Rates', `${S}Rates#`],
        ['items.map', 'price', `${S}Rates#price().`],
        ['items.map', 'reduce', `${SWIFT}Sequence#reduce().`],
        ['public func summary', 'summary', `${S}Checkout#summary().`, true],
        ['String(format: "%d items', 'String', `${FOUNDATION}String#init(+22).`],
        ['String(format: "%d items', 'items', `${S}Basket#items.`, false, 1],
        ['String(format: "%d items', 'count', `${SWIFT}Array#count.`],
        ['String(format: "%d items', 'money', `${S}money().`],
        ['String(format: "%d items', 'total', `${S}Checkout#total().`],
        ['public func receipt', 'receipt', `${S}Checkout#receipt().`, true],
        ['public func receipt', 'Receipt', `${S}Receipt#`],
        // A constructor call: the compiler's `init` and the type end at one place. Receipt's
        // memberwise init is compiler-made (no definition anywhere); Item declares its own.
        ['Receipt(cents:', 'Receipt', `${S}Receipt#init().`],
        ['Receipt(cents:', 'Receipt', `${S}Receipt#`],
        ['Receipt(cents:', 'total', `${S}Checkout#total().`],
        ['extension Checkout', 'Checkout', `${S}Checkout#`],
        ['public func adding', 'adding', `${S}Checkout#adding().`, true],
        ['public func adding', 'Item', `${S}Item#`],
        ['public func adding', 'Checkout', `${S}Checkout#`],
        ['add(item)', 'add', `${S}Basket#add().`],
        ['public func withTea', 'withTea', `${S}Checkout#withTea().`, true],
        ['public func withTea', 'Checkout', `${S}Checkout#`],
        ['adding(Item(', 'adding', `${S}Checkout#adding().`],
        ['adding(Item(', 'Item', `${S}Item#init().`],
        ['adding(Item(', 'Item', `${S}Item#`],
      ],
      [
        info('Checkout#', 'Shop.Checkout', [`${S}Basket#`, `${S}Totals#`]),
        info('Checkout#total().', 'Shop.Checkout.total() -> Swift.Int', [`${S}Totals#total().`]),
        info('Checkout#summary().', 'Shop.Checkout.summary() -> Swift.String'),
        info('Checkout#adding().', 'Shop.Checkout.adding(Shop.Item) -> Shop.Checkout'),
        info('Checkout#receipt().', 'Shop.Checkout.receipt() -> Shop.Receipt'),
        info('Checkout#withTea().', 'Shop.Checkout.withTea() -> Shop.Checkout'),
      ],
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
 * Writes `<binDir>/scip-swift` and a `swift` beside it: scip-swift refuses to run without its
 * `index` subcommand and `--output`, outside a directory holding Package.swift or an Xcode
 * project, or without swift on PATH, and writes the index of {@link fixtureDocuments} (its
 * project root names the copy it ran in, which the plugin reads as the project). Modes as
 * {@link FakeIndexerSpec.mode}.
 */
export function writeFakeTools(binDir: string, mode: FakeIndexerSpec['mode'] = 'ok'): string {
  return writeFakeIndexer(binDir, {
    name: 'scip-swift',
    index: {
      projectRoot: 'file:///tmp/scip-swift-run/project/',
      toolName: 'scip-swift',
      toolVersion: '0.3.0',
      documents: fixtureDocuments(),
    },
    output: { flag: '--output' },
    requireArgs: ['index'],
    requireInCwd: ['Package.swift', '*.xcodeproj', '*.xcworkspace'],
    requireOnPath: ['swift'],
    mode,
    failMessage: "'swift build' failed with exit code 1: error: Sources/Shop/Checkout.swift:5:9: cannot find 'Rates' in scope",
    downloadUrl: 'https://github.com/apple/swift-argument-parser.git/info/refs?service=git-upload-pack',
  });
}

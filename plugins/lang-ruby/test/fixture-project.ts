// A small Ruby project and the SCIP index scip-ruby would write for it, plus a stand-in for the
// `scip-ruby` executable. scip-ruby cannot be fetched here, so the tests put a script on PATH that
// checks how it is called and writes this index (written with the SDK's SCIP writer); what the
// plugin does with the index, and how the host finds, binds and passes the tool, is real.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scipDocumentAt, writeFakeIndexer, type FakeIndexerSpec, type ScipDocumentSpec } from '@travsr/sdk/testing';

export const PROJECT_FILES: Record<string, string> = {
  Gemfile: 'source "https://rubygems.org"\ngem "shop", path: "."\n',
  'lib/shop/base.rb': `module Shop
  class Base
    def items
      @items ||= []
    end
  end
end
`,
  'lib/shop/pricing.rb': `module Shop
  module Pricing
    TAX = 0.2

    def self.price(item)
      item.cents + tax(item.cents)
    end

    def self.tax(cents)
      (cents * TAX).round
    end
  end
end
`,
  'lib/shop/cart.rb': `require "json"
require_relative "base"
require_relative "pricing"

module Shop
  class Cart < Base
    def total
      items.sum { |item| Pricing.price(item) }
    end

    def to_json(*args)
      JSON.generate(total: total)
    end
  end
end
`,
};

const G = 'scip-ruby gem shop local ';
const CORE = 'scip-ruby gem ruby-core 3.3 ';
const doc = (path: string, occ: Parameters<typeof scipDocumentAt>[2]) => scipDocumentAt(path, PROJECT_FILES[path]!, occ, [], 'ruby');

/** The documents scip-ruby writes for {@link PROJECT_FILES} (symbols in Sorbet's form). */
export function fixtureDocuments(): ScipDocumentSpec[] {
  return [
    doc('lib/shop/base.rb', [
      ['module Shop', 'Shop', `${G}Shop#`, true],
      ['class Base', 'Base', `${G}Shop#Base#`, true],
      ['def items', 'items', `${G}Shop#Base#items().`, true],
    ]),
    doc('lib/shop/pricing.rb', [
      ['module Shop', 'Shop', `${G}Shop#`, true],
      ['module Pricing', 'Pricing', `${G}Shop#Pricing#`, true],
      ['TAX = 0.2', 'TAX', `${G}Shop#Pricing#TAX.`, true],
      ['def self.price', 'price', `${G}Shop#Pricing#price().`, true],
      ['item.cents + tax', 'tax', `${G}Shop#Pricing#tax().`],
      ['def self.tax', 'tax', `${G}Shop#Pricing#tax().`, true],
      ['(cents * TAX)', 'TAX', `${G}Shop#Pricing#TAX.`],
      ['(cents * TAX)', 'round', `${CORE}Float#round().`],
    ]),
    doc('lib/shop/cart.rb', [
      ['module Shop', 'Shop', `${G}Shop#`, true],
      ['class Cart < Base', 'Cart', `${G}Shop#Cart#`, true],
      ['class Cart < Base', 'Base', `${G}Shop#Base#`],
      ['def total', 'total', `${G}Shop#Cart#total().`, true],
      ['items.sum', 'items', `${G}Shop#Base#items().`],
      ['items.sum', 'sum', `${CORE}Array#sum().`],
      ['Pricing.price(item)', 'Pricing', `${G}Shop#Pricing#`],
      ['Pricing.price(item)', 'price', `${G}Shop#Pricing#price().`],
      ['def to_json', 'to_json', `${G}Shop#Cart#to_json().`, true],
      ['JSON.generate', 'JSON', 'scip-ruby gem json 2.7 JSON#'],
      ['JSON.generate', 'generate', 'scip-ruby gem json 2.7 JSON#generate().'],
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
 * Writes `<binDir>/scip-ruby`: it refuses to run without `--index-file` or outside a project
 * holding a Gemfile and writes the index of {@link fixtureDocuments} (no project root: the plugin
 * takes the directory it ran in). Modes as {@link FakeIndexerSpec.mode}.
 */
export function writeFakeTools(binDir: string, mode: FakeIndexerSpec['mode'] = 'ok'): string {
  return writeFakeIndexer(binDir, {
    name: 'scip-ruby',
    index: { projectRoot: '', toolName: 'scip-ruby', toolVersion: '0.3.2', documents: fixtureDocuments() },
    output: { flag: '--index-file' },
    requireArgs: ['--gem-metadata'],
    requireInCwd: ['Gemfile'],
    mode,
    failMessage: 'error: lib/shop/cart.rb:8: Method `sum` does not exist (Sorbet crashed)',
    downloadUrl: 'https://rubygems.org/api/v1/gems/json.json',
  });
}

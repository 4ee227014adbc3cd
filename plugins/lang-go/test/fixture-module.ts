// A small Go module and the SCIP index scip-go would write for it, plus stand-ins for the
// `scip-go` and `go` executables. scip-go cannot be built here (no Go module proxy), so the
// tests put a script on PATH that checks how it is called and writes this index; what the
// plugin does with the index, and how the host finds, binds and passes the tools, is real.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodeScipIndex, type ScipDocumentSpec as DocumentSpec, type ScipOccurrenceSpec as OccurrenceSpec } from '@travsr/sdk/testing';

export const MODULE_FILES: Record<string, string> = {
  'go.mod': 'module example.com/shop\n\ngo 1.21\n',
  'ledger/ledger.go': `package ledger

import (
	"fmt"

	"example.com/shop/money"
)

// Store loads accounts.
type Store interface {
	Load(name string) (*Account, error)
}

type Account struct {
	Name    string
	Balance money.Cents
}

type Ledger struct {
	store Store
}

func New(s Store) *Ledger {
	return &Ledger{store: s}
}

func (l *Ledger) Post(name string, amount money.Cents) error {
	a, err := l.store.Load(name)
	if err != nil {
		return fmt.Errorf("post: %w", err)
	}
	a.Balance = money.Add(a.Balance, amount)
	return nil
}
`,
  'ledger/ledger_windows.go': `//go:build windows

package ledger

func platformName() string { return helper() }
`,
  'money/money.go': `package money

type Cents int64

func Add(a, b Cents) Cents { return a + b }
`,
  'memstore/memstore.go': `package memstore

import "example.com/shop/ledger"

type Mem struct{ accounts map[string]*ledger.Account }

func (m *Mem) Load(name string) (*ledger.Account, error) { return m.accounts[name], nil }

func Open() *ledger.Ledger { return ledger.New(&Mem{}) }
`,
};

const MODULE = 'scip-go gomod example.com/shop local';
const pkg = (p: string) => `${MODULE} \`example.com/shop/${p}\`/`;
const FMT = 'scip-go gomod github.com/golang/go/src go1.22 fmt/';

/** [line, startChar, endChar] of the `nth` occurrence of `ident` on the first line containing `lineNeedle`. */
function at(text: string, lineNeedle: string, ident: string, nth = 0): [number, number, number] {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(lineNeedle));
  if (line < 0) throw new Error(`fixture: no line with ${lineNeedle}`);
  let col = -1;
  for (let i = 0; i <= nth; i++) col = lines[line]!.indexOf(ident, col + 1);
  if (col < 0) throw new Error(`fixture: no ${ident} on line ${line}`);
  return [line, col, col + ident.length];
}

function doc(
  path: string,
  occ: [lineNeedle: string, ident: string, symbol: string, definition?: boolean, nth?: number][],
  symbols: DocumentSpec['symbols'] = [],
): DocumentSpec {
  const text = MODULE_FILES[path]!;
  return {
    path,
    occurrences: occ.map(([needle, ident, symbol, definition, nth]): OccurrenceSpec => ({
      range: at(text, needle, ident, nth ?? 0),
      symbol,
      definition: definition ?? false,
    })),
    symbols,
  };
}

/** The documents scip-go writes for {@link MODULE_FILES} (ledger_windows.go is excluded by its build constraint). */
export function fixtureDocuments(): DocumentSpec[] {
  const L = pkg('ledger');
  const M = pkg('money');
  const S = pkg('memstore');
  return [
    doc(
      'ledger/ledger.go',
      [
        ['package ledger', 'ledger', L, true],
        ['"fmt"', 'fmt', FMT],
        ['"example.com/shop/money"', 'example.com/shop/money', M],
        ['type Store interface', 'Store', `${L}Store#`, true],
        ['Load(name string)', 'Load', `${L}Store#Load.`, true],
        ['Load(name string)', 'Account', `${L}Account#`],
        ['type Account struct', 'Account', `${L}Account#`, true],
        ['Balance money.Cents', 'money', M],
        ['Balance money.Cents', 'Cents', `${M}Cents#`],
        ['type Ledger struct', 'Ledger', `${L}Ledger#`, true],
        ['func New(', 'New', `${L}New().`, true],
        ['func New(', 'Store', `${L}Store#`],
        ['func New(', 'Ledger', `${L}Ledger#`],
        ['func (l *Ledger) Post', 'l', 'local 0', true],
        ['func (l *Ledger) Post', 'Ledger', `${L}Ledger#`],
        ['func (l *Ledger) Post', 'Post', `${L}Ledger#Post().`, true],
        ['func (l *Ledger) Post', 'Cents', `${M}Cents#`],
        ['l.store.Load(name)', 'l', 'local 0'],
        ['l.store.Load(name)', 'store', `${L}Ledger#store.`],
        ['l.store.Load(name)', 'Load', `${L}Store#Load.`],
        ['fmt.Errorf', 'Errorf', `${FMT}Errorf().`],
        ['money.Add(', 'Add', `${M}Add().`],
      ],
      [
        { symbol: `${L}Store#`, kind: 21, displayName: 'Store' },
        { symbol: `${L}Store#Load.`, kind: 67, displayName: 'Load' },
        { symbol: `${L}Account#`, kind: 49, displayName: 'Account' },
        { symbol: `${L}Ledger#`, kind: 49, displayName: 'Ledger' },
        { symbol: `${L}New().`, kind: 17, displayName: 'New' },
        { symbol: `${L}Ledger#Post().`, kind: 26, displayName: 'Post' },
      ],
    ),
    doc(
      'money/money.go',
      [
        ['package money', 'money', M, true],
        ['type Cents', 'Cents', `${M}Cents#`, true],
        ['func Add', 'Add', `${M}Add().`, true],
        ['func Add', 'Cents', `${M}Cents#`, false, 0],
      ],
      [
        { symbol: `${M}Cents#`, kind: 54, displayName: 'Cents' },
        { symbol: `${M}Add().`, kind: 17, displayName: 'Add' },
      ],
    ),
    doc(
      'memstore/memstore.go',
      [
        ['package memstore', 'memstore', S, true],
        ['import "example.com/shop/ledger"', 'example.com/shop/ledger', L],
        ['type Mem struct', 'Mem', `${S}Mem#`, true],
        ['type Mem struct', 'Account', `${L}Account#`],
        ['func (m *Mem) Load', 'Load', `${S}Mem#Load().`, true],
        ['func Open()', 'Open', `${S}Open().`, true],
        ['func Open()', 'New', `${L}New().`],
        ['func Open()', 'Mem', `${S}Mem#`],
      ],
      [
        { symbol: `${S}Mem#`, kind: 49, displayName: 'Mem', implements: [`${L}Store#`] },
        { symbol: `${S}Mem#Load().`, kind: 26, displayName: 'Load', implements: [`${L}Store#Load.`] },
        { symbol: `${S}Open().`, kind: 17, displayName: 'Open' },
      ],
    ),
  ];
}

/** Writes the module under `dir`. */
export function writeModule(dir: string): void {
  for (const [path, text] of Object.entries(MODULE_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * Writes `<binDir>/scip-go` and `<binDir>/go`. The scip-go stand-in runs under this Node.js
 * (an absolute interpreter path, so it runs inside a sandbox that binds Node.js), refuses to
 * run without `--output`, outside a module root or without `go` on its PATH, and writes the
 * index of {@link fixtureDocuments} (without a project root: the plugin then takes the module
 * directory it ran scip-go in). `mode: 'fail'` makes it exit 1 with a message instead; `slow`
 * makes it take 0.7 s.
 */
export function writeFakeTools(binDir: string, options: { mode?: 'ok' | 'fail' | 'slow' } = {}): void {
  mkdirSync(binDir, { recursive: true });
  // No project root: the plugin takes the module directory it ran scip-go in.
  const index = Buffer.from(encodeScipIndex({ projectRoot: '', documents: fixtureDocuments() })).toString('base64');
  const full = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
if (${JSON.stringify(options.mode === 'fail')}) { console.error('error: could not load packages: go: updates to go.mod needed'); process.exit(1); }
if (${JSON.stringify(options.mode === 'slow')}) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700);
const out = opt('--output');
const root = opt('--module-root');
if (!out || !root) { console.error('error: --output and --module-root are required'); process.exit(2); }
if (!fs.existsSync(path.join(root, 'go.mod'))) { console.error('error: no go.mod in ' + root); process.exit(1); }
const goOnPath = (process.env.PATH || '').split(':').some((d) => d && fs.existsSync(path.join(d, 'go')));
if (!goOnPath) { console.error('error: go not found on PATH'); process.exit(1); }
if (process.env.GOPROXY !== 'off') { console.error('error: expected GOPROXY=off'); process.exit(1); }
fs.writeFileSync(out, Buffer.from(${JSON.stringify(index)}, 'base64'));
`;
  writeFileSync(join(binDir, 'scip-go'), full);
  chmodSync(join(binDir, 'scip-go'), 0o755);
  writeFileSync(join(binDir, 'go'), '#!/bin/sh\necho "go version go1.22.0 linux/amd64"\n');
  chmodSync(join(binDir, 'go'), 0o755);
}

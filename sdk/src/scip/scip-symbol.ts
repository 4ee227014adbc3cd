// The grammar of a SCIP symbol string (scip.proto, `Symbol`):
//   <scheme> ' ' <manager> ' ' <package-name> ' ' <version> ' ' <descriptor>+   |   'local ' <id>
// e.g. scip-go gomod example.com/shop v1.2.0 `example.com/shop/ledger`/Ledger#Post().
//      scip-python python shop 1.0 `shop.ledger`/Ledger#add().

/** The role of a symbol's last descriptor. */
export type SymbolSuffix = 'namespace' | 'type' | 'term' | 'method' | 'type-parameter' | 'parameter' | 'meta' | 'macro' | 'local';

/** A parsed symbol: its package and its descriptors. */
export interface ParsedSymbol {
  /** `local` for document-local symbols. */
  scheme: string;
  /** `<manager> <name> <version>` as written (`gomod example.com/shop v1.2.0`). */
  package: string;
  /** The descriptors, outermost first: `[{ name: 'example.com/shop/ledger', suffix: 'namespace' }, …]`. */
  descriptors: { name: string; suffix: SymbolSuffix }[];
}

/** Splits off the space-separated header fields; a double space is an escaped space. */
function headerField(s: string, at: number): [string, number] {
  let out = '';
  let i = at;
  while (i < s.length) {
    if (s[i] === ' ') {
      if (s[i + 1] === ' ') {
        out += ' ';
        i += 2;
        continue;
      }
      return [out, i + 1];
    }
    out += s[i++];
  }
  return [out, i];
}

const SIMPLE = /[A-Za-z0-9_+\-$]/;

/** Reads one `<name>`: simple characters, or a backquoted name with `` `` `` as an escaped backquote. */
function readName(s: string, at: number): [string, number] {
  if (s[at] === '`') {
    let out = '';
    let i = at + 1;
    while (i < s.length) {
      if (s[i] === '`') {
        if (s[i + 1] === '`') {
          out += '`';
          i += 2;
          continue;
        }
        return [out, i + 1];
      }
      out += s[i++];
    }
    return [out, i];
  }
  let i = at;
  while (i < s.length && SIMPLE.test(s[i]!)) i++;
  return [s.slice(at, i), i];
}

/**
 * Parses a SCIP symbol string; `undefined` when it does not follow the grammar.
 *
 * @example
 * ```ts
 * parseSymbol('scip-go gomod example.com/shop v1 `example.com/shop/ledger`/Ledger#Post().')?.descriptors;
 * // [{ name: 'example.com/shop/ledger', suffix: 'namespace' }, { name: 'Ledger', suffix: 'type' }, { name: 'Post', suffix: 'method' }]
 * ```
 */
export function parseSymbol(symbol: string): ParsedSymbol | undefined {
  if (symbol.startsWith('local ')) return { scheme: 'local', package: '', descriptors: [{ name: symbol.slice(6), suffix: 'local' }] };
  const [scheme, a] = headerField(symbol, 0);
  const [manager, b] = headerField(symbol, a);
  const [name, c] = headerField(symbol, b);
  const [version, d] = headerField(symbol, c);
  if (!scheme || d >= symbol.length) return undefined;
  const descriptors: ParsedSymbol['descriptors'] = [];
  let i = d;
  while (i < symbol.length) {
    if (symbol[i] === '[' || symbol[i] === '(') {
      const close = symbol[i] === '[' ? ']' : ')';
      const [n, j] = readName(symbol, i + 1);
      if (symbol[j] !== close) return undefined;
      descriptors.push({ name: n, suffix: close === ']' ? 'type-parameter' : 'parameter' });
      i = j + 1;
      continue;
    }
    const [n, j] = readName(symbol, i);
    if (j === i && symbol[i] !== '`') return undefined;
    const ch = symbol[j];
    if (ch === '/') descriptors.push({ name: n, suffix: 'namespace' });
    else if (ch === '#') descriptors.push({ name: n, suffix: 'type' });
    else if (ch === '.') descriptors.push({ name: n, suffix: 'term' });
    else if (ch === ':') descriptors.push({ name: n, suffix: 'meta' });
    else if (ch === '!') descriptors.push({ name: n, suffix: 'macro' });
    else if (ch === '(') {
      const close = symbol.indexOf(').', j);
      if (close < 0) return undefined;
      descriptors.push({ name: n, suffix: 'method' });
      i = close + 2;
      continue;
    } else return undefined;
    i = j + 1;
  }
  return { scheme, package: `${manager} ${name} ${version}`, descriptors };
}

/**
 * The namespace a symbol is in: its leading namespace descriptors, joined with `/` (a Go import
 * path, a Python module, a Java package `com/example/shop`), or `undefined` for locals,
 * malformed symbols and symbols that do not start with one.
 *
 * @example
 * ```ts
 * symbolNamespace(parseSymbol('scip-go gomod example.com/shop v1 `example.com/shop/ledger`/New().')); // 'example.com/shop/ledger'
 * symbolNamespace(parseSymbol('scip-python python shop 1.0 `shop.ledger`/helper().')); // 'shop.ledger'
 * symbolNamespace(parseSymbol('semanticdb maven . . com/example/shop/Cart#total().')); // 'com/example/shop'
 * ```
 */
export function symbolNamespace(symbol: ParsedSymbol | undefined): string | undefined {
  const names: string[] = [];
  for (const d of symbol?.descriptors ?? []) {
    if (d.suffix !== 'namespace') break;
    names.push(d.name);
  }
  return names.length > 0 ? names.join('/') : undefined;
}

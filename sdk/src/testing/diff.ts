/** One line of an edit script: kept (` `), removed (`-`) or added (`+`). */
interface Op {
  op: ' ' | '-' | '+';
  line: string;
}

const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function editScript(a: string[], b: string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const ops: Op[] = a.slice(0, pre).map((line) => ({ op: ' ', line }));
  const n = am.length;
  const m = bm.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    // Too big for a line-level LCS: show the middle as replaced wholesale.
    for (const line of am) ops.push({ op: '-', line });
    for (const line of bm) ops.push({ op: '+', line });
  } else {
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] = am[i] === bm[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        ops.push({ op: ' ', line: am[i]! });
        i++;
        j++;
      } else if (i < n && (j === m || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
        ops.push({ op: '-', line: am[i]! });
        i++;
      } else {
        ops.push({ op: '+', line: bm[j]! });
        j++;
      }
    }
  }
  for (const line of a.slice(a.length - suf)) ops.push({ op: ' ', line });
  return ops;
}

/**
 * A unified diff (`---`/`+++` headers, `@@ -a,b +c,d @@` hunks, 3 lines of context) from
 * `expected` to `actual`, or `''` when they are equal.
 *
 * @example
 * ```ts
 * unifiedDiff('a\nb\n', 'a\nc\n', 'stored', 'actual');
 * // --- stored\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n
 * ```
 */
export function unifiedDiff(expected: string, actual: string, expectedLabel: string, actualLabel: string, context = 3): string {
  if (expected === actual) return '';
  const ops = editScript(splitLines(expected), splitLines(actual));
  const changed: number[] = [];
  ops.forEach((o, k) => {
    if (o.op !== ' ') changed.push(k);
  });
  if (changed.length === 0) {
    // Same lines, different line endings or final newline.
    return `--- ${expectedLabel}\n+++ ${actualLabel}\n(the files differ only in line endings or the final newline)\n`;
  }
  const out = [`--- ${expectedLabel}`, `+++ ${actualLabel}`];
  // Line numbers (1-based) in a and b before each op.
  const aAt: number[] = [];
  const bAt: number[] = [];
  let an = 1;
  let bn = 1;
  for (const o of ops) {
    aAt.push(an);
    bAt.push(bn);
    if (o.op !== '+') an++;
    if (o.op !== '-') bn++;
  }
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - context);
    let end = Math.min(ops.length, changed[k]! + context + 1);
    while (k + 1 < changed.length && changed[k + 1]! - context <= end) {
      k++;
      end = Math.min(ops.length, changed[k]! + context + 1);
    }
    k++;
    const slice = ops.slice(start, end);
    const aCount = slice.filter((o) => o.op !== '+').length;
    const bCount = slice.filter((o) => o.op !== '-').length;
    const aStart = aCount === 0 ? aAt[start]! - 1 : aAt[start]!;
    const bStart = bCount === 0 ? bAt[start]! - 1 : bAt[start]!;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const o of slice) out.push(`${o.op}${o.line}`);
  }
  return `${out.join('\n')}\n`;
}

import { checkRange, RetrievalError, RetrievalErrorCode } from './errors.js';

/** A candidate for the token budget: what it is worth and how many tokens it costs. */
export interface KnapsackItem {
  /** Any finite number; items worth ≤ 0 are never chosen. */
  value: number;
  /** Tokens, a non-negative integer. */
  weight: number;
}

/** Options of {@link knapsack}. */
export interface KnapsackOptions {
  /**
   * The exact dynamic programme runs when items × capacity is at most this; above it the
   * approximation does. Default 4,000,000 (a few milliseconds, half a megabyte of choice bits).
   */
  cellLimit?: number;
  /**
   * Relative error allowed to the approximation, in [0.01, 1); default 0.05. Its dynamic
   * programme has 16 / ε² columns per large item, whatever `cellLimit` says.
   */
  epsilon?: number;
}

/** The chosen items. The total weight never exceeds the capacity. */
export interface KnapsackResult {
  /** Indices into the input, ascending. */
  readonly chosen: number[];
  readonly value: number;
  readonly weight: number;
  /** True when the choice is optimal; false when it comes from the approximation. */
  readonly exact: boolean;
  /** The approximation's guarantee: value ≥ (1 − epsilon) × optimum. 0 when exact. */
  readonly epsilon: number;
}

/**
 * 0-1 knapsack for a token budget: the subset of items with the largest total value whose
 * total weight fits in `capacity`. The capacity is a hard limit on every path.
 *
 * Items worth ≤ 0 or heavier than the capacity are never chosen; weightless items worth
 * something always are. Then, with k items left:
 * - k × capacity ≤ cellLimit: the exact dynamic programme over capacities, O(k × capacity).
 * - otherwise a fully polynomial approximation scheme (Ibarra–Kim / Lawler): with G a greedy
 *   solution (G ≤ OPT ≤ 2G), items worth more than εG/2 are "large" — at most 4/ε of them fit in
 *   any solution — and their values are rounded down to multiples of ε²G/8 for an exact dynamic
 *   programme over rounded value (minimum weight per value, at most 16/ε² values); every state
 *   is completed with the "small" items greedily by value per token. Rounding loses at most
 *   εG/2 and the greedy completion at most one small item, εG/2, so the result is
 *   ≥ OPT − εG ≥ (1 − ε) × OPT. O(k log k + large × 16/ε²). A final pass adds any item that
 *   still fits.
 *
 * @example
 * ```ts
 * const { chosen } = knapsack(snippets.map((s) => ({ value: s.score, weight: s.tokens })), 8000);
 * ```
 * @throws RetrievalError `INVALID_INPUT` for a non-finite value or a weight that is not a
 *   non-negative integer, `INVALID_OPTION` for a capacity that is not a non-negative integer or
 *   a bad option.
 */
export function knapsack(items: readonly KnapsackItem[], capacity: number, opts: KnapsackOptions = {}): KnapsackResult {
  if (!Number.isSafeInteger(capacity) || capacity < 0)
    throw new RetrievalError(RetrievalErrorCode.InvalidOption, `capacity ${capacity} is not a non-negative integer; pass the token budget`);
  const cellLimit = opts.cellLimit ?? 4_000_000;
  checkRange('cellLimit', cellLimit, 0, Infinity);
  const epsilon = opts.epsilon ?? 0.05;
  checkRange('epsilon', epsilon, 0.01, 1 - Number.EPSILON);

  const free: number[] = [];
  const candidates: number[] = [];
  let candidateWeight = 0;
  items.forEach((it, i) => {
    if (!Number.isFinite(it.value))
      throw new RetrievalError(RetrievalErrorCode.InvalidInput, `item ${i} has value ${it.value}; values must be finite numbers`);
    if (!Number.isSafeInteger(it.weight) || it.weight < 0)
      throw new RetrievalError(
        RetrievalErrorCode.InvalidInput,
        `item ${i} has weight ${it.weight}; weights are token counts, integers ≥ 0`,
      );
    if (it.value <= 0 || it.weight > capacity) return;
    if (it.weight === 0) free.push(i);
    else {
      candidates.push(i);
      candidateWeight += it.weight;
    }
  });

  let picked: number[];
  let exact = true;
  if (candidateWeight <= capacity) picked = candidates;
  else if (candidates.length * capacity <= cellLimit) picked = exactByWeight(items, candidates, capacity);
  else {
    picked = approximate(items, candidates, capacity, epsilon);
    exact = false;
  }
  const chosen = [...free, ...picked].sort((a, b) => a - b);
  let value = 0;
  let weight = 0;
  for (const i of chosen) {
    value += items[i]!.value;
    weight += items[i]!.weight;
  }
  return { chosen, value, weight, exact, epsilon: exact ? 0 : epsilon };
}

/** The classic dynamic programme: best[c] = best value within capacity c; one choice bit per cell. */
function exactByWeight(items: readonly KnapsackItem[], candidates: number[], capacity: number): number[] {
  const k = candidates.length;
  const width = capacity + 1;
  const best = new Float64Array(width);
  const take = new Uint8Array(Math.ceil((k * width) / 8));
  for (let j = 0; j < k; j++) {
    const { value, weight } = items[candidates[j]!]!;
    const row = j * width;
    for (let c = capacity; c >= weight; c--) {
      const withIt = best[c - weight]! + value;
      if (withIt > best[c]!) {
        best[c] = withIt;
        const bit = row + c;
        take[bit >> 3]! |= 1 << (bit & 7);
      }
    }
  }
  const picked: number[] = [];
  for (let j = k - 1, c = capacity; j >= 0; j--) {
    const bit = j * width + c;
    if ((take[bit >> 3]! >> (bit & 7)) & 1) {
      picked.push(candidates[j]!);
      c -= items[candidates[j]!]!.weight;
    }
  }
  return picked;
}

/** Candidates sorted by value per token, best first (ties: lighter, then lower index). */
function byDensity(items: readonly KnapsackItem[], ids: number[]): number[] {
  return [...ids].sort((a, b) => {
    const x = items[a]!;
    const y = items[b]!;
    return y.value * x.weight - x.value * y.weight || x.weight - y.weight || a - b;
  });
}

/** The ε-approximation documented on {@link knapsack}. */
function approximate(items: readonly KnapsackItem[], candidates: number[], capacity: number, epsilon: number): number[] {
  // Greedy lower bound G: the best density prefix that fits, or the single most valuable item.
  const dense = byDensity(items, candidates);
  let prefix = 0;
  for (let c = capacity, i = 0; i < dense.length && items[dense[i]!]!.weight <= c; i++) {
    prefix += items[dense[i]!]!.value;
    c -= items[dense[i]!]!.weight;
  }
  let greedy = prefix;
  for (const i of candidates) greedy = Math.max(greedy, items[i]!.value);

  const threshold = (epsilon * greedy) / 2;
  const unit = (epsilon * epsilon * greedy) / 8;
  const large = candidates.filter((i) => items[i]!.value > threshold);
  const small = dense.filter((i) => items[i]!.value <= threshold);
  // Prefix sums of the small items in density order, for the greedy completion.
  const smallWeight = new Float64Array(small.length + 1);
  const smallValue = new Float64Array(small.length + 1);
  small.forEach((i, j) => {
    smallWeight[j + 1] = smallWeight[j]! + items[i]!.weight;
    smallValue[j + 1] = smallValue[j]! + items[i]!.value;
  });

  // lightest[p]: least weight of large items with rounded value exactly p (Infinity: none);
  // worth[p]: their real value. OPT ≤ 2G caps p at 2G / unit = 16 / ε².
  const top = Math.floor((2 * greedy) / unit) + 1;
  const lightest = new Float64Array(top + 1).fill(Infinity);
  const worth = new Float64Array(top + 1);
  lightest[0] = 0;
  const take = new Uint8Array(Math.ceil((large.length * (top + 1)) / 8));
  let reach = 0;
  large.forEach((i, j) => {
    const { value, weight } = items[i]!;
    const q = Math.min(top, Math.floor(value / unit));
    const row = j * (top + 1);
    for (let p = Math.min(top, reach + q); p >= q; p--) {
      const w = lightest[p - q]! + weight;
      if (w <= capacity && w < lightest[p]!) {
        lightest[p] = w;
        worth[p] = worth[p - q]! + value;
        const bit = row + p;
        take[bit >> 3]! |= 1 << (bit & 7);
      }
    }
    reach = Math.min(top, reach + q);
  });

  // Complete every state with the longest density prefix of small items that fits.
  let bestValue = -1;
  let bestP = 0;
  let bestPrefix = 0;
  for (let p = 0; p <= reach; p++) {
    const w = lightest[p]!;
    if (w === Infinity) continue;
    const room = capacity - w;
    let lo = 0;
    let hi = small.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (smallWeight[mid]! <= room) lo = mid;
      else hi = mid - 1;
    }
    const total = worth[p]! + smallValue[lo]!;
    if (total > bestValue) {
      bestValue = total;
      bestP = p;
      bestPrefix = lo;
    }
  }

  const picked: number[] = [];
  for (let j = large.length - 1, p = bestP; j >= 0 && p > 0; j--) {
    const bit = j * (top + 1) + p;
    if ((take[bit >> 3]! >> (bit & 7)) & 1) {
      picked.push(large[j]!);
      p -= Math.min(top, Math.floor(items[large[j]!]!.value / unit));
    }
  }
  picked.push(...small.slice(0, bestPrefix));
  // Anything that still fits only adds value.
  const inSet = new Set(picked);
  let used = 0;
  for (const i of picked) used += items[i]!.weight;
  for (const i of dense) {
    if (!inSet.has(i) && used + items[i]!.weight <= capacity) {
      picked.push(i);
      used += items[i]!.weight;
    }
  }
  return picked;
}

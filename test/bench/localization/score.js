// Scoring as in the eval README (LocAgent / SweRank): Acc@k counts an instance when its top k
// distinct entries contain min(|gold|, k) of the gold ones.

export const FILE_KS = [1, 3, 5, 10];
export const FUNCTION_KS = [5, 10];

/** Whether the first k distinct entries of `ranking` hold min(|gold|, k) of `gold`. */
export function hitAt(ranking, gold, k) {
  const top = [];
  for (const r of ranking) {
    if (top.length >= k) break;
    if (!top.includes(r)) top.push(r);
  }
  const goldSet = new Set(gold);
  const found = top.filter((r) => goldSet.has(r)).length;
  return found >= Math.min(goldSet.size, k);
}

/**
 * Acc@k in percent over instances `{ files, functions, goldFiles, goldFunctions }`. Instances
 * with no gold functions are left out of the function scores (the README's 33.3 and 44.4 are
 * 21/63 and 28/63: the three instances whose fix touches no function do not count).
 */
export function accuracy(results) {
  const pct = (n, d) => (d === 0 ? NaN : (100 * n) / d);
  const withFunctions = results.filter((r) => r.goldFunctions.length > 0 && r.functions);
  const out = { instances: results.length, functionInstances: withFunctions.length, file: {}, function: {} };
  for (const k of FILE_KS) out.file[k] = pct(results.filter((r) => hitAt(r.files, r.goldFiles, k)).length, results.length);
  for (const k of FUNCTION_KS)
    out.function[k] = pct(withFunctions.filter((r) => hitAt(r.functions, r.goldFunctions, k)).length, withFunctions.length);
  return out;
}

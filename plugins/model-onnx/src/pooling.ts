/**
 * One vector per input from a model's output: `[batch, tokens, dims]` token vectors pooled by
 * the attention mask (their mean, or the first token's), or `[batch, dims]` taken as they are;
 * each scaled to unit length so that a dot product is the cosine.
 */
export function pooledVectors(
  data: Float32Array,
  dims: readonly number[],
  mask: readonly (readonly number[])[],
  pooling: 'mean' | 'cls',
): Float32Array[] {
  const batch = mask.length;
  const out: Float32Array[] = [];
  if (dims.length === 2) {
    const d = dims[1]!;
    for (let b = 0; b < batch; b++) out.push(unitLength(data.slice(b * d, (b + 1) * d)));
    return out;
  }
  const [, tokens, d] = dims as [number, number, number];
  for (let b = 0; b < batch; b++) {
    const v = new Float32Array(d);
    if (pooling === 'cls') v.set(data.subarray(b * tokens * d, b * tokens * d + d));
    else {
      let n = 0;
      for (let t = 0; t < tokens; t++) {
        if (!mask[b]![t]) continue;
        n++;
        const at = (b * tokens + t) * d;
        for (let i = 0; i < d; i++) v[i]! += data[at + i]!;
      }
      if (n > 0) for (let i = 0; i < d; i++) v[i]! /= n;
    }
    out.push(unitLength(v));
  }
  return out;
}

/** `v` scaled to length 1 (in place); a zero vector stays zero. */
export function unitLength(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/** A score as get_context shows it: four decimals, so answers read and compare stably. */
export function roundScore(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

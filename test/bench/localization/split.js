// The split of the eval data for tuning get_context's weights (issue 16): an instance is set
// aside when the first 8 hex digits of the SHA-1 of its instance_id are 1 modulo 3 — 27 of the 66
// (flask 1, requests 5, pylint 8, pytest 13; 25 of the 63 with gold functions). The rule was
// chosen before any tuning, for a repository mix close to the whole set's, and never looked
// at again: weights are tuned on the other part only, and the set-aside figures are the ones
// no weight was chosen on.
import { createHash } from 'node:crypto';

/** True when the instance belongs to the set-aside part (never tuned on). */
export function isSetAside(instanceId) {
  return parseInt(createHash('sha1').update(instanceId).digest('hex').slice(0, 8), 16) % 3 === 1;
}

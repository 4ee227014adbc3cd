import type { Trace } from '../../traces/trace.js';

/** A trace as readable text for `travsr trace show`. */
export function formatTrace(t: Trace): string {
  const out: string[] = [];
  out.push(`trace ${t.id}`);
  out.push(`  kind      ${t.kind}`);
  out.push(`  subject   ${t.subject}`);
  out.push(`  started   ${t.startedAt}`);
  out.push(`  duration  ${Math.round(t.durationMs)} ms`);
  if (t.tier) out.push(`  tier      ${t.tier}`);
  out.push(`  status    ${t.status}${t.error ? ` — ${t.error.code}: ${t.error.message}` : ''}`);
  if (t.constraints.length) {
    out.push('constraints');
    for (const c of t.constraints)
      out.push(
        `  ${c.ok ? 'ok  ' : 'FAIL'} ${c.constraint}: requested ${c.requested}, granted ${c.granted}${c.reason ? ` (${c.reason})` : ''}`,
      );
  }
  if (t.transitions.length) {
    out.push('transitions');
    const t0 = Date.parse(t.transitions[0]!.at);
    for (const s of t.transitions)
      out.push(`  +${String(Date.parse(s.at) - t0).padStart(6)} ms  ${s.state}${s.detail ? `  ${s.detail}` : ''}`);
  }
  const counts = Object.entries(t.counts);
  if (counts.length) {
    out.push('counts');
    for (const [k, v] of counts) out.push(`  ${k.padEnd(16)} ${v}`);
  }
  const details = Object.entries(t.details);
  if (details.length) {
    out.push('details');
    for (const [k, v] of details) {
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
        out.push(`  ${k}:`);
        for (const line of v) out.push(`    ${line}`);
      } else out.push(`  ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
    }
  }
  return out.join('\n');
}

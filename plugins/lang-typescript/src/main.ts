// Entry point of the TypeScript/JavaScript analyzer: Phase A per file from the compiler's
// parser, Phase B over the whole program with the type checker. The SDK does the protocol.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, runAnalyzer, type SessionInfo } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { analyzePhaseA } from './phase-a.js';
import { PhaseBSession } from './phase-b/session.js';
import { parseSource } from './syntax.js';

// The build copies TypeScript's lib.*.d.ts next to the bundle: dist/.
const libDir = dirname(fileURLToPath(import.meta.url));

// One Phase B session per repository root and corpus (one, in practice, per process).
let phaseB: PhaseBSession | undefined;
let phaseBKey = '';
function session(info: Pick<SessionInfo, 'root' | 'corpus'>): PhaseBSession {
  const key = `${info.root}\0${info.corpus}`;
  if (!phaseB || phaseBKey !== key) {
    phaseB = new PhaseBSession(info.root, info.corpus, libDir, (level, message) => log(level, message));
    phaseBKey = key;
  }
  return phaseB;
}

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  analyzeFile(file, ctx) {
    const s = session(ctx);
    // Parsed under the name Phase B's program uses, so that the program can take the tree over.
    const sf = parseSource(s.fileName(file.path), file.text);
    const result = analyzePhaseA(file, ctx.graph, sf);
    s.adopt(sf, file.text);
    return result;
  },
  analyze(files, ctx) {
    return session(ctx).analyze(files, () => ctx.signal.aborted);
  },
});

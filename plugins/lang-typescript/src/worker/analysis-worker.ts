import type { MessagePort } from 'node:worker_threads';
import type { AnalyzeFile } from '@travsr/sdk';
import type { FileResult } from '@travsr/sdk';
import { phaseAResult } from '../phase-a.js';
import type { BuiltProgram } from '../phase-b/programs.js';
import type { Project } from '../phase-b/projects.js';
import { PhaseBSession } from '../phase-b/session.js';
import type { AnalysisWorkerData, FromWorker, PhaseAFile, ToWorker } from './worker-protocol.js';

type Request =
  | { id: number; phase: 'A'; files: PhaseAFile[]; next: number }
  | {
      id: number;
      phase: 'B';
      files: AnalyzeFile[];
      /** The session's generator over the files that had no prefetched result. */
      rest?: Iterator<FileResult>;
    };

/**
 * The analysis worker thread: both phases of a session that will run Phase B, on one
 * {@link PhaseBSession}. Phase A parses each file and hands the tree to the next program
 * build, so the program does not parse it again. Requests come first; when there is none it
 * checks the files Phase A analyzed (prefetch) and keeps their results until Phase B asks for
 * them — a result is used only while its program is still current (no file of it changed
 * since). One file per turn of the event loop, so `cancel` and new requests are seen between
 * files.
 */
export class AnalysisWorker {
  private readonly session: PhaseBSession;
  /** Files Phase A analyzed that no Phase B request has asked for yet, oldest first. */
  private readonly prefetchQueue = new Map<string, AnalyzeFile>();
  private readonly prefetched = new Map<string, { result: FileResult; built: BuiltProgram }>();
  private readonly requests: Request[] = [];
  private wake: (() => void) | undefined;
  /**
   * The program each project's prefetches use. Checking that a program is current stats every
   * file of it, and finding the projects walks the repository: done once per run of
   * prefetches (and once per request), not once per file.
   */
  private readonly prefetchPrograms = new Map<Project, BuiltProgram>();
  private projectsChecked = false;

  constructor(
    private readonly data: AnalysisWorkerData,
    private readonly port: Pick<MessagePort, 'postMessage' | 'on'>,
  ) {
    this.session = new PhaseBSession(data.root, data.corpus, data.libDir, (level, message) => this.send({ t: 'log', level, message }));
    port.on('message', (m: ToWorker) => this.receive(m));
  }

  private send(m: FromWorker): void {
    this.port.postMessage(m);
  }

  private receive(m: ToWorker): void {
    if (m.t === 'phase-a') this.requests.push({ id: m.id, phase: 'A', files: m.files, next: 0 });
    else if (m.t === 'phase-b') this.requests.push({ id: m.id, phase: 'B', files: m.files });
    else if (m.t === 'changed') {
      this.session.noteChanged(m.paths);
      for (const p of m.paths) this.prefetched.delete(p);
    } else {
      const i = this.requests.findIndex((r) => r.id === m.id);
      if (i >= 0) this.requests.splice(i, 1);
    }
    this.wake?.();
  }

  /** Serves requests and prefetches forever (the thread ends with the process). */
  async run(): Promise<never> {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const request = this.requests[0];
      if (request) {
        try {
          if (request.phase === 'A' ? this.stepA(request) : this.stepB(request)) {
            this.requests.shift();
            this.send({ t: 'done', id: request.id });
          }
        } catch (e) {
          this.requests.shift();
          this.send({ t: 'failed', id: request.id, message: (e as Error).message });
        }
      } else if (this.prefetchQueue.size > 0) {
        const [path, file] = this.prefetchQueue.entries().next().value as [string, AnalyzeFile];
        this.prefetchQueue.delete(path);
        this.prefetchOne(file);
      } else {
        // Idle: the next prefetches look at the repository afresh.
        this.prefetchPrograms.clear();
        this.projectsChecked = false;
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    }
  }

  /** Phase A of the request's next file; true when it was the last. */
  private stepA(r: Extract<Request, { phase: 'A' }>): boolean {
    const file = r.files[r.next++];
    if (file) {
      // A new Phase A of a file makes its earlier check suspect: check it again.
      this.prefetched.delete(file.path);
      const result = phaseAResult(file, this.data.corpus, () => this.session.sourceFile(file.path, file.text));
      this.send({ t: 'result', id: r.id, result });
      // Phase B will be asked for this file: check it when there is nothing else to do.
      this.prefetchQueue.delete(file.path);
      if (result.status !== 'failed') this.prefetchQueue.set(file.path, { path: file.path, language: file.language });
    }
    return r.next >= r.files.length;
  }

  /** Sends the next result of a Phase B request; true when it is complete. */
  private stepB(r: Extract<Request, { phase: 'B' }>): boolean {
    if (!r.rest) {
      this.checkProjects();
      // Prefetched results first, while their programs are current; the others in one pass.
      const current = new Map<Project, BuiltProgram>();
      const remaining: AnalyzeFile[] = [];
      for (const f of r.files) {
        this.prefetchQueue.delete(f.path); // asked for now: not to be checked again later
        const hit = this.takePrefetched(f, current);
        if (hit) this.send({ t: 'result', id: r.id, result: hit });
        else remaining.push(f);
      }
      r.files = remaining;
      r.rest = this.session.analyze(remaining)[Symbol.iterator]();
      return remaining.length === 0;
    }
    const next = r.rest.next();
    if (next.done) return true;
    this.send({ t: 'result', id: r.id, result: next.value });
    return false;
  }

  /** Re-reads the projects if a tsconfig changed (a walk of the repository). */
  private checkProjects(): void {
    if (this.session.refreshProjects()) this.prefetchPrograms.clear();
    this.projectsChecked = true;
  }

  /** A prefetched result whose program is still current (checked once per project in `current`). */
  private takePrefetched(f: AnalyzeFile, current: Map<Project, BuiltProgram>): FileResult | undefined {
    const hit = this.prefetched.get(f.path);
    if (!hit) return undefined;
    this.prefetched.delete(f.path);
    const project = this.session.configProjectOf(f);
    if (!project || project !== hit.built.project) return undefined;
    let built = current.get(project);
    if (!built) {
      built = this.session.program(project);
      current.set(project, built);
      this.prefetchPrograms.set(project, built);
    }
    // Rebuilt (a file of the program changed since): the result may be stale.
    return built === hit.built ? hit.result : undefined;
  }

  /** Checks one file Phase A analyzed, if a tsconfig names it (the inferred project waits for the request, which knows all its files). */
  private prefetchOne(f: AnalyzeFile): void {
    if (this.prefetched.has(f.path)) return;
    try {
      if (!this.projectsChecked) this.checkProjects();
      const project = this.session.configProjectOf(f);
      if (!project) return;
      let built = this.prefetchPrograms.get(project);
      if (!built) {
        built = this.session.program(project);
        this.prefetchPrograms.set(project, built);
      }
      const { result } = this.session.analyzeOne(built, f);
      if ((result.status ?? 'ok') === 'ok') this.prefetched.set(f.path, { result, built });
    } catch {
      // The request will analyze it again and report what fails.
    }
  }
}

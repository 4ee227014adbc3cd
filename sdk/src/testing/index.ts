/**
 * @travsr/sdk/testing — test a Travsr analyzer plugin as the host will run it.
 *
 * - {@link runConformance} / {@link formatReport}: protocol conformance checks against a
 *   plugin directory (the same checks `travsr plugin test` runs in the sandbox).
 * - {@link snapshotTest}: golden snapshot tests in the style of `scip snapshot`.
 */
export { runConformance, formatReport, type ConformanceOptions, type ConformanceReport, type ConformanceCheck } from './conformance.js';
export { snapshotTest, SnapshotMismatchError, type SnapshotOptions, type SnapshotResult } from './snapshot.js';
export { renderAnnotatedSource, commentStyleFor, type CommentStyle } from './annotate.js';
export { unifiedDiff } from './diff.js';
export { launchUnsandboxed, type Launcher, type LaunchOptions, type Launched, type LaunchedProcess, type ProcessExit } from './launch.js';
export { encodeScipIndex, type ScipIndexSpec, type ScipDocumentSpec, type ScipOccurrenceSpec, type ScipSymbolSpec } from './scip-writer.js';
export { scipDocumentAt, scipRangeAt, writeFakeIndexer, type FakeIndexerSpec, type ScipOccurrenceAt } from './scip-fixture.js';
export { programContextFor, runPhaseB, type PhaseBAnalyzer, type PhaseBRun } from './phase-b.js';

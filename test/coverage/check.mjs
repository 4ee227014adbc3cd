#!/usr/bin/env node
// Coverage per package, against floors that only go up.
//
//   TRAVSR_COVERAGE=1 npm test          writes coverage/coverage-summary.json (vitest.config.ts)
//   npm run coverage:check              prints lines/branches/functions/statements per package and
//                                       exits 1 when a package is below its floor in floors.json,
//                                       or when a floor is lower than it ever was in git history
//   npm run coverage:check -- --raise   raises each floor to what was reached, less the margin
//                                       (never lowers one); commit floors.json
//
// A package is protocol, sdk, registry, host or plugins/<name>. Only what the test files run in
// Vitest's own processes counts (not the CLI or plugins in child processes), and some tests run
// only where a tool is installed, so a floor sits MARGIN points below the figure it came from.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// TRAVSR_COVERAGE_ROOT: another checkout to check (the script's tests use a scratch repository).
const root = process.env.TRAVSR_COVERAGE_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUMMARY = join(root, 'coverage', 'coverage-summary.json');
const FLOORS_IN_GIT = 'test/coverage/floors.json';
const FLOORS = join(root, ...FLOORS_IN_GIT.split('/'));
/** The metrics that have floors. */
const FLOORED = ['lines', 'branches'];
const METRICS = ['lines', 'branches', 'functions', 'statements'];
/** Percentage points a raised floor stays below the figure reached. */
const MARGIN = 1;

/** `protocol`, `sdk`, `registry`, `host`, `plugins/<name>`: the package a covered file is in. */
function packageOf(file) {
  const parts = relative(root, file).split(sep);
  return parts[0] === 'plugins' ? `plugins/${parts[1]}` : parts[0];
}

function readSummary() {
  if (!existsSync(SUMMARY)) {
    console.error(
      `coverage:check: ${relative(process.cwd(), SUMMARY)} is missing; run the suite with coverage first: TRAVSR_COVERAGE=1 npm test`,
    );
    process.exit(2);
  }
  const totals = new Map();
  for (const [file, entry] of Object.entries(JSON.parse(readFileSync(SUMMARY, 'utf8')))) {
    if (file === 'total') continue;
    const pkg = packageOf(file);
    const t = totals.get(pkg) ?? Object.fromEntries(METRICS.map((m) => [m, { total: 0, covered: 0 }]));
    for (const m of METRICS) {
      t[m].total += entry[m].total;
      t[m].covered += entry[m].covered;
    }
    totals.set(pkg, t);
  }
  const pct = (c) => (c.total === 0 ? 100 : Math.floor((c.covered / c.total) * 1000) / 10);
  return new Map(
    [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([pkg, t]) => [pkg, Object.fromEntries(METRICS.map((m) => [m, pct(t[m])]))]),
  );
}

function readFloors(text) {
  const value = JSON.parse(text);
  return value.packages ?? {};
}

/** For each package and metric, the highest floor any committed floors.json ever had (empty without git history). */
function historicalFloors() {
  const highest = {};
  let commits = [];
  try {
    commits = execFileSync('git', ['log', '--format=%H', '--', FLOORS_IN_GIT], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return { highest, checked: 0 };
  }
  for (const commit of commits) {
    let floors;
    try {
      floors = readFloors(execFileSync('git', ['show', `${commit}:${FLOORS_IN_GIT}`], { cwd: root, encoding: 'utf8' }));
    } catch {
      continue;
    }
    for (const [pkg, f] of Object.entries(floors))
      for (const m of FLOORED)
        if (typeof f[m] === 'number') highest[pkg] = { ...highest[pkg], [m]: Math.max(highest[pkg]?.[m] ?? 0, f[m]) };
  }
  return { highest, checked: commits.length };
}

const reached = readSummary();
const floors = existsSync(FLOORS) ? readFloors(readFileSync(FLOORS, 'utf8')) : {};
const raise = process.argv.includes('--raise');

const rows = [['package', ...METRICS, 'floor (lines/branches)', '']];
const problems = [];
const raised = { ...floors };
for (const [pkg, r] of reached) {
  const floor = floors[pkg];
  const below = FLOORED.filter((m) => floor?.[m] !== undefined && r[m] < floor[m]);
  for (const m of below) problems.push(`${pkg}: ${m} ${r[m]} % is below its floor of ${floor[m]} %`);
  rows.push([
    pkg,
    ...METRICS.map((m) => `${r[m].toFixed(1)} %`),
    floor ? FLOORED.map((m) => (floor[m] === undefined ? '—' : `${floor[m]}`)).join(' / ') : 'none',
    below.length > 0 ? 'BELOW' : floor ? 'ok' : 'no floor yet',
  ]);
  raised[pkg] = Object.fromEntries(FLOORED.map((m) => [m, Math.max(floor?.[m] ?? 0, Math.max(0, Math.floor(r[m] - MARGIN)))]));
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
console.log('coverage per package (what the test files run in Vitest’s processes):');
for (const row of rows) console.log(`  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`);

const { highest, checked } = historicalFloors();
for (const [pkg, h] of Object.entries(highest))
  for (const m of FLOORED)
    if ((floors[pkg]?.[m] ?? 0) < h[m])
      problems.push(`${pkg}: the ${m} floor in ${FLOORS_IN_GIT} is ${floors[pkg]?.[m] ?? 'gone'}, but it was ${h[m]}: floors only go up`);
if (checked === 0) console.log(`(no git history of ${FLOORS_IN_GIT} here: the ratchet was not checked)`);

if (raise) {
  const packages = Object.fromEntries(Object.entries(raised).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(FLOORS, `${JSON.stringify({ margin: MARGIN, metrics: FLOORED, packages }, null, 2)}\n`);
  console.log(`raised the floors in ${FLOORS_IN_GIT} to what was reached less ${MARGIN} point (none lowered); commit it`);
} else if (problems.length > 0) {
  console.error(`\ncoverage:check failed:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  console.error('Add tests for what you changed; a floor is never lowered (npm run coverage:check -- --raise only raises).');
  process.exit(1);
}

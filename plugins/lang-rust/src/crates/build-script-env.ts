/**
 * The environment Cargo gives a build script on the build the resolver assumes (Linux x86_64, a
 * dev profile, the package's default features, no `RUSTFLAGS`), as build-script-eval.ts reads
 * `env::var(…)`: a known value, set with a value of the machine (`OUT_DIR`), or unset.
 */
import { ASSUMED_FLAGS, ASSUMED_TARGET } from './cfg.js';
import { NONE, some, str, UNKNOWN, type Value } from './build-script-values.js';

/** Variables cargo sets for a build script (or any shell has) whose values are the machine's. */
const SET_WITH_MACHINE_VALUES =
  /^(CARGO|CARGO_MANIFEST_DIR|CARGO_MANIFEST_LINKS|CARGO_PKG_\w+|CARGO_MAKEFLAGS|OUT_DIR|RUSTC|RUSTDOC|NUM_JOBS|PATH|HOME|USER|TMPDIR|PWD)$/;

/**
 * The value of environment variable `name` in a build script's run: `CARGO_CFG_<KEY>` of the
 * assumed target, `CARGO_FEATURE_<F>` of each enabled feature, `TARGET`, `PROFILE`… Any other
 * variable is the user's own switch (`DOCS_RS`, `LIBC_CI`), unset in a default build.
 */
export function cargoEnv(
  name: string,
  features: ReadonlySet<string>,
  pkg?: { name?: string | undefined; version?: string | undefined },
): Value {
  const target = name.match(/^CARGO_CFG_([A-Z0-9_]+)$/);
  if (target) {
    const key = target[1]!.toLowerCase();
    const values = ASSUMED_TARGET[key];
    if (values) return str([...values].sort().join(','));
    if (key in ASSUMED_FLAGS) return ASSUMED_FLAGS[key] ? str('') : NONE;
    // No other cfg in a default build (a custom one comes from RUSTFLAGS).
    return NONE;
  }
  const feature = name.match(/^CARGO_FEATURE_([A-Z0-9_]+)$/);
  if (feature) {
    const on = [...features].some((f) => f.toUpperCase().replace(/-/g, '_') === feature[1]);
    return on ? str('1') : NONE;
  }
  switch (name) {
    case 'TARGET':
    case 'HOST':
      return str('x86_64-unknown-linux-gnu');
    case 'PROFILE':
      return str('debug');
    case 'DEBUG':
      return str('true');
    case 'OPT_LEVEL':
      return str('0');
    case 'CARGO_ENCODED_RUSTFLAGS':
      return str('');
    case 'CARGO_PKG_NAME':
      return pkg?.name !== undefined ? str(pkg.name) : some(UNKNOWN);
    case 'CARGO_PKG_VERSION':
      return pkg?.version !== undefined ? str(pkg.version) : some(UNKNOWN);
    default:
      // Set by cargo with values of this machine, or the machine's own: set, value unknown.
      if (SET_WITH_MACHINE_VALUES.test(name)) return some(UNKNOWN);
      if (name === 'CARGO_PRIMARY_PACKAGE') return UNKNOWN;
      // Anything else is the user's own switch (`DOCS_RS`, `LIBC_CI`): unset in a default build.
      return NONE;
  }
}

// cfg as a default build on Linux x86_64 sees it, and the default features of a package.
import { describe, expect, it } from 'vitest';
import { cfgPathAttr, defaultFeatures, evalCfgAttr, isActive } from '../src/crates/cfg.js';

describe('cfg', () => {
  const features = defaultFeatures({
    default: ['std', 'perf'],
    perf: ['perf-literal', 'dep:memchr', 'aho/std'],
    std: [],
    'perf-literal': [],
    unicode: [],
  });

  it('enables default features and what they enable, never dependency features', () => {
    expect([...features].sort()).toEqual(['default', 'perf', 'perf-literal', 'std']);
    expect(defaultFeatures(undefined).size).toBe(0);
  });

  it('evaluates features, the target and combinators', () => {
    expect(evalCfgAttr('cfg(feature = "perf-literal")', features)).toBe(true);
    expect(evalCfgAttr('cfg(feature = "unicode")', features)).toBe(false);
    expect(evalCfgAttr('cfg(not(feature = "std"))', features)).toBe(false);
    expect(evalCfgAttr('cfg(all(unix, target_pointer_width = "64"))', features)).toBe(true);
    expect(evalCfgAttr('cfg(any(windows, target_os = "macos"))', features)).toBe(false);
    expect(evalCfgAttr('cfg(test)', features)).toBe(false);
    expect(evalCfgAttr('cfg(debug_assertions)', features)).toBe(true);
  });

  it('does not pretend to know custom cfgs or malformed predicates', () => {
    expect(evalCfgAttr('cfg(my_custom_flag)', features)).toBeUndefined();
    expect(evalCfgAttr('cfg(any(my_flag, windows))', features)).toBeUndefined();
    expect(evalCfgAttr('cfg(all(unix', features)).toBeUndefined();
    expect(evalCfgAttr('derive(Debug)', features)).toBeUndefined();
  });

  it('calls an item inactive only when a cfg says so for sure', () => {
    expect(isActive(['derive(Debug)', 'cfg(unix)'], features)).toBe(true);
    expect(isActive(['cfg(windows)'], features)).toBe(false);
    expect(isActive(['cfg(my_flag)'], features)).toBeUndefined();
    expect(isActive(undefined, features)).toBe(true);
  });

  it('never lets a cfg_attr leave an item out, and takes the module file a holding cfg_attr(…, path) names', () => {
    expect(isActive(['cfg_attr(docsrs, doc(cfg(feature = "std")))'], features)).toBe(true);
    const attrs = ['cfg_attr(feature = "std", path = "std_impl.rs")', 'cfg_attr(not(feature = "std"), path = "core_impl.rs")'];
    expect(cfgPathAttr(attrs, features)).toBe('std_impl.rs');
    expect(cfgPathAttr(['cfg_attr(my_flag, path = "x.rs")'], features)).toBeUndefined();
  });
});

describe('cfg predicates', () => {
  it('reads a cfg list of several predicates as no cfg at all', () => {
    expect(evalCfgAttr('cfg(unix, windows)', defaultFeatures(undefined))).toBeUndefined();
  });
});

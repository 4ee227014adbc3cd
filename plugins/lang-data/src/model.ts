import type { Diagnostic, Range } from '@travsr/sdk';

/**
 * What every format reader produces: documents of keyed entries, the same shape for JSON,
 * YAML, TOML and XML, so that node emission, skeletons and the well-known-file rules are
 * written once.
 */

/** A value as far as the graph needs it. Containers are read lazily: a huge lock file costs only what is shown. */
export type Value = ScalarValue | MappingValue | SequenceValue | EmptyValue;

export interface ScalarValue {
  kind: 'scalar';
  /** As written (quotes included), possibly several lines. */
  text: string;
  /** The decoded string, when the scalar is a string. */
  string?: string;
}

export interface MappingValue {
  kind: 'mapping';
  /** Keyed children in source order (repeated names kept: YAML and XML allow them). */
  entries(): readonly Entry[];
}

export interface SequenceValue {
  kind: 'sequence';
  items(): readonly Item[];
}

/** No value (`key:` in YAML, a key cut off by a syntax error, an empty XML element). */
export interface EmptyValue {
  kind: 'empty';
}

export interface Entry {
  /**
   * The key path as written, decoded: one segment for JSON, YAML and XML, several for a
   * TOML dotted key or table header (`[tool.poetry]` → `tool`, `poetry`).
   */
  path: readonly string[];
  /** The key as written, for the skeleton: `"scripts":`, `services:`, `[package]`, `name =`, `<dependencies>`. */
  head: string;
  /** The whole entry, key through value. */
  range: Range;
  value: Value;
  /** XML only: the element's attributes. */
  attributes?: Readonly<Record<string, string>>;
}

export interface Item {
  value: Value;
  range: Range;
}

/** One document: a YAML file may hold several (`---`), every other format one. */
export interface DataDocument {
  entries: readonly Entry[];
  /**
   * Levels of entries that become nodes of their own: 1 (the top-level keys), or 2 for XML
   * (the root element and its direct children).
   */
  levels: 1 | 2;
}

/** What a format reader returns for one file. */
export interface ParsedData {
  documents: DataDocument[];
  diagnostics: Diagnostic[];
}

/** A mapping over entries already read. */
export function mappingOf(entries: readonly Entry[]): MappingValue {
  return { kind: 'mapping', entries: () => entries };
}

/** A sequence over items already read. */
export function sequenceOf(items: readonly Item[]): SequenceValue {
  return { kind: 'sequence', items: () => items };
}

/** A mapping or sequence whose children are read on first use, once. */
export function lazy<T>(read: () => T): () => T {
  let value: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      value = read();
      done = true;
    }
    return value as T;
  };
}

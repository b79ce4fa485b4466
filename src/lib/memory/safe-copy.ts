/**
 * Parsed frontmatter copied into null-prototype objects, without reserved keys, within a size and
 * depth budget (YAML aliases can turn a few lines into millions of values).
 */

import { scalarText } from './frontmatter-schema.js';

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Values one top-level key may expand to (YAML aliases can turn a few lines into millions). */
const MAX_NODES_PER_KEY = 10_000;
/** Values all keys together may expand to; scalar top-level values are always kept. */
const MAX_NODES_TOTAL = 100_000;
const MAX_DEPTH = 32;

interface CopyState {
  nodes: number;
  limit: number;
  tooLarge: boolean;
  warnings: string[];
  stack: Set<object>;
}

/**
 * A JSON-like copy (Dates kept) in null-prototype objects, without reserved keys.
 * Undefined means "leave out"; `st.tooLarge` is set when the value exceeds `st.limit`.
 */
function safeCopy(value: unknown, path: string, depth: number, st: CopyState): unknown {
  st.nodes += 1;
  if (st.nodes > st.limit) {
    st.tooLarge = true;
    return undefined;
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof Uint8Array) {
    st.warnings.push(`${path}: binary value left out`);
    return undefined;
  }
  if (typeof value !== 'object') return undefined;
  if (depth >= MAX_DEPTH || st.stack.has(value)) {
    st.warnings.push(`${path}: nested too deeply (or refers to itself); left out`);
    return undefined;
  }
  st.stack.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length && !st.tooLarge; i += 1) {
        const v = safeCopy(value[i], `${path}[${i}]`, depth + 1, st);
        if (v !== undefined) out.push(v);
      }
      return out;
    }
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      if (st.tooLarge) break;
      const keyPath = path === '' ? key : `${path}.${key}`;
      if (RESERVED_KEYS.has(key)) {
        st.warnings.push(`${keyPath}: reserved key name ignored`);
        continue;
      }
      const v = safeCopy((value as Record<string, unknown>)[key], keyPath, depth + 1, st);
      if (v !== undefined) out[key] = v;
    }
    return out;
  } finally {
    st.stack.delete(value);
  }
}

/** Copies the top-level mapping key by key, so one oversized value costs only itself. */
export function copyFields(data: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const fields = Object.create(null) as Record<string, unknown>;
  let total = 0;
  for (const key of Object.keys(data)) {
    if (RESERVED_KEYS.has(key)) {
      warnings.push(`${key}: reserved key name ignored`);
      continue;
    }
    const value = data[key];
    const isScalar = value === null || typeof value !== 'object' || value instanceof Date;
    const limit = isScalar ? 1 : Math.min(MAX_NODES_PER_KEY, MAX_NODES_TOTAL - total);
    const st: CopyState = { nodes: 0, limit, tooLarge: false, warnings: [], stack: new Set() };
    const copied = limit > 0 ? safeCopy(value, key, 1, st) : undefined;
    total += st.nodes;
    if (limit <= 0 || st.tooLarge) {
      warnings.push(`${key}: value is too large (over ${MAX_NODES_PER_KEY} items, or the frontmatter over ${MAX_NODES_TOTAL}); left out`);
      continue;
    }
    warnings.push(...st.warnings);
    if (copied !== undefined) fields[key] = copied;
  }
  return fields;
}

/** Extra values are handed on as JSON-friendly data: dates become text. */
export function toPlain(value: unknown): unknown {
  if (value instanceof Date) return scalarText(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = toPlain(v);
    return out;
  }
  return value;
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}


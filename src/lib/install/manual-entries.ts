/**
 * The entries for a user to add (or remove) by hand when we must not write their settings file
 * (settings-target.ts): the part of the change that is ours, as JSON and, for home-manager, as the
 * Nix attribute set of `programs.claude-code.settings` (hooks) or `programs.claude-code.mcpServers`.
 */
import type { Json, JsonObject } from './types.js';
import { deepEqual, isObject } from './types.js';

/** What `after` holds that `before` does not: new keys, changed values, new array elements. */
export function addedPart(before: Json | undefined, after: Json): Json | undefined {
  if (before === undefined) return after;
  if (deepEqual(before, after)) return undefined;
  if (isObject(before) && isObject(after)) {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(after)) {
      const part = addedPart(before[key], value);
      if (part !== undefined) out[key] = part;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const added = after.filter((item) => !before.some((old) => deepEqual(old, item)));
    return added.length === 0 ? undefined : added;
  }
  return after;
}

const NIX_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_'-]*$/;

function nixString(s: string): string {
  // In a Nix string, `"`, `\` and `${` are special.
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$\{/g, '\\${').replace(/\n/g, '\\n')}"`;
}

/** A JSON value as a Nix expression (what home-manager's `settings` options take). */
export function toNix(value: Json, indent = ''): string {
  const inner = `${indent}  `;
  if (value === null) return 'null';
  if (typeof value === 'string') return nixString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[ ]';
    return `[\n${value.map((v) => `${inner}${wrapForList(toNix(v, inner))}`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{ }';
  return `{\n${entries.map(([k, v]) => `${inner}${NIX_IDENTIFIER.test(k) ? k : nixString(k)} = ${toNix(v, inner)};`).join('\n')}\n${indent}}`;
}

/** List elements are separated by spaces in Nix; a negative number would read as subtraction. */
function wrapForList(expr: string): string {
  return expr.startsWith('-') ? `(${expr})` : expr;
}

export interface ManualEntries {
  /** The JSON to merge into the file (or, for uninstall, to take out of it). */
  json: string;
  /** The same for a home-manager configuration. */
  nix: string;
}

/** `part` (a fragment of a settings file) for the user's own configuration, in both forms. */
export function manualEntries(part: JsonObject, kind: 'settings' | 'mcp'): ManualEntries {
  const json = JSON.stringify(part, null, 2);
  if (kind === 'mcp') {
    // mcpServers may be nested (local scope: projects.<dir>.mcpServers); home-manager knows the top level.
    const servers = findKey(part, 'mcpServers');
    return { json, nix: `programs.claude-code.mcpServers = ${toNix((servers ?? part) as Json)};` };
  }
  return { json, nix: `programs.claude-code.settings = ${toNix(part)};` };
}

function findKey(value: Json, key: string): Json | undefined {
  if (!isObject(value)) return undefined;
  if (value[key] !== undefined) return value[key];
  for (const child of Object.values(value)) {
    const found = findKey(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

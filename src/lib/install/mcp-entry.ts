/** The Graphiti MCP server entry (`mcpServers.graphiti`) in a settings object, as pure transforms. */
import { deepEqual, InstallError, isObject, MCP_SERVER_NAME, refusedFile, type Json, type JsonObject } from './types.js';

function getPath(obj: JsonObject, path: string[]): Json | undefined {
  let cur: Json | undefined = obj;
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** Marks the headersHelper command we write (`server headers`): what makes an entry with one ours. */
export const HEADERS_HELPER_ARGS = 'server headers';

/**
 * Adds `mcpServers.graphiti` at `path` unless a different `graphiti` server is already there.
 * `headersHelper` (the local server: a command printing the current token as a header when the
 * front proves itself) goes into the entry as Claude Code's `headersHelper`, so no token is
 * stored; an entry we wrote before for the same URL (with or without a stored token) is updated.
 */
export function mergeMcp(value: JsonObject, path: string[], url: string, file = 'mcp', headersHelper?: string): { value: JsonObject; entries: string[]; warnings: string[] } {
  const next = structuredClone(value);
  const desired: JsonObject = headersHelper === undefined ? { type: 'http', url } : { type: 'http', url, headersHelper };
  let cur: JsonObject = next;
  for (const key of path) {
    const child = cur[key];
    if (child === undefined) cur[key] = {};
    else if (!isObject(child)) throw new InstallError(refusedFile(file, `"${path.join('.')}" is not an object`), file);
    cur = cur[key] as JsonObject;
  }
  const existing = cur[MCP_SERVER_NAME];
  if (existing === undefined) {
    cur[MCP_SERVER_NAME] = desired;
    return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: added`], warnings: [] };
  }
  if (deepEqual(existing, desired)) return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: unchanged`], warnings: [] };
  // Ours for the same URL, with other (or no) headers, e.g. from before the server required a token.
  if (isOurEntry(existing, url)) {
    cur[MCP_SERVER_NAME] = desired;
    return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: updated`], warnings: [] };
  }
  return {
    value: structuredClone(value),
    entries: [`mcpServers.${MCP_SERVER_NAME}: kept (already configured differently)`],
    warnings: [`${file} already has an MCP server "${MCP_SERVER_NAME}" with other settings (${JSON.stringify(existing).slice(0, 200)}); left unchanged.`],
  };
}

/**
 * What install writes: type http, the URL (any when undefined), and at most our headersHelper,
 * or (written by earlier versions) an Authorization header.
 */
function isOurEntry(existing: Json | undefined, url: string | undefined): boolean {
  if (!isObject(existing) || existing.type !== 'http' || typeof existing.url !== 'string' || (url !== undefined && existing.url !== url)) return false;
  const keys = Object.keys(existing).filter((k) => k !== 'type' && k !== 'url');
  if (keys.length === 0) return true;
  if (keys.length === 1 && typeof existing.headersHelper === 'string') return existing.headersHelper.endsWith(HEADERS_HELPER_ARGS);
  const headers = existing.headers;
  return keys.length === 1 && keys[0] === 'headers' && isObject(headers) && Object.keys(headers).length === 1 && typeof headers.Authorization === 'string' && headers.Authorization.startsWith('Bearer ');
}

/** Removes `mcpServers.graphiti` when it is exactly what we write, and the containers emptied by that. */
export function removeMcp(value: JsonObject, path: string[], url: string | undefined): { value: JsonObject; entries: string[]; warnings: string[] } {
  const next = structuredClone(value);
  const servers = getPath(next, path);
  if (!isObject(servers) || servers[MCP_SERVER_NAME] === undefined) return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: not installed`], warnings: [] };
  const existing = servers[MCP_SERVER_NAME];
  const ours = isOurEntry(existing, url);
  if (!ours) {
    return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: kept (not ours)`], warnings: [`MCP server "${MCP_SERVER_NAME}" does not match what install writes; left in place.`] };
  }
  delete servers[MCP_SERVER_NAME];
  // Remove containers that became empty, innermost first (they were non-empty before).
  for (let depth = path.length; depth > 0; depth--) {
    const parent = depth === 1 ? next : getPath(next, path.slice(0, depth - 1));
    const key = path[depth - 1] as string;
    if (!isObject(parent)) break;
    const child = parent[key];
    if (isObject(child) && Object.keys(child).length === 0) delete parent[key];
    else break;
  }
  return { value: next, entries: [`mcpServers.${MCP_SERVER_NAME}: removed`], warnings: [] };
}

/**
 * JSON-RPC 2.0 message shapes used by MCP, with cheap structural guards (no zod:
 * this module sits on the hooks' startup path).
 */

import { isRecord } from '../util/json.js';

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  result?: unknown;
  error?: JsonRpcErrorObject;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;



function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || typeof value === 'number';
}

/** A request from the peer: has both `id` and `method`. */
export function isJsonRpcRequest(value: unknown): value is JsonRpcRequest {
  return isRecord(value) && typeof value.method === 'string' && isId(value.id);
}

/** A notification from the peer: `method` without `id`. */
export function isJsonRpcNotification(value: unknown): value is JsonRpcNotification {
  return isRecord(value) && typeof value.method === 'string' && !('id' in value && value.id !== undefined);
}

/** A response: no `method`, and a `result` or an `error`. */
export function isJsonRpcResponse(value: unknown): value is JsonRpcResponse {
  if (!isRecord(value) || 'method' in value) return false;
  if (!(value.id === null || isId(value.id))) return false;
  return 'result' in value || isRecord(value.error);
}

/** Ids are compared as strings: some servers echo numeric ids back as strings. */
export function sameId(a: JsonRpcId | null | undefined, b: JsonRpcId | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);
}

export function errorObject(response: JsonRpcResponse): JsonRpcErrorObject | undefined {
  const error = response.error;
  if (!isRecord(error)) return undefined;
  return {
    code: typeof error.code === 'number' ? error.code : -32603,
    message: typeof error.message === 'string' ? error.message : 'Unknown error',
    data: error.data,
  };
}

/**
 * Unique names, cache keys and sha256 for code on the hooks' path, without loading node:crypto
 * at start: crypto was the largest built-in a hook loaded (about a tenth of its start-up,
 * profiled), for nothing a hook needs from it on its usual path. `sha256Hex` loads it on first use.
 */
import { createRequire } from 'node:module';

let counter = 0;

/** A name unique to this process and moment: temp files, lock tokens. Not a secret and not random enough to be one. */
export function uniqueId(): string {
  return `${process.pid.toString(36)}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * FNV-1a, 64 bits as 16 hex digits: a cache key that changes when its input does. Not a security
 * hash: use it where a collision costs a cache miss, and its input is not guessable from it.
 */
export function cacheKey(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  return hash.toString(16).padStart(16, '0');
}

let crypto: typeof import('node:crypto') | undefined;

/** sha256 of `text` as hex; node:crypto is loaded on the first call only. */
export function sha256Hex(text: string): string {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

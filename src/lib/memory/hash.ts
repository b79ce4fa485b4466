/**
 * Content hashes and file ids.
 *
 * The content hash is taken over a normalised form of the file so that changes
 * that do not change the memory do not trigger a re-sync: a BOM, CRLF/CR line
 * ends and machine-written capture footers are ignored.
 */
import { createHash } from 'node:crypto';
import { stripCaptureFooters } from './footer.js';
import { decodeMemoryText } from './text.js';

export function sha256Hex(data: string | Uint8Array): string {
  const h = createHash('sha256');
  if (typeof data === 'string') h.update(data, 'utf8');
  else h.update(data);
  return h.digest('hex');
}

/**
 * The normalised text used for hashing: UTF-8 decoded, BOM stripped, line ends LF,
 * capture footers removed. Undefined when the bytes are not valid UTF-8.
 */
export function normalizeContent(raw: Uint8Array): string | undefined {
  const text = decodeMemoryText(raw);
  return text === undefined ? undefined : stripCaptureFooters(text);
}

/**
 * sha256 (hex) of the normalised content. Bytes that are not UTF-8 are hashed as they
 * are (such files are skipped anyway, but their hash must still change when they do).
 */
export function contentHashOf(raw: Uint8Array): string {
  const text = normalizeContent(raw);
  return text === undefined ? sha256Hex(raw) : sha256Hex(text);
}

/** Stable, opaque id of a file within a source: first 16 hex of sha256(source + NUL + relPath). */
export function fileIdOf(source: string, relPath: string): string {
  return sha256Hex(`${source}\0${relPath}`).slice(0, 16);
}

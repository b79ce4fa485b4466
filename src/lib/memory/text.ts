/** Bytes → text, the one decoding rule for memory files: strict UTF-8, a BOM dropped, line ends LF. */

/** Undefined when the bytes are not valid UTF-8. */
export function decodeMemoryText(raw: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    return undefined;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.replace(/\r\n?/g, '\n');
}


/** Offset of the first byte that is not valid UTF-8, or -1. Used only to explain a failure. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i += 1;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

export type Decoded = { ok: true; text: string } | { ok: false; reason: 'binary' | 'not-utf8'; message: string };

export function decode(raw: Uint8Array): Decoded {
  if ((raw[0] === 0xff && raw[1] === 0xfe) || (raw[0] === 0xfe && raw[1] === 0xff)) {
    return { ok: false, reason: 'not-utf8', message: 'the file is UTF-16 text; convert it to UTF-8' };
  }
  const nul = raw.indexOf(0);
  if (nul !== -1) {
    return { ok: false, reason: 'binary', message: `the file contains a NUL byte at offset ${nul}: it looks binary, not markdown` };
  }
  const text = decodeMemoryText(raw);
  if (text === undefined) {
    const at = firstInvalidUtf8(raw);
    return { ok: false, reason: 'not-utf8', message: `the file is not valid UTF-8 (first bad byte at offset ${at < 0 ? '?' : at}); convert it to UTF-8` };
  }
  return { ok: true, text };
}


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

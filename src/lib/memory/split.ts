/**
 * Splitting long markdown into parts without losing anything.
 *
 * A long body is split at the most meaningful boundary that works — headings, then
 * paragraphs, lines, sentences, words — and only as a last resort hard at the limit.
 * The raw pieces always concatenate back to the input exactly; each returned part is
 * a piece with only surrounding blank space removed, so every non-whitespace
 * character survives, in order.
 */

type Level = 'heading' | 'paragraph' | 'line' | 'sentence' | 'word' | 'hard';
const LEVELS: readonly Level[] = ['heading', 'paragraph', 'line', 'sentence', 'word', 'hard'];

const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const HEADING = /^[ \t]{0,3}#{1,6}(?:[ \t]|$)/;

/** Offsets where a heading line starts (outside fenced code), excluding 0. */
function headingCuts(text: string): number[] {
  const cuts: number[] = [];
  let fence: string | undefined;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    const f = FENCE.exec(line);
    if (f?.[1] !== undefined) {
      const ch = f[1][0];
      if (fence === undefined) fence = ch;
      else if (ch === fence) fence = undefined;
    } else if (fence === undefined && start > 0 && HEADING.test(line)) cuts.push(start);
    start = end + 1;
  }
  return cuts;
}

/** Offsets just after each match of `re` (global), excluding the end of the text. */
function cutsAfter(text: string, re: RegExp): number[] {
  const cuts: number[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const at = m.index + m[0].length;
    if (m[0].length === 0) re.lastIndex += 1;
    if (at > 0 && at < text.length) cuts.push(at);
  }
  return cuts;
}

function segments(text: string, level: Level): string[] {
  let cuts: number[];
  switch (level) {
    case 'heading':
      cuts = headingCuts(text);
      break;
    case 'paragraph':
      cuts = cutsAfter(text, /\n[ \t]*\n(?:[ \t]*\n)*/g);
      break;
    case 'line':
      cuts = cutsAfter(text, /\n/g);
      break;
    case 'sentence':
      cuts = cutsAfter(text, /[.!?;:]["')\]]*[ \t]+/g);
      break;
    case 'word':
      cuts = cutsAfter(text, /[ \t]+/g);
      break;
    default:
      cuts = [];
  }
  const out: string[] = [];
  let prev = 0;
  for (const c of cuts) {
    out.push(text.slice(prev, c));
    prev = c;
  }
  out.push(text.slice(prev));
  return out;
}

/** Cuts every `max` UTF-16 units, never between the halves of a surrogate pair. */
function hardCut(text: string, max: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(i + max, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - i > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/** Unpacked pieces of at most `max`, split at the coarsest level that works (for greedy packing). */
function atoms(text: string, max: number, levelIndex: number): string[] {
  if (text.length <= max) return [text];
  const level = LEVELS[levelIndex] ?? 'hard';
  if (level === 'hard') return hardCut(text, max);
  const segs = segments(text, level);
  if (segs.length <= 1) return atoms(text, max, levelIndex + 1);
  return segs.flatMap((seg) => atoms(seg, max, levelIndex + 1));
}

function pack(text: string, max: number, levelIndex: number): string[] {
  if (text.length <= max) return [text];
  const level = LEVELS[levelIndex] ?? 'hard';
  if (level === 'hard') return hardCut(text, max);
  const segs = segments(text, level);
  if (segs.length <= 1) return pack(text, max, levelIndex + 1);
  // Inside running text (lines, sentences, words) the pieces of an oversized segment
  // are packed together with their neighbours; sections and paragraphs keep their own
  // parts so a part starts at a heading or paragraph where possible.
  const flow = level === 'line' || level === 'sentence' || level === 'word';
  const out: string[] = [];
  let current = '';
  const add = (piece: string) => {
    if (current.length + piece.length > max) {
      if (current !== '') out.push(current);
      current = piece;
    } else current += piece;
  };
  for (const seg of segs) {
    if (seg.length <= max) add(seg);
    else if (flow) for (const piece of atoms(seg, max, levelIndex + 1)) add(piece);
    else {
      if (current !== '') out.push(current);
      current = '';
      out.push(...pack(seg, max, levelIndex + 1));
    }
  }
  if (current !== '') out.push(current);
  return out;
}

/** Raw pieces, each at most `max` (≥ 2) characters, that concatenate to `text` exactly. */
export function splitRaw(text: string, max: number): string[] {
  const limit = Math.max(2, Math.floor(max));
  return pack(text, limit, 0);
}

/** Removes leading blank lines (indentation of the first text line is kept) and trailing whitespace. */
export function trimBlock(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

/**
 * Splits markdown into parts of at most `max` characters at the best available
 * boundary. Parts are trimmed of surrounding blank lines; empty parts are dropped.
 */
export function splitMarkdown(text: string, max: number): string[] {
  return splitRaw(text, max)
    .map(trimBlock)
    .filter((p) => p.trim() !== '');
}

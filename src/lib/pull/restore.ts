/**
 * A note version from the graph → the text of a memory file (issue 42).
 *
 * What the graph holds is the episode body the sender built (memory/episode.ts): the note's
 * frontmatter as `Key: value` header lines repeated on top of each part, then the body, private
 * blocks and capture footers removed, secrets redacted. The file written back:
 * - frontmatter in Claude Code's memory format (`name`, `description`, `type`) from the episode's
 *   name and the `Description:` / `Type:` header lines (gray-matter writes the YAML);
 * - the other header lines and the parts' bodies (each part's repeated header dropped), joined;
 * - a last line saying it was restored and from which machine (memory/footer.ts `restoredFooter`:
 *   an HTML comment, never shown by Claude Code's memory index, never hashed or sent again).
 * Not byte-identical to the original (frontmatter order, extra keys as lines, part seams as blank
 * lines): docs/pull.md says so.
 */
import matter from 'gray-matter';
import { restoredFooter } from '../memory/footer.js';
import type { NoteVersion } from './incoming.js';

const HEADER_LINE = /^([A-Z][A-Za-z ]{0,39}|[^\s:][^:\n]{0,39}): (.+)$/;
const REDACTED = /\[REDACTED:[^\]\n]{1,60}\]/;

export interface RestoredNote {
  text: string;
  redacted: boolean;
}

/** The header block at the top of a body (lines `Key: value` before the first blank line), or '' when the first block is prose. */
function headerOf(body: string): string {
  const blank = body.indexOf('\n\n');
  const first = blank < 0 ? body : body.slice(0, blank);
  const lines = first.split('\n');
  return lines.length > 0 && lines.every((l) => HEADER_LINE.test(l)) ? first : '';
}

/** The parts' bodies as one text: the header once, each part's repeated copy of it dropped. */
export function joinParts(bodies: readonly string[]): { header: string; body: string } {
  const first = bodies[0] ?? '';
  const header = bodies.length > 1 ? (bodies.every((b) => b.startsWith(`${headerOf(first)}\n\n`)) ? headerOf(first) : '') : headerOf(first);
  const strip = (b: string) => (header !== '' && b.startsWith(`${header}\n\n`) ? b.slice(header.length + 2) : header !== '' && b === header ? '' : b);
  return { header, body: bodies.map(strip).filter((b) => b !== '').join('\n\n') };
}

function titleOf(name: string, parts: number): string {
  return parts > 1 ? name.replace(/ \(part \d+\/\d+\)$/, '') : name;
}

export function restoreNote(version: NoteVersion, when: string): RestoredNote {
  const { header, body } = joinParts(version.parts.map((p) => p.body));
  const data: Record<string, string> = { name: titleOf(version.parts[0]?.name ?? version.path, version.parts.length) };
  const rest: string[] = [];
  for (const line of header === '' ? [] : header.split('\n')) {
    const m = HEADER_LINE.exec(line);
    const label = m?.[1];
    const value = m?.[2] ?? '';
    if (label === 'Title') data.name = value;
    else if (label === 'Description') data.description = value;
    else if (label === 'Type') data.type = value;
    else rest.push(line);
  }
  const text = [rest.join('\n'), body].filter((s) => s.trim() !== '').join('\n\n');
  const redacted = REDACTED.test(text) || REDACTED.test(data.name ?? '') || REDACTED.test(data.description ?? '');
  const file = matter.stringify(`\n${text.trimEnd()}\n\n${restoredFooter(version.origin, version.version, when, redacted)}\n`, data);
  return { text: file, redacted };
}

/** Whether a text holds a redaction mark (a redacted note never replaces a local one without them). */
export function holdsRedaction(text: string): boolean {
  return REDACTED.test(text);
}

/**
 * CLOUDFORMATION_LITERALS (qa-review-17b): literals inside the list of a CloudFormation function under a
 * credential's key. values.ts CLOUDFORMATION_FUNCTIONS reads a function's tag where a value goes as a template's
 * expression, and so it is for `!Ref DBPassword` or `!GetAtt …`; but three functions return, join or pick the
 * literals written in their list, so those literals are the value the stack gets:
 * - `!If [IsProd, 'Pr0dS3cret!x', 'devpass']`: each branch after the condition's name is the value when it holds;
 * - `!Select [0, ['Pr0dS3cret!x', …]]`: each item of the list may be the one picked;
 * - `!Join ['', ['Sup3r', 'S3cret!']]`: the parts after the delimiter, joined, are the value, judged whole.
 * Each quoted literal is judged as any value under that key (assignment.ts chosenFor, values.ts isCredentialValue),
 * so a `${…}` in it, a placeholder or a path stays; a tagged item (`!Ref X`, `!GetAtt …`) is no literal and stays.
 * CLOUDFORMATION_PLAIN_ITEMS (qa-review-18): an item without quotes is a literal as well (YAML's flow style needs
 * none, and AWS's own examples write none: `!Join [ ":", [ a, b, c ] ]`), judged the same; only the list's first
 * item, the condition's name, the index or the delimiter, is not one of the values. A flow list on the key's own
 * line, the way templates write these; and the two other ways (qa-redact-13):
 * - CLOUDFORMATION_JSON: a JSON template's `"Key": { "Fn::If": ["IsProd", "Pr0dS3cret!x", "devpass"] }` on one line.
 *   JSON quotes the condition's name, the delimiter and the index, so the list's first item is never the value; and a
 *   literal inside a nested object (`{"Ref": "ProdPw"}`, `{"Fn::GetAtt": [...]}`) is a function's argument, not a value.
 * - CLOUDFORMATION_BLOCK: YAML's block list under the tag (`Key: !If` or `Key:` then `Fn::If:`, then `- IsProd`,
 *   `- 'Pr0dS3cret!x'`, `- devpass` on the lines below, deeper than the key or at its column: YAML's compact form).
 *   A block item is a YAML scalar, bare or quoted: a bare `- devpass` is the string devpass, written as block lists
 *   write strings; the first item is the condition, the delimiter or the index; an item that is a tag (`- !Ref DevPw`),
 *   a map or a flow list is computed.
 */
import { chosenFor, endsInCredentialWord, genericKind } from './assignment.js';
import { tag, type ScanRule } from './engine.js';
import { isCredentialValue } from './values.js';

/** A key, then `!If`, `!Join` or `!Select` and its flow list to the line's last `]` (nested lists inside). */
const FUNCTION_LIST = /^([ \t]*(?:-[ \t]+)?["']?([A-Za-z_][\w.-]*)["']?[ \t]*:[ \t]*!(If|Join|Select)[ \t]*\[)([^\n]*\])/gm;
/** A quoted literal in YAML's flow style: single quotes double themselves, double quotes escape. */
const LITERAL = /'((?:[^'\n]|'')*)'|"((?:[^"\\\n]|\\.)*)"/g;
/**
 * An item without quotes, tag, nested list or mapping: after `[` or `,` (and spaces) to the next `,` or `]`, its
 * trailing spaces trimmed after (CLOUDFORMATION_PLAIN_ITEMS). Each try opens at a `[` or `,` and runs greedily to the
 * next delimiter, so a long line is read in linear time.
 */
const PLAIN_ITEM = /[[,][ \t]*([^\s'"!\[\]{},#&*|>%@`][^,[\]\n]*)(?=[,\]])/g;

interface Literal { start: number; end: number; inner: string }

function literalsIn(list: string): Literal[] {
  const found: Literal[] = [];
  LITERAL.lastIndex = 0;
  for (let m = LITERAL.exec(list); m !== null; m = LITERAL.exec(list)) {
    const inner = m[1] !== undefined ? m[1].replace(/''/g, "'") : (m[2] as string);
    found.push({ start: m.index + 1, end: m.index + m[0].length - 1, inner });
  }
  // The first item (the condition's name, the index, or a delimiter written bare) is none of the values.
  const firstItemEnd = /^[ \t]*["']/.test(list) ? (found[0]?.end ?? 0) : list.indexOf(',');
  const quoted = found.length;
  let q = 0; // the quoted literals, in order: a `,` inside one opens no item
  PLAIN_ITEM.lastIndex = 0;
  for (let m = PLAIN_ITEM.exec(list); m !== null; m = PLAIN_ITEM.exec(list)) {
    const inner = (m[1] as string).trimEnd();
    const start = m.index + m[0].length - (m[1] as string).length;
    // The item ends at its delimiter: the next try opens there (`[a,b]`: `,b` after `[a`).
    PLAIN_ITEM.lastIndex = m.index + m[0].length;
    while (q < quoted && (found[q] as Literal).end < m.index) q += 1;
    const inQuotes = q < quoted && (found[q] as Literal).start <= m.index;
    if (start > firstItemEnd && !inQuotes) found.push({ start, end: start + inner.length, inner });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Replaces the chosen spans of `text` (sorted, not overlapping) by the kind's tag. */
function replaceSpans(text: string, spans: readonly { start: number; end: number }[], kind: string): string {
  let out = '';
  let cursor = 0;
  for (const s of spans) {
    out += text.slice(cursor, s.start) + tag(kind);
    cursor = s.end;
  }
  return out + text.slice(cursor);
}

interface TaggedSpan { start: number; end: number; kind: string }

/** Replaces each span of `text` (in order, not overlapping) by its own kind's tag. */
function replaceTaggedSpans(text: string, spans: readonly TaggedSpan[]): string {
  let out = '';
  let cursor = 0;
  for (const s of spans) {
    out += text.slice(cursor, s.start) + tag(s.kind);
    cursor = s.end;
  }
  return out + text.slice(cursor);
}

/** Which of a function's literals are the value: each judged for If and Select, the parts joined and judged whole for Join. */
function secretLiterals(key: string, fn: string, parts: readonly Literal[], delimiter: string): Literal[] {
  const judged = (value: string): boolean => isCredentialValue(value, chosenFor(key, value));
  if (fn !== 'Join') return parts.filter((l) => judged(l.inner));
  return parts.length > 0 && judged(parts.map((l) => l.inner).join(delimiter)) ? [...parts] : [];
}

/** The flow list of the YAML short form (`Key: !If [...]`), as the header says. */
function scanFlow(text: string): string {
  return text.replace(FUNCTION_LIST, (m, head: string, key: string, fn: string, list: string) => {
    if (!endsInCredentialWord(key)) return m;
    const all = literalsIn(list);
    // `!Join`'s first item is its delimiter, written first in the list: not part of the value.
    const delimiter = fn === 'Join' && /^[ \t]*["']/.test(list) ? all[0] : undefined;
    const parts = all.filter((l) => l !== delimiter && l.inner !== '');
    const secret = secretLiterals(key, fn, parts, delimiter?.inner ?? '');
    return secret.length === 0 ? m : head + replaceSpans(list, secret, genericKind(key));
  });
}

/**
 * CLOUDFORMATION_JSON: a key and `{ "Fn::If": [` (or Join, Select); its list is read from there to its own closing `]`
 * on that line (jsonLiteralsIn), not to the line's last: a template written on one line has more keys after it
 * (qa-review-19).
 */
const JSON_FUNCTION_HEAD = /"([A-Za-z_][\w.-]*)"[ \t]*:[ \t]*\{[ \t]*"Fn::(If|Join|Select)"[ \t]*:[ \t]*\[/g;

/** A JSON string, read where it starts (sticky: the list is read once, whatever its number of strings). */
const JSON_STRING = /"((?:[^"\\\n]|\\.)*)"/y;

interface JsonLiteral extends Literal { item: number; depth: number; inObject: boolean }

/** The string literals of a JSON list (its opening `[` already read), with the top-level item each is in, and where the list closes (-1: not on this text). */
function jsonLiteralsIn(list: string): { literals: JsonLiteral[]; end: number } {
  const found: JsonLiteral[] = [];
  let depth = 1;
  let objects = 0;
  let item = 0;
  for (let i = 0; i < list.length; i += 1) {
    const c = list[i];
    if (c === '"') {
      JSON_STRING.lastIndex = i;
      const m = JSON_STRING.exec(list);
      if (m === null) break;
      found.push({ start: i + 1, end: i + m[0].length - 1, inner: m[1] as string, item, depth, inObject: objects > 0 });
      i += m[0].length - 1;
    } else if (c === '[') depth += 1;
    else if (c === ']') {
      depth -= 1;
      if (depth === 0) return { literals: found, end: i + 1 };
    } else if (c === '{') objects += 1;
    else if (c === '}') objects -= 1;
    else if (c === ',' && depth === 1 && objects === 0) item += 1;
  }
  return { literals: found, end: -1 };
}

function scanJson(text: string): string {
  const spans: TaggedSpan[] = [];
  JSON_FUNCTION_HEAD.lastIndex = 0;
  for (let m = JSON_FUNCTION_HEAD.exec(text); m !== null; m = JSON_FUNCTION_HEAD.exec(text)) {
    const key = m[1] as string;
    const fn = m[2] as string;
    if (!endsInCredentialWord(key)) continue;
    const listStart = m.index + m[0].length;
    const lineEnd = text.indexOf('\n', listStart);
    const { literals, end } = jsonLiteralsIn(text.slice(listStart, lineEnd < 0 ? text.length : lineEnd));
    // A list that does not close on its line (a cut line) is not read, and neither is the rest of the line: read again
    // from each later key, the line would be read once per key.
    if (end < 0) {
      JSON_FUNCTION_HEAD.lastIndex = lineEnd < 0 ? text.length : lineEnd;
      continue;
    }
    const all = literals.filter((l) => !l.inObject);
    // The first item is the condition's name (If), the delimiter (Join) or the index (Select): never the value.
    const delimiter = fn === 'Join' ? all.find((l) => l.item === 0 && l.depth === 1)?.inner ?? '' : '';
    const parts = all.filter((l) => l.item > 0 && l.inner !== '');
    for (const l of secretLiterals(key, fn, parts, delimiter)) spans.push({ start: listStart + l.start, end: listStart + l.end, kind: genericKind(key) });
    // The search goes on after this list: a key nested in it is a function's argument, not a value.
    JSON_FUNCTION_HEAD.lastIndex = listStart + end;
  }
  return replaceTaggedSpans(text, spans);
}

/** CLOUDFORMATION_BLOCK: a key whose value is `!If` (or Join, Select) alone, or `Fn::If:` alone on the next line, deeper. */
const BLOCK_HEAD = /^([ \t]*)((?:-[ \t]+)?)["']?([A-Za-z_][\w.-]*)["']?[ \t]*:[ \t]*(?:!(If|Join|Select)|\n[ \t]+Fn::(If|Join|Select)[ \t]*:)[ \t]*$/gm;
/** A block list's line: its indent, its dashes (`- - Sup3r` opens a nested list), the scalar after them. */
const BLOCK_ITEM = /^([ \t]*)((?:-[ \t]+)+)([^\n]*)$/;

/** The scalar of a block item, as YAML reads it: quoted (its quotes off), or bare up to a ` #` comment. */
function blockScalar(line: string, at: number, written: string): Literal | undefined {
  const quoted = /^'((?:[^'\n]|'')*)'|^"((?:[^"\\\n]|\\.)*)"/.exec(written);
  if (quoted !== null) return { start: at + 1, end: at + quoted[0].length - 1, inner: quoted[1] !== undefined ? quoted[1].replace(/''/g, "'") : (quoted[2] as string) };
  const bare = written.replace(/[ \t]+#.*$/, '').replace(/[ \t]+$/, '');
  // A tag (`!Ref DevPw`), a map (`{Ref: X}`, `Ref: X`), a flow list or an alias is computed or a name, not a literal.
  if (bare === '' || /^[!&*{[|>]/.test(bare) || /^[A-Za-z:]+:(?:[ \t]|$)/.test(bare)) return undefined;
  return { start: at, end: at + bare.length, inner: bare };
}

function scanBlock(text: string): string {
  const spans: TaggedSpan[] = [];
  BLOCK_HEAD.lastIndex = 0;
  for (let m = BLOCK_HEAD.exec(text); m !== null; m = BLOCK_HEAD.exec(text)) {
    // The key's column (after its entry's dash, `- Key: !If`): a map's value list may be written there, YAML's compact
    // form (the dash counts as indentation), and a line left of it is the next entry of the map or list the key is in.
    const keyColumn = (m[1] as string).length + (m[2] as string).length;
    const key = m[3] as string;
    const fn = (m[4] ?? m[5]) as string;
    if (!endsInCredentialWord(key)) continue;
    const items: Literal[] = [];
    let first = true;
    let delimiter = '';
    let at = m.index + m[0].length + 1;
    while (at < text.length) {
      const lineEnd = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
      const line = text.slice(at, lineEnd);
      const item = BLOCK_ITEM.exec(line);
      // The list ends at a line left of the key's column, or one that is no list item.
      if (item === null || (item[1] as string).length < keyColumn) break;
      const scalar = blockScalar(line, (item[1] as string).length + (item[2] as string).length, item[3] as string);
      if (first) delimiter = scalar?.inner ?? '';
      else if (scalar !== undefined && scalar.inner !== '') items.push({ start: at + scalar.start, end: at + scalar.end, inner: scalar.inner });
      first = false;
      at = lineEnd + 1;
    }
    for (const l of secretLiterals(key, fn, items, fn === 'Join' ? delimiter : '')) spans.push({ ...l, kind: genericKind(key) });
    BLOCK_HEAD.lastIndex = Math.max(BLOCK_HEAD.lastIndex, at - 1);
  }
  return replaceTaggedSpans(text, spans);
}

export const CLOUDFORMATION_LITERALS: ScanRule = {
  kind: 'cloudformation',
  hints: ['!If', '!Join', '!Select', 'Fn::If', 'Fn::Join', 'Fn::Select'],
  scan: (text) => scanBlock(scanJson(scanFlow(text))),
};

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
 * item, the condition's name, the index or the delimiter, is not one of the values. Only a flow list on the key's
 * own line, the way templates write these.
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

export const CLOUDFORMATION_LITERALS: ScanRule = {
  kind: 'cloudformation',
  hints: ['!If', '!Join', '!Select'],
  scan: (text) =>
    text.replace(FUNCTION_LIST, (m, head: string, key: string, fn: string, list: string) => {
      if (!endsInCredentialWord(key)) return m;
      const kind = genericKind(key);
      const all = literalsIn(list);
      // `!Join`'s first item is its delimiter, written first in the list: not part of the value.
      const delimiter = fn === 'Join' && /^[ \t]*["']/.test(list) ? all[0] : undefined;
      const parts = all.filter((l) => l !== delimiter && l.inner !== '');
      const judged = (value: string): boolean => isCredentialValue(value, chosenFor(key, value));
      const secret = fn === 'Join' ? (parts.length > 0 && judged(parts.map((l) => l.inner).join(delimiter?.inner ?? '')) ? parts : []) : parts.filter((l) => judged(l.inner));
      if (secret.length === 0) return m;
      let out = '';
      let cursor = 0;
      for (const l of secret) {
        out += list.slice(cursor, l.start) + tag(kind);
        cursor = l.end;
      }
      return head + out + list.slice(cursor);
    }),
};

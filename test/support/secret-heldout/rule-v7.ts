/**
 * Labelling rule v7 (README.md, written down before it was run): rule v6 plus the other written forms
 * issue 40 names, read mechanically: a URL's password (`scheme://user:VALUE@host`), the command-line
 * forms `-pVALUE` (mysql, mysqldump, mysqladmin, mariadb), `-a VALUE` (redis-cli), `-u USER:VALUE`
 * (curl), and `user / password: A / B` pairs. Explicit placeholders stay, as in v6. Prose and tables
 * stay unread. A labeller, not the redaction: it never imports from src/.
 */
import { isExplicitPlaceholder, passwordValuesV6 } from './rule-v6.js';

/** `scheme://user:VALUE@`: the scheme, the user, then the value up to `@` (no whitespace, `/`, `@` or quote in it). */
const URL_PASSWORD = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/@"'`]*:([^\s/@"'`]+)@/g;

/** A program's name as a word of the line (not inside a path or a longer name). */
const runs = (line: string, programs: readonly string[]): boolean =>
  programs.some((p) => new RegExp(`(?<![\\w./-])${p.replace(/-/g, '\\-')}(?![\\w/-])`).test(line));

/** A value after an option: quoted (without its quotes) or up to whitespace or a quote. */
function optionValue(rest: string): string {
  const q = /^(["'])([^"'\n]*)\1/.exec(rest);
  if (q !== null) return q[2] as string;
  return /^[^\s"']*/.exec(rest)?.[0] ?? '';
}

function commandLineValues(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (runs(line, ['mysql', 'mysqldump', 'mysqladmin', 'mariadb'])) {
      for (const m of line.matchAll(/(?<=\s)-p(?=\S)/g)) out.push(optionValue(line.slice((m.index as number) + 2)));
    }
    if (runs(line, ['redis-cli'])) {
      for (const m of line.matchAll(/(?<=\s)-a[ \t]+/g)) out.push(optionValue(line.slice((m.index as number) + m[0].length)));
    }
    if (runs(line, ['curl'])) {
      for (const m of line.matchAll(/(?<=\s)-u[ \t]+/g)) {
        const v = optionValue(line.slice((m.index as number) + m[0].length));
        const colon = v.indexOf(':');
        if (colon >= 0) out.push(v.slice(colon + 1));
      }
    }
  }
  return out;
}

/** `user / password: admin / letmein` (also `username/password:`): the word after the pair's ` / `. */
const PAIR = /\buser(?:name)?[ \t]*\/[ \t]*password[ \t]*:[ \t]*[^\s/]+[ \t]*\/[ \t]*([^\s,;)]+)/gi;

/** Every value in `text` that rule v7 makes a password (v6's, then the URL, command-line and pair forms), placeholders left out. */
export function passwordValuesV7(text: string): string[] {
  const found = [
    ...[...text.matchAll(URL_PASSWORD)].map((m) => m[1] as string),
    ...commandLineValues(text),
    ...[...text.matchAll(PAIR)].map((m) => m[1] as string),
  ].filter((v) => v !== '' && !isExplicitPlaceholder(v));
  return [...passwordValuesV6(text), ...found];
}

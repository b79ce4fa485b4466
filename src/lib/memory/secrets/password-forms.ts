/**
 * Ways people write a password down that the `key = value` and context rules do not read:
 * - the short key `pw` (`PW=…`, `db_pw: …`, `pw: …`);
 * - an arrow or a long dash between the word and the value (`Password → …`, `token -> …`, `secret ⇒ …`);
 * - the word and the value with only a space between (`passwd Zx8!pq3Rt#w`, `user admin, password …`),
 *   taken only when the value could not be prose: digits and symbols or inner capitals, 8+ long;
 * - a user and a password after a label, split by ` / ` (`Login: admin / …`, `creds for the NAS: admin / …`,
 *   `user / password: admin / …`).
 * Values are judged by values.ts like every other rule's.
 */
import { chosenBy, genericKind } from './assignment.js';
import { tag, type RegexRule } from './engine.js';
import { describedBySentence } from './prose.js';
import { type ChosenBy, isCredentialValue, isDummy, isPlaceholder, isRedacted, isTemplateStart, splitTrailingPunctuation, unquote } from './values.js';

/** A value: quoted (taken whole) or bare up to whitespace. */
const VALUE = '("[^"\\n]{1,256}"|\'[^\'\\n]{1,256}\'|`[^`\\n]{1,256}`|[^\\s"\'`]+)';

/** Replaces a judged value, keeping its quotes and the punctuation after a bare one. */
function replaceValue(lead: string, raw: string, kind: string, strict: boolean, chosen: ChosenBy = kind === 'password'): string | undefined {
  const { inner, quote } = unquote(raw);
  const { value, rest } = quote === '' ? splitTrailingPunctuation(raw) : { value: inner, rest: '' };
  // The test of the value's shape first: it turns most words of prose away for the least work.
  if (strict && !notProse(value)) return undefined;
  // `[expired].`, `<your password>,`: a placeholder followed by sentence punctuation.
  const chooser = chosen !== false ? 'chosen' : 'generated';
  if (isPlaceholder(raw, chooser) || isPlaceholder(raw.replace(/[.,:;!?]+$/, ''), chooser) || isTemplateStart(raw)) return undefined;
  if (value === '' || isRedacted(value) || isPlaceholder(value, chooser) || isDummy(value, { chooser })) return undefined;
  if (!isCredentialValue(quote === '' ? value : raw, chosen)) return undefined;
  return `${lead}${quote}${tag(kind)}${quote}${rest}`;
}

/** A value with only a space before it: a word of prose unless it has digits and symbols, or inner capitals and digits. */
function notProse(v: string): boolean {
  if (v.length < 8 || !/\d/.test(v)) return false;
  return /[^A-Za-z0-9]/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v));
}

/** `PW=…`, `DB_PW: …`, `"pw": "…"`. */
const PW_KEY: RegexRule = {
  kind: 'password',
  hints: ['pw'],
  // The literal comes first and the key's edge is checked behind it (a start of key, or `DB_`-style
  // glue): a leading lookbehind would be tried at every position of every note.
  re: new RegExp(`((?:pw|PW|Pw)(?<=(?:^|[^A-Za-z0-9]|[A-Za-z0-9][_.-])..)["']?[ \\t]*(?::=|=>|[:=])[ \\t]*)${VALUE}`, 'g'),
  replace: (m, g) => replaceValue(g[0] ?? '', g[1] ?? '', 'password', false) ?? m,
};

const WORDS = '(?:password|passwd|passphrase|passcode|pwd|pw|token|secret|api[ _-]?key)';

/** `Password → …`, `token -> …`, `secret ⇒ …`, `password — …`. */
const ARROW: RegexRule = {
  kind: 'password',
  hints: ['→', '->', '⇒', '—'],
  re: new RegExp(`((?<![A-Za-z])(${WORDS})[ \\t]*(?:→|->|⇒|—)[ \\t]*)${VALUE}`, 'gi'),
  // A word with more of the sentence after it opens a description (`committed secret — remains valid …`), prose.ts.
  replace: (m, g, offset, text) =>
    describedBySentence(g[2] ?? '', text.slice(offset + m.length, offset + m.length + 12)) ? m : (replaceValue(g[0] ?? '', g[2] ?? '', genericKind(g[1] ?? ''), false, chosenBy(g[1] ?? '')) ?? m),
};

/** `passwd Zx8!pq3Rt#w`, `password Tr0ub4dor&3`: the word, a space, a value that is not prose. */
const BARE: RegexRule = {
  kind: 'password',
  hints: ['pass', 'pwd'],
  // Not glued to a letter or a digit (`1Password SDK`: a product's name).
  re: new RegExp(`((?<![A-Za-z0-9])(password|passwd|passphrase|pwd)[ \\t]+)${VALUE}`, 'gi'),
  replace: (m, g) => replaceValue(g[0] ?? '', g[2] ?? '', 'password', true) ?? m,
};

/**
 * `Login: admin / Zx8!pq3Rt#w`, `creds for the NAS: deploy / …`, `credentials - ops / …`, `Grafana login is
 * admin / …`, and the pair named as one (`user / password: admin / …`, `username/password = ops / …`).
 */
const USER_SLASH_PASSWORD: RegexRule = {
  kind: 'password',
  // Every pair holds ` / ` (or a tab), whatever its label.
  hints: ['/ ', '/\t'],
  re: new RegExp(`((?<![A-Za-z])(?:(?:logins?|creds|credentials?)(?:[ \\t]+(?:for|to|of|on)[ \\t]+[^\\n:=/]{1,40}?)?|user(?:name)?[ \\t]*/[ \\t]*pass(?:word)?)(?:[ \\t]*(?:[:=]|[-–—])|[ \\t]+(?:is|are))[ \\t]*[^\\s/]{1,64}[ \\t]+/[ \\t]+)${VALUE}`, 'gi'),
  replace: (m, g) => replaceValue(g[0] ?? '', g[1] ?? '', 'password', false) ?? m,
};

export const PASSWORD_FORM_RULES: readonly RegexRule[] = [PW_KEY, ARROW, BARE, USER_SLASH_PASSWORD];

/**
 * Labelling rule v6 (README.md, written down before it was run): rule v5 amended by issue 40's
 * definition. A value given as a password, passphrase, PIN or secret next to its word is a secret,
 * however weak; only explicit placeholders stay. This module finds such values in a sample, by code,
 * every sample alike. It is a labeller, not the redaction: it never imports from src/.
 */

/** The last word of a name that makes its value a password (the words, and the ways people write them). */
const PASSWORD_WORDS = new Set(['password', 'passwd', 'pass', 'pwd', 'passphrase', 'pin', 'secret']);

/**
 * A name, then `:`, `=`, `:=` or `=>` (after an optional closing quote or `]` and spaces), then an
 * optional opening quote; or a command-line option (`--password`, `-password`) then one space.
 * Group 1/3: the name; group 2/4: the opening quote, if any.
 */
const NAME_THEN_VALUE = /([A-Za-z0-9_.-]+)["'`]?\]?[ \t]*(?::=|=>|[:=])[ \t]*(["'`]?)|(?<![A-Za-z0-9_])--?([A-Za-z][A-Za-z0-9_.-]*) (["'`]?)/g;

/** The last word of a name: split at `_`, `-`, `.` and a lower-to-upper case change. */
function lastWord(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter((w) => w !== '');
  return (words[words.length - 1] ?? '').toLowerCase();
}

/** The explicit placeholders issue 40 keeps: templates, `$VAR`, masks, vault references, example words. */
export function isExplicitPlaceholder(value: string): boolean {
  if (/^<.*>$/s.test(value)) return true;
  if (value.includes('${') || value.includes('{{') || /^\$[A-Za-z_{]/.test(value)) return true;
  if (/\*\*\*|xxxx/i.test(value)) return true;
  if (/vault|secretsmanager|secretmanager|secrets-manager|keyvault|ssm:|op:\/\/|\/secrets\//i.test(value)) return true;
  return /placeholder|example|redacted/i.test(value) || /^your(?:[-_]|pass)/i.test(value);
}

/** Every value in `text` given as a password next to its word and not an explicit placeholder (rule v6). */
export function passwordValuesV6(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NAME_THEN_VALUE)) {
    const name = m[1] ?? m[3] ?? '';
    if (!PASSWORD_WORDS.has(lastWord(name))) continue;
    const quote = m[2] ?? m[4] ?? '';
    const rest = text.slice((m.index as number) + m[0].length);
    let value: string;
    if (quote !== '') {
      const close = rest.indexOf(quote);
      const nl = rest.indexOf('\n');
      const end = close < 0 || (nl >= 0 && nl < close) ? (nl < 0 ? rest.length : nl) : close;
      value = rest.slice(0, end);
    } else {
      value = /^[^\s,;)}\]]*/.exec(rest)?.[0] ?? '';
    }
    if (value === '' || isExplicitPlaceholder(value)) continue;
    out.push(value);
  }
  return out;
}

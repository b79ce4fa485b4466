/**
 * Labelling rule P1 for the public agent notes (dev-public-notes.json; README.md, "public agent notes"),
 * written down and committed before the redaction ran on any of them. Issue 40's definition: in a
 * person's note, a value given as a credential next to its word is a secret, however weak; only
 * explicit placeholders stay (`<…>`, `${…}`, `{{…}}`, `$VAR`, masks, vault references, example words).
 * Read mechanically, every sample alike, never one by one:
 *
 * 1. **Rule v7** (rule-v7.ts: names and options beside their value, URLs' passwords, `mysql -p…`,
 *    `redis-cli -a`, `curl -u`, `user / password:` pairs), read on the sample as Markdown shows it:
 *    emphasis and code-span marks around a name or a value are not part of either
 *    (`**Password**: \`admin123\`` reads as `Password: admin123`), and a table row whose first cell is a
 *    name reads as that name, `:`, and its second cell (`| Password | \`testpass\` |`). A value named by
 *    v6's or rule 2's words must stand as a value: quoted, glued to `=` (`.env`, `NAME=value cmd`), or
 *    ending its line (a comment or a closing mark may follow); a label's colon that introduces a sentence
 *    (`Single pass: well-defined topics`, `**PASS**: clear evidence`) gives no value. v7's URL, command-line
 *    and pair forms are taken as v7 reads them.
 * 2. **The credential words of agent files**: beside v6's password words, a name whose last word is
 *    `token`, or `key` after `api`, `secret`, `private`, `access`, `auth`, `signing`, `encryption`,
 *    `master` or `license` (`GITHUB_TOKEN=…`, `api_key: …`, `apiKey: '…'`), or `apikey`; not `primary_key`,
 *    `sort_key`, `max_tokens`.
 * 3. **What is not a value given** (agent files hold code and schemas, which memory notes quote): the
 *    issue's `$VAR` read for code (`process.env.X`, `import.meta.env.X`, `os.environ[…]`, `os.getenv(…)`,
 *    `env(…)`, `ENV[…]`, a variable's name in capitals with an underscore, a dotted member path such as
 *    `config.password`, a call `hash(pw)`), a type or a flag (`string`, `str`, `number`, `boolean`,
 *    `bool`, `int`, `text`, `varchar`, `any`, `null`, `none`, `undefined`, `true`, `false`, `required`,
 *    `optional`, zod's `z.…`, `Optional[…]`), or nothing (an empty value, a lone punctuation mark).
 * 4. A sample whose credential-shaped token (16+ characters, letters and digits) is neither a
 *    placeholder nor an identifier under **rule v5** (extract.ts `benignByRule`) is left out as ambiguous,
 *    as every dev source's is.
 * 5. **Prose, left out, not guessed**: outside a code span, a noun (`password`, `passwd`, `pwd`,
 *    `passphrase`, `pin`, `secret`, `creds`, `credentials`) followed by a code span or a quoted string of
 *    one token, directly or after `is`, `:` or `=`, or after up to three words and then `is`, `:` or `=`;
 *    a word that is as often a verb (`pass`, `token`, `login`) only in the second way; or either followed
 *    by two such values joined by `/` or `:` (`login as \`a@b\` / \`admin123\``); or by `is`, `:` or `=`
 *    and an unquoted single token with a digit or a symbol where the sentence ends. Each value must be
 *    one rule 3 does not rule out and not an explicit placeholder. A
 *    mechanical rule cannot tell `is required` from `is letmein` (the limit v6 names), so such a sample
 *    is in neither row and counted with its reason.
 *
 * A sample is a **secret** when rules 1–2 find a value that rule 3 and the placeholders leave; **left
 * out** under rules 4–5; otherwise **benign**. A labeller, not the redaction: it never imports from src/.
 */
import { benignByRule } from './extract.js';
import { isExplicitPlaceholder, passwordValuesV6 } from './rule-v6.js';
import { passwordValuesV7 } from './rule-v7.js';

export type PublicLabel = { label: 'secret'; values: string[] } | { label: 'left out'; reason: string } | { label: 'benign' };

/** Rule 2: the last words that make a name's value a credential beside v6's (`key` needs its qualifier). */
const KEY_QUALIFIERS = new Set(['api', 'secret', 'private', 'access', 'auth', 'signing', 'encryption', 'master', 'license']);

/** Words of a name: split at `_`, `-`, `.`, spaces and a lower-to-upper case change (as rule v6 does). */
const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());

/** Rule 2: whether a name's value is a token or a key by the name's last words. */
function isTokenOrKeyName(name: string): boolean {
  const w = wordsOf(name);
  const last = w[w.length - 1] ?? '';
  if (last === 'token' || last === 'apikey') return true;
  return last === 'key' && KEY_QUALIFIERS.has(w[w.length - 2] ?? '');
}

/** Rule 3: a value that is a reference, a type, a flag or nothing, not a credential given. */
export function isNotAValue(value: string): boolean {
  const v = value.trim();
  if (v === '' || /^[\p{P}\p{S}]$/u.test(v)) return true;
  // An elided value (`sk-...`, `…`) is a mask, as rule v3 reads `..`; an option's name (`--frozen`) is not its value.
  if (/\.\.\.|…|^--[a-z]/i.test(v)) return true;
  // A value that says it is the reader's to fill in (`sk_test_your_key_here`), as rule v2's marker `your[_-]` reads.
  if (/your[_-]|[_-]here\b/i.test(v)) return true;
  if (/^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv|env\(|ENV\[)/.test(v)) return true;
  if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(v)) return true;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) || v.includes('(')) return true;
  return /^(?:string|str|number|boolean|bool|int|integer|text|varchar|any|null|none|nil|undefined|true|false|required|optional|z\.\w+|Optional\[)/i.test(v);
}

/** Rule 1: Markdown marks around names and values removed; table rows read as `name: second cell`. */
export function asPlainText(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const cells = /^\s*\|(.*)\|\s*$/.exec(line)?.[1]?.split('|').map((c) => c.trim());
      const plain = (s: string): string => s.replace(/\*\*|__|`/g, '');
      if (cells !== undefined && cells.length >= 2 && !/^:?-+:?$/.test(cells[0] ?? '')) return `${plain(cells[0] ?? '')}: ${plain(cells[1] ?? '')}`;
      return plain(line);
    })
    .join('\n');
}

/** A name (of rule 2's words), then `:`, `=`, `:=` or `=>`, then the value (quoted, or up to a separator). */
const NAME_THEN_VALUE = /([A-Za-z0-9_.-]+)["'\]]?[ \t]*(?::=|=>|[:=])[ \t]*(["']?)/g;

function tokenOrKeyValues(plain: string): string[] {
  const out: string[] = [];
  for (const m of plain.matchAll(NAME_THEN_VALUE)) {
    if (!isTokenOrKeyName(m[1] ?? '')) continue;
    const rest = plain.slice((m.index as number) + m[0].length);
    const quote = m[2] ?? '';
    const value = quote !== '' ? rest.slice(0, Math.max(0, rest.search(new RegExp(`${quote}|\\n|$`)))) : (/^[^\s,;)}\]]*/.exec(rest)?.[0] ?? '');
    out.push(value);
  }
  return out;
}

/** Rule 5's nouns, after which a value may follow directly (`password \`x\``), and the words that may be verbs
 * (`pass \`--frozen\``, `token accounts`, `login as`), after which only `is`, `:` or `=` introduces one. */
const PROSE_NOUN = /\b(?:password|passwd|pwd|passphrase|pin|secret|creds|credentials)\b/gi;
const PROSE_VERB = /\b(?:pass|token|login)\b/gi;
const VALUE = String.raw`(?:\x60([^\x60\s]+)\x60|"([^"\s]+)"|'([^'\s]+)')`;
const DIRECT = new RegExp(String.raw`^\s*(?:(?:is|are|was)\s+|[:=]\s*)?${VALUE}`, 'i');
const CONNECTED = new RegExp(String.raw`^(?:\s*(?:(?:is|are|was)\s+|[:=]\s*)|(?:\s+[^\s\x60"']+){1,3}?(?:\s+(?:is|are|was)\s+|\s*[:=]\s*))${VALUE}`, 'i');
/** An unquoted single token with a digit or a symbol where the sentence ends. */
const BARE_AT_END = /^\s*(?:is|:|=)\s*([^\s`"']+?)[.!]?\s*$/i;
/** Two values joined as a login pair (`\`admin@x\` / \`admin123\``, `"ops":"pw"`). */
const PAIR_OF_VALUES = new RegExp(String.raw`${VALUE}\s*[/:]\s*${VALUE}`);

/** Positions inside code spans: a word there is a name (`create-token.ts`), not prose. */
function inCodeSpan(line: string, at: number): boolean {
  return (line.slice(0, at).match(/\x60/g) ?? []).length % 2 === 1;
}

function proseValue(line: string): string | undefined {
  const given = (v: string | undefined): v is string => v !== undefined && !isNotAValue(v) && !isExplicitPlaceholder(v);
  for (const [re, form] of [[PROSE_NOUN, DIRECT], [PROSE_VERB, null]] as const) {
    for (const m of line.matchAll(re)) {
      if (inCodeSpan(line, m.index as number)) continue;
      const after = line.slice((m.index as number) + m[0].length);
      for (const f of form === null ? [CONNECTED] : [form, CONNECTED]) {
        const q = f.exec(after);
        const v = q?.[1] ?? q?.[2] ?? q?.[3];
        if (given(v)) return v;
      }
      const b = BARE_AT_END.exec(after)?.[1];
      if (b !== undefined && /[\d\p{P}\p{S}]/u.test(b) && given(b)) return b;
      const pair = PAIR_OF_VALUES.exec(after);
      const second = pair?.[4] ?? pair?.[5] ?? pair?.[6];
      if (given(second)) return second;
    }
  }
  return undefined;
}

/**
 * Rule 1's reading of `name: value` in prose: a value given ends its line (or is quoted, or glued to `=`
 * as in `.env` and a shell's `NAME=value cmd`, or followed only by a comment or a closing mark), while a
 * label's colon introduces a sentence (`Single pass: well-defined topics`, `**PASS**: clear evidence`).
 */
function standsAsValue(plain: string, value: string): boolean {
  for (const line of plain.split('\n')) {
    let at = line.indexOf(value);
    while (at >= 0) {
      const before = line[at - 1] ?? '';
      const rest = line.slice(at + value.length);
      if (/["'=]/.test(before) || /^\s*(?:[,;)}\]]\s*)*(?:(?:#|\/\/).*)?$/.test(rest)) return true;
      at = line.indexOf(value, at + 1);
    }
  }
  return false;
}

/** The label of one sample under rule P1. */
export function labelPublicNote(text: string): PublicLabel {
  const plain = asPlainText(text);
  const named = [...passwordValuesV6(plain), ...tokenOrKeyValues(plain)].filter((v) => standsAsValue(plain, v));
  const written = passwordValuesV7(plain).filter((v) => !passwordValuesV6(plain).includes(v));
  const values = [...named, ...written].filter((v) => !isNotAValue(v) && !isExplicitPlaceholder(v));
  if (values.length > 0) return { label: 'secret', values: [...new Set(values)] };
  if (!benignByRule(text, 'v5')) return { label: 'left out', reason: 'a credential-shaped token that is neither a placeholder nor an id (rule v5)' };
  // Rule 5 reads the sample as written: its code spans and quotes mark the values.
  for (const line of text.split('\n')) {
    if (proseValue(line) !== undefined) return { label: 'left out', reason: 'possibly a value written in prose after its word (rule 5)' };
  }
  return { label: 'benign' };
}

/**
 * What a value looks like: a placeholder, a documentation example, prose, code, or a credential.
 * One owner for these judgements, shared by every rule table.
 */

/** Already replaced by an earlier rule. */
export const isRedacted = (v: string): boolean => v.includes('[REDACTED:');

/**
 * Environment and template references. Case-sensitive on purpose: `$ecretPass1` is a password,
 * `$API_KEY` and `$db_password` (a variable: lower case with an underscore) are not. Besides the
 * shell's: pipeline token replacement (`__DB_PASSWORD__`, `@@DB_PASSWORD@@`), Concourse's
 * `((db_password))`, Python's `%(db_password)s`, and YAML tags that fetch a secret (`!secret x`,
 * `!vault |`, CloudFormation's `!Ref`, `!Sub`).
 */
const ENV_REF =
  /^(?:\$\{[^}]*\}|\$\([^)]*\)|\$[A-Z_][A-Z0-9_]*|\$[a-z][a-z0-9]*_[a-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\$env:[A-Za-z_][A-Za-z0-9_]*|__[A-Z][A-Z0-9_]*__|@@[A-Za-z_][A-Za-z0-9_]*@@|\(\([^()]*\)\)|%\([A-Za-z_][A-Za-z0-9_]*\)s|!(?:secret|vault|Ref|Sub|GetAtt|ImportValue|env_var|include)(?:\s.*)?)$/;
/** An interpolation anywhere in a value makes it a template, not a literal: `squ_${SONAR}`, `"#{DB_PASSWORD}"`, `$__env{X}`. */
const INTERPOLATION = /\$\{|\{\{|#\{|\$\(|\$__env\{/;

/** Words people write where a value goes (any case), and template syntax. */
const PLACEHOLDER =
  /^(?:\*+|[x•]{3,}|\.{2,}|…|-+|_+|\?+|<[^>]*>|\{\{[^}]*\}\}|\{[^}]*\}|\[[^\]]*\]|null|none|nil|undefined|true|false|empty|redacted|hidden|masked|changeme|change[_-]?me|change[_-]?this|replace[_-]?me|(?:todo|tbd|fixme)\b.*|secret|password|passwd|pass|pwd|token|apikey|api[_-]?key|key|value|example|sample|dummy|placeholder|test|testing|foo|bar|baz|admin|root|user|username|guest|postgres|mysql|redis|your[_\- ].*|my[_\- ]?(?:secret|token|password|pass|key|api[_\- ]?key).*|insert[_\- ].*|enter[_\- ].*|put[_\- ].*|paste[_\- ].*|process\.env\..*|import\.meta\.env\..*|os\.environ.*|os\.getenv.*|env\(.*|getenv\(.*|secrets\..*|vault:.*|ref\+.*|op:\/\/.*|arn:aws:secretsmanager.*)$/i;

/**
 * A documentation example or a masked value: AWS's `…EXAMPLE` keys, Sentry's `examplePublicKey`,
 * `ghp_xxxx…`, `sk-***`, `your_api_key_here`: words no generator writes into a token (any case),
 * and runs no generator makes in a token's length (in one case only: `xXXX` is common in 100 KB of base62).
 */
const DOC_EXAMPLE = /EXAMPLE|[Ee]xample|[Pp]laceholder|PLACEHOLDER|[Rr]edacted|REDACTED|x{4,}|X{4,}|\*{3}|\.{3}|…|0{12,}|abcdefghij|[Yy]our[_-]|YOUR[_-]/;
/** The same for long values (a base64 blob, a PEM body), where `XXXX` turns up by chance: one in ~100 at 100 KB. */
const DOC_EXAMPLE_LONG = /EXAMPLE|[Ee]xample|[Pp]laceholder|PLACEHOLDER|[Rr]edacted|REDACTED|x{12,}|X{12,}|\*{3}|\.{3}|…|0{12,}|abcdefghij|[Yy]our[_-]|YOUR[_-]/;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || ENV_REF.test(value) || INTERPOLATION.test(value);
}

/** True for bodies no generator would produce: masks, doc examples, a run of one character, a count or a repeat. */
export function isDummy(value: string): boolean {
  if ((value.length <= 256 ? DOC_EXAMPLE : DOC_EXAMPLE_LONG).test(value) || (value.includes('eyJ') && isJwtIoSample(value))) return true;
  return (value.length >= 8 && fewDistinct(value, 3)) || isPatterned(value);
}

/**
 * Typed by a person, not generated: after any leading words of letters (a vendor prefix such as
 * `xoxp-`, `sk_test_`, `testkey`), every piece only counts up or down or repeats one character,
 * in runs of 4 or more (`1234567890`, `abcdef123456`, `11111111-2222-3333-…`), or the whole
 * repeats a unit of up to 4 characters (`ab12ab12ab12`). Runs of 3 are left alone: `abc123xyz789`
 * may be someone's password.
 * `123456789a1234` is neither (a lone `a`), so it stays a password; so does a repeated word
 * (`hunter2hunter2`), a password people choose.
 */
function isPatterned(value: string): boolean {
  const parts = value.split(/[^A-Za-z0-9]+/).filter((p) => p !== '');
  let first = 0;
  while (first < parts.length - 1 && /^[A-Za-z]+$/.test(parts[first] as string)) first += 1;
  const pieces = parts.slice(first);
  const body = pieces.join('');
  if (body.length < 6) return false;
  if (pieces.every(typedRuns) || (body.length >= 12 && repeatsUnit(body, 4))) return true;
  // A word glued to the front (`testkey1234567890abcdef`): the rest alone, if long enough to tell.
  const rest = body.replace(/^[A-Za-z]+/, '');
  return rest.length >= 8 && rest.length < body.length && typedRuns(rest);
}

/** The step from one character to the next: +1, -1 (digits wrap, 9 → 0) or 0, or undefined. */
function stepOf(a: string, b: string): number | undefined {
  if (a === b) return 0;
  const digits = /\d/.test(a) && /\d/.test(b);
  if (digits) return (Number(a) + 1) % 10 === Number(b) ? 1 : (Number(b) + 1) % 10 === Number(a) ? -1 : undefined;
  if (!/[A-Za-z]/.test(a) || !/[A-Za-z]/.test(b)) return undefined;
  const d = b.charCodeAt(0) - a.charCodeAt(0);
  return d === 1 || d === -1 ? d : undefined;
}

/** Whether `s` is made of runs of 4+ characters that count up, count down or repeat one character. */
function typedRuns(s: string): boolean {
  let i = 0;
  while (i < s.length) {
    const step = i + 1 < s.length ? stepOf(s[i] as string, s[i + 1] as string) : undefined;
    if (step === undefined) return false;
    let j = i + 1;
    while (j + 1 < s.length && stepOf(s[j] as string, s[j + 1] as string) === step) j += 1;
    if (j - i + 1 < 4) return false;
    i = j + 1;
  }
  return true;
}

/** Whether `s` repeats a unit of at most `max` characters from start to end (the last copy may be cut short). */
function repeatsUnit(s: string, max: number): boolean {
  for (let p = 1; p <= max && 2 * p <= s.length; p += 1) {
    let i = p;
    while (i < s.length && s[i] === s[i - p]) i += 1;
    if (i === s.length) return true;
  }
  return false;
}

/**
 * The words right before a value name it an id or a content hash, whatever credential word came
 * earlier: `credentialsId: '…'`, `sha256 …`, `md5=…`, `commit …`, `etag: "…"`, `digest: sha256:…`.
 */
const NAMED_ID =
  /(?:^|[^A-Za-z])(?:sha(?:1|224|256|384|512)?|md5|checksum|chksum|digest|hash|etag|commit|revision|integrity|fingerprint|uuid|guid|id|ids)["'\]]?[ \t]*(?:[:=]|=>|->)?[ \t]*["'`]?$/i;
/** The same in camelCase, where case matters (`credentialsId`, `tokenHash`; not `paid`). */
const NAMED_ID_CAMEL = /[a-z](?:Id|ID|Ids|Hash|Sha|Digest|Checksum|Uuid|Guid)["'\]]?[ \t]*(?:[:=]|=>|->)?[ \t]*["'`]?$/;

export function isNamedId(before: string): boolean {
  const tail = before.slice(-40);
  return NAMED_ID.test(tail) || NAMED_ID_CAMEL.test(tail);
}

/** Whether `value` has at most `n` distinct characters (stops at the first one over). */
function fewDistinct(value: string, n: number): boolean {
  let seen = '';
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i] as string;
    if (seen.includes(c)) continue;
    if (seen.length === n) return false;
    seen += c;
  }
  return true;
}

/** Paths to where a secret is kept are not the secret: `/run/secrets/db`, `~/.aws/credentials`, `./key.pem`. */
const PATH = /^(?:~|\.{1,2})?\/[\w.@/-]*$|^[\w.-]+\.(?:json|pem|key|txt|env|yaml|yml|p12|pfx|crt)$/;

export function isPath(value: string): boolean {
  return PATH.test(value);
}

/** Template and environment references that open here and close later: `${{ secrets.X }}`, `{{ .Values.x }}`, `$(cat f)`. */
export function isTemplateStart(value: string): boolean {
  return /^(?:\$\{|\{\{|\$\(|<|%[A-Za-z_])/.test(value);
}

/**
 * Whether a key or word whose line starts with `before` sits inside a template that fetches the
 * secret (`{{resolve:secretsmanager:MySecret:SecretString:password}}`, `{{ .Values.password }}`):
 * a `{{` opened within the 80 characters before and not closed.
 */
export function insideTemplate(before: string): boolean {
  const head = before.slice(-80);
  const open = head.lastIndexOf('{{');
  return open >= 0 && open > head.lastIndexOf('}}') && !head.includes('\n', open);
}

/** Strips one pair of matching quotes or backticks. */
export function unquote(v: string): { inner: string; quote: string } {
  const first = v[0];
  if (v.length >= 2 && (first === '"' || first === "'" || first === '`') && v.endsWith(first)) return { inner: v.slice(1, -1), quote: first };
  return { inner: v, quote: '' };
}

/**
 * Punctuation that follows a bare value and is not part of it: sentence punctuation in prose,
 * only closing brackets and commas after an assignment (where `hunter2!` keeps its `!`).
 */
export function splitTrailingPunctuation(v: string, prose = true): { value: string; rest: string } {
  const m = (prose ? /[)\]}.,:;!?]+$/ : /[)\]},]+$/).exec(v);
  if (m === null || m.index === 0) return { value: v, rest: '' };
  return { value: v.slice(0, m.index), rest: v.slice(m.index) };
}

/** Code, not a literal: `getToken()`, `self.password`, `cfg.api_key`, `z.string().min(8)`, `config["api_key"]`. */
const CODE_REF = /^[A-Za-z_$][A-Za-z_$]*(?:(?:\??\.|::)[A-Za-z_$][A-Za-z_$]*)*(?:[([].*)?$/;

/** A bare word or an enum-like identifier: `reset`, `refreshed`, `client_secret_basic`, `private_key_jwt`. */
const WORDISH = /^(?:[A-Za-z][a-z]*(?:-[a-z]+)*[.:!?]?|[a-z]+(?:[_-][a-z]+)+)$/;

/**
 * Whether a value given to a secret-named key is a credential rather than prose, code or a
 * placeholder. `numericOk`: PINs and passwords may be digits only; sizes and counts are not secrets.
 */
export function isCredentialValue(raw: string, numericOk: boolean): boolean {
  const { inner, quote } = unquote(raw);
  const v = inner.trim();
  if (v === '' || isRedacted(v) || isPlaceholder(v) || isDummy(v)) return false;
  if (quote !== '') {
    if (v.length < 4) return false;
  } else if (v.length < 6) return false;
  if (/^\d+(?:\.\d+)?$/.test(v)) return numericOk;
  if (WORDISH.test(v) && (v.length < 16 || /[_-]/.test(v))) return false;
  if (CODE_REF.test(v) && /[.([]|::/.test(v)) return false;
  // A sentence, not a value: several lower-case words.
  if (/^[a-z]+(?: [a-z]+){2,}[.!?]?$/i.test(v) && !/\d/.test(v)) return false;
  return true;
}

/** A token-looking string: long enough, and not one word of letters (prose). */
export function looksRandom(v: string, minLength = 8): boolean {
  if (v.length < minLength || isPlaceholder(v) || isDummy(v) || isRedacted(v)) return false;
  return /\d/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v)) || /[^A-Za-z0-9]/.test(v);
}

/** jwt.io's sample tokens (subject 1234567890, John Doe) are documentation, not credentials. */
export function isJwtIoSample(value: string): boolean {
  const payload = /^eyJ[A-Za-z0-9_-]+\.(eyJ[A-Za-z0-9_-]+)\./.exec(value)?.[1];
  if (payload === undefined) return false;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    return claims.sub === '1234567890' && claims.name === 'John Doe';
  } catch {
    return false;
  }
}

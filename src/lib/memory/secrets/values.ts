/**
 * What a value looks like: a placeholder, a documentation example, prose, code, or a credential.
 * One owner for these judgements, shared by every rule table.
 */

/** Already replaced by an earlier rule. */
export const isRedacted = (v: string): boolean => v.includes('[REDACTED:');

/** Environment references. Case-sensitive on purpose: `$ecretPass1` is a password, `$API_KEY` is not. */
const ENV_REF = /^(?:\$\{[^}]*\}|\$\([^)]*\)|\$[A-Z_][A-Z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\$env:[A-Za-z_][A-Za-z0-9_]*)$/;

/** Words people write where a value goes (any case), and template syntax. */
const PLACEHOLDER =
  /^(?:\*+|[x•]{3,}|\.{2,}|…|-+|_+|\?+|<[^>]*>|\{\{[^}]*\}\}|\{[^}]*\}|\[[^\]]*\]|null|none|nil|undefined|true|false|empty|redacted|hidden|masked|changeme|change[_-]?me|change[_-]?this|replace[_-]?me|todo|tbd|secret|password|passwd|pass|pwd|token|apikey|api[_-]?key|key|value|example|sample|dummy|placeholder|test|testing|foo|bar|baz|admin|root|user|username|guest|postgres|mysql|redis|your[_\- ].*|my[_\- ]?(?:secret|token|password|pass|key|api[_\- ]?key).*|insert[_\- ].*|enter[_\- ].*|put[_\- ].*|paste[_\- ].*|process\.env\..*|import\.meta\.env\..*|os\.environ.*|os\.getenv.*|env\(.*|getenv\(.*|secrets\..*|vault:.*|ref\+.*|op:\/\/.*|arn:aws:secretsmanager.*)$/i;

/** A documentation example or a masked value: AWS's `…EXAMPLE` keys, `ghp_xxxx…`, `sk-***`. */
const DOC_EXAMPLE = /EXAMPLE|x{5,}|X{5,}|\*{3}|\.{3}|…|0{12,}|(?:1234567890){2}|abcdefghij|your[_-]?(?:api[_-]?)?(?:key|token|secret)|\[[Rr]edacted|REDACTED/;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || ENV_REF.test(value);
}

/** True for bodies no generator would produce: masks, doc examples, a run of one character. */
export function isDummy(value: string): boolean {
  if (DOC_EXAMPLE.test(value) || (value.includes('eyJ') && isJwtIoSample(value))) return true;
  return value.length >= 8 && fewDistinct(value, 3);
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

/** Code, not a literal: `getToken()`, `self.password`, `cfg.api_key`, `z.string().min(8)`. */
const CODE_REF = /^[A-Za-z_$][A-Za-z_$]*(?:\??\.[A-Za-z_$][A-Za-z_$]*)*(?:\(.*)?$/;

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
  if (CODE_REF.test(v) && (v.includes('.') || v.includes('('))) return false;
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

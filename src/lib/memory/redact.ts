/**
 * Secret redaction and `<private>` blocks.
 *
 * Memory files are written by people and by hooks that paste tool output, so they
 * contain keys now and then; an episode body is sent to a server and to an LLM, so
 * every well-known secret format is replaced by `[REDACTED:<kind>]` first.
 *
 * Design rules:
 * - Rules run in a fixed order, most specific first (PEM blocks before generic
 *   `key = value`, Anthropic `sk-ant-` before OpenAI `sk-`), so the label is precise.
 * - A replacement never contains any character of the secret, and nothing here logs
 *   or returns a secret: results carry only counts per kind.
 * - Every pattern is anchored on a literal or bounded by explicit lengths so that a
 *   10 MB file cannot trigger catastrophic backtracking.
 * - Generic assignments (`password = …`) only fire on a separator plus a value that
 *   does not look like prose or a placeholder, so "the password reset flow" or
 *   "token: the JWT is refreshed" stay untouched.
 */

export interface RedactResult {
  text: string;
  /** Number of redactions per kind, e.g. `{ 'github-token': 2 }`. */
  counts: Record<string, number>;
  total: number;
}

export interface PrivateBlocksResult {
  text: string;
  /** Number of `<private>` blocks removed (an unclosed one counts). */
  count: number;
  /** True when a block had no `</private>` and everything after it was removed. */
  unclosed: boolean;
  warnings: string[];
}

type Replacer = (match: string, groups: readonly (string | undefined)[]) => string | undefined;

interface Rule {
  kind: string;
  re: RegExp;
  /** Returns the replacement, or undefined to keep the match (not a secret after all). */
  replace?: Replacer;
}

const tag = (kind: string): string => `[REDACTED:${kind}]`;

// Token boundaries: a secret must not be glued to other word characters, otherwise we
// would redact the middle of an unrelated identifier.
const B = '(?<![A-Za-z0-9])';
const E = '(?![A-Za-z0-9])';

const isRedacted = (v: string): boolean => v.startsWith('[REDACTED');

/** Values that are obviously not secrets: placeholders, env lookups, booleans (any case). */
const PLACEHOLDER_WORDS =
  /^(?:\*+|x{3,}|\.{2,}|…|-+|<[^>]*>|\{\{[^}]*\}\}|null|none|nil|undefined|true|false|empty|redacted|changeme|your[_\- ].*|process\.env\.[A-Za-z0-9_.]*|os\.environ.*|env\(.*|getenv\(.*|secrets\..*|vault:.*|\[REDACTED.*)$/i;
/** Environment variable references. Case-sensitive on purpose: `$ecretPass1` is a password, `$API_KEY` is not. */
const ENV_REF = /^(?:\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%)$/;
const isPlaceholder = (v: string): boolean => PLACEHOLDER_WORDS.test(v) || ENV_REF.test(v);

/**
 * Keys that contain a secret-ish word but name something that is not a secret:
 * `max_tokens`, `token_count`, `password_file`, `secret_name`, `api_key_id`, `tokenizer`.
 */
const NON_SECRET_KEY =
  /tokeniz|(?:tokens|secrets|passwords|keys|credentials)$|(?:^|[_.\- ])(?:max|min|num|count|total)[_.\- ]|[_.\- ](?:count|limit|max|min|length|len|size|type|name|file|path|dir|url|uri|endpoint|expiry|expires|expiration|ttl|lifetime|hint|policy|prompt|field|label|header|usage|used|budget|id|reset|rotation|format)$/i;

function genericKind(key: string): string {
  const k = key.toLowerCase();
  if (/passw(?:or)?d|pwd|passphrase/.test(k)) return 'password';
  if (/api[_.\- ]?key|apikey/.test(k)) return 'api-key';
  if (/token/.test(k)) return 'token';
  return 'secret';
}

function unquote(v: string): { inner: string; quoted: boolean } {
  const first = v[0];
  if (v.length >= 2 && (first === '"' || first === "'" || first === '`') && v.endsWith(first)) {
    return { inner: v.slice(1, -1), quoted: true };
  }
  return { inner: v, quoted: false };
}

/** Whether an assignment value looks like a real credential rather than prose or a placeholder. */
function isSecretValue(key: string, value: string): boolean {
  const { inner, quoted } = unquote(value);
  const v = inner.trim();
  // Sentence punctuation after a placeholder is not part of it: "(secret: ${X})."
  const bare = quoted ? v : v.replace(/[)\].,:!?]+$/, '');
  if (v === '' || isRedacted(v) || isPlaceholder(v) || isPlaceholder(bare)) return false;
  if (quoted) return v.length >= 4;
  if (v.length < 6) return false;
  // Numbers are sizes and counts far more often than secrets, except for passwords/PINs.
  if (/^\d+(?:\.\d+)?$/.test(v)) return genericKind(key) === 'password';
  // One plain word (or hyphenated words) is prose: "password: reset", "token: refreshed".
  if (/^[A-Za-z][a-z]*(?:-[a-z]+)*[.:!?]?$/.test(v) && v.length < 16) return false;
  // Code, not a literal: `token = getToken()`, `password = self.password`, `cfg.api_key`.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(.*\)?)?$/.test(v) && !/\d/.test(v) && (v.includes('.') || v.includes('('))) return false;
  return true;
}

const GENERIC_KEYWORDS =
  'passw(?:or)?d|pwd|passphrase|secret|api[_.\\- ]?key|apikey|access[_.\\-]?key|private[_.\\-]?key|auth[_.\\-]?token|access[_.\\-]?token|refresh[_.\\-]?token|bearer[_.\\-]?token|token|client[_.\\-]?secret|credentials?';

const RULES: Rule[] = [
  // GCP service-account JSON: the whole escaped PEM string value.
  {
    kind: 'gcp-private-key',
    re: /("private_key"\s*:\s*")((?:[^"\\]|\\.)*)(")/g,
    replace: (_m, g) => (g[1] === undefined || g[1] === '' || isRedacted(g[1]) ? undefined : `${g[0]}${tag('gcp-private-key')}${g[2]}`),
  },
  // PEM private key blocks (RSA, EC, OPENSSH, ENCRYPTED, PGP …), also with JSON `\n` escapes.
  {
    kind: 'pem-private-key',
    re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
  },
  // An unclosed block (truncated paste): the header plus the base64 lines that follow.
  {
    kind: 'pem-private-key',
    re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:(?:\r?\n|\\n)(?:(?:Proc-Type|DEK-Info|Comment|Version): [^\n\\]*|[A-Za-z0-9+/=]+))*/g,
  },
  // scheme://user:password@host → keep scheme, user and host.
  {
    kind: 'url-password',
    re: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:@/?#"'<>]*):([^\s@/?#"'<>]+)@(?=[^\s@/?#"'<>])/gi,
    replace: (_m, g) => {
      const pw = g[2] ?? '';
      if (isRedacted(pw) || /^\*+$/.test(pw) || ENV_REF.test(pw)) return undefined;
      return `${g[0]}${g[1]}:${tag('url-password')}@`;
    },
  },
  { kind: 'slack-webhook', re: /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers))\/[A-Za-z0-9_/-]{8,}/g, replace: (_m, g) => `${g[0]}/${tag('slack-webhook')}` },
  { kind: 'discord-webhook', re: /(https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks)\/\d+\/[A-Za-z0-9_-]{20,}/g, replace: (_m, g) => `${g[0]}/${tag('discord-webhook')}` },
  { kind: 'aws-access-key-id', re: new RegExp(`${B}(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}${E}`, 'g') },
  {
    kind: 'aws-secret-access-key',
    re: /((?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?)([A-Za-z0-9/+=]{30,})/gi,
    replace: (_m, g) => `${g[0]}${tag('aws-secret-access-key')}`,
  },
  {
    kind: 'azure-storage-key',
    re: /\b(AccountKey|SharedAccessKey|SharedAccessSignature)=([^;"'\s]{10,})/g,
    replace: (_m, g) => (isRedacted(g[1] ?? '') ? undefined : `${g[0]}=${tag('azure-storage-key')}`),
  },
  { kind: 'gcp-api-key', re: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`, 'g') },
  { kind: 'google-oauth-client-secret', re: new RegExp(`${B}GOCSPX-[0-9A-Za-z_-]{20,}`, 'g') },
  { kind: 'google-oauth-token', re: new RegExp(`${B}(?:ya29\\.[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{30,})`, 'g') },
  { kind: 'github-token', re: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})${E}`, 'g') },
  { kind: 'gitlab-token', re: new RegExp(`${B}gl(?:pat|dt|rt|ptt|ft|cbt|oas|soat|imt|agent)-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'slack-token', re: new RegExp(`${B}(?:xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})`, 'g') },
  { kind: 'stripe-key', re: new RegExp(`${B}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,})`, 'g') },
  { kind: 'anthropic-key', re: new RegExp(`${B}sk-ant-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'openai-key', re: new RegExp(`${B}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20,}${E})`, 'g') },
  { kind: 'npm-token', re: new RegExp(`${B}npm_[A-Za-z0-9]{36,}${E}`, 'g') },
  { kind: 'huggingface-token', re: new RegExp(`${B}hf_[A-Za-z0-9]{30,}${E}`, 'g') },
  { kind: 'twilio-api-key', re: new RegExp(`${B}SK[0-9a-fA-F]{32}${E}`, 'g') },
  { kind: 'twilio-account-sid', re: new RegExp(`${B}AC[0-9a-f]{32}${E}`, 'g') },
  { kind: 'sendgrid-key', re: new RegExp(`${B}SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}`, 'g') },
  { kind: 'jwt', re: new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*`, 'g') },
  // `Authorization: Bearer …` / `Basic …` / a bare scheme-less value.
  {
    kind: 'authorization',
    re: /(\bauthorization["']?[ \t]*[:=][ \t]*["']?)((?:bearer|basic|token|bot|digest|apikey|sso-key|ssws)[ \t]+)?([^\s"',;]{8,})/gi,
    replace: (_m, g) => {
      const value = g[2] ?? '';
      if (isRedacted(value) || isPlaceholder(value)) return undefined;
      // Without a scheme word only a token-looking value counts ("Authorization: required" is prose).
      if (g[1] === undefined && !(value.length >= 16 && /\d/.test(value))) return undefined;
      return `${g[0]}${g[1] ?? ''}${tag('authorization')}`;
    },
  },
  // `Bearer <token>` anywhere (curl commands, logs). Prose ("bearer tokens are …") has no long token.
  {
    kind: 'bearer-token',
    re: /(\bbearer[ \t]+)([A-Za-z0-9\-._~+/]{16,}=*)/gi,
    replace: (_m, g) => {
      const v = g[1] ?? '';
      return /\d/.test(v) || v.length >= 40 ? `${g[0]}${tag('bearer-token')}` : undefined;
    },
  },
  // Generic `password = value`, `"api_key": "value"`, `**Token:** value`, `export DB_PASSWORD=…`.
  {
    kind: 'generic',
    re: new RegExp(
      `(?<![A-Za-z0-9_.\\-])([A-Za-z0-9_.\\-]{0,64}?(?:${GENERIC_KEYWORDS})[A-Za-z0-9_.\\-]{0,64})` +
        `(["']?\\*{0,2}[ \\t]*(?::=|=>|[:=])\\*{0,2}[ \\t]*)` +
        '("(?:[^"\\\\\\n]|\\\\.){1,500}"|\'(?:[^\'\\\\\\n]|\\\\.){1,500}\'|`[^`\\n]{1,500}`|[^\\s"\'`,;]{1,500})',
      'gi',
    ),
    replace: (_m, g) => {
      const key = g[0] ?? '';
      const value = g[2] ?? '';
      if (NON_SECRET_KEY.test(key) || !isSecretValue(key, value)) return undefined;
      const kind = genericKind(key);
      const { quoted } = unquote(value);
      const q = quoted ? value[0] : '';
      return `${key}${g[1] ?? ''}${q}${tag(kind)}${q}`;
    },
  },
];

/**
 * Replaces every recognised secret by `[REDACTED:<kind>]`.
 * Kinds of the generic rule are `password`, `api-key`, `token` and `secret`.
 */
export function redactSecrets(text: string): RedactResult {
  const counts: Record<string, number> = {};
  let total = 0;
  let out = text;
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, (...args: unknown[]) => {
      const match = args[0] as string;
      // Arguments after the match: capture groups, then offset (number), string, [named groups].
      const groups: (string | undefined)[] = [];
      for (let i = 1; i < args.length && typeof args[i] !== 'number'; i += 1) groups.push(args[i] as string | undefined);
      const replacement = rule.replace ? rule.replace(match, groups) : tag(rule.kind);
      if (replacement === undefined) return match;
      const kind = rule.kind === 'generic' ? (/\[REDACTED:([a-z-]+)\]/.exec(replacement)?.[1] ?? 'secret') : rule.kind;
      counts[kind] = (counts[kind] ?? 0) + 1;
      total += 1;
      return replacement;
    });
  }
  return { text: out, counts, total };
}

/**
 * Removes `<private>…</private>` blocks (case-insensitive, multi-line, nested blocks
 * count once). An unclosed `<private>` removes everything after it — the writer meant
 * it to be private, and losing a tail is better than leaking it — with a warning.
 * A stray `</private>` without an opener is left as it is.
 */
export function stripPrivateBlocks(text: string): PrivateBlocksResult {
  if (!/<\/?private\b/i.test(text)) return { text, count: 0, unclosed: false, warnings: [] };
  const re = /<(\/?)private(?:\s[^<>]*)?>/gi;
  let out = '';
  let cursor = 0;
  let depth = 0;
  let count = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const closing = m[1] === '/';
    if (!closing) {
      if (depth === 0) {
        out += text.slice(cursor, m.index);
      }
      depth += 1;
    } else if (depth > 0) {
      depth -= 1;
      if (depth === 0) {
        count += 1;
        cursor = m.index + m[0].length;
      }
    }
  }
  if (depth > 0) {
    count += 1;
    return {
      text: out,
      count,
      unclosed: true,
      warnings: ['a <private> block is not closed with </private>: everything after it was left out'],
    };
  }
  out += text.slice(cursor);
  return { text: out, count, unclosed: false, warnings: [] };
}

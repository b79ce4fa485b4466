/**
 * Secrets that a format gives away by its structure rather than a prefix: PEM blocks, service
 * account JSON, kubeconfig and Kubernetes Secret manifests, Azure connection strings and SAS
 * signatures, credentials inside URLs, webhook URLs, Docker's config.json.
 */
import { tag, type RegexRule, type ScanRule } from './engine.js';
import { holdsKeyMaterial, isDummy, isEmptyPemBlock, isPlaceholder, isRedacted, isUrlPasswordPlaceholder, looksRandom } from './values.js';

/** GCP service-account JSON: the whole escaped PEM string value. */
const GCP_PRIVATE_KEY: RegexRule = {
  kind: 'gcp-private-key',
  hints: ['"private_key"'],
  re: /("private_key"\s*:\s*")((?:[^"\\]|\\.)*)(")/g,
  // `"private_key": "DUMMY"` in a fixture is a placeholder (values.ts decides), not a key.
  replace: (_m, g) => (g[1] === undefined || g[1] === '' || isRedacted(g[1]) || isPlaceholder(g[1]) || isDummy(g[1]) || isEmptyPemBlock(g[1]) ? undefined : `${g[0]}${tag('gcp-private-key')}${g[2]}`),
};

const PEM_MARKER = /-----(BEGIN|END) ([A-Z0-9 ]{0,40})PRIVATE KEY( BLOCK)?-----/g;
/** What follows the header of an unclosed block (a truncated paste): armour headers and base64 lines. */
const PEM_TAIL = /(?:(?:\r?\n|\\n)(?:(?:Proc-Type|DEK-Info|Comment|Version): [^\n\\]*|[A-Za-z0-9+/=]+))*/y;

/**
 * PEM private key blocks (RSA, EC, OPENSSH, ENCRYPTED, PGP…), also inside JSON strings with `\n`
 * escapes. One pass over the markers pairs each BEGIN with the next marker, so a file full of
 * unclosed headers stays linear.
 */
const PEM_PRIVATE_KEY: ScanRule = {
  kind: 'pem-private-key',
  hints: ['private key'],
  scan: (text) => {
    const markers = [...text.matchAll(PEM_MARKER)];
    let out = '';
    let cursor = 0;
    for (let i = 0; i < markers.length; i += 1) {
      const begin = markers[i] as RegExpExecArray;
      if (begin[1] !== 'BEGIN' || begin.index < cursor) continue;
      const next = markers[i + 1];
      let end: number;
      if (next !== undefined && next[1] === 'END') {
        end = next.index + next[0].length;
        i += 1;
      } else {
        PEM_TAIL.lastIndex = begin.index + begin[0].length;
        PEM_TAIL.exec(text);
        end = PEM_TAIL.lastIndex === 0 ? begin.index + begin[0].length : PEM_TAIL.lastIndex;
      }
      // A block around no key material is a placeholder in a document (values.ts decides).
      if (!holdsKeyMaterial(text.slice(begin.index + begin[0].length, end))) continue;
      out += text.slice(cursor, begin.index) + tag('pem-private-key');
      cursor = end;
    }
    return cursor === 0 ? text : out + text.slice(cursor);
  },
};

/** kubeconfig `client-key-data:` (a base64 PEM key); YAML or JSON. */
const KUBECONFIG_KEY: RegexRule = {
  kind: 'kubeconfig-client-key',
  hints: ['client-key-data'],
  re: /(client-key-data["']?[ \t]*:[ \t]*["']?)([A-Za-z0-9+/=]+)/g,
  replace: (_m, g) => ((g[1] ?? '').length < 16 || isDummy(g[1] ?? '') ? undefined : `${g[0]}${tag('kubeconfig-client-key')}`),
};

const DOC_BOUNDARY = /^((?:---|```|~~~)[^\n]*)$/m;
const SECRET_KIND = /^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?Secret["']?[ \t]*,?[ \t]*$/m;
const DATA_KEY = /^([ \t]*)(data|stringData):[ \t]*$/;
const ENTRY = /^([ \t]+)(["']?[\w.-]+["']?)[ \t]*:[ \t]*(.*)$/;

/** Replaces the values of the `data:`/`stringData:` maps in one YAML document of `kind: Secret`. */
function redactSecretManifest(doc: string): string {
  const lines = doc.split('\n');
  let dataIndent = -1;
  let entryIndent = -1;
  let blockIndent = -1;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const indent = line.length - line.trimStart().length;
    if (blockIndent >= 0) {
      if (line.trim() === '' || indent > blockIndent) {
        if (line.trim() !== '') lines[i] = `${line.slice(0, indent)}${tag('k8s-secret-data')}`;
        continue;
      }
      blockIndent = -1;
    }
    const data = DATA_KEY.exec(line);
    if (data !== null) {
      dataIndent = (data[1] as string).length;
      entryIndent = -1;
      continue;
    }
    if (dataIndent < 0 || line.trim() === '') continue;
    if (indent <= dataIndent) {
      dataIndent = -1;
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry === null || (entryIndent >= 0 && indent !== entryIndent)) continue;
    entryIndent = indent;
    const value = (entry[3] as string).trim();
    if (/^[|>][+-]?\d*$/.test(value)) {
      blockIndent = indent;
      continue;
    }
    const bare = value.replace(/^["']|["']$/g, '');
    if (bare === '' || isRedacted(bare) || isPlaceholder(bare) || isDummy(bare)) continue;
    const quote = /^["']/.test(value) ? (value[0] as string) : '';
    lines[i] = `${line.slice(0, line.length - (entry[3] as string).length)}${quote}${tag('k8s-secret-data')}${quote}`;
  }
  return lines.join('\n');
}

/** Base64 and plain values in Kubernetes Secret manifests (each YAML document or code fence apart). */
const K8S_SECRET: ScanRule = {
  kind: 'k8s-secret-data',
  // SECRET_KIND's value, in its case (`kind: Secret`).
  hints: ['Secret'],
  scan: (text) => {
    if (!SECRET_KIND.test(text)) return text;
    // split() keeps the captured boundaries, so joining restores the text exactly.
    const parts = text.split(DOC_BOUNDARY);
    return parts.map((p) => (SECRET_KIND.test(p) ? redactSecretManifest(p) : p)).join('');
  },
};

/** Azure storage / Service Bus / Event Hubs connection strings. */
const AZURE_STORAGE_KEY: RegexRule = {
  kind: 'azure-storage-key',
  hints: ['accountkey=', 'sharedaccesskey='],
  re: /\b(AccountKey|SharedAccessKey)=([^;"'\s]+)/gi,
  replace: (_m, g) => {
    const v = g[1] ?? '';
    return v.length < 10 || isRedacted(v) || isPlaceholder(v) || isDummy(v) ? undefined : `${g[0]}=${tag('azure-storage-key')}`;
  },
};

/** Azure SAS tokens: the `sig=` signature (percent-encoded base64) is the secret part. */
const AZURE_SAS: RegexRule = {
  kind: 'azure-sas-signature',
  hints: ['sig='],
  re: /((?<![A-Za-z0-9_-])sig=)([A-Za-z0-9%+/=_-]+)/g,
  replace: (_m, g) => {
    const v = g[1] ?? '';
    return v.length < 20 || isDummy(v) ? undefined : `${g[0]}${tag('azure-sas-signature')}`;
  },
};

/** Azure AD (Entra ID) application client secrets: three characters, a digit, `Q~`, then 31–34 more. */
const AZURE_AD_SECRET: RegexRule = {
  kind: 'azure-ad-client-secret',
  hints: ['q~'],
  re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~([A-Za-z0-9_~.-]+)/g,
  // Secrets are 40 characters (34 after `Q~`); a longer run is something else that contains `Q~`.
  replace: (m, g) => ((g[0] ?? '').length < 30 || (g[0] ?? '').length > 36 || isDummy(m, { fullLength: true }) ? undefined : tag('azure-ad-client-secret')),
};

/** scheme://user:password@host → keep scheme, user and host. */
const URL_PASSWORD: RegexRule = {
  kind: 'url-password',
  hints: ['://'],
  // The password may hold `#`, `?` and `!` (people paste them unencoded); the host must follow its `@`.
  // The user may be an e-mail address, as mail servers' logins are (`smtps://ops@example.com:…@smtp.example.com`).
  re: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:@/?#"'<>`]*(?:@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})?):([^\s@/"'<>`]+)@(?=[A-Za-z0-9[])/gi,
  replace: (_m, g) => {
    const pw = g[2] ?? '';
    if (isUrlPasswordPlaceholder(g[1] ?? '', pw) || /^\*+$/.test(pw)) return undefined;
    return `${g[0]}${g[1]}:${tag('url-password')}@`;
  },
};

/**
 * A key as a URL's user part, no password: Sentry DSNs (`https://<key>@o1.ingest.sentry.io/2`),
 * `https://<token>@github.com/…`. Only a long random-looking user part counts (`git@github.com` does not).
 */
const URL_USER_KEY: RegexRule = {
  kind: 'url-credential',
  hints: ['://'],
  re: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([A-Za-z0-9_-]{20,})@(?=[A-Za-z0-9])/gi,
  replace: (_m, g) => (looksRandom(g[1] ?? '', 20) && /\d/.test(g[1] ?? '') ? `${g[0]}${tag('url-credential')}@` : undefined),
};

/** Telegram's bot API URLs carry the bot token in the path: `https://api.telegram.org/bot<id>:<secret>/getMe`. */
const TELEGRAM_BOT_URL: RegexRule = {
  kind: 'telegram-bot-token',
  hints: ['/bot'],
  re: /(\/bot)(\d{5,12}:[A-Za-z0-9_-]{30,})/g,
  replace: (_m, g) => (isDummy(g[1] ?? '') ? undefined : `${g[0]}${tag('telegram-bot-token')}`),
};

/**
 * JSON name/value pairs whose name is a key (`{"keyName": "key1", "value": "…"}`, as `az storage
 * account keys list` prints them; `{"name": "API_TOKEN", "value": "…"}`): the value, when it is a
 * credential. The object is read up to its closing brace.
 */
const JSON_NAMED_VALUE: RegexRule = {
  kind: 'secret',
  hints: ['"value"'],
  re: /(\{[^{}]*?"(?:keyName|name|key|Name|Key)"\s*:\s*"([^"\n]{1,80})"[^{}]*?"value"\s*:\s*")([^"\n]+)(")/g,
  replace: (_m, g) => {
    const name = g[1] ?? '';
    const value = g[2] ?? '';
    if (!/key|secret|token|passw|pwd|credential/i.test(name) || /(?:id|name|url|path|file)$/i.test(name)) return undefined;
    if (!looksRandom(value, 16) || isRedacted(value)) return undefined;
    return `${g[0]}${tag(/passw|pwd/i.test(name) ? 'password' : /token/i.test(name) ? 'token' : 'secret')}${g[3]}`;
  },
};

/** A `.pgpass` line's last field: a password the person chose, so only an explicit placeholder (or less than 4 characters) stays. */
function isPgpassPassword(pw: string): boolean {
  return !(isRedacted(pw) || isPlaceholder(pw, 'chosen') || isDummy(pw, { chooser: 'chosen' }) || pw.length < 4);
}

/**
 * PostgreSQL's password file (`~/.pgpass`, `PGPASSFILE`): `hostname:port:database:username:password`
 * on a line of its own, the port a number or `*`. The password is the rest of the line.
 */
const PGPASS: RegexRule = {
  kind: 'pgpass-password',
  // The port field: `:` then a digit or `*` (a bare `:` is in most prose).
  hints: [':0', ':1', ':2', ':3', ':4', ':5', ':6', ':7', ':8', ':9', ':*'],
  re: /^([ \t]*[A-Za-z0-9_.*[\]-]+:(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:)([^\s][^\n]*)$/gm,
  replace: (_m, g) => (isPgpassPassword((g[1] ?? '').trimEnd()) ? `${g[0]}${tag('pgpass-password')}` : undefined),
};

/**
 * PGPASS_CODE_SPAN: the same line quoted in a code span inside a sentence, in a note that names the file
 * (`Added to .pgpass: \`*:*:*:app:…\``): the password is the span's last field. Only where the note says
 * `pgpass`: five colon-separated fields in a span are otherwise as often a time or an address.
 */
const PGPASS_CODE_SPAN: RegexRule = {
  kind: 'pgpass-password',
  hints: ['pgpass'],
  re: /(`[ \t]*[A-Za-z0-9_.*[\]-]+:(?:\d{1,5}|\*):[^:\s`]+:[^:\s`]+:)([^\s`][^`\n]*)(?=`)/g,
  replace: (_m, g) => {
    const pw = (g[1] ?? '').trimEnd();
    return isPgpassPassword(pw) ? `${g[0]}${tag('pgpass-password')}${(g[1] ?? '').slice(pw.length)}` : undefined;
  },
};

/**
 * HTPASSWD_LINE: a line of an `.htpasswd` or a shadow file, `user:HASH` at the line's start, the hash whole in a
 * crypt format those files hold (Apache's `$apr1$`, MD5-crypt `$1$`, bcrypt `$2a$`/`$2b$`/`$2y$`, SHA-crypt `$5$`/`$6$`,
 * yescrypt `$y$`, `{SHA}`). A hash alone stays (values.ts isNamedHash: a hash named as such is no secret), but this line
 * is the credential file itself: the user beside a hash of a password people choose weak, which `$apr1$` and `{SHA}`
 * give up to a laptop in seconds. Only a whole hash (salt and digest): a prefix in prose (`$2b$12$…`) stays.
 */
const HTPASSWD_LINE: RegexRule = {
  kind: 'password-hash',
  hints: ['$apr1$', '$1$', '$2a$', '$2b$', '$2y$', '$5$', '$6$', '$y$', '{sha}'],
  re: /^([ \t]*[A-Za-z0-9_.@-]{1,64}:)(\$(?:apr1|1|5|6)\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}|\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}|\$y\$[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{1,64}\$[./A-Za-z0-9]{43}|\{SHA\}[A-Za-z0-9+/]{27}=)(?=[ \t]*$|:)/gm,
  replace: (_m, g) => `${g[0]}${tag('password-hash')}`,
};

/**
 * HTTP cookies (`Cookie: a=1; sid=…`, `Set-Cookie: sessionid=…; Path=/`): each value that looks
 * like a generated token is replaced, the names and attributes are kept (`theme=dark` stays).
 */
const COOKIE: RegexRule = {
  kind: 'cookie',
  hints: ['cookie'],
  re: /(\b(?:set-)?cookie["']?[ \t]*:[ \t]*)([^\n"'`]+)/gi,
  replace: (m, g) => {
    const header = g[0] ?? '';
    let changed = false;
    const pairs = (g[1] ?? '').replace(/(^|;[ \t]*)([^=;\s]+)=([^;\s]+)/g, (pair, sep: string, name: string, value: string) => {
      if (!looksRandom(value, 12) || /^(?:path|domain|expires|max-age|samesite)$/i.test(name)) return pair;
      changed = true;
      return `${sep}${name}=${tag('cookie')}`;
    });
    return changed ? `${header}${pairs}` : m;
  },
};

/** Slack's incoming-webhook and workflow URLs (api.slack.com/messaging/webhooks), written with or without their scheme. */
const SLACK_WEBHOOK: RegexRule = {
  kind: 'slack-webhook',
  hints: ['hooks.slack.com'],
  re: /((?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers))\/([A-Za-z0-9_/-]+)/g,
  replace: (_m, g) => ((g[1] ?? '').length < 8 || isDummy(g[1] ?? '') ? undefined : `${g[0]}/${tag('slack-webhook')}`),
};

const DISCORD_WEBHOOK: RegexRule = {
  kind: 'discord-webhook',
  hints: ['/api/webhooks/'],
  re: /(https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks)\/(\d+\/[A-Za-z0-9_-]+)/g,
  replace: (_m, g) => ((g[1] ?? '').length < 30 ? undefined : `${g[0]}/${tag('discord-webhook')}`),
};

/** Docker's config.json: `"auth": "base64(user:password)"`. */
const DOCKER_AUTH: RegexRule = {
  kind: 'docker-config-auth',
  hints: ['"auth"'],
  re: /("auth"[ \t]*:[ \t]*")([A-Za-z0-9+/=]+)(")/g,
  replace: (_m, g) => (looksRandom(g[1] ?? '', 12) ? `${g[0]}${tag('docker-config-auth')}${g[2]}` : undefined),
};

/** Before the vendor rules (a PEM body must go as one block). */
export const STRUCTURED_FIRST: readonly (RegexRule | ScanRule)[] = [GCP_PRIVATE_KEY, PEM_PRIVATE_KEY, KUBECONFIG_KEY, K8S_SECRET];
/** After the vendor rules. */
export const STRUCTURED_RULES: readonly (RegexRule | ScanRule)[] = [URL_PASSWORD, URL_USER_KEY, PGPASS, PGPASS_CODE_SPAN, HTPASSWD_LINE, COOKIE, TELEGRAM_BOT_URL, JSON_NAMED_VALUE, SLACK_WEBHOOK, DISCORD_WEBHOOK, AZURE_STORAGE_KEY, AZURE_SAS, AZURE_AD_SECRET, DOCKER_AUTH];

/**
 * Secrets named by their context: `KEY=value` lines, JSON/YAML/HCL/TOML keys, HTTP headers,
 * `Bearer …`, AWS secret keys and session tokens, and prose ("the admin password is …").
 * Values are matched whole (quoted: up to the closing quote or the end of the line; bare: up
 * to whitespace), whatever their length, then judged by values.ts.
 */
import { isCommonPasswordWord, isCountingRun, isWeakWordWithDigits } from './common-passwords.js';
import { shortcutsOn, tag, type RegexRule, type ScanRule } from './engine.js';
import { endsInUrn, isCodeType, isScopePath } from './names.js';
import { isImageEmbedToken } from './url-query.js';
import { continuesSentence, describedBySentence, SENTENCE_LOOKAHEAD, describesCredential, isClauseSubject, readsAsProse, saysReplaceMe, stripClosingTags } from './prose.js';
import { insideTemplate, type ChosenBy, isCredentialValue, isCursorTokenName, isDummy, isPath, isPlaceholder, isRedacted, literalAfterFunction, looksRandom, outrunsExampleComment, restAfterChosenSecret, splitTrailingPunctuation, unquote } from './values.js';

/** A value after a separator: closed quotes, an unclosed quote (to the end of the line), backticks, or a bare word. */
const VALUE = '("(?:[^"\\\\\\n]|\\\\.)*"|\'(?:[^\'\\\\\\n]|\\\\.)*\'|`[^`\\n]*`|["\'][^\\n]*|[^\\s"\'`]+)';

const AWS_SECRET: RegexRule = {
  kind: 'aws-secret-access-key',
  // What the key must hold (`aws_?secret` or `secret_?access`), not `secret` alone: prose is full of it.
  hints: ['awssecret', 'aws_secret', 'secretaccess', 'secret_access'],
  re: /((?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?)([A-Za-z0-9/+=]+)/gi,
  replace: (_m, g) => ((g[1] ?? '').length < 30 || isDummy(g[1] ?? '') ? undefined : `${g[0]}${tag('aws-secret-access-key')}`),
};

/** STS session tokens run to a thousand characters and more: replaced whole, whatever the length. */
const AWS_SESSION: RegexRule = {
  kind: 'aws-session-token',
  hints: ['session', 'security'],
  re: /((?:aws_?session_?token|aws_?security_?token|x-amz-security-token|session_?token)["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?)([A-Za-z0-9/+=]+)/gi,
  replace: (_m, g) => ((g[1] ?? '').length < 40 || isDummy(g[1] ?? '') ? undefined : `${g[0]}${tag('aws-session-token')}`),
};

/** `Authorization: Bearer …` / `Basic …` / a bare scheme-less value. */
const AUTHORIZATION: RegexRule = {
  kind: 'authorization',
  hints: ['authorization'],
  // The schemes: HTTP's registered ones (Basic, Bearer, Digest, Negotiate, NTLM) and the vendors' own words.
  re: /(\bauthorization["']?[ \t]*[:=][ \t]*["']?)((?:bearer|basic|token|bot|digest|negotiate|ntlm|apikey|sso-key|ssws|key|otoken|dsn)[ \t]+)?([^\s"',;`]+)/gi,
  replace: (_m, g) => {
    const value = splitTrailingPunctuation(g[2] ?? '').value;
    if (isRedacted(value) || isPlaceholder(value) || isDummy(value) || value.length < 8) return undefined;
    // Without a scheme word only a token-looking value counts ("Authorization: required" is prose).
    if (g[1] === undefined && !(value.length >= 16 && /\d/.test(value))) return undefined;
    // Words after the scheme (`Bearer strong-password`, `Bearer my-token`) are a document's example, not a token.
    if (!isCredentialValue(value, false)) return undefined;
    return `${g[0]}${g[1] ?? ''}${tag('authorization')}`;
  },
};

/** API-key headers: `X-API-Key:`, `X-Auth-Token:`, GitLab's `PRIVATE-TOKEN:`, Cloudflare's `X-Auth-Key:`… */
const AUTH_HEADER: RegexRule = {
  kind: 'auth-header',
  hints: ['x-', 'private-token', 'ocp-apim', 'dd-'],
  // Not a URL's user name (`https://x-access-token:…@github.com`): the URL rules own it.
  re: /((?<!\/)\b(?:x-api-key|x-auth-key|x-auth-token|x-access-token|private-token|x-vault-token|x-goog-api-key|x-figma-token|x-shopify-access-token|x-postmark-server-token|ocp-apim-subscription-key|x-functions-key|dd-api-key|dd-application-key|x-riot-token)["']?[ \t]*:[ \t]*["']?)([^\s"',;`]+)/gi,
  replace: (_m, g) => {
    const value = splitTrailingPunctuation(g[1] ?? '').value;
    if (!looksRandom(value, 12)) return undefined;
    return `${g[0]}${tag('auth-header')}${(g[1] ?? '').slice(value.length)}`;
  },
};

/**
 * `Bearer <token>` anywhere (curl commands, logs). Prose ("bearer tokens are …") has no long token.
 * What follows `Bearer` is sent as it is written, so a value typed there (a static token set by hand,
 * `abcdef0123456789abcdef`) works as one: judged as a chosen value, only masks, templates and example words stay.
 */
const BEARER: RegexRule = {
  kind: 'bearer-token',
  hints: ['bearer'],
  // The token may be quoted (curl's `--oauth2-bearer "…"`); the quote stays.
  re: /(\bbearer[ \t]+["']?)([A-Za-z0-9\-._~+/]+=*)/gi,
  replace: (_m, g) => {
    const v = g[1] ?? '';
    if (v.length < 16 || isDummy(v, { chooser: 'chosen' }) || isPlaceholder(v, 'chosen')) return undefined;
    return /\d/.test(v) || v.length >= 40 ? `${g[0]}${tag('bearer-token')}` : undefined;
  },
};

/**
 * The word password and the ways people shorten it by dropping letters (`PSWD`, `psswd`, `pswrd`,
 * `psword`, `paswd`, `pasword`; `passwd` and `password` themselves): one pattern, read by KEYWORD,
 * genericKind and context.ts's credential words, so a shortening is not listed word by word.
 */
export const PASSWORD_SHORTENED = 'pa?ss?wo?r?d';

/**
 * A Wi-Fi network's key, as routers and Windows name its password (`network key`, `WPA2 key`, `wifi_key`):
 * chosen by a person like any password, so genericKind reads it as one.
 */
const WIFI_KEY = String.raw`(?:wi-?fi|wlan|wpa2?|wep|network)[_.\- ]?key`;

/**
 * The answer to an account's security question (`security answer: fluffy`, `SECRET_ANSWER=…`): it opens
 * the account as its password does, and is chosen by a person like one.
 */
const SECURITY_ANSWER = String.raw`(?:security|secret|recovery)[_.\- ]?(?:question[_.\- ]?)?answer`;

/**
 * PIN_NAME: the names code and configuration give a PIN (`PIN_CODE`, `pin_number`, `pinCode`, `pincode`): a
 * password of digits a person chose, read as `password` is (KEYWORD, genericKind). `pin` alone is not one of
 * them: it is a word of prose and of hardware (`pin the version`, `GPIO pin 4`), and context.ts reads only `PIN`.
 * (A board's `pin_number: 13` stays: a chosen value is four characters at least, values.ts.)
 */
const PIN_NAME = String.raw`(?<![a-z])pin[_.\- ]?(?:code|number)`;
/** Where a key holding PIN_NAME is looked for (GENERIC's hints, lower case): every way the two words are joined. */
const PIN_NAME_HINTS = ['', '_', '-', '.', ' '].flatMap((join) => [`pin${join}code`, `pin${join}number`]);

/**
 * Tested on `keyWords(key)`: a keyword must end where a word ends (`master-keying` is not a master key).
 * (`secretkey` in one word is a secret key, as `apikey` and `privatekey` are.)
 */
const KEYWORD = new RegExp(
  String.raw`(?:${PASSWORD_SHORTENED}|pwd|(?<![a-z])pass|(?<![a-z])psk|passphrase|passcode|secret(?:[_.-]?key)?|api[_.\- ]?key|apikey|access[_.-]?key|private[_.-]?key|privatekey|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|auth[_.-]?key|session[_.-]?key|license[_.-]?key|${WIFI_KEY}|${SECURITY_ANSWER}|${PIN_NAME}|token|credentials?)(?![a-z])`,
);
/** `DEPLOY_KEY`, `ssh.key`: a snake-case or dotted key ending in `key` (not camelCase `schemaKey`, a name). */
const KEY_SUFFIX = /[_.-]key$/i;

/** A key in lower case with camelCase humps split by `_`: `secretKey` → `secret_key`, `DB_PASSWORD` → `db_password`. */
function keyWords(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Keys that contain a secret-ish word but name something that is not a secret: `max_tokens`,
 * `token_count`, `password_file`, `secretName`, `tokenUrl`, `secretKeyRef`, `api_key_id`, `tokenizer`.
 */
const NON_SECRET_KEY =
  /tokeniz|(?:tokens|secrets|passwords|keys|credentials)$|(?:^|[_.\- ])(?:max|min|num|count|total|no|use|has|is|enable|enabled|require|required)[_.\- ]|(?:count|limit|max|min|length|len|size|type|name|names|file|files|path|dir|url|uri|endpoint|expiry|expires|expiresat|expiration|ttl|lifetime|hint|policy|prompt|field|label|header|usage|used|budget|id|ids|reset|rotation|format|ref|keyref|env|var|mode|method|methods|provider|store|source|version|hash|algorithm|alg|prefix|suffix|location|arn|kind|manager|vault|param|parameter|regex|pattern|placeholder|sent|enabled|required|flow|grant|scope|scopes|audience|issuer|mount|volume|template|example|description|ui|sha\d*|md5|digest|checksum|_at|_on)$|^hashed[_.-]|^(?:public|publishable|pub)[_.-]?key|[_.-](?:public|publishable|pub)[_.-]?key$/i;

/**
 * Whether a key or name holds a credential word and names the credential itself, not something about
 * it (`DB_PASSWORD`, `apiKey`, `deploy.key`; not `max_tokens`, `passwordPolicy`, `nextPageToken`).
 */
export function namesCredential(key: string): boolean {
  const words = keyWords(key);
  return (KEYWORD.test(words) || KEY_SUFFIX.test(key)) && !NON_SECRET_KEY.test(key) && !isCursorTokenName(key) && !NEGATED_CREDENTIAL_NAME.test(words);
}

/**
 * NEGATED_CREDENTIAL_NAME: a name that says its value is not a credential (`NOT_A_SECRET`, `nonSecret`,
 * `non_secret_label`): code names a constant so to say it may be shown. Its value is judged as any value
 * with no name (a generated run under it is still removed, bare-token.ts). Asked of the key's words
 * (`keyWords`), at its start only: `DO_NOT_SHARE_PASSWORD` still names a password.
 */
const NEGATED_CREDENTIAL_NAME = /^no[nt]_(?:a_)?/;

/**
 * The tag for `value` given under `key`, where the key names a credential and the value is one (as
 * any value beside a credential word is judged: chosen by a person or generated, by the key's words);
 * else undefined. For the forms that hold a key and its value without a separator the `key = value`
 * rules read (xml-element.ts, yaml-block.ts).
 */
export function keyedCredentialTag(key: string, value: string, chooser: ChosenBy = chosenFor(key, value)): string | undefined {
  return namesCredential(key) && isCredentialValue(value, chooser) ? tag(genericKind(key)) : undefined;
}

/**
 * `keyedCredentialTag` for a quoted literal (`"…"`, `'…'`): the tag inside the literal's own quotes, or undefined.
 * `chooser`: how the value was made, when the form says more than the key's words (COMPARED_LITERAL).
 */
export function keyedCredentialLiteral(key: string, literal: string, chooser: ChosenBy = chosenFor(key, literal)): string | undefined {
  const { inner, quote } = unquote(literal);
  const tagged = keyedCredentialTag(key, inner, chooser);
  return tagged === undefined ? undefined : `${quote}${tagged}${quote}`;
}

/**
 * A number as code writes one: decimal digits or a C hex literal of a machine word (`0x31c45018`; longer
 * hex is key material, `DEPLOYER_PRIVATE_KEY=0x` and 64 digits).
 * Given to a name whose credential word other words follow (`pass_mask32`, `ER_PASSWORD_ANONYMOUS_USER`),
 * it is that thing's number (endsInCredentialWord); asked here and by context.ts.
 */
export function isNumberLiteral(value: string): boolean {
  return /^(?:\d+|0x[0-9a-fA-F]{1,16})$/.test(value);
}

/**
 * How the words naming a credential say its value was made (values.ts ChosenBy): a password,
 * passphrase or PIN is chosen by a person; so is a secret named as such (`JWT_SECRET`, `the webhook
 * secret`); keys and tokens are generated. (A person's note holds `JWT_SECRET=changeme` as often as
 * `DB_PASSWORD=changeme`, issue 40.)
 */
export function chosenBy(name: string, kind = genericKind(name)): ChosenBy {
  if (kind === 'password') return true;
  // A secret key, a secret's id, name or reference (`SECRET_KEY`, `secretKey: username`, `secret_access_key`)
  // is generated or names a field: only the secret itself is chosen.
  return kind === 'secret' && /secret(?![ _.-]?(?:key|id|access|name|ref))/i.test(name) ? 'secret' : false;
}

/**
 * The names WEAK_SECRET_VALUE reads, lower-cased: a secret key's, an API key's and an encryption key's (`SECRET_KEY`,
 * `apiKey`, `api key`, `ENCRYPTION_KEY`, `encryption key`): keys an application's owner sets by hand as often as
 * by a generator. Not a vendor's access key (`secret_access_key` does not match: `access` comes between).
 */
const KEY_SET_BY_HAND = /(?:secret|api|encryption)[_.\- ]?key/;
/** A value telling the reader to change it (`changeme`, `change_this`): a stand-in where a key goes, though `changeme` heads the lists. */
const ASKS_TO_BE_CHANGED = /^change[_-]?(?:me|it|this)/i;
/**
 * NUMBER_AS_KEY: digits, six or more, are no name, type or reference a document writes where a key goes, and no
 * stand-in either (documents write `xxxx`, `<key>` or a counting run): under a key set by hand
 * (`ENCRYPTION_KEY=918273645`, `SECRET_KEY: 48213977`) they are the key. Fewer digits are a size or a count as
 * often (`key: 256`); a run that counts on past the digit row's end (`123456789012`, AWS's example account id)
 * is the stand-in COUNTING_RUN names, and stays. Up to 15 digits: a longer number beside the word is the entropy
 * test's (context.ts isHighEntropy), which tells a random one from a zeroed stand-in (`API_KEY=000…0`, 32 zeros).
 */
function isNumberAsKey(value: string): boolean {
  return /^\d{6,15}$/.test(value) && !/^(?:1234567890?)\d*$/.test(value);
}
/**
 * WEAK_SECRET_VALUE: how a value under a key set by hand was made (KEY_SET_BY_HAND: `SECRET_KEY`, `API_KEY`,
 * `apiKey`, `DJANGO_SECRET_KEY`, `ENCRYPTION_KEY`), which chosenBy reads as generated, when the value is a
 * most-common password word, a counting run or such a word with digits (common-passwords.ts: `SECRET_KEY=123456`,
 * `API_KEY=letmein`, `SECRET_KEY=password123`), or a number (NUMBER_AS_KEY): no generator makes one, so a person
 * chose it (an app's own secret key or a self-hosted service's API key is set by hand), and it is that weak secret,
 * judged as a password is (only explicit placeholders stay: `your-secret-key`, `xxxxxx`, `${API_KEY}`). Only those
 * names: a vendor's access key (`AWS_SECRET_ACCESS_KEY`, `access_key`), a token or a private key is issued by a
 * tool, never chosen, so such a value there is a document's stand-in (chosenBy's reading stays).
 * Asked wherever a value is judged by the name it is given under: assignments, table and CSV cells, a label above
 * its value, a YAML list's name/value pair (context.ts, named-value.ts).
 */
export function chosenFor(name: string, value: string, kind = genericKind(name)): ChosenBy {
  const chosen = chosenBy(name, kind);
  if (chosen !== false || !KEY_SET_BY_HAND.test(name.toLowerCase())) return chosen;
  const v = unquote(value.trim()).inner.replace(/[)\].,:;!?]+$/, '');
  return (isCommonPasswordWord(v) && !ASKS_TO_BE_CHANGED.test(v)) || isCountingRun(v) || isWeakWordWithDigits(v) || isNumberAsKey(v);
}

const PASSWORD_WORD_IN_KEY = new RegExp(String.raw`passw|${PASSWORD_SHORTENED}|pwd|passphrase|passcode|(?<![a-z])(?:pass|pw|pin|psk)(?![a-z])|${PIN_NAME}|${WIFI_KEY}|${SECURITY_ANSWER}`);

export function genericKind(key: string): string {
  const k = key.toLowerCase();
  // A PIN is a password of digits (`pin` as a word: not `mapping`, `spinner`).
  // `pass`, `pw`, `pin` and `psk` as words (`ADMIN_PASS`, `"pass"`, `pw for X`, `SIM PIN`, `wifi PSK`; not `bypass`, `mapping`): a PIN is a password of digits, a PSK a Wi-Fi passphrase.
  if (PASSWORD_WORD_IN_KEY.test(k)) return 'password';
  if (/api[_.\- ]?key|apikey/.test(k)) return 'api-key';
  if (/private[_. -]?key|privatekey|signing[_. -]?key/.test(k)) return 'private-key';
  if (/token/.test(k)) return 'token';
  return 'secret';
}


/**
 * Where a bare value's list goes on to its next entry: the next `;Key=` of a connection string or `,Key=`
 * of an option list, the next label of a list written without spaces (`PW:…,password:…`, `password:…,비번:…`:
 * a comma, then a name of any script and its colon), and, for a value that is itself a URL query's or a
 * form's parameter (`inQuery`: its name came after `?` or `&`), the next `&name=` (`?app_secret=…&code=…`);
 * -1 if none. Only there: elsewhere `&` is a character of the password (`DB_PASSWORD=Duvly&q.Cs=0N5y`), and a
 * split there sent the rest of it. Also read by password-forms.ts.
 */
export function nextEntryAt(raw: string, inQuery = false): number {
  return raw.search(inQuery ? ENTRY_IN_QUERY : ENTRY);
}
const ENTRY = /[;,](?:[A-Za-z][\w ]*=|[^\s,;:=()[\]{}"'`]{1,24}:(?!\/\/))/;
const ENTRY_IN_QUERY = new RegExp(`${ENTRY.source}|&[A-Za-z_][\\w.-]*=`);

/**
 * DIGITS_END_SENTENCE (qa-redact-13): a `.` after a bare value is kept in it (a password may end in one: `hunter2.`),
 * but after digits alone it ends the sentence (`SECRET_KEY=123456.`, `PIN=1234.`): a number written as a key or a PIN
 * has no full stop of its own, and the tag took the sentence's with it.
 */
const DIGITS_THEN_FULL_STOP = /^\d+\.$/;

/** A bare value ends before sentence punctuation, and before its list's next entry (nextEntryAt). */
function splitBareValue(raw: string, inQuery: boolean): { value: string; rest: string } {
  const at = nextEntryAt(raw, inQuery);
  const head = at < 0 ? raw : raw.slice(0, at);
  const { value, rest } = splitTrailingPunctuation(head, false);
  if (DIGITS_THEN_FULL_STOP.test(value)) return { value: value.slice(0, -1), rest: `.${rest}${raw.slice(head.length)}` };
  return { value, rest: rest + raw.slice(head.length) };
}

/**
 * Generic `password = value`, `"api_key": "value"`, `**Token:** value`, `export DB_PASSWORD=…`.
 * A scan, not a replace: the key is matched first and judged before any value is read, so a key
 * that is not secret-named (`User ID=app;Password=…`) never swallows the text after it.
 */
// The key is captured by a lookahead and consumed by a backreference (an atomic group), so a long
// identifier that is not followed by a separator is not re-scanned. Sticky: it is tried only where a
// key holding a credential word starts (see the scan below), not at every word of the text.
// A key may be two words, its second one of a few (`API Key:`, `Client Secret =`, `pin code:` of PIN_NAME).
const GENERIC_KEY = new RegExp(
  `(?<![A-Za-z0-9_.$-])(?=([A-Za-z_][A-Za-z0-9_.-]*(?: (?:[Kk]ey|KEY|[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]assword|PASSWORD|[Aa]nswer|ANSWER|[Cc]ode|CODE|[Nn]umber|NUMBER))?))\\1((?:["']\\]?|\\])?\\*{0,2}[ \\t]*(?::=|=>|[:=])(?!=)\\*{0,2}[ \\t]*)`,
  'y',
);
/**
 * What every key the rule takes holds, in some case: each KEYWORD (and KEY_SUFFIX) contains one of
 * these words, and keyWords() only lower-cases and adds `_`, which no word contains. A key without
 * one is skipped by the rule without a trace (its key and separator hold no other key's start), so
 * keys are looked for only around these words.
 */
const KEY_WORD = new RegExp(String.raw`pass|pwd|ps{1,2}w|pasw|psk|secret|key|token|credential|answer|${PIN_NAME}`, 'gi');

/** A position found by `indexOf`, Infinity for none (SEPARATOR_ON_THE_LINE: never looked for again). */
const at = (index: number): number => (index < 0 ? Infinity : index);

/** `[A-Za-z0-9_.-]`, the characters of a key after its first. */
function isKeyChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

/**
 * The start of the run of key characters that ends at `end` (exclusive). `seen` is the run found
 * last (its start and end): a long run of key characters is walked back over once, not once per
 * credential word in it.
 */
function runStart(text: string, end: number, seen: { start: number; end: number }): number {
  let j = end;
  while (j > 0 && isKeyChar(text.charCodeAt(j - 1))) {
    if (j - 1 >= seen.start && j - 1 < seen.end) {
      j = seen.start;
      break;
    }
    j -= 1;
  }
  seen.start = j;
  seen.end = end;
  return j;
}
const GENERIC_VALUE = new RegExp(VALUE, 'y');
/** The first half of a pair's label before the key (`user / password: admin / …`): password-forms.ts reads the pair. */
const USER_SLASH_BEFORE = /(?<![A-Za-z])user(?:name)?[ \t]*\/[ \t]*$/i;

/** Words after a credential word that only say which one it is (`DB_PASSWORD_PROD`, `pin_2`, `ROOT_PASSWORD_OLD`). */
const QUALIFIER = /^(?:\d+|v\d+|prod|production|staging|stage|stg|dev|development|test|testing|qa|uat|local|old|new|current|curr|prev|previous|next|primary|secondary|backup|main|default|admin|root|user|master|temp|tmp|code)$/;

/** KEYWORD where a name ends: a credential word of two words ends a name as a pair (`pin_number`, `api_key`). */
const KEYWORD_ENDS = new RegExp(`(?:${KEYWORD.source})$`);

/**
 * Whether a key ends in its credential word, or only qualifiers follow it (`DB_PASSWORD`, `adminPin`,
 * `DB_PASSWORD_PROD`), rather than words naming something else (`ER_PASSWORD_ANONYMOUS_USER`,
 * `PASSWORD_LOCK_TIME`). Digits given to a key whose credential word is followed by such words are
 * that thing's number (an error code, a time, a count), not a PIN (asked by context.ts too).
 */
export function endsInCredentialWord(key: string): boolean {
  const words = keyWords(key).split(/[^a-z0-9]+/).filter((w) => w !== '');
  let i = words.length - 1;
  while (i > 0 && QUALIFIER.test(words[i] as string) && !KEYWORD.test(words[i] as string)) i -= 1;
  // A credential word of two words ends there as a pair (`pin_number`, `api_key`: KEYWORD_ENDS), and so does
  // a snake-case or dotted key ending in `key` (`SECRET_KEY`, `deploy.key`: KEY_SUFFIX, as namesCredential reads it).
  return KEYWORD.test(words[i] ?? '') || /^(?:pin|pw)$/.test(words[i] ?? '') || KEYWORD_ENDS.test(words.slice(0, i + 1).join('_')) || (i === words.length - 1 && KEY_SUFFIX.test(key));
}

/** The value's replacement, and the rest of the bare word after the value (punctuation, the list's next entries), left to be read. */
function genericReplacement(key: string, raw: string, inQuery: boolean): { tagged: string; rest: string } | undefined {
  // "(secret: ${API_SECRET})." is a placeholder followed by sentence punctuation.
  const kind = genericKind(key);
  const { inner, quote } = unquote(raw);
  // An unclosed quote: everything to the end of the line is the value.
  const opened = quote === '' && /^["'`]/.test(raw) ? (raw[0] as string) : '';
  const bare = quote === '' && opened === '' ? splitBareValue(raw, inQuery) : { value: raw, rest: '' };
  // A bare value in a string's text ends at its escaped line break (`PASSWORD=password\\rDB=tests`): the rest is the next line's.
  const esc = quote === '' && opened === '' ? bare.value.search(/\\[nrt]/) : -1;
  const { value, rest } = esc > 0 ? { value: bare.value.slice(0, esc), rest: bare.value.slice(esc) + bare.rest } : bare;
  const candidate = opened === '' ? value : raw.slice(1);
  // WEAK_SECRET_VALUE asks of the value itself, not of the word it was read from (`API_KEY=letmein;DEBUG=true`).
  const chosen = chosenFor(key, quote === '' && opened === '' ? value : raw, kind);
  const chooser = chosen !== false ? 'chosen' : 'generated';
  if (isPlaceholder(raw, chooser) || isPlaceholder(raw.replace(/[)\].,:;!?]+$/, ''), chooser)) return undefined;
  if (isPath(quote === '' ? candidate : inner)) return undefined;
  // (Quoted or not: `"pass_mask32": "0x…"` names a mask, not a password.)
  if (isNumberLiteral((quote === '' ? candidate : inner).replace(/;$/, '')) && !endsInCredentialWord(key)) return undefined; // (a statement's `;` after it)
  if (!isCredentialValue(candidate, chosen)) return undefined;
  return { tagged: `${quote || opened}${tag(kind)}${quote}`, rest };
}

/**
 * A type annotation between a name and its value (`val password: String = "…"`, Python's
 * `passwd: str = "…"`, `token: String? = "…"`): the value after the `=` is the name's, the type only says
 * what it is. Read when the bare word after the name's colon is a type (names.ts `isCodeType`, or one
 * capitalised word, generic arguments or `?` allowed) and `=` (not `==`) follows it.
 */
const TYPE_THEN_EQUALS = /^[ \t]*=(?!=)[ \t]*/;
/**
 * TYPE_ANNOTATION: whether `raw`, read where a name's value goes, is the name's type with its value after an
 * `=` (`after`: the text that follows `raw`). A type is a code type (names.ts) or one capitalised word,
 * generic arguments allowed, then an optional `?` (nullable) or Swift's `!` (implicitly unwrapped:
 * `var passwordField: UITextField! = nil`). Asked here and by context.ts, which reads the same labels.
 */
export function isTypeAnnotation(raw: string, after: string): boolean {
  // (A reader whose value stops at punctuation leaves the `?` or `!` in `after`.)
  const mark = /^[?!]/.test(after) && !/[?!]$/.test(raw) ? after.charAt(0) : '';
  const type = raw + mark;
  return !/^["'`]/.test(type) && (isCodeType(raw) || /^[A-Z][A-Za-z]*(?:<[\w<>, ]*>)?[?!]?$/.test(type)) && TYPE_THEN_EQUALS.test(after.slice(mark.length));
}
/**
 * CHAINED_ASSIGNMENT: whether `raw`, read where a name's value goes, is another name the same value is
 * assigned to (`password = safe = "…"`, `d["password"] = cached = "…"`): code spaces its `=`, and the value
 * comes after the last one. An identifier, a member or an index, then ` = ` (not `==`) in `after`; a
 * password in `.env` or a note is not followed by a spaced `=` (`DB_PASSWORD=hunter2`).
 */
const CHAINED_EQUALS = /^[ \t]+=(?!=)[ \t]*/;
export function isChainedAssignment(raw: string, after: string): boolean {
  return /^[A-Za-z_][\w.]*(?:\[[^\]\n]{1,40}\])?$/.test(raw) && CHAINED_EQUALS.test(after);
}
/**
 * Where the value of a name starts when `raw` is its type (TYPE_ANNOTATION), another name of a chain
 * (CHAINED_ASSIGNMENT), or a CloudFormation function carrying a literal (values.ts LITERAL_IN_A_FUNCTION).
 */
function typedValueAt(text: string, valueAt: number, raw: string): number | undefined {
  const rest = text.slice(valueAt + raw.length, valueAt + raw.length + 16);
  const literal = literalAfterFunction(raw, rest);
  if (literal !== undefined) return valueAt + raw.length + literal;
  const equals = isTypeAnnotation(raw, rest) ? TYPE_THEN_EQUALS.exec(rest) : isChainedAssignment(raw, rest) ? CHAINED_EQUALS.exec(rest) : null;
  return equals === null ? undefined : valueAt + raw.length + equals[0].length;
}

/**
 * VARIABLE_UNDER_ITS_OWN_NAME: code passing a variable under a key spelled as it (`{"password": password}`,
 * `{'api_key': api_key}`): the quoted key names the field, the bare word after it is the variable holding
 * the credential, not the credential. Only a quoted key and a bare value that ends the entry (`,`, `}`,
 * `)`): a quoted key with a bare value is no JSON, so this is code; `password: password` in YAML or
 * `DB_PASSWORD=password` in `.env` is the weak password issue 40 names and is still removed.
 */
export function isVariableUnderItsOwnName(key: string, separator: string, raw: string, after: string): boolean {
  return /^["']/.test(separator) && raw.startsWith(key) && /^[ \t]*[,})]/.test(raw.slice(key.length) + after);
}

/** The value after a key's separator, as GENERIC_VALUE reads one (quoted, or a bare word up to whitespace, SPACED_ENTRY_NAME). */
function readValue(text: string, at: number): string | undefined {
  GENERIC_VALUE.lastIndex = at;
  const raw = GENERIC_VALUE.exec(text)?.[0];
  if (raw === undefined || /^["'`]/.test(raw)) return raw;
  const last = ENTRY_NAME_START.exec(raw);
  return last !== null && last.index > 0 && SPACED_NAME_GOES_ON.test(text.slice(at + raw.length, at + raw.length + 64)) ? raw.slice(0, last.index) : raw;
}
/**
 * SPACED_ENTRY_NAME (qa-review-16b): a connection string's next entry may have a name of several words
 * (`Password=…;Persist Security Info=False`, `…;Initial Catalog=app`, `…;Api Key=…`): the bare word ends at the
 * space inside that name, so nextEntryAt never saw its `=`; the value took `;Persist` with it (and the tag swallowed
 * it), or was judged with it and kept (`Password=Sup3rS3cret!;Api Key=x`). A word that ends in `;` and a name,
 * where the line goes on with the name's other words and `=`, ends before that `;`.
 */
const ENTRY_NAME_START = /;[A-Za-z][A-Za-z0-9_]*$/;
const SPACED_NAME_GOES_ON = /^(?: [A-Za-z][A-Za-z0-9_]*){1,3}[ \t]*=/;

/**
 * ENTRY_ENDS_LABELLED_VALUE (qa-redact-13): the context rules read a label's bare value up to whitespace, so when the
 * assignment rules kept a value (`Password=abc;Database=app`: `abc`, a stand-in, as `Password=abc` alone is kept) the
 * context rules took the next entries with it (`abc;Database=app`, `abc;Persist` of `;Persist Security Info=False`) and
 * judged and redacted them as one value: a password that stays stayed hidden in a tag that swallowed a name. The bare
 * value ends where the assignment rules end it: before its list's next entry (nextEntryAt), and before a `;` and a name
 * of several words that goes on to its `=` (SPACED_ENTRY_NAME). So `Password=abc;def ghi=1` reads `abc`, then
 * `def ghi`'s entry: the shape of `Persist Security Info=False`, a connection string's entry of several words.
 */
export function bareValueBeforeEntry(raw: string, after: string): string {
  const at = nextEntryAt(raw);
  if (at > 0) return raw.slice(0, at);
  const last = ENTRY_NAME_START.exec(raw);
  return last !== null && last.index > 0 && SPACED_NAME_GOES_ON.test(after) ? raw.slice(0, last.index) : raw;
}

/**
 * ENTRY_READ_ON (qa-review-16b): a value of a bare word whose earlier entry was read (`DB_PASSWORD=…` of
 * `PIN_CODE=8531;DB_PASSWORD=…`), up to the word's next entry (nextEntryAt): its own value, read in the time its
 * entry takes, so a word of many entries is read once (reading each to the word's end took a square of its length).
 * A quoted value is read as GENERIC_VALUE reads it.
 */
function entryInWord(text: string, at: number, wordEnd: number, inQuery: boolean): string | undefined {
  if (/["'`]/.test(text[at] ?? '')) return readValue(text, at);
  const word = text.slice(at, wordEnd);
  const next = nextEntryAt(word, inQuery);
  return next === 0 ? undefined : next < 0 ? word : word.slice(0, next);
}

const GENERIC: ScanRule = {
  kind: 'generic',
  hints: ['pass', 'pwd', 'psw', 'pssw', 'pasw', 'psk', 'secret', 'key', 'token', 'credential', 'answer', ...PIN_NAME_HINTS],
  // RULE_NEEDS (engine.ts): nothing is replaced without a GENERIC_KEY match, whose separator (`:=`, `=>`, `:`, `=`)
  // holds `:` or `=`; prose about a password mostly has neither, and is not scanned.
  needs: [':', '='],
  scan: (text) => {
    let out = '';
    let cursor = 0;
    // Where the next key may start: after the last key and separator read, or the last value replaced.
    let from = 0;
    let tried = -1;
    const seen = { start: -1, end: -1 };
    // ENTRY_READ_ON: where the bare word a value was read from ends, while its next entries are read.
    let wordEnd = -1;
    // SEPARATOR_ON_THE_LINE (IN_RULE_SHORTCUT, engine.ts): the end of the word's line, the next `:` and the next `=`
    // (each looked for again only once passed, so the text is read once for each: Infinity when there is none).
    const skip = shortcutsOn();
    let lineEnd = -1;
    let nextColon = -1;
    let nextEquals = -1;
    KEY_WORD.lastIndex = 0;
    for (let w = KEY_WORD.exec(text); w !== null; w = KEY_WORD.exec(text)) {
      // SEPARATOR_ON_THE_LINE: every key tried for this word ends at or after the word's start, and its separator
      // follows on the same line (neither a key nor what GENERIC_KEY reads up to its separator holds a line break)
      // and holds `:` or `=`. A line with neither from the word on has no key for this word nor for any later word on
      // it: those words are skipped (prose: `The password is stored in Vault`), as the attempts would have failed.
      if (skip) {
        if (w.index >= lineEnd) {
          const nl = text.indexOf('\n', w.index);
          lineEnd = nl < 0 ? text.length : nl;
        }
        if (nextColon < w.index) nextColon = at(text.indexOf(':', w.index));
        if (nextEquals < w.index) nextEquals = at(text.indexOf('=', w.index));
        if (Math.min(nextColon, nextEquals) >= lineEnd) {
          KEY_WORD.lastIndex = Math.max(lineEnd, from, KEY_WORD.lastIndex);
          continue;
        }
      }
      // Where a key holding this word can start, leftmost first: the run of key characters before a
      // space (`API Key:`, the word is the key's optional second word), then the run holding the word.
      for (let pass = text.charCodeAt(w.index - 1) === 32 ? 0 : 1; pass < 2; pass += 1) {
        const start = runStart(text, pass === 0 ? w.index - 1 : w.index, seen);
        if (start < from || start === tried) continue;
        tried = start;
        GENERIC_KEY.lastIndex = start;
        const m = GENERIC_KEY.exec(text);
        if (m === null) continue;
        from = m.index + m[0].length;
        const key = m[1] as string;
        if (!namesCredential(key) || insideTemplate(text.slice(Math.max(0, m.index - 80), m.index))) continue;
        if (endsInUrn(text.slice(Math.max(0, m.index - 48), m.index))) continue; // `urn:k8s:secret:[name]:[key]`: a reference
        if (isScopePath(text, m.index + key.length)) continue; // `token::transfer(…)`: a path's segment (names.ts)
        if (USER_SLASH_BEFORE.test(text.slice(Math.max(0, m.index - 16), m.index))) continue; // `user / password: admin / …`: the pair's (password-forms.ts)
        if (isImageEmbedToken(text.slice(Math.max(0, m.index - 200), m.index), key)) continue; // `badge.svg?token=…`: a badge's embed token
        let valueAt = m.index + m[0].length;
        // A URL query's or a form's parameter (`?token=…&next=…`): its value ends at the next `&name=`.
        const inQuery = text[m.index - 1] === '?' || text[m.index - 1] === '&';
        let raw = valueAt < wordEnd ? entryInWord(text, valueAt, wordEnd, inQuery) : readValue(text, valueAt);
        if (raw === undefined) continue;
        const typed = typedValueAt(text, valueAt, raw);
        if (typed !== undefined) {
          valueAt = typed;
          raw = readValue(text, valueAt);
          if (raw === undefined) continue;
        }
        if (valueAt >= wordEnd && !/^["'`]/.test(raw)) wordEnd = valueAt + raw.length;
        if (isVariableUnderItsOwnName(key, m[2] as string, raw, text.slice(valueAt + raw.length, valueAt + raw.length + 8))) continue;
        const replacement = genericReplacement(key, raw, inQuery);
        if (replacement === undefined) continue;
        // A description of the credential (`**Password**: OpenStack password (…)`): a word that names it follows the bare value.
        if (!/^["'`]/.test(raw) && describesCredential(text.slice(valueAt + raw.length, valueAt + raw.length + 24))) continue;
        // A word of the code or sentence around it (`for _, secret := range secrets {`): prose.ts judges it, for the context rules too.
        if (!/^["'`]/.test(raw) && continuesSentence(m[2] as string, raw, text.slice(valueAt + raw.length, valueAt + raw.length + SENTENCE_LOOKAHEAD))) continue;
        if (saysReplaceMe(text.slice(valueAt + raw.length, valueAt + raw.length + 48)) && !outrunsExampleComment(raw)) continue; // `"P@ssw0rd"  # Replace with an actual password`
        // ENTRY_READ_ON (qa-review-16b): the rest of the word after the value (`;DB_PASSWORD=…` of `PIN_CODE=8531;DB_PASSWORD=…`)
        // is read on from where it starts, so the next entry's key is judged under its own name; skipped, its value was
        // left to the context rules, whose tag took the name with it (and a `!` after it stayed out).
        out += text.slice(cursor, valueAt) + replacement.tagged;
        cursor = valueAt + raw.length - replacement.rest.length;
        from = cursor;
      }
      if (KEY_WORD.lastIndex < from) KEY_WORD.lastIndex = from;
    }
    return cursor === 0 ? text : out + text.slice(cursor);
  },
};

/** "the admin password is Tr0ub4dor&3", "API key for staging: `k3y…`", "the token was changed to …", "… was rotated to …". */
const PROSE: RegexRule = {
  kind: 'prose',
  hints: ['pass', 'pwd', 'secret', 'key', 'token', 'pin', 'psk', 'answer'],
  re: new RegExp(
    '\\b((?:password|passphrase|passcode|passwd|pwd|pin(?:[ \\t]+(?:code|number))?|psk|(?:wi-?fi|wlan|wpa2?|wep|network) key|(?:security|secret|recovery)(?: question)? answer|api key|access key|token|secret)(?:[ \\t]+(?:for|of|on)[ \\t]+[^\\n.:;`"\']{1,60}?)?[ \\t]+' +
      '(?:(?:is|was|has been)[ \\t]+(?:now[ \\t]+|still[ \\t]+)?(?:changed|set|reset|updated|rotated|switched)[ \\t]+to|(?:changed|set|reset|updated|rotated|switched)[ \\t]+to|is now|is still|is|was|became)[ \\t]+(?:now[ \\t]+)?)' +
      '(`[^`\\n]+`|"[^"\\n]+"|\'[^\'\\n]+\'|[^\\s"\'`]+)',
    'gi',
  ),
  replace: (_m, g, offset, text) => {
    const lead = g[0] ?? '';
    const raw = g[1] ?? '';
    const { inner, quote } = unquote(raw);
    // Closing HTML tags after a bare word are markup (`where the secret is located</p>`): prose.ts.
    const bare = quote === '' ? stripClosingTags(raw) : raw;
    const { value, rest } = quote === '' ? splitTrailingPunctuation(bare) : { value: inner, rest: '' };
    const name = lead.split(/[ \t]/)[0] === 'api' ? 'api key' : lead;
    const kind = genericKind(name);
    const chosen = chosenFor(name, value, kind);
    const chooser = chosen !== false ? 'chosen' : 'generated';
    // The test of the value's shape first: it turns most words of prose away for the least work.
    if (quote === '' ? !proseSecret(value, chooser === 'chosen') : value.length < 4) return undefined;
    if (isRedacted(value) || isPlaceholder(value, chooser) || isDummy(value, { chooser })) return undefined;
    // `the secret is left intact`: a word with more of the sentence after it (prose.ts); `set to` still takes a value.
    if (quote === '' && /(?:is|was)[ \t]+$/i.test(lead) && describedBySentence(value, text.slice(offset + lead.length + value.length, offset + lead.length + value.length + 12))) return undefined;
    // Not the subject of a clause (`the key where the token is found`, `unless Token is set`), nor a
    // lead holding one (`password for the archive when format is set to`): prose.ts judges the words.
    if (isClauseSubject(text.slice(Math.max(0, offset - 48), offset), lead)) return undefined;
    // Judged as every labelled value is (values.ts): `this token is 'read-job'` names a policy, `the secret is base64 encoded`.
    if (!isCredentialValue(quote === '' ? value : raw, chosen)) return undefined;
    return `${lead}${quote}${tag(kind)}${quote}${chosen !== false && bare === raw ? restAfterChosenSecret(rest) : rest}${raw.slice(bare.length)}`;
  },
};

/**
 * A bare word in a sentence is a key or token only if it does not read as a word: digits, symbols or
 * inner capitals. A password (`chosen`) may be a word (`the wifi password is sunshine`), but not one
 * of the sentence's own (`the password is stored in Vault`, prose.ts).
 */
function proseSecret(v: string, chosen: boolean): boolean {
  if (chosen) return v.length >= 4 && !readsAsProse(v);
  if (v.length < 6 || /^[A-Za-z][a-z]+$/.test(v)) return false;
  if (/^\d+$/.test(v)) return v.length >= 4;
  return /\d/.test(v) || /[^A-Za-z0-9]/.test(v) || /[a-z][A-Z]/.test(v);
}

/**
 * A credential's name compared with a literal in code (`if (password === "…")`, `if passwd != '…':`): the
 * literal is the credential the code checks for, as written (a hard-coded password is the classic
 * leak). Only a quoted literal: a name compared with another name (`token == expected`) holds none.
 * Judged as any value beside its name (`keyedCredentialTag`: `password == ""`, templates and masks stay).
 */
const COMPARED_LITERAL: RegexRule = {
  kind: 'generic',
  // Every comparison holds one of these; prose seldom does.
  hints: ['==', '!='],
  re: /((?<![\w$-])([A-Za-z_][\w.]*)[ \t]*(?:===?|!==?)[ \t]*)("[^"\n]{1,256}"|'[^'\n]{1,256}')/g,
  replace: (_m, g) => {
    const tagged = keyedCredentialLiteral(g[1] ?? '', g[2] ?? '', comparedChooser(g[1] ?? ''));
    return tagged === undefined ? undefined : `${g[0] ?? ''}${tagged}`;
  },
};

/**
 * LITERAL_COMPARED_FIRST: the same comparison with the literal written first (`if "…" == password {`,
 * `if ('…' === apiToken)`, a "Yoda condition", which some style guides ask for): the literal is the
 * credential the code checks for, judged as COMPARED_LITERAL judges it. The name must end there (not a
 * call or a member read: `"x" == password.strip()` compares something else).
 */
const LITERAL_COMPARED_FIRST: RegexRule = {
  kind: 'generic',
  hints: ['==', '!='],
  re: /(?<![\w\\])("[^"\n]{1,256}"|'[^'\n]{1,256}')([ \t]*(?:===?|!==?)[ \t]*)([A-Za-z_][\w.]*)(?![\w.$([])/g,
  replace: (_m, g) => {
    const tagged = keyedCredentialLiteral(g[2] ?? '', g[0] ?? '', comparedChooser(g[2] ?? ''));
    return tagged === undefined ? undefined : `${tagged}${g[1] ?? ''}${g[2] ?? ''}`;
  },
};

/**
 * A credential's name given to a call with its literal as the next argument: PHP's `define('DB_PASSWORD',
 * '…')` (every WordPress wp-config.php), `System.setProperty("javax.net.ssl.keyStorePassword", "…")`,
 * `config.set('password', '…')`, `setenv("DB_PASSWORD", "…")`. The literal is the credential as
 * written, judged as any value beside its name: a name that is no credential's (`setAttribute('type',
 * 'password')`), a template, a mask or a label's own text (`t('password', 'Password')`) stay.
 */
const NAMED_ARGUMENT: RegexRule = {
  kind: 'generic',
  // The two quoted arguments' comma, which every such call holds and prose seldom does.
  hints: ["', '", '", "', "','", '","'],
  re: /(\([ \t]*(["'])([A-Za-z_][\w.-]*)\2[ \t]*,[ \t]*)("[^"\n]{1,256}"|'[^'\n]{1,256}')(?=[ \t]*[,)])/g,
  replace: (_m, g) => {
    // One credential word given for another (`t('password', 'Password')`, `rename('password', 'passwd')`):
    // a label or a mapping of names. Under a name that says more (`define('DB_PASSWORD', 'password')`) it is the password.
    if (BARE_CREDENTIAL_WORD.test(g[2] ?? '') && BARE_CREDENTIAL_WORD.test(unquote(g[3] ?? '').inner)) return undefined;
    // A name that goes on past its credential word names something else (a mock's `"GlobalSecretFind"`).
    if (!endsInCredentialWord(g[2] ?? '')) return undefined;
    const tagged = keyedCredentialLiteral(g[2] ?? '', g[3] ?? '');
    return tagged === undefined ? undefined : `${g[0] ?? ''}${tagged}`;
  },
};
const BARE_CREDENTIAL_WORD = /^(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key)$/i;

/**
 * SECRET_COMPARED_AS_VALUE: a secret compared with a literal (`if creds.Secret != "open-sesame"`) is checked
 * against its value, so the literal is read as a password's would be, a name-like value included. Beside a
 * secret's name elsewhere such a value names an object (`secret: db-creds`, a Kubernetes Secret), and code
 * comparing a Secret's name says so (`secret.name == …`, which names no credential).
 */
function comparedChooser(key: string): ChosenBy {
  const chooser = chosenBy(key);
  return chooser === 'secret' ? true : chooser;
}

export const ASSIGNMENT_RULES: readonly (RegexRule | ScanRule)[] = [AWS_SECRET, AWS_SESSION, AUTHORIZATION, AUTH_HEADER, BEARER, GENERIC, COMPARED_LITERAL, LITERAL_COMPARED_FIRST, NAMED_ARGUMENT, PROSE];

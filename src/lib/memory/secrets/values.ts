/**
 * What a value looks like: a placeholder, a documentation example, prose, code, or a credential.
 * One owner for these judgements, shared by every rule table.
 */
import { isCjkProse, isMarkdownLink, isNextLabel, readsAsProse } from './prose.js';
import { holdsPasswordWordUnspaced, isCodeType, isCredentialTypeName, isCredentialVariableName, isFormatName, isNameNotValue, isOptionList, isSecretManagerName, isStructTagName, isTranslatedPasswordWord, saysNoValueInOtherLanguage, saysStateInOtherLanguage } from './names.js';

/** Already replaced by an earlier rule. */
export const isRedacted = (v: string): boolean => v.includes('[REDACTED:');

/**
 * Who chose a value decides what may stand in for it (issue 40):
 * - `chosen`: a password, passphrase or PIN, or a secret named as such. A person chose it, so any word, a run of digits, a
 *   keyboard row, a default such as `changeme` or the user's own name may be one, and in a person's
 *   own note it usually is: `123456`, `letmein` and `admin123` are the most common passwords there
 *   are. Only explicit placeholders stay (isExplicitPlaceholder).
 * - `generated`: a key, a token, a generated secret. No generator writes a word, a counting run or
 *   a keyboard row, so one written where such a value goes is a stand-in as well (STAND_IN_WORD,
 *   TYPED_RUN, isTypedByHand).
 */
export type Chooser = 'chosen' | 'generated';

/**
 * TEMPLATE: a value a program fills in, whole. Case-sensitive on purpose: `$ecretPass1` is a
 * password, `$API_KEY` and `$db_password` (a variable: lower case with an underscore) are not.
 * The shell's `${…}`, `$(…)`, `$VAR`; Windows' `%VAR%` and `$env:X`; pipeline token replacement
 * (`__DB_PASSWORD__`, `@@DB_PASSWORD@@`); Concourse's `((db_password))`; Python's `%(db_password)s`;
 * YAML tags that fetch a secret (`!secret x`, `!vault |`, `!env_var`, `!include`: YAML_FETCH_TAGS) or compute it
 * (CloudFormation's functions, CLOUDFORMATION_FUNCTIONS) or type it (`!!binary |`: the value is on the next lines);
 * SQL's named parameters (`:password`, `@password`).
 */
/**
 * CLOUDFORMATION_FUNCTIONS: the intrinsic functions and condition functions CloudFormation's YAML writes as a tag
 * (AWS's reference lists exactly these): `MasterUserPassword: !Ref DBPassword`, `HasPassword: !Not [!Equals [...]]`.
 * Whatever follows such a tag is a template's expression, computed when the stack is made, never the value written.
 * A tag that is not one of them stays a value (`password: !hunter2` is how a note may write one).
 */
const CLOUDFORMATION_FUNCTIONS = ['Ref', 'Sub', 'GetAtt', 'ImportValue', 'Base64', 'Cidr', 'FindInMap', 'GetAZs', 'Join', 'Select', 'Split', 'Transform', 'And', 'Equals', 'If', 'Not', 'Or', 'Condition'];

/**
 * LITERAL_IN_A_FUNCTION: two of those functions may carry the written value itself. `!Sub` replaces only
 * its `${…}`, so `!Sub 'Sup3rS3cret!'` is that string; `!Base64` encodes what follows, so `!Base64 hunter2`
 * sends hunter2, encoded. When such a tag is followed on its line by a literal (not another function
 * `!Ref …`, a list, a map or a block `|`/`>`), the value is that literal, judged as any value (a `${…}`
 * in it still makes it a template). Given the tag read where the value goes and the text after it: how
 * far the literal starts after the tag, or undefined.
 */
const LITERAL_AFTER_FUNCTION = /^[ \t]+(?=[^\s!|>[{#])/;
export function literalAfterFunction(tagRead: string, after: string): number | undefined {
  if (tagRead !== '!Sub' && tagRead !== '!Base64') return undefined;
  return LITERAL_AFTER_FUNCTION.exec(after)?.[0].length;
}
/**
 * CLOUDFORMATION_LONG_FORM (qa-redact-13): the same functions as YAML writes them in full, a map's key under the
 * credential's (`MasterUserPassword:` then `Fn::If:` or `Fn::GetAtt:` on the line below, JSON's `"Fn::Join"`): the
 * function's name where a value goes is the template's expression, as its tag is (cloudformation.ts reads the literals
 * in its list).
 */
const CLOUDFORMATION_LONG_FORM = `Fn::(?:${CLOUDFORMATION_FUNCTIONS.join('|')}):?(?:\\s.*)?`;
/** Tags of YAML tools that fetch the value from elsewhere (Home Assistant's `!secret`, Ansible's `!vault`, ESPHome's `!include`, dbt's `!env_var`). */
const YAML_FETCH_TAGS = ['secret', 'vault', 'env_var', 'include', ...CLOUDFORMATION_FUNCTIONS];
const TEMPLATE = new RegExp(
  String.raw`^(?:\$\{[^}]*\}|\$\([^)]*\)|\$[A-Z_][A-Z0-9_]*|\$[a-z][a-z0-9]*_[a-z0-9_]*|\$[a-z][a-z0-9]*(?:-[a-z0-9]+)+|%[A-Za-z_][A-Za-z0-9_]*%|\$env:[A-Za-z_][A-Za-z0-9_]*|__[A-Z][A-Z0-9_]*__|@@[A-Za-z_][A-Za-z0-9_]*@@|\(\([^()]*\)\)|%\([A-Za-z_][A-Za-z0-9_]*\)s|!(?:${YAML_FETCH_TAGS.join('|')})(?:\s.*)?|!![a-z]+(?:\s.*)?|${CLOUDFORMATION_LONG_FORM}|[:@][A-Za-z_]+)$`,
);

/**
 * BRACKETED: a placeholder written in brackets, as documents and templates write them: `<password>`
 * (also HTML-escaped, `&lt;YOUR_PASSWORD&gt;`), `{{ vault_db_password }}`, `{name}`, `[hidden]`, and
 * the first word of a bracketed phrase cut at its space (`[Shared Access key goes here]`, `<Your password>`).
 */
const BRACKETED = /^(?:<[^>]*>|&lt;.*&gt;|\{\{[^}]*\}\}|\{[^}]*\}|\[[^\]]*\]|\[[A-Za-z][a-z]*|<[A-Za-z][a-z]*)$/i;

/**
 * INTERPOLATION anywhere in a value makes it a template, not a literal: `squ_${SONAR}`,
 * `"#{DB_PASSWORD}"`, `$__env{X}`; so does a value built on an upper-case variable followed by a
 * path (`$REACT_APP_BASE_URL/#/forgot_password`).
 */
const INTERPOLATION = /\$\{|\{\{|#\{|\$\(|\$__env\{|^\$[A-Z_][A-Z0-9_]*\//;

/** An upper-case name of a variable holding the credential, not the credential: `DB_PASSWORD`, `STRIPE_API_KEY_2`, `PASSWORD`. */
const VARIABLE_NAME = /^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_?)?(?:PASSWORD|PASSWD|PASS|PWD|TOKEN|KEY|SECRET|CREDENTIALS?|AUTH|PAT|DSN)(?:_[A-Z0-9]+)*$/;

/** MASK: the value hidden by a masking character repeated (`********`, `xxxx`, `••••`, `...`, `---`, `???`). */
const MASK = /^(?:\*+|[x•]{3,}|\.{2,}|…|-+|_+|\?+)$/i;

/**
 * SECRET_STORE: where the value is kept or how it is fetched, not the value: a vault or secret
 * manager's reference (`vault:…`, 1Password's `op://…`, `ref+…`, an AWS ARN, a GCP secret's path, a
 * URN), an encrypted value (Jasypt's `ENC(…)`, SOPS's `ENC[…]`, Spring Cloud Config's `{cipher}…`),
 * a command that prints it (`` `cat /run/secrets/token` ``, `pass show x`, `op read …`), or code that
 * reads it from the environment or a CI's secrets (`process.env.X`, `os.environ[…]`, `secrets.X`).
 */
const SECRET_STORE =
  /^(?:vault:.*|op:\/\/.*|ref\+.*|arn:aws[\w-]*:.*|projects\/[^/\s]+\/secrets\/.*|urn:[a-z0-9][a-z0-9-]*:.*|ENC[([].*|\{cipher\}.*|(?:cat|op|pass|gopass|lpass|bw|vault|aws|gcloud|az|security|openssl|kubectl|doppler|sops|secret-tool)\s.*|process\.env\..*|import\.meta\.env\..*|os\.environ.*|os\.getenv.*|env\(.*|getenv\(.*|secrets\..*)$/i;

/**
 * EXAMPLE_WORD: words that say the value is an example, a stand-in or absent, any case:
 * `placeholder`, `example`, `your-password` (`yourpassword`, `YOURSECRETKEYGOESHERE`), `redacted`, `<…>`'s words without brackets (`insert-key-here`,
 * `paste_token`), a name for the value with a separator (`my-password`, `my_bitbucket_password`),
 * a to-do (`TODO: set me`), `replace-me`, and no value at all (`null`, `none`, `empty`, `true`).
 * (`mypassword` and `changeme` are not here: both are passwords people choose.)
 */
const EXAMPLE_WORD =
  /^(?:placeholder|example|sample|dummy|redacted|hidden|masked|value|(?:example|sample|dummy)[_@.-]?\d{1,4}|your(?:[_\- ].*|[a-z].*)|my[_\- ](?:secret|token|password|pass|key|api[_\- ]?key).*|my[_-][A-Za-z0-9-]*[_-](?:secret|token|password|pass|key)|insert[_\- ].*|enter[_\- ].*|put[_\- ].*|paste[_\- ].*|replace[_-]?me|(?:todo|tbd|fixme)\b.*|null|none|nil|undefined|empty|true|false)$/i;

/**
 * The rules read in any case (MASK, BRACKETED, EXAMPLE_WORD, SECRET_STORE) as one expression: the
 * same rules, asked in one pass instead of four (this is asked of every value beside a credential word).
 */
const ANY_CASE_PLACEHOLDER = new RegExp(`^(?:${[MASK, BRACKETED, EXAMPLE_WORD, SECRET_STORE].map((r) => r.source.slice(1, -1)).join('|')})$`, 'i');

/** An explicit placeholder, for a value of any kind (issue 40's list: templates, masks, vault references, words that say so). */
function isExplicitPlaceholder(value: string): boolean {
  // VARIABLE_NAME can retry its middle word at each `_`: asked of names, not of 100 KB runs.
  return ANY_CASE_PLACEHOLDER.test(value) || TEMPLATE.test(value) || INTERPOLATION.test(value) || FORMAT_VERB.test(value) || (value.length <= 128 && VARIABLE_NAME.test(value));
}

/**
 * STAND_IN_WORD, for generated values only: a word written where a key or token goes, any case,
 * with up to 4 digits after it (`token`, `apikey`, `test123`, `admin1234`, `key_1`), or a phrase
 * telling the reader to change it (`changeme`, `change_this`). A password may be any of these.
 */
const STAND_IN_WORD =
  /^(?:(?:password|passwd|pass|pwd|secret|token|key|apikey|api[_-]?key|admin|administrator|root|test|testing|demo|dev|guest|user|username|postgres|mysql|redis|letmein|welcome|default|qwerty|foo|bar|baz)(?:[_@.-]?\d{1,4})?|change[_-]?(?:me|it|this).*|my(?:secret|token|password|pass|key|api[_\- ]?key).*)$/i;

/**
 * Whether a value is a placeholder, not a credential: an explicit one for every value; for a
 * generated one (the default), a stand-in word as well.
 */
export function isPlaceholder(value: string, chooser: Chooser = 'generated'): boolean {
  return isExplicitPlaceholder(value) || (chooser === 'generated' && STAND_IN_WORD.test(value));
}

/**
 * EXAMPLE_MARK: a value that says it is an example or masked, in part, for any value: AWS's `…EXAMPLE`
 * keys, Sentry's `examplePublicKey`, `ghp_xxxx…`, `sk-***`, `your_api_key_here`, a value that says it
 * is not one (`ops_DUMMY…`, `fake-key-123`, `notARealPassword`). `fake`, `dummy` and `not a real`
 * count as a word of the value: at its start or after a separator (`sk_test_fake…`), not glued to
 * letters or digits (`…12fake…`, which a scanner's own true positive holds).
 * MASK_RUN: a run of `x` (in one case only: `xXXX` is common in 100 KB of base62) where it stands
 * for what was masked: at the value's start or end, after a separator (`ghp_xxxx…`, `xoxb-XXXX-…`,
 * `AKIAXXXXXXXX`), or eight long. Four inside a generated token are four of its characters: a
 * URL-safe token of 43 holds `XXXX` about twice in a million, and a Contentful token the property
 * test drew that way was sent whole.
 */
const EXAMPLE_MARK =
  /EXAMPLE|[Ee]xample|[_-](?:xxx|XXX)$|•{3}|[Pp]laceholder|PLACEHOLDER|[Rr]edacted|REDACTED|(?:^|[_./:-])(?:x{4}|X{4})|(?:x{4}|X{4})$|x{8}|X{8}|\*{3}|\.{3}|…|[Yy]our[_-]|YOUR[_-]|(?:^|[_./:-])(?:[Dd]ummy|DUMMY|[Ff]ake|FAKE|[Nn]ot[_-]?[Aa]?[_-]?[Rr]eal|NOT[_-]?A?[_-]?REAL)/;
/** The same for long values (a base64 blob, a PEM body), where `XXXX` turns up by chance: one in ~100 at 100 KB. */
const EXAMPLE_MARK_LONG = /EXAMPLE|[Ee]xample|[Pp]laceholder|PLACEHOLDER|[Rr]edacted|REDACTED|x{12,}|X{12,}|\*{3}|\.{3}|…|[Yy]our[_-]|YOUR[_-]/;

/**
 * TYPED_RUN, for generated values only: runs a person types on a keyboard, which no generator makes in
 * a token (`abcdefghij`, `qwertyuiop`, a row of zeros), and the metasyntactic `FooBar`. In a
 * password they are what people choose.
 */
const TYPED_RUN = /0{12,}|abcdefghij|qwertyuiop|asdfghjkl|zxcvbnm|[Ff]oo[_-]?[Bb]ar|FOO[_-]?BAR/;
const TYPED_RUN_LONG = /0{12,}|abcdefghij/;

/**
 * Whether a value is a documentation example, a mask or (for a generated value, the default) a
 * stand-in typed by hand. `fullLength`: a value of its format's full length has nothing left out:
 * `...` in it is three of its characters (Azure AD secrets draw from `[A-Za-z0-9_~.-]`), not an
 * elision, and runs that count are part of it, not a stand-in typed short (`SK0123456789abcdef…` of
 * Twilio's 32 hex digits, a Slack bot token's three parts: documents shorten or mask theirs).
 */
export function isDummy(value: string, opts: { fullLength?: boolean; chooser?: Chooser } = {}): boolean {
  if (opts.fullLength === true) value = value.replace(/\.{3,}|…/g, '');
  const chooser = opts.fullLength === true ? 'chosen' : (opts.chooser ?? 'generated');
  const long = value.length > 256;
  if ((long ? EXAMPLE_MARK_LONG : EXAMPLE_MARK).test(value) || (value.includes('eyJ') && isJwtIoSample(value)) || isEncodedExample(value, chooser)) return true;
  return chooser === 'generated' && ((long ? TYPED_RUN_LONG : TYPED_RUN).test(value) || isTypedByHand(value));
}

/**
 * A generated value's stand-in typed by hand. (A long run of one character alone is not enough:
 * Twitter's bearer tokens open with twenty-two `A`s.)
 * - one character repeated (`1111`, `aaaa`) at any length, up to 3 distinct from 8 on;
 * - a mask with a word stuck on (maskWithTail);
 * - runs that count up or down, or a repeated unit (isPatterned: `1234567890`, `sk_test_abcdef123456`);
 * - a fixture's counting pair (`abc123`, isCountingPair);
 * - a placeholder written twice (`key123key123`, isRepeatedPlaceholder).
 */
function isTypedByHand(value: string): boolean {
  return (value.length >= 3 && fewDistinct(value, 1)) || (value.length >= 8 && fewDistinct(value, 3)) || maskWithTail(value) || isPatterned(value) || isCountingPair(value) || isRepeatedPlaceholder(value);
}

/**
 * A placeholder written twice (`pass456pass456`, `key123key123`): a fixture's stand-in made longer.
 * (`hunter2hunter2` is not: `hunter2` is a password people choose, not a placeholder.)
 */
function isRepeatedPlaceholder(value: string): boolean {
  if (value.length < 8 || value.length > 64 || value.length % 2 !== 0) return false;
  const half = value.slice(0, value.length / 2);
  return value.endsWith(half) && isPlaceholder(half);
}

/**
 * A test fixture's stand-in: three to six letters counting up, then as many digits counting up
 * (`abc123`, `def456`, `xyz789`), or the other way round (`123abc`). Longer mixes of such runs stay
 * values (`abc123xyz789` may be someone's password, isPatterned).
 */
function isCountingPair(value: string): boolean {
  // After a vendor's prefix too (`xoxb-123abc`, `gho_abc123`, `sk_test_abc123`): no vendor issues a
  // token of six characters, so the prefix only says what the stand-in stands for.
  const m = /^(?:[a-z]{2,8}[_-]){0,2}(?:([A-Za-z]{3,6})(\d{3,6})|(\d{3,6})([A-Za-z]{3,6}))$/.exec(value);
  if (m === null) return false;
  const runs = m[1] !== undefined ? [m[1], m[2] as string] : [m[3] as string, m[4] as string];
  return runs.every((r) => {
    for (let i = 1; i < r.length; i += 1) if (stepOf(r[i - 1] as string, r[i] as string) !== 1) return false;
    return true;
  });
}

/**
 * A mask with a word stuck on (`aaaa…aaaaend`, `aaaa…aendbbbbbbb`): one character repeated makes
 * at least three quarters of a value of 16 or more, and the rest is at most 12 letters. (Twitter's
 * bearer tokens open with 22 `A`s but go on with some 90 random characters.)
 */
function maskWithTail(value: string): boolean {
  if (value.length < 16) return false;
  let longest = 0;
  let end = 0;
  let run = 0;
  for (let i = 0; i < value.length; i += 1) {
    run = i > 0 && value[i] === value[i - 1] ? run + 1 : 1;
    if (run > longest) {
      longest = run;
      end = i + 1;
    }
  }
  // The rest is a short word of letters: what a person types after holding a key down.
  const rest = value.slice(0, end - longest) + value.slice(end);
  return longest * 4 >= value.length * 3 && rest.length <= 12 && /^[A-Za-z]*$/.test(rest);
}

/**
 * LATIN_LENGTH: a value's length counted in Latin letters, for the floors set in them (a password of 4
 * characters). A character of a script written without spaces (Han, kana, Hangul) is a syllable or a
 * whole word, not a letter: `你好` ("hello"), `사랑해` ("I love you"), `ねこ` ("cat") are words people choose
 * as a password, as `love` is, so each such character counts as two. (Scanners' own tests hold
 * `https://你好:你好@host` as a URL's password.)
 */
const UNSPACED_SCRIPT_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
export function latinLength(value: string): number {
  // Asked only of short values beside a credential (a cheap ASCII test first).
  return NON_ASCII_LETTER.test(value) ? value.length + (value.match(UNSPACED_SCRIPT_CHARACTER)?.length ?? 0) : value.length;
}

/**
 * A password in a URL that is no credential: a placeholder or example (a URL's password is chosen:
 * `postgres://app:changeme@…` and `mysql://root:root@…` are passwords, issue 40; a token's, after a
 * user that names it, `x-access-token:` or `oauth2:`, is generated), fewer than 4 characters
 * (`user:abc@`), too short for any rule here to call a credential (an assignment's quoted value
 * needs 4 as well), or words naming what goes there (`x-access-token:secret-token@`).
 */
export function isUrlPasswordPlaceholder(user: string, password: string): boolean {
  // The floor of 4 is counted in Latin letters (LATIN_LENGTH): `https://user:你好@host` holds a password of two words' worth.
  const chooser: Chooser = /token|oauth|api[_-]?key/i.test(user) ? 'generated' : 'chosen';
  // A variable named for the credential (`amqps://user:$password@host`, a shell or script filling the URL
  // in) is a reference, as it is after a label (isCredentialValue): `$ecretPass1` stays a password.
  return latinLength(password) < 4 || isRedacted(password) || isPlaceholder(password, chooser) || isDummy(password, { chooser }) || NAMES_ITSELF.test(password) || CREDENTIAL_REFERENCE.test(password);
}

/** Base64 of 8 to 256 characters, padded or not: what a dummy value is encoded as in a fixture or a Secret manifest. */
const BASE64 = /^[A-Za-z0-9+/]{6,256}={0,2}$/;

/**
 * A placeholder written in base64 (`ZHVtbXkgdGV4dCBkYXRh…` is "dummy text data…"): the encoding
 * hides the marker from the checks above, so the decoded text is asked the same. Only text that
 * decodes to printable ASCII counts, so random bytes (every real key) never do.
 */
function isEncodedExample(value: string, chooser: Chooser): boolean {
  // Base64 of text mixes cases (`dGVzdA==`); a word of prose in one case is not decoded (the cheap test first).
  if (value.length % 4 !== 0 || /^[a-z]+$/.test(value) || !BASE64.test(value)) return false;
  const text = Buffer.from(value, 'base64').toString('latin1');
  if (!/^[\x20-\x7e\t\r\n]+$/.test(text)) return false;
  // The decoded word itself may be the placeholder (a Secret manifest's `dGVzdA==` is "test",
  // `cm9vdA==` "root", `WFhYWA==` "XXXX"): asked as any value is. A real password encoded stays one.
  const word = text.trim();
  // (Basic auth's `user:password` stays a credential: this project's own tests plant it as one.)
  return EXAMPLE_MARK.test(text) || (value.length >= 8 && word !== '' && (isPlaceholder(word, chooser) || isDummy(word, { chooser })));
}

/**
 * Typed by a person, not generated: after any leading words of letters (a vendor prefix such as
 * `xoxp-`, `sk_test_`, `testkey`), every piece only counts up or down or repeats one character,
 * in runs of 4 or more (`1234567890`, `abcdef123456`, `11111111-2222-3333-…`), or the whole
 * repeats a unit of up to 4 characters (`ab12ab12ab12`), or one of up to 8 three times or more
 * (`deadbeefdeadbeefdeadbeef`). Runs of 3 are left alone: `abc123xyz789`
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
  if (pieces.every(typedRuns) || (body.length >= 12 && repeatsUnit(body, 4)) || repeatsUnit(body, 8, 3)) return true;
  // A word glued to the front (`testkey1234567890abcdef`): the rest alone, if long enough to tell.
  const rest = body.replace(/^[A-Za-z]+/, '');
  return rest.length >= 8 && rest.length < body.length && typedRuns(rest);
}

/** The step from one character to the next: +1, -1 (digits wrap, 9 → 0; letters in any case) or 0, or undefined. */
function stepOf(a: string, b: string): number | undefined {
  if (a === b) return 0;
  const digits = /\d/.test(a) && /\d/.test(b);
  if (digits) return (Number(a) + 1) % 10 === Number(b) ? 1 : (Number(b) + 1) % 10 === Number(a) ? -1 : undefined;
  if (!/[A-Za-z]/.test(a) || !/[A-Za-z]/.test(b)) return undefined;
  // Letters step in either case: `aBcDeF`, `ABCdefGHI` are the alphabet typed by hand.
  const d = b.toLowerCase().charCodeAt(0) - a.toLowerCase().charCodeAt(0);
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

/** Whether `s` repeats a unit of at most `max` characters, at least `copies` times, from start to end (the last copy may be cut short). */
function repeatsUnit(s: string, max: number, copies = 2): boolean {
  for (let p = 1; p <= max && copies * p <= s.length; p += 1) {
    let i = p;
    while (i < s.length && s[i] === s[i - p]) i += 1;
    if (i === s.length) return true;
  }
  return false;
}

/**
 * The words right before a value name it an id, a name or a content hash, whatever credential word
 * came earlier: `credentialsId: '…'`, `sha256 …`, `md5=…`, `commit …`, `etag: "…"`, `name: db-secret-7f9c`,
 * also as an index (`authTokenRequest['registryIds'] = …`).
 */
const NAMED_ID =
  /(?:^|[^A-Za-z])(?:sha(?:1|224|256|384|512)?|md5|checksum|chksum|digest|hash|etag|commit|revision|integrity|fingerprint|uuid|guid|id|ids|name|names)["'\]]{0,2}[ \t]*(?:[:=]|=>|->)?[ \t]*["'`]?$/i;
/** The same in camelCase, where case matters (`credentialsId`, `tokenHash`; not `paid`). */
const NAMED_ID_CAMEL = /[a-z](?:Id|ID|Ids|IDs|Hash|Sha|Digest|Checksum|Uuid|Guid|Name)["'\]]{0,2}[ \t]*(?:[:=]|=>|->)?[ \t]*["'`]?$/;

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

/**
 * A hash that says it is one: `sha256:…`, `sha512-…` (npm integrity), and crypt/PHC password
 * hashes (`$2b$12$…`, `$6$rounds=…`, `$argon2id$v=19$…`). Issue 29 keeps content hashes named as such.
 */
const NAMED_HASH = /^(?:(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?|sha3-\d+)[:-][A-Za-z0-9+/=]+|\$(?:2[abxy]?|5|6|y|gy|7|argon2(?:id|i|d)|pbkdf2[\w-]*|scrypt)\$\S*)$/;

export function isNamedHash(value: string): boolean {
  return NAMED_HASH.test(value);
}

/**
 * PUBLIC_PEM: a certificate or a public key is public by design, written as PEM (`-----BEGIN CERTIFICATE-----`) or as
 * the base64 of PEM that kubeconfig's `certificate-authority-data` and `client-certificate-data` hold
 * (`LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0t…`). A base64 bundle that also holds a private key is not public: it is decoded
 * whole and looked through.
 */
const PUBLIC_PEM_HEADER = /^-----BEGIN (?:[A-Z0-9 ]*PUBLIC KEY|CERTIFICATE)-----/;
const BASE64_OF_PEM = 'LS0tLS1CRUdJTi';

export function isPublicPem(value: string): boolean {
  if (PUBLIC_PEM_HEADER.test(value)) return true;
  if (!value.startsWith(BASE64_OF_PEM) || !/^[A-Za-z0-9+/]+=*$/.test(value)) return false;
  const pem = Buffer.from(value, 'base64').toString('latin1');
  return PUBLIC_PEM_HEADER.test(pem) && !pem.includes('PRIVATE KEY');
}

/** Paths to where a secret is kept are not the secret: `/run/secrets/db`, `~/.aws/credentials`, `./key.pem`. */
const PATH = /^(?:~|\.{1,2})?\/[\w.@/-]*$|^[\w.-]+\.(?:json|pem|key|txt|env|yaml|yml|p12|pfx|crt)$/;

/**
 * A relative path of lower-case names, globs allowed (`secrets/db-password`, `config/secrets/*.json`,
 * Vault's `kv/data/prod/db#password`); the last name may be a constant's in capitals (`secrets/PASSWORD`).
 */
const RELATIVE_PATH = /^(?:(?:\*|[a-z][a-z0-9]*)(?:[-_.](?:\*|[a-z0-9]+))*\/)+(?:(?:\*|[a-z][a-z0-9]*)(?:[-_.](?:\*|[a-z0-9]+))*|[A-Z]{2,}(?:_[A-Z0-9]{2,})*)(?:#[\w.-]+)?$/;

export function isPath(value: string): boolean {
  return PATH.test(value) || RELATIVE_PATH.test(value);
}

/**
 * An absolute path that reads as one, for rules that take `/` as part of a base64 value: two or
 * more of its parts are lower-case names of 3+ letters (`/var/lib/app/<id>/data`). A base64 secret
 * holds `/` at random and almost never two such parts.
 */
export function isNamedPath(value: string): boolean {
  if (!PATH.test(value)) return false;
  let names = 0;
  for (const part of value.split('/')) if (/^[a-z]{3,}(?:[._-][a-z0-9]+)*$/.test(part)) names += 1;
  return names >= 2;
}

const SAYS_WHAT_IT_IS = /token|secret|passw|api[_-]?key|credential/i;
const SAYS_WHAT_IT_IS_ALL = /token|secret|passw(?:or)?d?|api[_-]?key|credentials?/gi;

/** Pieces of a regular expression: a rule a value must follow (`/^(?=.*[A-Z])(?=.*\d).{12,}$/`), not a value. */
const REGEX_PIECE = /\(\?[=!:<]|\.[*+]|\\[dwsDWS]|\[(?:A-Z|a-z|0-9)|\{\d+,\d*\}/g;

function isRegex(v: string): boolean {
  return (v.match(REGEX_PIECE) ?? []).length >= 2;
}

/** A date or a time stamp (`2026-11-25`, `2026-11-25T10:00:00Z`). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Words in CamelCase, an acronym allowed, a short number at the end: every lower-case run is 2+ letters after one capital. */
const CAMEL_NAME = /^(?:[A-Z]+(?=[A-Z][a-z])|[A-Z][a-z]{2,})+(?:[A-Z]{1,4})?\d{0,3}$/;

/**
 * A word of five letters or more with no vowel (`Rlbnzblb`): a random run, which a generated key can
 * hold in CamelCase's shape by chance (`DkbAlyfmRlbnzblbFGWQoyWPLtttkEF8`), never a word of a name
 * (short abbreviations such as `Msg`, `Ctx`, `Svc` are shorter).
 */
const UNSPOKEN_WORD = /[B-DF-HJ-NP-TV-XZ][b-df-hj-np-tv-xz]{4,}(?![a-z])/;

export function isCamelName(value: string): boolean {
  return value.length <= 128 && CAMEL_NAME.test(value) && !UNSPOKEN_WORD.test(value);
}

/** A version (`v1.2.3-beta.4`, `2.0.0+build.5`), not a credential. */
const VERSION = /^v?\d+(?:\.\d+){1,3}(?:[-+][0-9A-Za-z.-]+)?$/;

/**
 * A URL with no user information whose path and query hold no token-looking part
 * (`http://localhost:8080/token`): where a credential is fetched, not the credential. Webhook URLs
 * that are credentials have random parts (and their own rules, which run first).
 */
function isPlainUrl(v: string): boolean {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^\s/?#]*)(.*)$/i.exec(v);
  if (m === null || (m[1] as string).includes('@')) return false;
  // Words joined by `_` or `-` (`deduped_events`) and `{name}` templates are parts of a path, not tokens.
  return (m[2] as string).split(/[/?&=#;,.]+/).every((part) => !looksRandom(part, 12) || /^[A-Za-z]+(?:[_-][A-Za-z]+)+$|^\{\w*\}$/.test(part));
}

/**
 * Whether a PEM block's body holds key material: a base64 run of 16 or more. A block around words
 * (`-----BEGIN PRIVATE KEY-----this is not a private key-----END…`), `...` or `<your key>` is a
 * placeholder in a document.
 */
export function holdsKeyMaterial(body: string): boolean {
  return /[A-Za-z0-9+/=]{16}/.test(body);
}

/**
 * A PEM block with no key material between its markers (`-----BEGIN PRIVATE KEY-----\nA key\n-----END…`,
 * `…\n<private-key>\n…`, `MIIEpQ ... /WZs=`): a document's placeholder, also inside a JSON string.
 */
export function isEmptyPemBlock(value: string): boolean {
  // Generated API references write the markers' dashes and the quotes as HTML entities
  // (`&ldquo;&mdash;&ndash;BEGIN PRIVATE KEY&mdash;&ndash;\n<private-key>…`).
  if (value.startsWith('&')) value = value.replace(/^&[lr]dquo;/, '').replace(/(?:&[mn]dash;)+/g, '-----');
  // A marker alone, cut at its space (`-----BEGIN`): the block's own rules judge what follows.
  if (value === '-----BEGIN') return true;
  if (!value.startsWith('-----BEGIN ')) return false;
  return !holdsKeyMaterial(value.replace(/-----(?:BEGIN|END) [A-Z0-9 ]+-----/g, ' ').replace(/\\n/g, ' '));
}

/** Template and environment references that open here and close later: `${{ secrets.X }}`, `{{ .Values.x }}`, `$(cat f)`. */
export function isTemplateStart(value: string): boolean {
  return /^(?:\$\{|\{\{|\$\(|<|%[A-Za-z_])/.test(value);
}

/** Openers of a template, a reference or an encrypted value, and what closes each. */
const OPENERS: readonly (readonly [string, string])[] = [
  ['{{', '}}'],
  ['${', '}'],
  ['$(', ')'],
  ['ENC(', ')'],
  ['ENC[', ']'],
];

/**
 * Whether a key, word or token whose line starts with `before` sits inside a template, a
 * reference or an encrypted value (`{{resolve:secretsmanager:MySecret:SecretString:password}}`,
 * `{{ .Env.API_KEY }}`, `${TOKEN:-dev}`, Jasypt's `ENC(…)`, SOPS's `ENC[…]`): one opened within the
 * 80 characters before and not closed.
 */
export function insideTemplate(before: string): boolean {
  const head = before.slice(-80);
  for (const [opener, closer] of OPENERS) {
    const open = head.lastIndexOf(opener);
    if (open >= 0 && head.indexOf(closer, open + opener.length) < 0 && !head.includes('\n', open)) return true;
  }
  return false;
}


/**
 * A token named as a cursor or a request id, not a credential: pagination (`NextToken`,
 * `nextPageToken`, `--starting-token`, `ContinuationToken`, `nextSequenceToken`) and idempotency
 * (`--idempotency-token`, `--client-request-token`, `--work-unit-token`). APIs hand them out in
 * every listing; they grant nothing.
 */
const CURSOR_TOKEN_NAME = /(?:next|page|pagination|continuation|sequence|starting|idempotency|request|work[ _-]?unit|resume|sync)[ _-]?token[ _"'-]*$/i;

export function isCursorTokenName(name: string): boolean {
  return CURSOR_TOKEN_NAME.test(name.slice(-48));
}

/** Strips one pair of matching quotes or backticks. */
export function unquote(v: string): { inner: string; quote: string } {
  const first = v[0];
  if (v.length >= 2 && (first === '"' || first === "'" || first === '`') && v.endsWith(first)) return { inner: v.slice(1, -1), quote: first };
  return { inner: v, quote: '' };
}

/**
 * Punctuation that follows a bare value and is not part of it: sentence punctuation in prose,
 * only closing brackets, commas and a statement's `;` after an assignment (where `hunter2!` keeps its `!`).
 */
export function splitTrailingPunctuation(v: string, prose = true): { value: string; rest: string } {
  // Scanned back from the end (a regex anchored at `$` retries from every start: quadratic on a
  // long run of punctuation). In prose, markdown's closing emphasis (`available**`) counts too.
  // After an assignment a `;` ends the statement (`client_secret: string;`, `= Stripe.Token;`).
  const marks = prose ? ')]}.,:;!?' : ')]},;';
  let at = v.length;
  for (;;) {
    if (at > 0 && marks.includes(v[at - 1] as string)) at -= 1;
    // (Three stars or more are a mask, `gho_******`, kept whole for the placeholder checks.)
    else if (prose && at > 1 && ((v.endsWith('**', at) && v[at - 3] !== '*') || v.endsWith('__', at))) at -= 2;
    else break;
  }
  if (at === v.length || at === 0) return { value: v, rest: '' };
  return { value: v.slice(0, at), rest: v.slice(at) };
}

/**
 * BANG_ENDS_A_CHOSEN_SECRET: a `!` glued to a password's value (`Summer2024!`, `Welcome1!`) is its last
 * character far more often than a note exclaims right after a password, and a `!` left outside the tag
 * tells a reader how the password ends. The value is judged without it (splitTrailingPunctuation: a
 * placeholder is still one with a `!` after it); once judged a secret a person chose, the `!`s glued to
 * it are redacted with it. Only `!`: `.`, `,` and `?` after a value end the sentence.
 */
export function restAfterChosenSecret(rest: string): string {
  let at = 0;
  while (rest.charCodeAt(at) === 33) at += 1;
  return at === 0 ? rest : rest.slice(at);
}

/** Code, not a literal: `getToken()`, `self.password`, `cfg.api_key`, `z.string().min(8)`, `config["api_key"]`, `this.cached!.access_token`. */
const CODE_REF = /^[A-Za-z_$][A-Za-z_$]*(?:(?:[?!]?\.|::)[A-Za-z_$][A-Za-z_$]*)*(?:[([].*)?$/;

/** A call or an index, names with digits allowed: `base64.b64decode(…`, `cfg2["key"]`. */
const CODE_CALL = /^[A-Za-z_$][\w$]*(?:(?:\??\.|::)[A-Za-z_$][\w$]*)*[([]/;

/** A PowerShell cmdlet, an approved verb and a noun (`ConvertTo-SecureString`, `Get-Credential`, `Read-Host`). */
const POWERSHELL_CMDLET = /^(?:Get|Set|New|Remove|Add|Clear|Read|Write|Import|Export|ConvertTo|ConvertFrom|Convert|Invoke|Start|Stop|Test|Select|Out|Format|Join|Split|Register|Unregister|Update|Install|Enable|Disable|Connect|Disconnect|Protect|Unprotect)-[A-Z][A-Za-z]+$/;

/** A bare word or an enum-like identifier: `reset`, `refreshed`, `client_secret_basic`, `private_key_jwt`. */
const WORDISH = /^(?:[A-Za-z][a-z]*(?:-[a-z]+)*[.:!?]?|[a-z]+(?:[_-][a-z]+)+)$/;

/**
 * How the words naming a credential say its value was made (assignment.ts `chosenBy`): `true` for a
 * password, passphrase or PIN, chosen by a person; `'secret'` for a secret named as such (`JWT_SECRET`,
 * `the session secret`), chosen too, though a name written where it goes refers to a secret object
 * (`secret: db-credentials`); `false` for keys and tokens, which are generated.
 */
export type ChosenBy = boolean | 'secret';

/**
 * Whether a value given to a secret-named key is a credential rather than prose, code or a
 * placeholder. A chosen value (Chooser) may be digits only (sizes and counts given to other keys are
 * not secrets), any word or a typed run, and 4 characters are enough (`root`, `1234`): only explicit
 * placeholders, words of a sentence and what is not a value at all (code, paths, names) are not one.
 */
export function isCredentialValue(raw: string, chosenBy: ChosenBy, where: { inSentence?: boolean } = {}): boolean {
  const chosen = chosenBy !== false;
  const chooser: Chooser = chosen ? 'chosen' : 'generated';
  const numericOk = chosen;
  // Names written where a value goes (`dbHost`, `db-credentials`): a password may be one, a secret's or a key's is a reference.
  const namesAreValues = chosenBy === true;
  const { inner: once, quote } = unquote(raw);
  // A shell splice (`"'$PRECOMPILE_PASSWORD'"`): quotes inside quotes, the value is within both.
  const inner = quote === '' ? once : unquote(once).inner;
  if (quote !== '' && isCodeBetweenStrings(once)) return false; // the label ended its string: code follows
  // A value in a string literal ends at an escaped line break or tab (`oauth_token: abc123\\n    user: …`):
  // what follows is the string's next line.
  // Inside a bare value the escape ends it too (`PASSWORD=password\\rDB=tests\\r`, a `.env` text in a string).
  let v = inner.trim().replace(TRAILING_ESCAPES, '');
  if (quote === '' && v.includes('\\')) v = v.replace(ESCAPED_BREAK_ON, '');
  if (v === '' || isRedacted(v) || isPlaceholder(v, chooser) || isDummy(v, { chooser })) return false;
  if (/(?:\.{2,}|…)$/.test(v)) return false; // elided: `ops_eyJzaWduSW5B..`
  // A label's own text (`passwordLabel:"Password:"`, `"Username or email:"`): words and a colon.
  if (/^[A-Za-z][A-Za-z .-]*:$/.test(v)) return false;
  // The word password translated (`"Password": "Lösenord"`): a UI string, names.ts.
  if (isTranslatedPasswordWord(v)) return false;
  // No value, said in another language (`Passwort: keins`, `Senha: nenhuma`), the password's state (`Passwort: abgelaufen`),
  // or where it is kept (`Password: Bitwarden`): names.ts.
  if (saysNoValueInOtherLanguage(v) || saysStateInOtherLanguage(v) || isSecretManagerName(v)) return false;
  if (latinLength(v) < (quote !== '' || chosen ? 4 : 6)) return false;
  // Digits may be a PIN or a password; a number with a fraction (`1556311319.069`, a time stamp) is a measure.
  if (/^\d+\.\d+$/.test(v)) return false;
  if (/^\d+$/.test(v)) return numericOk;
  // A word: a generated value is never one; a chosen one may be (`letmein`, `sunshine`), unless
  // it is a word of the sentence around it (`password: reset it via the panel`, prose.ts). A
  // command line's flag is in no sentence (`redis-cli -a foobared`): `where.inSentence` false.
  if (WORDISH.test(v) && (chosen ? where.inSentence !== false && readsAsProse(v) : v.length < 16 || /[_-]/.test(v))) return false;
  // A word in markdown emphasis (`to _groups_`, `are *strongly*`), or one a symbol follows (`templated⏎`): the word is the value.
  const word = EMPHASIS.test(v) ? v.replace(/^[_*]+|[_*]+$/g, '') : SYMBOL_AFTER.test(v) ? v.replace(SYMBOL_AFTER, '') : undefined;
  if (word !== undefined && word !== v && WORDISH.test(word) && word.length < 16) return false;
  // A placeholder in brackets, then the next parameter (`Token=[token]&X-Amz-Algorithm=…`): the value is the placeholder.
  if (quote === '' && /^(?:\[[A-Za-z][\w -]*\]|<[A-Za-z][\w -]*>)[&;,]/.test(v)) return false;
  // No letter and no digit (`%!*'();:@&=+$,/?#[] `, a test of URL-reserved characters): no generator makes
  // such a credential, and masks are made so.
  if (!/[\p{L}\p{N}]/u.test(v)) return false;
  // A standard cited (`rfc8693#section-2.1`), an object literal opening (`{expiry_date:`): not a value.
  if (isCitation(v) || /^\{[A-Za-z_$][\w$]*:?$/.test(v)) return false;
  // The end of a markdown link's text and its target (`[to password callback](https://…)`): words of a link.
  if (quote === '' && v.includes('](')) return false;
  // A concatenation after the label's string closed (`"MINIO_ROOT_PASSWORD=" + minioPwd`): code.
  if (/^\+[ \t]*[A-Za-z_$][\w$.]*[,;)\]}]*$/.test(v)) return false;
  // A parameter list (`password: (params) => {`, `= (pluginOptions) =>`): a function, not a value.
  if (PARAMETER_LIST.test(v)) return false;
  // A member read or call in brackets (`{secret.detector_display_name}`, `[secret.to_dict() for …`), a regular
  // expression's method (`/\s/.test(secret)`): code in an f-string, a comprehension, a test; not a value.
  if (quote === '' && (BRACKETED_MEMBER.test(v) || REGEX_CALL.test(v))) return false;
  // Ports published or mapped (`-p 3306:3306`, `8080:80/tcp`): numbers, not a password.
  if (PORT_MAPPING.test(v)) return false;
  // A variable holding the credential (`password: $password`, `privateKey: $github-privateKey`): a reference.
  if (CREDENTIAL_REFERENCE.test(v)) return false;
  // A format string's verbs (`%[1]sadmin:org%[1]s`, `token: %s`): text a program fills in, not a value.
  if (FORMAT_VERB.test(v)) return false;
  // Words run together in one case (`dockerconfigjson`, `AWSCURRENT`: a Secret type, a version
  // stage) read as words; a generated key or token drawn from one case of letters does not. Not for
  // passwords, which may be words.
  // (A secret named as such is chosen, so its words may be a value, but not a constant's name in capitals.)
  if ((!chosen || (chosenBy === 'secret' && /^[A-Z]+$/.test(v))) && readsAsWords(v)) return false;
  // A key or token typed by hand along the shifted digit row (`STSA#$%^&Key`), not generated (a password may be).
  // (Counting runs such as `abc123xyz789` stay values: this project's own tests plant them as secrets.)
  if (!chosen && SHIFTED_ROW.test(v)) return false;
  // Documentation's and code's ways of writing something else where a value goes (issue 29's dev docs; asked
  // after the cheap tests above, which turn most words away): names.ts and prose.ts judge them.
  if (isEmptyPemBlock(v) || isCredentialTypeName(v) || isFormatName(v) || isOptionList(v) || isCodeType(v) || isStructTagName(v)) return false;
  // An /etc/passwd entry after the user name (`root:x:0:0::/root:/bin/sh`): `x` says the password is elsewhere.
  if (/^x:\d+:\d+:/.test(v)) return false;
  // A closing bracket or a comma first, unquoted, is the end of the template, expression or string
  // the word was in (`{{ .password }}@host`, `"Paste your secret:", func(…`); quoted, it is a
  // password's first character (`"]35d/{pB9Fo9wJ"`).
  if (quote === '' && /^[,)\]}]/.test(v)) return false;
  // An escaped line break first (`"Testing SetSecret:\nName: %v"`): the label ended its line of a string.
  if (quote === '' && (isNextLabel(v) || isMarkdownLink(v) || v.startsWith('\\n'))) return false;
  if (isCredentialVariableName(v) || NAMES_ITSELF.test(v) || NAMES_ITSELF_CAMEL.test(v)) return false;
  // Prose in Chinese, Japanese or Korean, unless it is a word and a number (`夏天2024`, `なつ2024`): a password's shape.
  // CJK_RUN_OFF_SENTENCE: only where a sentence can be. A command line's flag is in none (`curl -u admin:你好`,
  // `mysql -p사랑해`): a run of such a script there is the value, as a Latin word is (`redis-cli -a foobared`).
  // Unless the run says what goes there or something about it, which a Latin phrase would say in several words
  // the flag's value never reaches (`-p your password`): it holds the word password (`-p 你的密码`, `-p后面直接跟密码`),
  // or a sentence's punctuation (`-p后面不加空格，直接写上。`): CJK_RUN_SAYS.
  if (isCjkProse(v) && !isWordAndNumberInAnyScript(v) && (where.inSentence !== false || cjkRunSays(v))) return false;
  // A CSS selector or a fragment of words (`#add-password`, `.password-field`): a name in a page, not a value.
  if (/^[#.][a-z]+(?:[_-][a-z]+)+$/.test(v)) return false;
  if ((CODE_REF.test(v) && /[.([]|::/.test(v)) || CODE_CALL.test(v) || isNamedHash(v)) return false;
  // A name the language defines (`__dirname`, `__file__`): code, like a call.
  if (/^__[a-z]+(?:__)?$/.test(v)) return false;
  // A PowerShell cmdlet (`$pw = ConvertTo-SecureString "…" -AsPlainText`): the call that makes the value, not the value.
  if (POWERSHELL_CMDLET.test(v)) return false;
  if (isPath(v) || VERSION.test(v) || isPlainUrl(v) || DATE_TIME.test(v) || isRegex(v)) return false;
  // A name in CamelCase (`AVEncVideoMaxKeyframeDistance2`, `TokenValidationParameters`), unless
  // it is a password, which may be a pass phrase written that way (`CorrectHorseBatteryStaple1`).
  if (!namesAreValues && isCamelName(v)) return false;
  // A name or a type where a key, token or secret goes (`secretKey: dbHost`, `sk_test_123`, `[]byte`): names.ts.
  if (!namesAreValues && isNameNotValue(v)) return false;
  // The same for a constant's name in upper case (`PROJECT_NAME_ALIAS`): words of letters joined by `_`.
  if (!namesAreValues && /^[A-Z]{2,}(?:_[A-Z]{2,})+$/.test(v)) return false;
  // A key or token that spells out what it is (`devtoken2024`, `test_api_key_123`, `client_secret_dev_01`)
  // was named by a person; generated ones are random, and a format that opens with such a word
  // (`AGE-SECRET-KEY-1…`) keeps a long random run. (A password may hold any word.)
  if (!chosen && SAYS_WHAT_IT_IS.test(v) && !/[A-Za-z0-9]{16,}/.test(v.replace(SAYS_WHAT_IT_IS_ALL, '-'))) return false;
  // A CSS colour (`#DF3312`): a style, not a value.
  if (/^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/.test(v)) return false;
  // A cloud region (`eu-west-3`, `us-gov-east-1`), a public key or a certificate (as written or in base64): no secret.
  if (/^[a-z]{2}(?:-[a-z]+)+-\d$/.test(v) || isPublicPem(v)) return false;
  // An SSH public key's type opens a public key, not a secret.
  if (/^(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)$/.test(v)) return false;
  // A sentence, not a value: several lower-case words.
  if (/^[a-z]+(?: [a-z]+){2,}[.!?]?$/i.test(v) && !/\d/.test(v)) return false;
  return true;
}

/**
 * WORD_AND_NUMBER_IN_ANY_SCRIPT: a word in letters beyond ASCII and then a number (`лето2024`,
 * `καλοκαίρι2024`, `קיץ2024`, `なつ2024`, `गर्मी2024`, `größe2024`): the shape people give a memorable
 * password in their own language, as `summer2024` in English (password-forms.ts WEAK_SHAPES). The
 * letters come first: a number with letters after it is a count or a date (`8символов`, `2024年`,
 * `최소12자` ends in one). Lower case, or a capital first as sites ask for one (scripts without case
 * count as lower case; marks are a letter's, Devanagari's and Thai's vowel signs); two digits or more,
 * or one after four letters or more (`солнце1`), as the Latin shapes ask. A word of ASCII letters
 * alone keeps the Latin shapes' own, stricter reading (`ab12` is no word and a number).
 */
/**
 * CJK_RUN_SAYS: a run of Chinese, Japanese or Korean after a command line's flag that is words about the password,
 * not one: it holds the word password in its language (names.ts holdsPasswordWordUnspaced), or the full-width
 * punctuation of a sentence (、。，；：！？).
 */
function cjkRunSays(v: string): boolean {
  return /[\u3001\u3002\uff0c\uff1b\uff1a\uff01\uff1f]/.test(v) || holdsPasswordWordUnspaced(v);
}

const WORD_AND_NUMBER_IN_ANY_SCRIPT = /^\p{L}(?:[\p{Ll}\p{Lo}\p{M}]{1,31}\p{Nd}{2,12}|[\p{Ll}\p{Lo}\p{M}]{3,31}\p{Nd})$/u;

export function isWordAndNumberInAnyScript(value: string): boolean {
  return value.length <= 44 && NON_ASCII_LETTER.test(value) && WORD_AND_NUMBER_IN_ANY_SCRIPT.test(value);
}
const NON_ASCII_LETTER = /[^\x00-\x7f]/;

/** Escaped line breaks and tabs at the end of a value (`\\n`, `\\r\\n`, `\\t`). */
const TRAILING_ESCAPES = /(?:\\[nrt])+$/;
/** From the first escaped line break of a bare value on. */
const ESCAPED_BREAK_ON = /\\[nr][^]*$/;

/** A word with markdown's emphasis marks at either end (one cut as the label's): `_groups_`, `*value*`, `strongly*`. */
const EMPHASIS = /^[_*]*[A-Za-z][a-z]*(?:-[a-z]+)*[_*]*$/;
/** Symbols after a word (`⏎`, `✓`, `→`): Unicode's "other" and math symbols, not letters or digits. */
const SYMBOL_AFTER = /[\p{So}\p{Sm}]+$/u;

/**
 * A variable named for the credential: `$` and lower-case words (joined by `-` or `_`, or in
 * camelCase) ending in the whole credential word. `$ecretPass` (not the whole word), `$ecretPass1`
 * (a digit after) and `super$ecret` (`$` inside) stay passwords.
 */
const CREDENTIAL_REFERENCE = /^\$(?:[a-z][a-z]*(?:[-_]|(?=[A-Z])))*(?:[a-z]*|[A-Z][a-z]+)(?:[Pp]ass(?:word|wd|phrase)|[Ss]ecret|[Tt]oken|[Kk]ey|[Cc]redentials?)$/;

/**
 * A function's parameter list of names: `(params)`, `(a, b)`, `()`, a typed one's start `(context:`;
 * its `)` may have been cut as punctuation. Or an expression in brackets (`(this.jsonContent`).
 */
const PARAMETER_LIST = /^\((?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\??:?(?:,[ \t]*[A-Za-z_$][\w$]*)*)?\)?$/;
/** An opening bracket, then a name and a member of it (`{secret.name`, `[item.to_dict()`): code. */
const BRACKETED_MEMBER = /^[[{(][A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(.*)?$/;
/** A regular expression literal and a call of its method (`/\s/.test(x)`, `/^a/i.exec(s)`). */
const REGEX_CALL = /^\/(?:\\.|[^/\n])+\/[a-z]*\.[A-Za-z_$][\w$]*\(/;
/** A port mapping: `3306:3306`, `127.0.0.1:8080:80`, `8080:80/tcp`. */
const PORT_MAPPING = /^(?:\d{1,3}(?:\.\d{1,3}){3}:)?\d{1,5}:\d{1,5}(?:\/(?:tcp|udp))?$/;

/** A standard cited by number, a section after it allowed (`rfc8693`, `RFC7519#section-4.1`). */
export function isCitation(v: string): boolean {
  return /^rfc\d{3,5}(?:#section-[\d.]+)?$/i.test(v);
}

/** Four or more of the shifted digit row in order (`#$%^`, `!@#$`): a keyboard run. */
const SHIFTED_ROW = /!@#\$|@#\$%|#\$%\^|\$%\^&|%\^&\*|\^&\*\(|&\*\(\)/;

/** Verbs of a format string: Go's indexed `%[1]s`, or `%s`/`%v` ending the value. */
const FORMAT_VERB = /%\[\d{1,2}\][a-z]|%[svwdq]$/;

/**
 * Whether letters in one case read as words run together (`dockerconfigjson`, `AWSCURRENT`,
 * `MYCONJURHOSTID`, `README`): 6 to 40 letters, a quarter or more vowels (`y` counts), no run of four
 * consonants. Random letters are one fifth vowels and hold such runs almost always from 16 on.
 */
export function readsAsWords(v: string): boolean {
  if (v.length < 6 || v.length > 40 || !(/^[a-z]+$/.test(v) || /^[A-Z]+$/.test(v))) return false;
  const lower = v.toLowerCase();
  let vowels = 0;
  let run = 0;
  for (const c of lower) {
    if ('aeiouy'.includes(c)) {
      vowels += 1;
      run = 0;
    } else if ((run += 1) >= 4) return false;
  }
  return vowels * 4 >= v.length;
}

/**
 * Words that name the value and end in its credential word (`user_password`, `new password`, `db-secret`,
 * in CamelCase `NewPassword`, `OldPassword`): what it is, not it. A pass phrase does not end by naming itself.
 */
const NAMES_ITSELF = /^(?:[a-z]+[_\- ])+(?:password|passwd|secret|token|api[_-]?key|key)$/i;
/** The same in CamelCase, where case matters (`supersecretpassword` is a password someone chose). */
const NAMES_ITSELF_CAMEL = /^(?:[A-Z][a-z]+)+(?:Password|Passwd|Passphrase|Secret|Token|Key)$/;

/**
 * What a pair of quotes after a label holds when the label ends a string and code follows it
 * (`"Password: " + getPassword() + ","`, `'password = '.$p['config']`, `"Password:",rememberMe:"`):
 * from the closing quote of one string to the opening quote of the next, it starts with a
 * concatenation or a comma and ends where the next string opens (`+`, `(`, `[`, `:`).
 */
export function isCodeBetweenStrings(inner: string): boolean {
  const last = inner.trimEnd().slice(-1);
  return /^\s*(?:\+|\.\s*\$|,\s*[A-Za-z_$])/.test(inner) && (last === '+' || last === '(' || last === '[' || last === ':');
}

/**
 * OUTRUNS_EXAMPLE_COMMENT: a comment that calls a value an example (`# sample`, `// replace with your own`,
 * prose.ts saysReplaceMe) vouches for what a person types as a stand-in (`"P@ssw0rd"  # Replace with an actual
 * password`, `changeme`, `abc123`), not for 32 characters or more, without a space, that none of the stand-in tests
 * (isPlaceholder, isDummy: masks, counting runs, example words) reads as one, nor words joined by separators: that is a generated key, and it works
 * whatever the comment beside it says. (The labelling's own lesson, README rule v2: a marker elsewhere on the line
 * does not vouch for a real-looking value. GitHub's custom patterns test a Django key written so:
 * `SECRET_KEY = '!r7!(xjadix=(m5t9$0y%…' # sample`.)
 */
export function outrunsExampleComment(value: string): boolean {
  const { inner } = unquote(value);
  // Words joined by separators (`replace-this-with-a-long-random-string`) or by their capitals
  // (`DevelopmentDatabasePasswordForLocalOnly`, `useAVeryLongRandomString`) are an instruction or a stand-in, not a key.
  return inner.length >= 32 && !/\s/.test(inner) && !/^[A-Za-z]+(?:[-_.][A-Za-z]+)+$/.test(inner) && !WORDS_BY_CAPITALS.test(inner) && looksRandom(inner, 32);
}

/**
 * Words of letters joined by their capitals, each a capital and lower-case letters (`A` and `I` alone as words):
 * what people write; a generated key of both cases has capitals side by side and digits. (The two alternatives
 * cannot both match at one place: linear.)
 */
const WORDS_BY_CAPITALS = /^[A-Za-z][a-z]+(?:[A-Z][a-z]+|[AI](?=[A-Z]))+$/;

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

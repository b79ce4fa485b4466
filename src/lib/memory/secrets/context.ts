/**
 * Secrets known by what stands beside them rather than by their shape (issue 29): a value next to
 * a credential word (password, secret, token, key, PAT, DSN, credential…; cookies are the COOKIE
 * rule's in structured.ts) in prose, lists, logs
 * and command lines; a column or row of a markdown table, or a CSV column, named by such a word; a
 * label on one line with its value alone on the next. A value is kept when it is clearly a
 * placeholder, prose or code (values.ts). These rules run last, after every format-specific rule,
 * so a value that a precise rule recognises keeps its precise label.
 *
 * Two judgements, one owner each:
 * - `isCredentialValue` (values.ts): the value right after a label and its separator
 *   (`Password for the VPN: x`, `API Key - x`, `| STRIPE_SECRET | x |`);
 * - `isHighEntropy` (below): a long random-looking string anywhere near a credential word, whatever
 *   the format or the words between (`the signing secret 8f14… goes…`, `api_key <- "…"`).
 */
import { bareValueBeforeEntry, chosenBy, chosenFor, endsInCredentialWord, genericKind, isChainedAssignment, isNumberLiteral, isTypeAnnotation, isVariableUnderItsOwnName, nextEntryAt, PASSWORD_SHORTENED } from './assignment.js';
import { isCommonPasswordWord } from './common-passwords.js';
import { tag, type ScanRule } from './engine.js';
import { endsInUrn, isScopePath, isSlug, namesPasswordInOtherLanguage } from './names.js';
import { continuesSentence, SENTENCE_LOOKAHEAD, cutAtEntity, describesCredential, inUnspacedScript, isLabelGap, isNextLabel, isPlainWord, isRemark, saysReplaceMe, stripClosingTags, unquoteEntities } from './prose.js';
import { type ChosenBy, insideTemplate, isCamelName, isCitation, isCredentialValue, isDummy, isNamedHash, isNamedId, isPath, isPublicPem, isPlaceholder, isRedacted, isTemplateStart, isWordAndNumberInAnyScript, outrunsExampleComment, splitTrailingPunctuation } from './values.js';

/** Credential words, matched case-insensitively; word edges are checked in code (camelCase counts). The password's shortenings (`PSWD`) are assignment.ts's PASSWORD_SHORTENED; `psk` is a Wi-Fi network's pre-shared key, a passphrase a person chose. */
const WORD = new RegExp(String.raw`pass(?:word|wd|phrase|code)?|${PASSWORD_SHORTENED}|pwd|pw|psk|pin|secret|token|key|pat|dsn|credentials?|wif`, 'gi');
/** The same words, for the scan within one line (WORD runs over the whole text at the same time). */
const LINE_WORD = new RegExp(WORD.source, 'gi');
/** The same words, for a yes/no question (no shared lastIndex). */
const HAS_WORD = new RegExp(WORD.source, 'i');

/** Words before a credential word that make it something else: a public key, a database key, a page cursor (`NextToken`). */
const NOT_SECRET_BEFORE = /(?:public|publishable|object|host|csrf|xsrf|authenticity|primary|foreign|sort|partition|cache|idempotency|next|page|pagination|continuation|sequence|starting|request|work[ _-]?unit|row|hash|lookup|map|dict|registry|composite|unique|shortcut|hot|hashed|api[ _-]?key[ _-]?id|access[ _-]?key[ _-]?id|gpg|pgp|ssh)[ _-]?$/i;

/** Words right after a credential word that name something about it, not it: `token count`, `key id`. */
const NOT_SECRET_AFTER =
  /^[ _.-]?(?:ids?|names?|types?|counts?|length|size|url|uri|path|file|fingerprint|hash|prefix|version|expiry|expires|expiration|ttl|rotation|format|ref|field|env|var|header|usage|budget|limits?|scopes?|policy|endpoint|manager|stor(?:e|age)|vault|reset|rotated|location|hint|strength|rules?|pattern|regex|provider|kind|mode|spec|selector|arn|sha\d*|md5|digest|checksum)\d*\b/i;

/** Whether `word`, right after a credential word, names something about it (`password field`, `token count`). */
export function namesSomethingAboutIt(word: string): boolean {
  return NOT_SECRET_AFTER.test(` ${word}`);
}

// One character, tested by its code (a regexp call per character cost more than the test).
const isLower = (c: string): boolean => c >= 'a' && c <= 'z';
const isUpper = (c: string): boolean => c >= 'A' && c <= 'Z';
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** Words before `key` that make it a credential (`api key`, `secretKey`, `access_key`), not a map's or a keyboard's key. */
const KEY_QUALIFIER = /(?:api|access|secret|private|signing|encryption|master|auth|license|account|client|app|service|storage)[ _-]?$/i;

/**
 * The end of a compound written in lower case as one word (`userpassword`, `appsecret`, `refreshtoken`,
 * `apikey`, `secretkey`): the letters glued before the credential word say whose it is. No English word
 * ends in the long credential words (`password`, `secret`, `token`…); `key` counts only after a word that
 * makes it a credential (KEY_QUALIFIER), so `monkey` and `hotkey` stay words. `pass` and `pwd` are not
 * read so (`bypass`, `compass`).
 */
function endsCompound(line: string, start: number, word: string): boolean {
  if (word !== word.toLowerCase()) return false;
  if (word.length >= 5) return true;
  return word === 'key' && KEY_QUALIFIER.test(line.slice(Math.max(0, start - 12), start));
}

/** A word's edges: not inside a longer lower-case word (`monkey`, `keyboard`), but `apiKey`, `API_KEY`, `alibabaKey` count. */
function credentialWordAt(line: string, m: RegExpExecArray, hasUrn: boolean): boolean {
  const start = m.index;
  const end = start + m[0].length;
  // Single characters (UTF-16 code units), as the tests below expect.
  const before = line[start - 1] ?? ' ';
  const after = line[end] ?? ' ';
  const word = m[0];
  if (isLower(before) || isUpper(before)) {
    const camel = isLower(before) && /^[A-Z][a-z]*$/.test(word); // apiKey, alibabaKey
    const shout = isUpper(before) && word === word.toUpperCase(); // APIKEY
    // A product's name in lower case with the word in capitals glued on (`weatherbitSECRET`, `boxTOKEN`), as
    // scanners' examples and some config keys write it.
    const gluedCapitals = isLower(before) && word.length >= 3 && word === word.toUpperCase();
    if (!camel && !shout && !gluedCapitals && !endsCompound(line, start, word)) return false;
  } else if (isDigit(before) && word !== word.toUpperCase()) return false; // `1Password`, a product's name; `DB1PASSWORD` counts
  if (isLower(after)) return false;
  // Inside an expression or a template: `{.data.password}`, `<password>`, `$PASSWORD`, `secrets.token)`.
  if (after === '}' || after === ']' || after === ')' || after === '>' || before === '<' || before === '$') return false;
  // The word is ASCII letters (WORD), so lower-casing it compares it in any case.
  const lower = word.toLowerCase();
  // `pass` alone is a verb; as a key it is glued to a quote, `_`, `=` or `:` (`"pass":`, `DB_PASS=`).
  if (lower === 'pass' && !'"\'_=:'.includes(after) && before !== '_') return false;
  // `pat` is a name in prose: only PAT, or glued by _ or - (`AZURE_DEVOPS_PAT`, `pat-token`).
  if (lower === 'pat' && word !== 'PAT' && before !== '_' && before !== '-' && after !== '_' && after !== '-') return false;
  if (lower === 'wif' && word !== 'WIF') return false;
  // `pw` is a key only where it stands apart (`PW=`, `db_pw:`, `pw for X`): glued to a letter or a digit it is
  // two letters of a longer run (`…BbUbPwOrs…` in a base64 integrity hash), not a word.
  // (`DBPW=` in capitals still counts.)
  if (lower === 'pw' && (isLower(before) || (isUpper(before) && word !== 'PW') || isDigit(before) || isUpper(after) || isDigit(after))) return false;
  // `pin` is a word of prose and of hardware (`pin the version`, `GPIO pin 4`): only PIN, the number.
  if (lower === 'pin' && word !== 'PIN') return false;
  // After the checks of single characters (it reads up to 80 of them).
  if (insideTemplate(line.slice(Math.max(0, start - 80), start))) return false;
  // `urn:k8s:secret:name:key`: a reference's part (looked at only when `urn:` is near, as it seldom is).
  // (`hasUrn`: whether the line holds `urn:` at all, asked once per line.)
  if (hasUrn && endsInUrn(line.slice(Math.max(0, start - 96), start))) return false;
  if (NOT_SECRET_BEFORE.test(line.slice(Math.max(0, start - 24), start))) return false;
  // camelCase counts as a word edge: `secretVersionSelectionPolicy`, `tokenType` name something about it
  // (split into words only when a capital follows the word, as it seldom does in prose).
  const next = line.slice(end, end + 16);
  if (NOT_SECRET_AFTER.test(isUpper(after) ? next.replace(/([a-z])(?=[A-Z])/g, '$1 ') : next)) return false;
  return true;
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A long random-looking string: 16+ characters of a token alphabet, letters and digits mixed, with
 * the entropy of generated text (a hex digest or a UUID has it too, which is why this is only
 * asked next to a credential word). Not a URL, a path, a dotted name or a placeholder.
 */
export function isHighEntropy(v: string): boolean {
  if (v.length < 16 || isRedacted(v) || isPlaceholder(v) || isDummy(v) || isNamedHash(v) || isPublicPem(v)) return false;
  // An Ethereum address (0x and 40 hex digits) is public; a private key is 64.
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) return false;
  // Long numbers are secrets too beside a credential word (client secrets of 32 digits).
  if (/^\d{16,}$/.test(v)) return entropy(v) >= 2.8;
  if (!/\d/.test(v) || !/[A-Za-z]/.test(v)) return false;
  // Dotted names (`jetbrains.mps.v8_elimination`, host names), paths and URLs are not secrets.
  if (/^(?:[a-z]+[.-])+[a-z]+$/i.test(v) || /^[a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)+$/.test(v) || /^\.{0,2}\//.test(v) || isPath(v) || v.includes('://')) return false;
  // An address (`ops@example.com`, `curve25519-sha256@libssh.org`), a query string of name=value pairs.
  if (/^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/.test(v) || /^[\w.-]+=[^&=]*(?:&[\w.-]+=[^&=]*)+$/.test(v)) return false;
  // Slugs and names made of words and small numbers (`user-profile-v2-2026-11`), also right after
  // the credential word's own separator (`secret_santa_2024…`), timestamps.
  if (isSlug(v.replace(/^[._-]+/, '')) || TIMESTAMP.test(v) || isCamelName(v) || isCitation(v)) return false;
  // Code, not a value: operators no token alphabet has (`&&t.token.a8F…`, `x===y`).
  if (/&&|\|\||[=!]==?|=>/.test(v.replace(/=+$/, ''))) return false;
  const min = v.length >= 32 ? 3.0 : v.length >= 20 ? 3.2 : 3.4;
  return entropy(v) >= min;
}

/** A token-shaped run in a line: what `isHighEntropy` is asked about. */
const TOKEN = /[A-Za-z0-9+/=_.~$!@#%^&*-]{16,}/g;
/** The rest of a run from a given start (sticky). */
const RUN = /[A-Za-z0-9+/=_.~$!@#%^&*-]*/y;
/** The words between a credential word and its value end in a separator: `:`, `=`, ` - `, `|`, `=>`, `<-`, `is`, `was`, `to`. */
// The separator words stand alone: in `replicate-secret-to-regions` the `to` is part of a name.
const LABEL_GAP = /[^\n:=]{0,40}?(?:[:=|]|\s[-–](?=\s)|=>|<-|(?<![\w-])(?:is|was|to|are)(?![\w-]))[ \t*]*/iy;
/** A value right after a label: quoted (taken whole) or bare up to whitespace. */
// Quoted values are looked for up to 1,024 characters (linear time on lines full of quotes); a
// longer quoted secret is a random run that the entropy path below replaces whatever its length.
const LABELLED_VALUE = /(["'`])([^\n]{0,1024}?)\1|[^\s"'`|]+/y;

/**
 * BOUNDED_VALUE_READ (qa-review-19): a bare value is read to the word's end, so a word of many entries
 * (`KdcAdminPassword=123,` many times) was read to its end once per credential word in it, once ENTRY_ENDS_LABELLED_VALUE
 * stopped a kept value from taking the rest of the word (quadratic: 36 s for 30,000 entries). A value's first
 * VALUE_HEAD characters are read first: when its list's next entry (nextEntryAt) starts early enough in them that the
 * whole read would find the same entry, the head is the value's read; otherwise the value is read whole, as before.
 */
const VALUE_HEAD = 256;
/** LABELLED_VALUE, its bare read bounded to VALUE_HEAD characters. */
const LABELLED_VALUE_HEAD = /(["'`])([^\n]{0,1024}?)\1|[^\s"'`|]{1,256}/y;
/** An entry's match and the two characters its `(?!\/\/)` looks at fit in 28 characters (assignment.ts ENTRY). */
const ENTRY_REACH = 28;

function readLabelledValue(line: string, at: number): RegExpExecArray | null {
  LABELLED_VALUE_HEAD.lastIndex = at;
  const head = LABELLED_VALUE_HEAD.exec(line);
  if (head === null || head[1] !== undefined || head[0].length < VALUE_HEAD) return head;
  const entry = nextEntryAt(head[0]);
  if (entry > 0 && entry < VALUE_HEAD - ENTRY_REACH) return head;
  LABELLED_VALUE.lastIndex = at;
  return LABELLED_VALUE.exec(line);
}

/** A struct tag's key at the end of a gap (`json:`, `yaml:"`), read backwards from its colon. */
const STRUCT_TAG_KEY = /(?<![A-Za-z])(?:json|yaml|xml|toml|env|db|form|mapstructure|bson|gorm|xorm|validate|binding|query|header|uri)[ \t]*:[ \t]*$/;

/** Where a token may start: within 80 characters after the word, not past the end of the sentence. */
function windowEnd(line: string, after: number): number {
  const end = Math.min(line.length, after + 80);
  const stop = /[.!?](?:\s|$)/.exec(line.slice(after, end));
  return stop === null ? end : after + stop.index;
}

/**
 * What the credential is for, then a spaced `=` (`Password for staging = hunter22`, `pw on the NAS = …`):
 * the word before `=` is the object of the preposition, not another name given its own value.
 */
const QUALIFIED_LABEL = /^[ \t]+(?:for|of|on|at)[ \t]+(?:the[ \t]+)?[\w.-]+(?:[ \t]+[\w.-]+)?[ \t]+=[ \t]*$/i;

/**
 * CODE_SYMBOL_NAME (qa-review-17b), what SYMBOL_NOT_SEPARATOR skips: a Ruby symbol's or a route parameter's name is a
 * word of letters and underscores opening in lower case (`:password_reset`, `:token`, `:resetToken`), ending where
 * the word ends. A digit, a capital first letter or a symbol glued on (`:hunter22`, `:Sup3rS3cret!`, `:Xk92pqLm7abc`)
 * is no name a program gives, nor is a most-common password (`:letmein`): a value, judged as any other. Nor is a
 * word a hyphen joins to more (`:correct-horse-battery-staple`, `:trombone-Cactus-42`; qa-review-18): a symbol's
 * name has none, and a route's next parameter after one opens with its own colon (`/:from-:to`). The price,
 * decided: a lower-case word of letters alone glued to a spaced colon (`Password for prod :correcthorse`) reads as a
 * symbol; notes write a label's colon after the label.
 */
function isCodeSymbolName(line: string, at: number): boolean {
  const name = /^[a-z_][A-Za-z_]*(?![\w!@#$%^&*+=~]|-\w)/.exec(line.slice(at, at + 64))?.[0];
  return name !== undefined && !isCommonPasswordWord(name);
}

/**
 * SPACED_COLON_LABEL (qa-redact-13), decided by what follows a password word: a symbol or a route parameter follows a
 * method's or a path's name, and a password word is in that name only joined to it (`has_secure_password
 * :recovery_password`, `generates_token_for :password_reset`, `/reset-password/:token`). A password word that stands
 * alone, a word of the note (`PIN :tulip`, `Password for prod :correcthorse`, `pw on the NAS :hunter`), with nothing
 * after it but a spaced colon, or what the password is for (QUALIFIED_LABEL's words) and then the colon, is a label: a
 * note puts a space before its colon now and then, and what is glued after it is the password, however plain its
 * letters. Only a password word (`chosen === true`, a value people pick): a token's or a key's value is generated, never
 * a plain word.
 */
const SPACED_COLON_GAP = /^(?:[ \t]+(?:for|of|on|at)[ \t]+(?:the[ \t]+)?[\w.-]+(?:[ \t]+[\w.-]+)?)?[ \t]+:$/i;
function isSpacedColonLabel(line: string, after: number, gap: string, chosen: ChosenBy): boolean {
  if (chosen !== true || !SPACED_COLON_GAP.test(gap)) return false;
  let start = after;
  while (start > 0 && /[A-Za-z]/.test(line[start - 1] as string)) start -= 1;
  // Joined to a name of the code (`has_secure_password`, `reset-password`, `user.password`, `/password`): no label.
  return start === 0 || !/[\w.\-:/$@]/.test(line[start - 1] as string);
}

/** The labelled value after a credential word ending at `after`: its span, or undefined. */
function labelledValue(line: string, after: number, chosen: ChosenBy): { start: number; end: number } | undefined {
  const passwordLike = chosen === true;
  LABEL_GAP.lastIndex = after;
  const gap = LABEL_GAP.exec(line);
  if (gap === null) return undefined;
  const at = after + gap[0].length;
  if (gap[0].includes('[REDACTED:')) return undefined; // the separator is inside an earlier rule's tag
  // A label does not run across a sentence's end (`… a secret. The policy is read-only`).
  if (/[.!?][ \t]/.test(gap[0])) return undefined;
  // The separator is another name's (`--software-token-mfa-settings Enabled=true`): that name's
  // value, not the credential's, unless the name is itself a credential's (`API token TOKEN=…`).
  // (Also at the start of a string: `'password', 'r=ab,s=abcd'` passes a SCRAM message, not the password.)
  // (A command-line option's `=` too: `argocd-secret --type='json'` gives `--type` its value; so does an attribute
  // in a selector: `#password input[type="password"]`.)
  // (After a `;` too: a connection string's next entry, `tokenType=userPassword;user=@user`, gives `user` its value.)
  const otherKey = /(?:^|[\s,;('"[])-{0,2}([A-Za-z_][\w.-]*)[ \t]*=[ \t]*$/.exec(gap[0]);
  // A label does not run into a comment (`host-of-password-depot # port is 8714`): the comment is a sentence of its own.
  if (/[ \t]#[ \t]/.test(gap[0])) return undefined;
  if (otherKey !== null && !HAS_WORD.test(otherKey[1] as string) && !QUALIFIED_LABEL.test(gap[0])) return undefined;
  // The same for another name's colon after a comma or brace, for a chosen value, which may be any word
  // (`{name: db-secret-7f9c2b, key: password}`: `key` alone names a map's key): that name's value.
  // (The tests below are asked only of gaps that hold the character they need: most gaps are a colon or a space.)
  const otherLabel = chosen === false || gap[0].length < 3 ? null : /[,{][ \t]*([A-Za-z_][\w.-]*)[ \t]*:[ \t]*$/.exec(gap[0]);
  if (otherLabel !== null && (!HAS_WORD.test(otherLabel[1] as string) || /^key$/i.test(otherLabel[1] as string))) return undefined;
  // A pattern in code (`const { password, ...rest } = user`, `[token] = pair`): the word was destructured, the value is code.
  if (gap[0].length > 2 && /[}\])][ \t]*=[ \t]*$/.test(gap[0])) return undefined;
  // A struct tag's key (`Password string \`json:"password"\``): the value is the field's name.
  if (gap[0].length > 4 && STRUCT_TAG_KEY.test(gap[0])) return undefined;
  // The word ended a quoted string and another key follows (a Go struct tag `json:"password" xorm:"…"`).
  if (/^["'`][ \t]+[A-Za-z_][\w.-]*:[ \t]*["'`]?$/.test(gap[0]) && !HAS_WORD.test(gap[0])) return undefined;
  // `key: https://…`, `password://` is a URL, not a label; nor is the colon of a scheme after the
  // words (`password policies <https://docs…>`): the separator was the URL's own.
  if (line.startsWith('//', at - 1) || line[at - 1] === '/' || (/[A-Za-z]:$/.test(gap[0]) && line.startsWith('//', at))) return undefined;
  // SYMBOL_NOT_SEPARATOR: a colon with a space or a `/` before it and a name glued after it is a Ruby symbol or a
  // route's parameter (`generates_token_for :password_reset`, `/reset-password/:token`), not a label's separator: a
  // label's colon follows the label (`password:`, `password :` then a space), it does not lead the value.
  // Only a name of the code glued there (CODE_SYMBOL_NAME): a value glued to a spaced colon is still one (`Password for
  // prod :Sup3rS3cret!`, `credentials :Xk92pqLm7abc`; qa-review-17b).
  if (gap[0].endsWith(':') && /[\s/]/.test(gap[0].at(-2) ?? '') && isCodeSymbolName(line, at) && !isSpacedColonLabel(line, after, gap[0], chosen)) return undefined;
  // An earlier rule's tag where the value goes (`password=[REDACTED:password];password=…`): nothing to judge (isRedacted
  // below), said before the value is read to the word's end, once per word of a long word of many.
  if (line.startsWith('[REDACTED:', at)) return undefined;
  const v = readLabelledValue(line, at);
  if (v === null) return undefined;
  const quote = v[1] ?? '';
  // ENTRY_ENDS_LABELLED_VALUE (assignment.ts): a bare value ends before its list's next entry.
  const read = quote === '' && /[;,]/.test(v[0]) ? bareValueBeforeEntry(v[0], line.slice(at + v[0].length, at + v[0].length + 64)) : v[0];
  // `[hidden]`, `((db_password))`, `{error_message}.`: judged before a bracket is cut as punctuation.
  const chooser = chosen !== false ? 'chosen' : 'generated';
  if (quote === '' && (isPlaceholder(read, chooser) || (/[.,:;!?]$/.test(read) && isPlaceholder(read.replace(/[.,:;!?]+$/, ''), chooser)))) return undefined;
  // A remark in brackets after the name (`token - (Optional) The Vault token…`, `(Required, Sensitive)`): prose.
  if (quote === '' && ((read[0] === '(' && isRemark(read)) || isNextLabel(stripClosingTags(read)))) return undefined;
  // A mask after the separator (`API_KEY=*****VZYK*****`; markdown bold is two stars): a hidden value.
  if (/\*{3,}$/.test(gap[0])) return undefined;
  // A bare value inside an escaped string ends at its escaped line break (`color: #DF3312;\n}`).
  const escapedBreak = quote === '' ? read.indexOf('\\n') : -1;
  const inner = quote === '' ? splitTrailingPunctuation(unquoteEntities(stripClosingTags(escapedBreak >= 0 ? read.slice(0, escapedBreak) : read))).value : (v[2] as string);
  // The same name as a variable (`accountKey = $accountKey`, `password: @password`): code passing it on.
  const name = /[A-Za-z_]\w*$/.exec(line.slice(Math.max(0, after - 64), after))?.[0];
  if (name !== undefined && /^[$@]/.test(inner) && inner.slice(1).replace(/;$/, '').toLowerCase() === name.toLowerCase()) return undefined;
  if (inner === '' || isRedacted(inner) || isTemplateStart(inner) || isPath(inner) || inner.includes('://')) return undefined;
  // The end of a markdown link's text (`[LDAP Secret Backend: \`length\`](#ldap-secret-backend)`): words of a link.
  if (line.startsWith('](', at + read.length)) return undefined;
  // Spaces: a pass phrase may have them, a key or token does not (`token: "see the docs"`).
  if (!passwordLike && /\s/.test(inner)) return undefined;
  if (/<[^<>]+>/.test(inner)) return undefined; // `<cookie-name>=<cookie-value>`: a template
  // Another key (`--from-literal=password=…`), not a value: the rules for assignments own it.
  if (/^[A-Za-z_][\w.-]*=/.test(inner)) return undefined;
  // An elided value (`ops_eyJzaWdu…`, `abc123...`) is an example in a document, not a working secret.
  if (/(?:\.{2,}|…)$/.test(read)) return undefined;
  // A word of the sentence the label is in (cheap, and asked first: chosen values may be words).
  if (quote === '' && continuesSentence(gap[0], inner, line.slice(at + read.length, at + read.length + SENTENCE_LOOKAHEAD))) return undefined;
  if (!isCredentialValue(quote === '' ? inner : `${quote}${inner}${quote}`, chosen)) return undefined;
  // Whether the words and separator make a label at all (asked once a value is found: most are words of prose).
  if (!isLabelGap(line, after, gap[0])) return undefined;
  // A description of the credential, not the credential (`**Password**: OpenStack password (…)`): a word that names it follows.
  if (quote === '' && describesCredential(line.slice(at + read.length, at + read.length + 24))) return undefined;
  if (saysReplaceMe(line.slice(at + read.length, at + read.length + 48)) && !outrunsExampleComment(inner)) return undefined;
  // The user of a `user / password` pair whose password an earlier rule replaced (`password: dev / [REDACTED…]`).
  if (/^[ \t]+\/[ \t]+\[REDACTED:/.test(line.slice(at + read.length, at + read.length + 16))) return undefined;
  const start = at + quote.length;
  return { start, end: start + inner.length };
}

/**
 * The first high-entropy token starting within the window after a credential word, not part of a
 * URL. Runs judged once are not judged again from a later word (`judged` is where the last one
 * ended), so a line of many words and one long run stays linear.
 */
function entropyToken(line: string, after: number, judged: { until: number }, hasUrl: boolean): { start: number; end: number } | undefined {
  // The head below lies within the 96 characters after the word: without a digit there, there is
  // no window to work out (most words in prose).
  if (!/\d/.test(line.slice(after, after + 96))) return undefined;
  const limit = windowEnd(line, after);
  const head = line.slice(after, limit + 16);
  if (!/\d/.test(head)) return undefined; // every high-entropy value has a digit
  TOKEN.lastIndex = 0;
  for (let t = TOKEN.exec(head); t !== null && after + t.index <= limit; t = TOKEN.exec(head)) {
    const runStart = after + t.index;
    TOKEN.lastIndex = t.index + t[0].length;
    // Before the run is read to its end: a run judged from an earlier word is not read again (a line of many words glued
    // into one run, `password=[REDACTED:password];password=…`, is read once, not once per word).
    if (runStart < judged.until) continue;
    RUN.lastIndex = runStart;
    RUN.exec(line);
    const runEnd = RUN.lastIndex;
    judged.until = runEnd;
    const run = line.slice(runStart, runEnd);
    if (/(?:\.{2,}|…)$/.test(run) || line[runEnd] === '…') continue; // elided: an example
    if (line[runStart - 1] === '<' && line[runEnd] === '>') continue; // `<a8Fk…>`: enclosed as placeholders are written
    if (/;base64,$/.test(line.slice(Math.max(0, runStart - 8), runStart))) continue; // a data: URI's content
    if (/\{cipher\}$/i.test(line.slice(Math.max(0, runStart - 8), runStart))) continue; // Spring Cloud Config ciphertext
    if (insideTemplate(line.slice(Math.max(0, runStart - 80), runStart))) continue; // `{{ .Env.API_KEY_2024 }}`, `ENC(…)`
    if (hasUrl && inUrl(line, runStart + 3)) continue;
    // A quoted key between the word and the run owns the run (`jwks key "n": "0vx7…"`: a public modulus).
    if (/["'][A-Za-z_][\w.-]*["'][ \t]*:/.test(line.slice(after, runStart))) continue;
    // Another name's value (`refill_rate=10/s`): the assignment rules judge a credential's own.
    if (/^[A-Za-z_][\w.-]*=/.test(run) && !HAS_WORD.test(run.slice(0, run.indexOf('=')))) continue;
    // NAME_GOES_ON: a run glued to the word that is the rest of the word's own name, then `=` and a number
    // (`key_encryption_key=24`, a Protocol Buffers field's number): the name's letters make the run look random, the
    // value is a number, and a number given to a credential's name is the assignment rules' to judge (`PIN_CODE=2468`).
    // A field's number has at most five digits (protobuf's in use stay far below 19000); a longer one is a value the
    // name holds, and the assignment rules pass a number after a key's name (`aws_secret_access_key=918273645`).
    if (runStart === after && /^[A-Za-z0-9_][\w.-]*=\d{1,5}(?![\w.])/.test(run)) continue;
    // NEXT_ENTRY_OWN_WORD (qa-redact-13): a run that opens a list's next entry (after `,` or `;`) with a credential's
    // name and `=` (`KdcAdminPassword=123,CrossRealmTrustPrincipalPassword=123`) is that entry, whose own word is read
    // next and whose value is judged there (ENTRY_ENDS_LABELLED_VALUE ended the earlier value before it): read as one
    // random run it hid the name in the tag.
    if (/[,;]/.test(line[runStart - 1] ?? '') && /^[A-Za-z_][\w.-]*=/.test(run) && endsInCredentialWord(run.slice(0, run.indexOf('=')))) continue;
    const stripped = run.replace(/^=+/, '');
    // An HTML entity ends the run (`DynamicSecret&#34;</p>`): markup, not a token's characters.
    const value = splitTrailingPunctuation(cutAtEntity(stripped, line[runEnd])).value;
    if (!isHighEntropy(value)) continue;
    const start = runStart + (run.length - stripped.length);
    return { start, end: start + value.length };
  }
  return undefined;
}

/** Whether position `at` is inside a URL (the URL rules own what is in URLs). */
function inUrl(line: string, at: number): boolean {
  // Looked for within the 200 characters before (bounded: a line of many words stays linear).
  const from = Math.max(0, at - 200);
  const before = line.slice(from, at);
  const start = Math.max(before.lastIndexOf(' '), before.lastIndexOf('"'), before.lastIndexOf("'")) + 1;
  return before.slice(start).includes('://');
}

/**
 * One line: after each credential word, the labelled value (when the words between end in a
 * separator) or else the first high-entropy token within the window is replaced.
 */
function redactLine(line: string, firstWord: number): string {
  // No credential word starts before `firstWord` (the caller found the line by it).
  LINE_WORD.lastIndex = firstWord;
  let out = '';
  let cursor = 0;
  const judged = { until: 0 };
  const hasUrl = line.includes('://');
  const hasUrn = line.includes('urn:') || line.includes('arn:');
  for (let m = LINE_WORD.exec(line); m !== null; m = LINE_WORD.exec(line)) {
    if (m.index < cursor || !credentialWordAt(line, m, hasUrn) || (hasUrl && inUrl(line, m.index))) continue;
    // The kind by the words the credential word ends (`private key`, `signing secret`, `API key`).
    const phrase = line.slice(Math.max(0, m.index - 12), m.index + m[0].length);
    const kind = /key$/i.test(m[0]) && !/(?:private|signing)[ _-]?key$/i.test(phrase) ? 'api-key' : genericKind(phrase);
    const after = m.index + m[0].length;
    // `token::transfer(…)`: the word is a path's segment, not a name given a value (names.ts SCOPE_PATH).
    if (isScopePath(line, after + gluedLength(line, after))) continue;
    // `key` alone names map keys and keyboard keys too: only a random-looking value counts after it.
    const bareKey = /^key$/i.test(m[0]) && !KEY_QUALIFIER.test(line.slice(Math.max(0, m.index - 12), m.index));
    // (Asked of the words around it: `secretKey` names a key, `secret` the secret. Only of the name glued to the
    // word, not of the value after it: in `secretKey: password` the value names the secret's field.)
    const labelled = bareKey ? undefined : labelledValue(line, after, kind === 'api-key' ? false : kind === 'password' ? true : kind === 'secret' ? chosenBy(line.slice(Math.max(0, m.index - 12), after + gluedLength(line, after))) : false);
    const span = labelled ?? entropyToken(line, after, judged, hasUrl);
    if (span === undefined) continue;
    // A number given to a name whose credential word other words follow (`"pass_mask32": "0x31c45018"`,
    // `ER_PASSWORD_ANONYMOUS_USER 1131`): that thing's number, as assignment.ts reads a key's.
    if (labelled !== undefined && isNumberLiteral(line.slice(span.start, span.end)) && !endsInCredentialWord(nameAround(line, m.index, after))) continue;
    // The name's type, its value after an `=` (`txtFieldPassword: UITextField! = nil`): assignment.ts reads the value.
    // (Or another name of a chain, `password = safe = "…"`: the same, CHAINED_ASSIGNMENT.)
    if (labelled !== undefined && (isTypeAnnotation(line.slice(span.start, span.end), line.slice(span.end, span.end + 16)) || isChainedAssignment(line.slice(span.start, span.end), line.slice(span.end, span.end + 16)))) continue;
    // Code passing the variable of the same name under a quoted key (`{"password": password}`; assignment.ts owns the rule).
    if (labelled !== undefined && isVariableUnderItsOwnName(nameAround(line, m.index, after), line.slice(after + gluedLength(line, after), span.start), line.slice(span.start, span.end), line.slice(span.end, span.end + 8))) {
      LINE_WORD.lastIndex = span.end; // the variable's name is no credential word of its own
      continue;
    }
    // The value belongs to the id or hash named right before it (`credentialsId: '…'`, `sha256 …`).
    // (A UUID beside a credential word stays a secret: HubSpot, Snyk and Heroku keys are UUIDs.)
    if (isNamedId(line.slice(after, span.start))) continue;
    out += line.slice(cursor, span.start) + tag(kind);
    cursor = span.end;
    LINE_WORD.lastIndex = cursor;
  }
  return cursor === 0 ? line : out + line.slice(cursor);
}

/** The name a credential word is part of: the word with the name characters glued before it and after it (`pass_mask32`). */
function nameAround(line: string, start: number, end: number): string {
  let s = start;
  while (s > 0 && /[\w.-]/.test(line[s - 1] as string)) s -= 1;
  return line.slice(s, end + gluedLength(line, end));
}

/** How many name characters (letters, digits, `_`, `.`, `-`) follow `at`, up to 10: the rest of a name glued to a word. */
function gluedLength(line: string, at: number): number {
  let n = 0;
  while (n < 10) {
    const c = line[at + n] ?? ' ';
    if (!(isLower(c) || isUpper(c) || isDigit(c) || c === '_' || c === '.' || c === '-')) break;
    n += 1;
  }
  return n;
}

/** Values beside a credential word on the same line. */
const NEAR_WORD: ScanRule = {
  kind: 'context',
  hints: ['pass', 'pwd', 'pw', 'psw', 'pssw', 'pasw', 'PIN', 'secret', 'token', 'key', 'pat', 'dsn', 'credential', 'wif'],
  scan: (text) => {
    // Only the lines holding a credential word are looked at (found in one pass over the text).
    let out = '';
    let cursor = 0;
    WORD.lastIndex = 0;
    for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
      const start = text.lastIndexOf('\n', m.index) + 1;
      const nl = text.indexOf('\n', m.index);
      const end = nl < 0 ? text.length : nl;
      const line = text.slice(start, end);
      const next = redactLine(line, m.index - start);
      if (next !== line) {
        out += text.slice(cursor, start) + next;
        cursor = end;
      }
      WORD.lastIndex = end;
    }
    return cursor === 0 ? text : out + text.slice(cursor);
  },
};

const CELL_WORD = /passw|passwd|passphrase|pwd|secret|token|(?:^|[^a-z])key(?:$|[^a-z])|(?:[a-z])Key\b|\bPAT\b|\bdsn\b|credential/i;

/** Whether a table header or key cell names a credential (words and spaces; a key in code is assignment.ts `namesCredential`'s). */
function cellNamesCredential(cell: string): boolean {
  const c = cell.trim().replace(/[*`_]{2,}/g, '');
  if (c.length === 0 || c.length > 40 || !CELL_WORD.test(c)) return false;
  const m = /passw|passwd|passphrase|pwd|secret|token|key|pat|dsn|credential/i.exec(c);
  if (m === null) return false;
  return !NOT_SECRET_BEFORE.test(c.slice(0, m.index)) && !NOT_SECRET_AFTER.test(c.slice(m.index + m[0].length).replace(/^[a-z]*/i, (w) => (w.length > 0 && /^(?:word|wd|phrase|s)$/i.test(w) ? '' : w)));
}

function cellValue(cell: string): { lead: string; value: string; trail: string } {
  const lead = /^\s*`?/.exec(cell)?.[0] ?? '';
  const trail = /`?\s*$/.exec(cell.slice(lead.length))?.[0] ?? '';
  return { lead, value: cell.slice(lead.length, cell.length - trail.length), trail };
}

/**
 * A table cell holding a credential: a value, not a placeholder, a sentence or a link. Under the word
 * password in another language (`otherLanguage`), a cell of that language's letters is a password only
 * as a word and a number (`лето2024`): a word alone there is as often the table's description (`| Пароль |
 * Строка |`, "string"), which no test blind to the language tells from a word chosen as the password.
 */
function redactCell(cell: string, kind: string, name: string, otherLanguage: 'column' | 'row' | false = false): string {
  const { lead, value, trail } = cellValue(cell);
  if (value === '' || /\s/.test(value.trim()) || isRedacted(value) || value.includes('://')) return cell;
  // Under the word in another language, a value beyond ASCII is one as the label's line gives one: a word
  // and a number, or a plain word alone in a script that spaces its words (password-forms.ts PLAIN_WORD_ALONE),
  // under a column so named or beside a key cell with no other cell (`| Пароль | солнышко |`); a row of more
  // cells is a form's fields (`| Пароль | Строка | Да |`: its type and whether it is required).
  const plainWordAlone = otherLanguage === 'column' && isPlainWord(value) && !inUnspacedScript(value);
  if (otherLanguage !== false && /[^\x00-\x7f]/.test(value) && !isWordAndNumberInAnyScript(value) && !plainWordAlone) return cell;
  // Judged by the word it is given under and by the value (chosenFor): a weak value under an API key's column is that weak key.
  if (!isCredentialValue(value, chosenFor(name, value)) && !isHighEntropy(value)) return cell;
  return `${lead}${tag(kind)}${trail}`;
}

const SPLIT_CELLS = /(?<!\\)\|/;

/**
 * The short headers a login table gives its password column (`| Service | User | Pass |`, `| Host | Login | PW |`).
 * Alone they name other things as often (a test matrix's `Pass` column of counts), so they are read as a
 * password's only beside a column that names the user.
 */
const SHORT_PASSWORD_HEADER = /^(?:pass|pw)$/i;
const USER_HEADER = /^(?:user(?:[ _-]?name)?|login|account|e-?mail)$/i;

/**
 * PIN_COLUMN: a table of codes by what they open (`| Lock | PIN |`, `| Door | Passcode |`): a cell of four to twelve
 * digits alone under a PIN's or passcode's header is the code, as `Garage door PIN: 4471` is (access-codes.ts). Only
 * digits: a PIN column of a pinout names a pin by a number of one to three (`| GPIO17 | 11 |`), and words there
 * (`| Safe | ask reception |`) say where the code is.
 */
const PIN_HEADER = /^(?:pin|pin[ -]?code|passcode|pin number)$/i;
const PIN_CELL = /^[ \t]*\d{4,12}[ \t]*$/;

/** The header cells that name a credential: by their own words, or a short password header beside a user column. */
function credentialColumns(header: readonly string[]): boolean[] {
  const bare = header.map((h) => h.trim().replace(/[*`_]{2,}/g, ''));
  const loginTable = bare.some((h) => USER_HEADER.test(h));
  return header.map((h, c) => cellNamesCredential(h) || namesPasswordInOtherLanguage(h) || (loginTable && SHORT_PASSWORD_HEADER.test(bare[c] as string)));
}

/**
 * Markdown tables: the cells under a header that names a credential (`| service | token |`), and
 * the other cells of a row whose first cell names one (`| STRIPE_SECRET | … |`).
 */
const TABLE: ScanRule = {
  kind: 'context-table',
  hints: ['|'],
  scan: (text) => {
    if (!/^[ \t]*\|.*\|[ \t]*$/m.test(text)) return text;
    const lines = text.split('\n');
    let changed = false;
    let header: string[] | undefined;
    let named: boolean[] = [];
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i] as string;
      if (!/^[ \t]*\|.*\|[ \t]*$/.test(line)) {
        header = undefined;
        continue;
      }
      const cells = line.split(SPLIT_CELLS);
      const isRule = cells.slice(1, -1).every((c) => /^\s*:?-{2,}:?\s*$/.test(c));
      if (isRule) continue;
      if (header === undefined) {
        const next = lines[i + 1] ?? '';
        if (/^[ \t]*\|(?:\s*:?-{2,}:?\s*\|)+[ \t]*$/.test(next)) {
          header = cells;
          named = credentialColumns(cells);
          continue;
        }
        header = [];
        named = [];
      }
      let rowChanged = false;
      const keyCell = cells[1] ?? '';
      // The word password in another language names a password (`| Пароль | … |`), names.ts.
      const keyInOtherLanguage = namesPasswordInOtherLanguage(keyCell);
      const rowNamed = keyInOtherLanguage || cellNamesCredential(keyCell);
      for (let c = 1; c < cells.length - 1; c += 1) {
        const head = header[c];
        let name: string | undefined;
        let otherLanguage: 'column' | 'row' | false = false;
        if (head !== undefined && named[c] === true) {
          otherLanguage = namesPasswordInOtherLanguage(head) ? 'column' : false;
          name = SHORT_PASSWORD_HEADER.test(head.trim()) || otherLanguage !== false ? 'password' : head;
        } else if (c >= 2 && rowNamed) {
          // A key cell and one value (`| Пароль | солнышко |`) read as a column does; more cells are a form's fields.
          otherLanguage = keyInOtherLanguage ? (cells.length === 4 ? 'column' : 'row') : false;
          name = keyInOtherLanguage ? 'password' : keyCell;
        }
        if (name === undefined) {
          // A code under a PIN's column (PIN_COLUMN).
          if (head !== undefined && PIN_HEADER.test(head.trim().replace(/[*`_]{2,}/g, '')) && PIN_CELL.test(cells[c] as string)) {
            cells[c] = (cells[c] as string).replace(/\S+/, tag('password'));
            rowChanged = true;
          }
          continue;
        }
        const redacted = redactCell(cells[c] as string, genericKind(name), name, otherLanguage);
        if (redacted !== cells[c]) {
          cells[c] = redacted;
          rowChanged = true;
        }
      }
      if (rowChanged) {
        lines[i] = cells.join('|');
        changed = true;
      }
    }
    return changed ? lines.join('\n') : text;
  },
};

/** Whether `c` ends a line for a multi-line regexp's `^` (\n, \r, U+2028, U+2029). */
const isLineEnd = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;

/**
 * `/^[^\n,]{0,40},[^\n,]{0,40},[^\n]*$/m.test(text)`, without trying the pattern at every position of
 * the text (it cost more than the rest of the CSV rule on prose): some comma is the first after a
 * line start at most 40 characters before it, and the next comma follows within 40 characters,
 * with no newline between.
 */
function hasHeaderShape(text: string): boolean {
  let prev = -1;
  for (let c = text.indexOf(','); c >= 0; ) {
    const next = text.indexOf(',', c + 1);
    if (next >= 0 && next - c <= 41 && !text.slice(c + 1, next).includes('\n')) {
      // The latest line start within the 40 characters before the comma, if any.
      let start = -1;
      for (let k = c - 1; k >= c - 41; k -= 1) {
        if (k < 0 || isLineEnd(text.charCodeAt(k))) {
          start = k + 1;
          break;
        }
      }
      if (start >= 0 && prev < start) return true;
    }
    prev = c;
    c = next;
  }
  return false;
}

/** CSV with a header row naming credential columns (AWS IAM's credentials CSV: `User name,Password,…,Secret access key`). */
const CSV: ScanRule = {
  kind: 'context-csv',
  hints: [','],
  scan: (text) => {
    // A header: a short line of 3+ comma-separated fields, one of them a credential word.
    if (!hasHeaderShape(text) || !CELL_WORD.test(text)) return text;
    const lines = text.split('\n');
    let changed = false;
    for (let i = 0; i < lines.length - 1; i += 1) {
      const header = (lines[i] as string).split(',');
      if (header.length < 3 || header.some((h) => h.length > 40)) continue;
      const columns = header.map((h, k) => (cellNamesCredential(h) && !/\bid\b/i.test(h) ? k : -1)).filter((k) => k >= 0);
      if (columns.length === 0) continue;
      let j = i + 1;
      for (; j < lines.length; j += 1) {
        const row = (lines[j] as string).split(',');
        if (row.length !== header.length) break;
        for (const k of columns) {
          const kind = genericKind(header[k] as string);
          const redacted = redactCell(row[k] as string, kind, header[k] as string);
          if (redacted !== row[k]) {
            row[k] = redacted;
            changed = true;
          }
        }
        lines[j] = row.join(',');
      }
      i = j - 1; // the rows read are not headers
    }
    return changed ? lines.join('\n') : text;
  },
};

/** A label line ending in a credential word and a colon, the value alone on the next line. */
const LABEL_ABOVE: ScanRule = {
  kind: 'context-label',
  hints: ['pass', 'pwd', 'pw', 'psw', 'pssw', 'pasw', 'PIN', 'secret', 'token', 'key', 'pat', 'dsn', 'credential'],
  scan: (text) => {
    let out = '';
    let cursor = 0;
    // Only lines ending in a colon are labels: found by one search, not tried at every line.
    // BOLD_LABEL: the colon may sit inside markdown bold (`**Password:**`), as notes write a label as often as after it.
    const colonEnd = /:(?:\*\*)?[ \t]*\n[ \t]*/g;
    for (let c = colonEnd.exec(text); c !== null; c = colonEnd.exec(text)) {
      const lineStart = text.lastIndexOf('\n', c.index) + 1;
      const label = text.slice(lineStart, c.index);
      const valueStart = c.index + c[0].length;
      const nl = text.indexOf('\n', valueStart);
      const valueLine = text.slice(valueStart, nl < 0 ? text.length : nl).replace(/[ \t]+$/, '');
      if (label.length > 60 || valueLine.length < 4 || /\s/.test(valueLine) || isRedacted(valueLine) || lineStart < cursor) continue;
      LINE_WORD.lastIndex = 0;
      let named = false;
      for (let w = LINE_WORD.exec(label); w !== null; w = LINE_WORD.exec(label)) if (credentialWordAt(label, w, label.includes('urn:') || label.includes('arn:')) && label.length - (w.index + w[0].length) < 4) named = true;
      if (!named) continue;
      const kind = genericKind(label);
      if (!isCredentialValue(valueLine, chosenFor(label, valueLine)) && !isHighEntropy(valueLine)) continue;
      out += text.slice(cursor, valueStart) + tag(kind);
      cursor = valueStart + valueLine.length;
    }
    return cursor === 0 ? text : out + text.slice(cursor);
  },
};

export const CONTEXT_RULES: readonly ScanRule[] = [TABLE, CSV, LABEL_ABOVE, NEAR_WORD];

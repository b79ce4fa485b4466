/**
 * Ways people write a password down that the `key = value` and context rules do not read:
 * - the short key `pw` (`PW=…`, `db_pw: …`, `pw: …`);
 * - an arrow or a long dash between the word and the value (`Password → …`, `token -> …`, `secret ⇒ …`);
 * - the word and the value with only a space between (`passwd Zx8!pq3Rt#w`, `user admin, password …`),
 *   taken only when the value could not be prose: digits and symbols or inner capitals, 8+ long, or
 *   a word and a number (`wifi password bluebird77`) where the clause ends after it;
 * - a user and a password after a label, split by ` / ` (`Login: admin / …`, `creds for the NAS: admin / …`,
 *   `user / password: admin / …`), and a login split by a slash alone (`admin/admin`, `login: deploy/…`);
 * - a pair named as one in its short form (`ID/PW: admin/…`, `id/pw admin (…)`, `ID / PW : db / …`);
 * - a host's login in brackets after it (`10.0.0.5 (admin/…)`, `ssh ops@db1.example.com (deploy/…)`);
 * - SQL's `IDENTIFIED BY '…'` (MySQL, MariaDB, Oracle: `CREATE USER app IDENTIFIED BY 'Zx8!pq3R'`) and
 *   `[WITH] PASSWORD [=] '…'` (PostgreSQL, SQL Server, MySQL's `SET PASSWORD`), the password of the
 *   account the statement creates or changes;
 * - the word password in another language a note is written in (`비밀번호: …`, `パスワード：…`, `Passwort: …`),
 *   and that language's "the password … is …" (`Das Passwort für den Server ist …`);
 * - a pass phrase of several words after a label naming one (`passphrase: correct horse battery staple`,
 *   a wallet's seed phrase).
 * - a password a short clause away from its word (`pass is rex2024`, `… password is the same as Jira: …`, `… password
 *   will be …`, `the password "…" works`, `tried '…' as the password`), each form asking for the value's shape;
 * Values are judged by values.ts like every other rule's.
 */
import { KEYPAD_THINGS } from './access-codes.js';
import { isCommonPasswordWord } from './common-passwords.js';
import { chosenBy, genericKind, nextEntryAt } from './assignment.js';
import { namesSomethingAboutIt } from './context.js';
import { tag, type RegexRule, type ScanRule } from './engine.js';
import { isTranslatedPasswordWord, PASSWORD_IN_OTHER_LANGUAGES, saysNoValueInOtherLanguage, saysStateInOtherLanguage, USER_IN_OTHER_LANGUAGES } from './names.js';
import { describedBySentence, endsClause, inUnspacedScript, isFunctionWord, isPlainWord, isUnspacedWordAlone, koreanNounOfHaeyo, readsAsProse } from './prose.js';
import { type ChosenBy, isCredentialValue, isDummy, isPlaceholder, isRedacted, isTemplateStart, isWordAndNumberInAnyScript, restAfterChosenSecret, splitTrailingPunctuation, unquote } from './values.js';

/** A value: quoted (taken whole) or bare up to whitespace. */
const VALUE = '("[^"\\n]{1,256}"|\'[^\'\\n]{1,256}\'|`[^`\\n]{1,256}`|[^\\s"\'`]+)';

/** Replaces a judged value, keeping its quotes and the punctuation after a bare one. */
function replaceValue(lead: string, raw: string, kind: string, strict: boolean, chosen: ChosenBy = kind === 'password'): string | undefined {
  const { inner, quote } = unquote(raw);
  // A bare value ends where its list's next label starts (`PW:…,password:…`), as assignment.ts reads one.
  const entry = quote === '' ? nextEntryAt(raw) : -1;
  const head = entry < 0 ? raw : raw.slice(0, entry);
  const split = quote === '' ? splitTrailingPunctuation(head) : { value: inner, rest: '' };
  const { value } = split;
  const rest = split.rest + raw.slice(head.length);
  // The test of the value's shape first: it turns most words of prose away for the least work.
  if (strict && !notProse(value)) return undefined;
  // `[expired].`, `<your password>,`: a placeholder followed by sentence punctuation.
  const chooser = chosen !== false ? 'chosen' : 'generated';
  if (isPlaceholder(raw, chooser) || isPlaceholder(raw.replace(/[.,:;!?]+$/, ''), chooser) || isTemplateStart(raw)) return undefined;
  if (value === '' || isRedacted(value) || isPlaceholder(value, chooser) || isDummy(value, { chooser })) return undefined;
  if (!isCredentialValue(quote === '' ? value : raw, chosen)) return undefined;
  return `${lead}${quote}${tag(kind)}${quote}${chosen !== false ? restAfterChosenSecret(rest) : rest}`;
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

/**
 * The word password in the shorthands people write it in by hand (`p/w: …`, `pword: …`, `p-word = …`,
 * `pass word: …`), as a label: PW_KEY's reading, for spellings no key of code holds.
 */
const SHORTHAND_LABEL: RegexRule = {
  kind: 'password',
  hints: ['p/w', 'p.w.', 'pword', 'p-word', 'pass word'],
  re: new RegExp(`((?<![A-Za-z0-9])(?:p/w|p\\.w\\.|p-?word|pass[ \\t]word)[ \\t]*(?::=|=>|[:=])[ \\t]*)${VALUE}`, 'gi'),
  replace: (m, g) => replaceValue(g[0] ?? '', g[1] ?? '', 'password', false) ?? m,
};

const WORDS = '(?:password|passwd|passphrase|passcode|pwd|pw|token|secret|api[ _-]?key)';

/** `Password → …`, `token -> …`, `secret ⇒ …`, `password — …`. */
const ARROW: RegexRule = {
  kind: 'password',
  hints: ['→', '->', '⇒', '—'],
  // Not glued to a letter or a digit (`1Password → Infra → staging-db`: a product's name, and the path to an item in it), as BARE.
  re: new RegExp(`((?<![A-Za-z0-9])(${WORDS})[ \\t]*(?:→|->|⇒|—)[ \\t]*)${VALUE}`, 'gi'),
  // A word with more of the sentence after it opens a description (`committed secret — remains valid …`), prose.ts.
  replace: (m, g, offset, text) =>
    describedBySentence(g[2] ?? '', text.slice(offset + m.length, offset + m.length + 12)) ? m : (replaceValue(g[0] ?? '', g[2] ?? '', genericKind(g[1] ?? ''), false, chosenBy(g[1] ?? '')) ?? m),
};

/**
 * QUOTED_TYPED_SHAPE: six to 64 characters with no space, a letter and a digit, and a symbol or a capital after the
 * first character (`Xk92!pq`, `aB3dE9fG`): the shape a generated or policy-made password has, and no name (`ubuntu2204`,
 * `Node20`) or word of a sentence.
 */
const QUOTED_TYPED_SHAPE = /^(?=\S{6,64}$)(?=.*[A-Za-z])(?=.*\d)(?:.*[^A-Za-z0-9]|.+[A-Z])/;

/** Six or more letters and digits with a digit between letters (`Gr8day`, `Tr4vel`, `p4ssw0rd`): a word with a letter swapped for a digit. */
const LETTER_SWAPPED = /^(?=[A-Za-z0-9]{6,32}$)[A-Za-z]+\d+[A-Za-z]+[A-Za-z0-9]*$/;

/** `passwd Zx8!pq3Rt#w`, `password Tr0ub4dor&3`, `-pw Zx8!pq3Rt#w` (PuTTY's option), `passcode 882211`: the word, a space, a value that is not prose. */
const BARE: RegexRule = {
  kind: 'password',
  hints: ['pass', 'pwd', 'pw', 'psk'],
  // Not glued to a letter or a digit (`1Password SDK`: a product's name). `pw` is the short word PW_KEY reads too;
  // `psk` a Wi-Fi's or a VPN's pre-shared key, a passphrase a person chose (`VPN psk Vpn2024!`).
  re: new RegExp(`((?<![A-Za-z0-9])(password|passwd|passphrase|passcode|pwd|pw|psk)[ \\t]+)${VALUE}`, 'gi'),
  replace: (m, g, offset, text) => {
    const raw = g[2] ?? '';
    // A word and a number, as people make a password memorable (`wifi password bluebird77`), or a number
    // alone (`password 123456`, `Zoom passcode 882211`), where the sentence ends after it: the end of the
    // line, punctuation or a joining word (`… hunter22 for staging`). With a word of the sentence after
    // it, it names something (`the password ubuntu2204 image`, `password 2024 rotation`).
    // QUOTES_KEEP_SHAPE: quotes around the value do not hide its shape (`SSH in with password "letmein99"`):
    // it is judged as written inside them, as replaceValue judges it.
    const { value, rest } = splitTrailingPunctuation(unquote(raw).inner);
    // PW_LETTER_SWAPPED: after the hand-written `pw` or `pwd`, a word with a digit put in for a letter (`Gr8day!`,
    // `Tr4vel!`), as people make a word a password; `pw` is written for nothing else, so the word is typed.
    const swapped = /^pwd?$/i.test(g[1] ?? '') && LETTER_SWAPPED.test(value);
    const weak = hasWeakShape(value) || isCommonPasswordWord(value) || swapped;
    // Punctuation glued to the value (`pw dragon, new one in the vault`) ended the clause already.
    const weakButEnded = weak && (rest !== '' || endsClause(text.slice(offset + m.length, offset + m.length + 16)));
    // QUOTED_TYPED: quotes around a value typed as only a password is (QUOTED_TYPED_SHAPE: `the password "Xk92!pq"
    // works`) mark it as the literal the sentence talks about, whatever follows: the quotes, not the end of the clause,
    // say where it stops. A word and a number in quotes with a noun after it stays a name (`the password "ubuntu2204"
    // image`, QUOTES_KEEP_SHAPE), and a quoted word of prose stays (`the password "hint" field`).
    // (Quotes inside the quotes are no part of its shape either: `` `"password"` `` is the word password.)
    const quotedTyped = /^["'`]/.test(raw) && QUOTED_TYPED_SHAPE.test(unquote(value).inner);
    return replaceValue(g[0] ?? '', raw, 'password', !(weakButEnded || quotedTyped)) ?? m;
  },
};

/**
 * USE_TYPED_PASSWORD: `Use Trustno1! for the jump host`, with no credential word: the thing to use is in the shape a
 * password policy makes people type (POLICY_SHAPED: an upper-case letter, a lower-case letter, a digit and one of the
 * symbols such policies ask for), which no name, version or word of prose has: a version or a package pin holds `.`,
 * `@`, `-` or `+` instead (`Node@20`, `C++17`, `macOS-14`), never `!`, `#`, `$`, `%`, `&`, `*` or `?` beside all three.
 * After `use` or `try` opening a clause, then where the clause ends or goes on with what it is for or till when.
 */
const POLICY_SHAPED = /^(?=[^A-Z]*[A-Z])(?=[^a-z]*[a-z])(?=\D*\d)[A-Za-z0-9]*[!#$%&*?][A-Za-z0-9!#$%&*?]*$/;
const USE_TYPED_PASSWORD: RegexRule = {
  kind: 'password',
  hints: ['use ', 'try '],
  re: /((?:^[ \t]*(?:[-*+][ \t]+)?|[.;:,!?(][ \t]*)(?:use|try)[ \t]+)([A-Za-z0-9!#$%&*?]{6,32})(?=[ \t]+(?:for|on|to|with|as|when|until|at)\b|[ \t]*(?:[.,;)]?[ \t]*(?:\r?\n|$)))/gim,
  replace: (m, g) => (POLICY_SHAPED.test(g[1] ?? '') ? (replaceValue(g[0] ?? '', g[1] ?? '', 'password', false) ?? m) : m),
};

/**
 * The weak shapes a password takes that prose words do not: letters then two or more digits, in
 * lower case or a capital first as sites ask for one (`hunter22`, `sommar2023`, `Vpn2024`), four letters
 * or more then one digit (`sunshine1`, `Welcome1`), and four to twelve digits (`123456`, a passcode);
 * the same word and number in another script's letters (`лето2024`, `なつ2024`: values.ts
 * isWordAndNumberInAnyScript), as people make one memorable in their own language.
 */
const WEAK_SHAPES = [/^[A-Za-z][a-z]{2,}\d{2,}$/, /^[A-Za-z][a-z]{3,}\d$/, /^\d{4,12}$/];
const hasWeakShape = (value: string): boolean => WEAK_SHAPES.some((shape) => shape.test(value)) || isWordAndNumberInAnyScript(value);

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

/**
 * WIFI_SLASH_KEY: `Guest wifi: CoffeeShop / latte2go`, `WiFi — HomeNet / sunflower88`: a wireless network's
 * name and its key after a Wi-Fi label, split by a slash, as a login's user and password are
 * (USER_SLASH_PASSWORD). What else a Wi-Fi line puts after a slash stays: a second network of the same name
 * (`HomeNet / HomeNet-5G`: the first three letters shared), a band (`2.4 GHz / 5 GHz`), the security mode
 * (WIFI_SECURITY_MODE: `WPA2 / AES`), a word of a sentence (readsAsProse, and the value must end its clause:
 * `eduroam / university login`), and a path (`wifi: config/wpa.conf`: the slash has no space around it).
 */
const WIFI_SECURITY_MODE = /^(?:wpa\d?|wep|tkip|aes|ccmp|sae|psk|open|enterprise|personal|mixed)(?:[-_/][\w-]+)?$/i;
const WIFI_BAND = /^\d+(?:[.,]\d+)?[ ]?[gm]hz$/i;
const WIFI_SLASH_KEY: RegexRule = {
  kind: 'password',
  hints: ['wifi', 'wi-fi', 'wlan', 'ssid'],
  re: new RegExp(`((?<![A-Za-z0-9])(?:wi-?fi|wlan|ssid)[ \\t]*(?::|[-–—])[ \\t]*("[^"\\n]{1,64}"|[^\\s/"]{1,64})[ \\t]+/[ \\t]+)${VALUE}`, 'gi'),
  replace: (m, g, offset, text) => {
    const [lead = '', network = '', raw = ''] = g;
    const { value } = splitTrailingPunctuation(raw);
    const name = network.replace(/^"|"$/g, '');
    if (value.slice(0, 3).toLowerCase() === name.slice(0, 3).toLowerCase() || WIFI_BAND.test(value) || WIFI_SECURITY_MODE.test(value)) return m;
    if (!/^["'`]/.test(raw) && (readsAsProse(value) || !endsClause(text.slice(offset + m.length, offset + m.length + 16)))) return m;
    return replaceValue(lead, raw, 'password', false) ?? m;
  },
};

/**
 * Accounts a device or a server ships with, whose password is as often left as it came as set: `admin`,
 * `root`, `pi`. Not the names that also own images and boxes (`ubuntu/jammy64`, `oracle/graalvm-ce`).
 */
const SHIPPED_ACCOUNTS = ['admin', 'administrator', 'root', 'sa', 'pi', 'postgres', 'guest', 'sysadmin', 'superuser', 'cisco', 'ubnt'];

/** An e-mail address as a login's user (`me@example.com / hunter22`). */
const EMAIL = /^[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
/**
 * A login label just before a user (`login: `, `creds `, `credentials are `). LABEL_FOR_WHAT: the label may say what
 * the login is for before its verb or colon (`creds for grafana are admin:…`, `login to the NAS: deploy/…`), in up to
 * three words, as people name the service first. LOG_IN_WITH: the verb says it as well as the noun (`log in to the wiki
 * with ops:…`, `sign in as deploy/…`): what one logs in with is the login.
 */
const LOGIN_LABEL = /(?:^|[^\w/.@-])(?:(?:logins?|creds|credentials?)(?:[ \t]+(?:for|to|on|at)(?:[ \t]+[\w.-]{1,24}){1,3})?[ \t]*(?:[:=][ \t]*|[ \t]+(?:is|are)[ \t]+|[ \t]*)|(?:log|sign)[ -]?in(?:[ \t]+(?:to|on|at)(?:[ \t]+[\w.-]{1,24}){1,3})?[ \t]+(?:with|as|using)[ \t]+)$/i;
/** How far back a login label is looked for before its user: a label and the three words LABEL_FOR_WHAT allows. */
const LOGIN_LABEL_REACH = 64;
const USER_CHAR = /[\w.@+-]/;

/**
 * The user before a login's slash or colon at `end`: a plain name after a login label, or without one an
 * account a device ships with or an e-mail address; undefined when none is there. Read backwards by hand,
 * a character at a time: a pattern anchored at the end would be tried at every position before it.
 */
function loginBefore(text: string, end: number): { user: string; labelled: boolean } | undefined {
  let i = end;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i -= 1;
  const userEnd = i;
  while (i > 0 && userEnd - i <= 64 && USER_CHAR.test(text[i - 1] as string)) i -= 1;
  const user = text.slice(i, userEnd);
  // Nothing, too long, or a path's segment (`docs/admin/admin2`).
  if (user === '' || userEnd - i > 64 || USER_CHAR.test(text[i - 1] ?? '') || text[i - 1] === '/') return undefined;
  if (user.length <= 32 && !user.includes('+') && LOGIN_LABEL.test(text.slice(Math.max(0, i - LOGIN_LABEL_REACH), i))) return { user, labelled: true };
  return SHIPPED_ACCOUNTS.includes(user.toLowerCase()) || EMAIL.test(user) ? { user, labelled: false } : undefined;
}

/**
 * `admin/admin`, `root/root on the switch`, `Jenkins: admin / jenkins123`, `login: admin/admin123`, `creds
 * deploy/Deploy2024`, `Netflix: me@example.com / hunter22`: a user and a password split by a slash, with no label
 * naming the pair in full (that is USER_SLASH_PASSWORD's and NAMED_PAIR's). Read as a login when the user is an
 * account a device ships with or an e-mail address, or a login label comes before it; and only when the
 * password could not be the next word of a path or a list (`admin/editor roles`, `read/write`, `SSO/SAML`,
 * `admin/index.html`, `admin/api/v2`): it repeats the user, or holds a digit and is no file's name, and no
 * further `/` follows. Found by the slash, the user looked for before it: a pattern starting with the user
 * would be tried at every word of every note that holds a slash.
 */
const SLASH_LOGIN: RegexRule = {
  kind: 'password',
  hints: ['/'],
  // The literal first, so the engine skips to each slash (a leading lookbehind is tried at every position).
  // The value runs to whitespace or the end: a path's next segment (`src/lib/x`) is never one, and no
  // shorter run of it is tried.
  re: /(\/[ \t]*)([^\s/]{2,64})(?=\s|$)/g,
  replace: (m, g, offset, text) => {
    const [lead = '', raw = ''] = g;
    const { value } = splitTrailingPunctuation(raw);
    const typed = value.length >= 4 && /\d/.test(value) && !/\.[A-Za-z]{2,4}$/.test(value);
    // The cheap test of the value first: most slashes are a path's or a list's, with no digit after them.
    if (!typed && !/^[\w.@-]{2,32}$/.test(value)) return m;
    const before = loginBefore(text, offset);
    if (before === undefined) return m;
    if (!typed && value.toLowerCase() !== before.user.toLowerCase()) return m;
    return replaceValue(lead, raw, 'password', false) ?? m;
  },
};

/**
 * `Grafana admin:admin`, `Use root:root to log in`, `NAS login admin:changeme`, `creds deploy:Deploy2024`: a
 * user and a password split by a colon. A colon after an account's name is as often an image's tag
 * (`postgres:16-alpine`), a scope (`admin:org`) or a field of /etc/passwd (`root:x:0:0`), so without a login
 * label only a password repeating the user is read (the classic default); after a login label, one holding a
 * digit, or any after an account a device ships with. Found by the colon, as SLASH_LOGIN by its slash.
 */
const COLON_LOGIN: RegexRule = {
  kind: 'password',
  hints: [':'],
  // The literal first, so the engine skips to each colon; the user's last character is checked in replace.
  re: /:([^\s:/@]{2,64})(?=\s|$)/g,
  replace: (m, g, offset, text) => {
    const raw = g[0] ?? '';
    if (!/[\w.-]/.test(text[offset - 1] ?? '')) return m;
    const { value } = splitTrailingPunctuation(raw);
    if (!/^[\w.!#$%&*+?^~-]+$/.test(value)) return m;
    const before = loginBefore(text, offset);
    if (before === undefined) return m;
    const user = before.user.toLowerCase();
    const repeatsUser = value.toLowerCase() === user;
    const typed = value.length >= 4 && /\d/.test(value) && !/\.[A-Za-z]{2,4}$/.test(value);
    const shipped = SHIPPED_ACCOUNTS.includes(user);
    // After a label and an account a device ships with, any password, but one a clause ends after (not `admin:read scope`).
    const shippedAndEnded = shipped && endsClause(text.slice(offset + m.length, offset + m.length + 16));
    if (!repeatsUser && !(before.labelled && (typed || shippedAndEnded))) return m;
    return replaceValue(':', raw, 'password', false) ?? m;
  },
};

/**
 * A user and a password each after its own word, with spaces (`login admin pass hunter22`, `user ops,
 * password letmein`, `username: deploy pw: deploy`), the user a plain name (an SQL account such as
 * `'app'@'%'` is SQL_IDENTIFIED_BY's ground): the user named first makes the next value a
 * password however weak. The user must not be a word of prose (`login page password reset`), nor
 * the value (`user admin password required`), nor a word naming something about the password
 * (`user profile password field`).
 */
const NETRC_MACHINE = /(?<![\w-])machine[ \t]+\S+[ \t]+$/;
const USER_THEN_PASSWORD: RegexRule = {
  kind: 'password',
  hints: ['user', 'login'],
  // The left edge is checked in replace, as PASS_PHRASE's.
  // Each separator is spaces, or spaces around a mark, with no two ways to split a run of spaces
  // (`[ \\t]*[:=]?[ \\t]+` has n ways, and a long run of spaces after `user` took quadratic time).
  // USER_IS_PASS_IS: in a sentence too, each word with its `is` (`user is ci, pass is wombat`, `the user is admin and the
  // pass is sunflower`): `pass` alone is as often a ticket or a test's result, but after a user it is the password.
  re: new RegExp(`((?:user(?:name)?|login)(?:[ \\t]*[:=][ \\t]+|[ \\t]+(?:is[ \\t]+)?)([\\w.-]{1,64})(?:[ \\t]*[,;][ \\t]+|[ \\t]+)(?:and[ \\t]+(?:the[ \\t]+)?)?(?:pass(?:word)?|passwd|pwd|pw|psk)(?:[ \\t]*[:=][ \\t]+|[ \\t]+(?:is[ \\t]+)?))${VALUE}`, 'gi'),
  replace: (m, g, offset, text) => {
    const [lead = '', user = '', raw = ''] = g;
    if (/[A-Za-z]/.test(text[offset - 1] ?? '')) return m;
    // A .netrc entry (`machine host login user password …`) is NETRC's (command-line.ts).
    // (Asked of at most 256 characters before, the line's start looked for in them: looked for in the whole text, a
    // long line of pairs, `user ops, password letmein …`, took quadratic time.)
    const before = text.slice(Math.max(0, offset - 256), offset);
    if (NETRC_MACHINE.test(before.slice(before.lastIndexOf('\n') + 1))) return m;
    const bare = /^["'`]/.test(raw) ? undefined : splitTrailingPunctuation(raw).value;
    if (readsAsProse(user) || (bare !== undefined && (readsAsProse(bare) || namesSomethingAboutIt(bare)))) return m;
    return replaceValue(lead, raw, 'password', false) ?? m;
  },
};

/**
 * The value after a lead that already says it is a password (THING_PASS_IS, SAME_AS_THEN_VALUE, groups: lead, value):
 * quoted, any literal; bare, any word but one of prose or of state (`required`, `not set`), where the clause ends.
 */
const anyWordWhereClauseEnds: RegexRule['replace'] = (m, g, offset, text) => {
  const [lead = '', raw = ''] = g;
  const bare = /^["'`]/.test(raw) ? undefined : splitTrailingPunctuation(raw).value;
  if (bare !== undefined && (readsAsProse(bare) || namesSomethingAboutIt(bare) || !endsClause(text.slice(offset + m.length, offset + m.length + 16)))) return m;
  return replaceValue(lead, raw, 'password', false) ?? m;
};

/**
 * THING_PASS_IS: `pass` after a thing opened by a keypad (access-codes.ts KEYPAD_THINGS), then its `is` or a
 * colon, then one word where the clause ends: `the office alarm pass is marigold`, `lockbox pass: tulip`. `pass`
 * alone is a ticket or a test's result (USER_IS_PASS_IS asks for a user before it); after an alarm it is the
 * word that disarms it. Not a word of prose or of state (`the alarm pass is required`, `… is not set`).
 */
const THING_PASS_IS: RegexRule = {
  kind: 'password',
  // The things, not `pass`: `pass` is in every note that says password, the things in few.
  hints: KEYPAD_THINGS.filter((t) => !KEYPAD_THINGS.some((u) => u !== t && t.includes(u))),
  re: new RegExp(`((?<![\\w-])(?:${[...KEYPAD_THINGS].sort((a, b) => b.length - a.length).map((t) => t.replace(/ /g, '[ \\t]+')).join('|')})[ \\t]+pass(?:code)?(?:[ \\t]*[:=][ \\t]*|[ \\t]+(?:is|was|is now)[ \\t]+))${VALUE}`, 'gi'),
  replace: anyWordWhereClauseEnds,
};

/**
 * SAME_AS_THEN_VALUE: a password said to be another's, then the value after a colon (`Jenkins password is the same as
 * Jira: Winter2023`, `creds are the same as the NAS: admin/…` is SLASH_LOGIN's): the colon after the other's name gives
 * the value. Without a colon and a value the note says only which password it is (`the same as Jira's`), and nothing
 * is taken; a word of prose after the colon stays too (`… the same as Jira: rotated monthly`).
 */
const SAME_AS_THEN_VALUE: RegexRule = {
  kind: 'password',
  hints: ['same as'],
  re: new RegExp(`((?<![A-Za-z0-9])(?:password|passwd|passcode|pwd|pw|pass)[ \\t]+(?:is|was)[ \\t]+(?:the[ \\t]+)?same[ \\t]+as[ \\t]+[^\\n:]{1,40}?:[ \\t]*)${VALUE}`, 'gi'),
  replace: anyWordWhereClauseEnds,
};

/**
 * PASS_IS_WEAK: `pass` with its `is` (`pass is rex2024`, `my pass there is Falcon2020`), the value in a password's weak
 * shape (hasWeakShape, a common password word, or POLICY_SHAPED) where the sentence ends. `pass` alone is as often a
 * ticket, a permit or a test's run (`the pass is in my wallet`, `pass rate is 98%`, `second pass is for the images`),
 * and none of those is followed by a word and its number; THING_PASS_IS and USER_IS_PASS_IS take any word after a
 * keypad's thing or a user, this rule only the shapes people give a password. Between `pass` and `is` only a word
 * of place or time (`there`, `now`), never a noun (`pass rate`).
 */
const PASS_IS_WEAK: RegexRule = {
  kind: 'password',
  hints: ['pass '],
  re: new RegExp(`((?<![\\w-])pass(?:[ \\t]+(?:there|here|now|still|currently))?[ \\t]+(?:is|was)(?:[ \\t]+(?:now|still))?[ \\t]+)${VALUE}`, 'gi'),
  replace: (m, g, offset, text) => {
    const [lead = '', raw = ''] = g;
    const { value, rest } = splitTrailingPunctuation(unquote(raw).inner);
    if (!(hasWeakShape(value) || isCommonPasswordWord(value) || POLICY_SHAPED.test(value))) return m;
    // The sentence ends after it (punctuation or the line's end), not a joining word: `pass` is weak evidence, and a
    // stage of something goes on (`the build pass is stage2 of the pipeline`).
    if (rest === '' && !/^[ \t]*(?:\r?\n|$)/.test(text.slice(offset + m.length, offset + m.length + 4))) return m;
    return replaceValue(lead, raw, 'password', false) ?? m;
  },
};

/**
 * WILL_BE_TYPED: the password a note announces (`new password will be oRP05J%wQ from Monday`): `will be` says it as
 * `is` does, which the context rules' label words do not hold. The value must be typed as a password is (VALUE_FIRST
 * typedValue: letters with a digit or a symbol), since after `will be` a word of prose is the usual thing (`will be
 * rotated`, `will be sent by mail`), and the clause must end after it or go on with a joining word (`from Monday`).
 */
const WILL_BE_TYPED: RegexRule = {
  kind: 'password',
  hints: ['will be'],
  re: new RegExp(`((?<![A-Za-z0-9])(password|passwd|passcode|passphrase|pwd|pw|pass)[ \\t]+will[ \\t]+be[ \\t]+)${VALUE}`, 'gi'),
  replace: (m, g, offset, text) => {
    const [lead = '', word = '', raw = ''] = g;
    const { value, rest } = splitTrailingPunctuation(unquote(raw).inner);
    if (!typedValue(value, word)) return m;
    if (rest === '' && !endsClause(text.slice(offset + m.length, offset + m.length + 16))) return m;
    return replaceValue(lead, raw, 'password', false) ?? m;
  },
};

/**
 * A user and a password under a label naming both (`ID/PW: admin/…`, `id/pw admin/…`, `ID / PW : db / …`,
 * `ID/PW admin(…)`, `user&pwd = ops // …`, `Default ID/PW are admin/…`): the label says which word is the
 * password, so the user and the password may be split by `/`, `//`, a bracket or a space. With only a
 * space after the user the password must not read as prose (`ID/PW login page`).
 */
const NAMED_PAIR: RegexRule = {
  kind: 'password',
  hints: ['/pw', '/ pw', '/pass', '/ pass', '/pwd', '&pw', '&pass'],
  re: new RegExp(
    `((?<![A-Za-z])(?:user(?:name)?|id|login)[ \\t]*[/&][ \\t]*(?:pass(?:word)?|pwd|pw)(?![A-Za-z])(?:[ \\t]*(?:[:=]|->)[ \\t]*|[ \\t]+(?:is|are)[ \\t]+|[ \\t]+)[^\\s/()]{1,64}(?:[ \\t]*(\\/{1,2}|\\()[ \\t]*|([ \\t]+)))${VALUE}`,
    'gi',
  ),
  replace: (m, g) => {
    const [lead = '', , spaceOnly, raw = ''] = g;
    const value = raw.replace(/\)+$/, '');
    const replaced = replaceValue(lead, value, 'password', spaceOnly !== undefined);
    return replaced === undefined ? m : replaced + raw.slice(value.length);
  },
};

/**
 * A host's login in brackets right after it (`10.0.0.5 (admin/…)`, `ssh ops@db1.example.com (deploy/…)`,
 * `10.0.0.5:8443 admin (admin/…)`): `user/password` in brackets after an IPv4 address or a `user@host`,
 * with at most one word between, is how runbooks and handover notes give a machine's login. Without a
 * credential word to say so, the password must not read as prose (`notProse`: `(eu-west/zone-a)`,
 * `(router/AP)` stay). Found by the bracket, the host looked for before it.
 */
const HOST_BEFORE = /(?:(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)(?:[ \t]+[^\s()]{1,24})?[ \t]*$/;
const HOST_LOGIN_IN_BRACKETS: RegexRule = {
  kind: 'password',
  hints: ['/'],
  re: /(\(([\w.-]{1,32})\/)([^\s()/]{1,64})\)/g,
  replace: (m, g, offset, text) => {
    if (!HOST_BEFORE.test(text.slice(Math.max(0, offset - 80), offset))) return m;
    const replaced = replaceValue(g[0] ?? '', g[2] ?? '', 'password', true);
    return replaced === undefined ? m : `${replaced})`;
  },
};

/**
 * SQL's `IDENTIFIED BY '…'` (also `IDENTIFIED WITH mysql_native_password BY '…'`): the password of the
 * account the statement creates or alters, quoted or bare up to `;`. A statement pasted from a
 * migration or a runbook holds it as written; a bind variable or a template stays (values.ts). A bare
 * value only in a statement about an account (`USER`, `ROLE`, `LOGIN`, `GRANT` earlier on the line):
 * prose says things are identified by too (`users are identified by email`).
 */
const SQL_ACCOUNT_STATEMENT = /(?<![A-Za-z])(?:user|role|login|grant)(?![A-Za-z])/i;
const SQL_IDENTIFIED_BY: RegexRule = {
  kind: 'password',
  hints: ['identified'],
  re: new RegExp(`((?<![A-Za-z])identified[ \\t]+(?:with[ \\t]+[\\w$]+[ \\t]+)?by[ \\t]+)("[^"\\n]{1,256}"|'[^'\\n]{1,256}'|\`[^\`\\n]{1,256}\`|[^\\s"'\`;]+)`, 'gi'),
  replace: (m, g, offset, text) => {
    const raw = g[1] ?? '';
    if (!/^["'`]/.test(raw) && !SQL_ACCOUNT_STATEMENT.test(text.slice(text.lastIndexOf('\n', offset) + 1, offset))) return m;
    return replaceValue(g[0] ?? '', raw, 'password', false) ?? m;
  },
};

/**
 * SQL's password clause in a statement that creates or changes an account: PostgreSQL's `CREATE USER
 * app WITH PASSWORD '…'` and `CREATE ROLE x LOGIN ENCRYPTED PASSWORD '…'`, SQL Server's `CREATE LOGIN sa
 * WITH PASSWORD = '…'`, MySQL's `SET PASSWORD FOR 'root'@'localhost' = PASSWORD('…')`. Only a quoted
 * literal (a bind variable or `:'pw'` stays, values.ts), and only on such a statement's line.
 */
const SQL_PASSWORD_CLAUSE: RegexRule = {
  kind: 'password',
  hints: ['create user', 'create role', 'alter user', 'alter role', 'create login', 'alter login', 'set password'],
  re: /((?<![A-Za-z_])password(?:[ \t]+for[ \t]+\S+)?[ \t]*(?:=[ \t]*)?(?:password[ \t]*\([ \t]*)?)('[^'\n]{1,256}'|"[^"\n]{1,256}")/gi,
  replace: (m, g, offset, text) => {
    const end = text.indexOf('\n', offset);
    const line = text.slice(text.lastIndexOf('\n', offset) + 1, end < 0 ? text.length : end);
    if (!/(?:create|alter)[ \t]+(?:user|role|login)\b|\bset[ \t]+password\b/i.test(line)) return m;
    return replaceValue(g[0] ?? '', g[1] ?? '', 'password', false) ?? m;
  },
};

/**
 * The word's "is" glued to it, by language (`비번은 …`, `パスワードは …`, `密码是 …`): a Korean topic or
 * subject particle, a Japanese one, a Chinese copula. Read only after a word of its own row.
 */
const GLUED_IS: ReadonlyArray<{ language: string; words: readonly string[]; marks: string; copulas: readonly string[] }> = [
  { language: 'Korean', words: ['비밀번호', '비번', '패스워드', '암호'], marks: '은는이가', copulas: ['입니다', '이에요', '예요', '이다', '임'] },
  { language: 'Japanese', words: ['パスワード', '暗証番号'], marks: 'はが', copulas: ['です', 'でした', 'だ'] },
  // Chinese's mark is its copula, and the value ends its sentence: no row of copulas after it.
  { language: 'Chinese', words: ['密码', '密碼', '口令'], marks: '是为為', copulas: [] },
];

/**
 * COPULA_AFTER_VALUE: Korean and Japanese put the sentence's "is" after the value (`비밀번호는 해바라기 입니다`,
 * `パスワードは あおぞら です`, glued too: `비밀번호는 해바라기입니다`): the one word between the word's particle (GLUED_IS)
 * and its copula is the password, judged as one standing alone after the label is (prose.ts UNSPACED_WORD_ALONE: one
 * script's letters, no grammar, no state or none: `비밀번호는 기본값입니다`, `パスワードはなしです` stay). A word and a number
 * there is OTHER_LANGUAGE's (`비밀번호 여름2024 입니다`).
 */
const COPULA_AFTER_VALUE_WORD = String.raw`(?:\p{Script=Hangul}{2,6}?|[\p{Script=Hiragana}\p{Script=Katakana}ー]{2,8}?|\p{Script=Han}{2,4}?)`;
const COPULA_AFTER_VALUE: RegexRule = {
  kind: 'password',
  hints: GLUED_IS.filter((row) => row.copulas.length > 0).flatMap((row) => row.words),
  re: new RegExp(
    GLUED_IS.filter((row) => row.copulas.length > 0)
      .map((row) => String.raw`((?:${row.words.join('|')})[${row.marks}][ \t]*)(${COPULA_AFTER_VALUE_WORD})(?=[ \t]*(?:${row.copulas.join('|')})(?!\p{L}))`)
      .join('|'),
    'gu',
  ),
  replace: (m, g) => {
    const at = g.findIndex((x, i) => i % 2 === 0 && x !== undefined);
    return unspacedWordAlone(g[at] ?? '', g[at + 1] ?? '') ?? m;
  },
};

/**
 * VERB_LAST_COPULA: Hindi puts the sentence's "is" (`है`, `था`) last, after the value (`वाईफाई का पासवर्ड नमस्ते है`):
 * one plain word between the word and its copula, where the sentence ends, is the password, unless it says what the
 * password became, must be or is like (names.ts STATE_BY_LANGUAGE, QUALITY_BY_LANGUAGE: `पासवर्ड आवश्यक है`,
 * `पासवर्ड सही है`), that there is none, or is a verb's infinitive (`-ना`: `पासवर्ड बदलना है`, "is to be changed").
 * A word and a number there is OTHER_LANGUAGE's. Several words before the copula are a sentence
 * (`पासवर्ड राउटर के पीछे लिखा है`). One row per language.
 */
const VERB_LAST: ReadonlyArray<{ language: string; words: readonly string[]; copulas: readonly string[]; infinitive: RegExp }> = [
  { language: 'Hindi', words: ['पासवर्ड', 'कूटशब्द'], copulas: ['है', 'था'], infinitive: /ना$/u },
];
const VERB_LAST_COPULA: RegexRule = {
  kind: 'password',
  hints: VERB_LAST.flatMap((row) => row.words),
  re: new RegExp(
    VERB_LAST.map((row) => String.raw`((?:${row.words.join('|')})[ 	]+)([\p{L}\p{M}]{2,24})(?=[ 	]+(?:${row.copulas.join('|')})[ 	]*[।.!]?[ 	]*(?:
?
|$))`).join('|'),
    'gu',
  ),
  replace: (m, g) => {
    const at = g.findIndex((x, i) => i % 2 === 0 && x !== undefined);
    const [lead = '', value = ''] = [g[at], g[at + 1]];
    const row = VERB_LAST[at / 2];
    if (!isPlainWord(value) || row === undefined || row.infinitive.test(value)) return m;
    if (saysNoValueInOtherLanguage(value) || saysStateInOtherLanguage(value) || isTranslatedPasswordWord(value)) return m;
    return `${lead}${tag('password')}`;
  },
};

/**
 * IS_THEN_WORD_ALONE: Thai writes "is" (`คือ`) after the word and what it is for, glued (`รหัสผ่านไวไฟคือ มะม่วง`,
 * "the wifi password is mango"), as a colon: one word alone at the line's end after it is the value, judged as one
 * after the colon is (prose.ts UNSPACED_WORD_ALONE: `รหัสผ่านไวไฟคือ อยู่หลังเราเตอร์`, "is behind the router",
 * stays). One row per language.
 */
const IS_AFTER_THE_WORD: ReadonlyArray<{ language: string; words: readonly string[]; is: string; glued: string }> = [
  { language: 'Thai', words: ['รหัสผ่าน', 'รหัส'], is: 'คือ', glued: String.raw`[\p{Script=Thai}A-Za-z-]{0,16}?` },
];
const IS_THEN_WORD_ALONE: RegexRule = {
  kind: 'password',
  hints: IS_AFTER_THE_WORD.map((row) => row.is),
  re: new RegExp(IS_AFTER_THE_WORD.map((row) => String.raw`((?:${row.words.join('|')})${row.glued}[ 	]*${row.is}[ 	]*)([^\s]{2,32})(?=[ 	]*(?:
?
|$))`).join('|'), 'gu'),
  replace: (m, g) => {
    const at = g.findIndex((x, i) => i % 2 === 0 && x !== undefined);
    return unspacedWordAlone(g[at] ?? '', g[at + 1] ?? '') ?? m;
  },
};

/**
 * UNSPACED_WORD_AFTER_ENGLISH_LABEL: the English word and its colon, then one word of a script written without spaces
 * alone at the line's end (`router password: 별빛`, `password: 小白兔`): the value, judged as one after the word in that
 * language is (prose.ts UNSPACED_WORD_ALONE: `password: 필수`, `password: なし` stay). The ASCII rules read any such run
 * as prose (values.ts isCjkProse), which it is when more words follow it (`password: 관리자에게 문의`).
 */
const UNSPACED_WORD_AFTER_ENGLISH_LABEL: RegexRule = {
  kind: 'password',
  hints: ['pass', 'pwd', 'pin'],
  re: /((?<![A-Za-z])(?:password|passwd|passcode|passphrase|pwd|pin)(?:\*\*|__)?[ \t]*[:=：](?:\*\*|__)?[ \t]*)([^\s!-~]{2,16})(?=[ \t]*(?:\r?\n|$))/gi,
  replace: (m, g) => unspacedWordAlone(g[0] ?? '', g[1] ?? '') ?? m,
};

/** Whether a run after a word of GLUED_IS ends in its row's copula, punctuation after it allowed (`さくらです。`). */
function endsInCopula(word: string, run: string): boolean {
  const bare = run.replace(/[.!。！]+$/u, '');
  return GLUED_IS.some((row) => row.words.includes(word) && row.copulas.some((c) => bare.endsWith(c)));
}

/**
 * Japanese and Chinese write no space between words: their word may follow a Latin one (`Wi-Fi密码`),
 * and a value may end where their script starts again (`パスワードはhunter22です`). Korean spaces its words.
 */
const UNSPACED_SCRIPT = '\\u3040-\\u30ff\\u3400-\\u9fff\\uff00-\\uffef';
/**
 * ABBREVIATED_BY_LANGUAGE: the word shortened as notes in that language write it before its value (French's
 * `mdp`, for mot de passe: `mdp : azerty123`, `identifiant : admin / mdp : …`). Read by OTHER_LANGUAGE only as
 * a label (a colon or `=` after it), and not in capitals: `MDP` is a Markov decision process in a note on
 * machine learning. Not a word the tables and values read as the word password (PASSWORD_IN_OTHER_LANGUAGES).
 */
const ABBREVIATED_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  French: ['mdp'],
};
const ABBREVIATIONS = new Set(Object.values(ABBREVIATED_BY_LANGUAGE).flat());
const UNSPACED_WORDS = PASSWORD_IN_OTHER_LANGUAGES.filter((w) => new RegExp(`^[${UNSPACED_SCRIPT}]`).test(w));
const SPACED_WORDS = [...PASSWORD_IN_OTHER_LANGUAGES.filter((w) => !UNSPACED_WORDS.includes(w)), ...ABBREVIATIONS];

/** Markdown's bold around the word or after its colon (`**Пароль:** …`, `**Passwort**: …`), as notes write a label. */
const BOLD = '(?:\\*\\*|__)?';

/**
 * REMARK_THEN_LABEL: what follows a bracket after the word, when the bracket closes and a colon or `=`
 * comes next (`Passwort (wifi): …`): a remark naming what the password is for, not its value.
 */
const REMARK_THEN_LABEL = /^[^()\n]{1,40}\)[ \t]*(?:\*\*|__)?[ \t]*[:=：]/;

/**
 * RUN_IN_ANOTHER_SCRIPT: where a value the ASCII reading does not take may start: a quotation mark of
 * another language (OWN_QUOTES), a word and a number (`лето2024`, `größe2024`), a word right after a
 * glued `=` (ASSIGNED_WORD), or a word standing alone at its line's end (a login block's, LOGIN_BLOCK); then
 * the rest of its run. Only these: a run that opens as a word of prose
 * is left unread, so a label after it is still found (`Новый пароль, старый пароль: qwerty123`).
 * Written without Unicode's classes (a letter here is what is neither space, nor ASCII punctuation or
 * digit; a digit is ASCII's or one of the scripts that write their own, Arabic, Persian, Devanagari and
 * full-width): the `u` flag they need made the whole rule about half again as slow on every note
 * holding the word; valueInAnotherScript judges the run with them.
 */
const LETTER_LIKE = '[^\\s!-@\\[-`{-~]';
const DIGIT_OF_ANY_SCRIPT = '[0-9\\u0660-\\u0669\\u06f0-\\u06f9\\u0966-\\u096f\\uff10-\\uff19]';
const RUN_IN_ANOTHER_SCRIPT = `(?:[«„“「『]|${LETTER_LIKE}{1,32}${DIGIT_OF_ANY_SCRIPT}|(?<=\\S=)${LETTER_LIKE}|${LETTER_LIKE}{1,32}(?=[.!]?[ \\t]*(?:\r?\n|$)))\\S{0,63}`;

/**
 * After the word: a colon or `=` (also the full-width `：`), a value in brackets (`비밀번호(…)`), the
 * word's glued "is" (GLUED_IS), or a space; the value runs to whitespace (or the closing bracket, or
 * the start of an unspaced script). With only a space between, the value must not read as prose
 * (`notProse`, as BARE asks) or must have a weak password's shape where the line or sentence ends
 * (`wifi 密码 hunter22`). The value ends at whitespace: a run glued to a word of another spaced
 * script is markup or a word's part (`@@@hl@@@비번`). A value with letters beyond ASCII, where one
 * may start (RUN_IN_ANOTHER_SCRIPT: `Пароль: лето2024`, `パスワード：なつ2024`, `Passwort: größe2024`),
 * is read as one run to whitespace and judged by `valueInAnotherScript`.
 */
const OTHER_LANGUAGE: RegexRule = {
  kind: 'password',
  hints: [...PASSWORD_IN_OTHER_LANGUAGES, ...ABBREVIATIONS],
  re: new RegExp(
    `((?:(?<![A-Za-z])(${SPACED_WORDS.join('|')})|(${UNSPACED_WORDS.join('|')}))${BOLD}[ \\t]*(?:([:=：(])${BOLD}|([${GLUED_IS.map((row) => row.marks).join('')}])|(?=[ \\t]))[ \\t]*)(?:([!-~]+)(?![^\\s${UNSPACED_SCRIPT}])|(${RUN_IN_ANOTHER_SCRIPT}))`,
    'gi',
  ),
  replace: (m, g, offset, text) => {
    const [lead = '', spaced, unspaced, sep, particle, ascii, other] = g;
    const word = (spaced ?? unspaced ?? '').toLowerCase();
    if (ABBREVIATIONS.has(word) && (sep === undefined || sep === '(' || spaced === spaced?.toUpperCase())) return m;
    if (particle !== undefined && !GLUED_IS.some((row) => row.words.includes(word) && row.marks.includes(particle))) return m;
    // `Passwort (wifi): …`: the bracket says what the password is for, and the value follows its colon (LABEL_FOR_IN_OTHER_LANGUAGES).
    if (sep === '(' && REMARK_THEN_LABEL.test(text.slice(offset + lead.length, offset + m.length + 8))) return m;
    // GLUED_IS_THEN_WORD_ALONE: the word's glued "is" separates as its colon does (`와이파이 비밀번호는 초코칩`,
    // `Wi-Fiのパスワードはさくら`, `WiFi密码是小白兔`): one word alone at the line's end after it is the value,
    // judged as after a colon (UNSPACED_WORD_ALONE: `비밀번호는 필수`, `パスワードは不要` stay). A run of letters ending in
    // the row's copula is COPULA_AFTER_VALUE's, which reads the word before it (`パスワードはなしです`: none, stays); a
    // quoted word or a word and a number before a copula stay valueInAnotherScript's (`パスワードは「たまご」です`).
    if (other !== undefined && particle !== undefined && !/[\p{N}«„“「『]/u.test(other) && endsInCopula(word, other)) return m;
    if (other !== undefined) return valueInAnotherScript(lead, other, sep ?? particle, text[offset + m.length], () => userGivenBefore(text, offset)) ?? m;
    const raw = ascii ?? '';
    const value = sep === '(' ? raw.replace(/\).*$/, '') : raw;
    const after = text.slice(offset + m.length, offset + m.length + 2);
    if (COUNTED.test(value) && COUNTER_AFTER.test(after)) return m;
    if (sep !== undefined && opensSentence(value, after)) return m;
    if (sep === undefined && particle === undefined && !spacedValueIsPassword(value, after)) return m;
    const replaced = replaceValue(lead, value, 'password', false);
    return replaced === undefined ? m : replaced + raw.slice(value.length);
  },
};

/**
 * A plain word after the label's colon with another word after it on its line opens a sentence in the
 * note's language (`Passwort: siehe Wiki`, `Mot de passe : voir le wiki`, `Passwort: mindestens 12
 * Zeichen`), which this rule cannot read word by word, as `Пароль: смотри в Vault` does in its own
 * script; a password chosen as a word stands alone (`Passwort: sommer`) or is one of the most common
 * (`Пароль: qwerty для гостей`). Not after a glued "is": Korean and Japanese put the verb after the
 * value (`비밀번호는 sunshine 입니다`).
 */
function opensSentence(value: string, after: string): boolean {
  return /^[A-Za-z]+$/.test(value) && /^[ \t]+[\p{L}\p{N}]/u.test(after) && !isCommonPasswordWord(value);
}

/**
 * COUNTER_AFTER: a number with a Han character glued after it is a quantity, not a value: Chinese and
 * Japanese write a count's or a date's counter right after the number (`2024年に変更`, `至少12位`,
 * `最低12文字`), while a password there ends at punctuation, a space or a particle (`なつ2024です`).
 */
const COUNTED = /\d$/;
const COUNTER_AFTER = /^\p{Script=Han}/u;

/**
 * UNSPACED_VALUE_END: in a script written without spaces the words after a value are glued to it; a
 * word and a number end where the number does, before a particle or punctuation (`なつ2024です`,
 * `夏天2024。`). A Han character there is a counter (COUNTER_AFTER), so it ends nothing.
 */
const UNSPACED_VALUE_END = /^([\p{L}\p{M}]{1,32}\p{Nd}{1,12})(?=[\p{Script=Hiragana}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20])/u;

/**
 * UNSPACED_WORD_THEN_REMARK: in a script written without spaces, punctuation ends a word as a space ends one in
 * others: a full-width bracket opening a remark (`密码：小熊猫（别外传）`, "don't pass it on") or a comma or full stop
 * opening the next clause (`密码：月亮船，周一改`). The word before it is judged as one standing alone (prose.ts
 * UNSPACED_WORD_ALONE), which keeps a sentence's start (`密码：请联系管理员，谢谢`, `密码：已重置（见邮件）`).
 */
const UNSPACED_WORD_THEN_REMARK = /^([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]{2,8})(?=[（【〔，、。；])/u;

/**
 * OWN_QUOTES: the quotation marks a language writes a given word in (`«…»`, `„…“`, `“…”`, `「…」`,
 * `『…』`): a word in them is given as written, a literal, as one in `"…"` is (a word the person chose:
 * `Пароль: «солнышко»`). One word only, the end of its clause after it: words with spaces in quotes
 * are as often a quoted remark, and Japanese quotes a screen's or a button's name inside a sentence.
 * (A word of Chinese, Japanese or Korean in them stays prose, values.ts isCjkProse.)
 */
const OWN_QUOTES = /^([«„“「『])([^\s«»„“”「」『』]{1,64})([»“”」』])(.*)$/u;
const CLOSES: Readonly<Record<string, string>> = { '«': '»', '„': '“”', '“': '”', '「': '」', '『': '』' };
/**
 * QUOTE_ENDS_SENTENCE: what may follow the closing mark where the clause ends there: punctuation
 * (also the full stop and comma of Chinese and Japanese), or Japanese's copula (`です`, `でした`, `だ`:
 * `パスワードは「たまご」です`, "the password is 'tamago'"), which ends the sentence and says nothing of the word.
 */
const QUOTE_ENDS_SENTENCE = /^(?:です|でした|だ)?[.,;:!?)。、]*$/u;

/**
 * A word in OWN_QUOTES after `lead`, replaced as a literal; undefined when the run is not one. A plain word of
 * a script written without spaces, which the value tests read as prose (values.ts isCjkProse), is judged as one
 * standing alone after the label is (UNSPACED_WORD_ALONE: one script's letters, no grammar, no state): the
 * quotes give it as written, as a line of its own does.
 */
function quotedInOwnMarks(lead: string, run: string): string | undefined {
  const quoted = OWN_QUOTES.exec(run);
  if (quoted === null) return undefined;
  const [, open = '', inner = '', close = '', after = ''] = quoted;
  // Words glued after the closing mark make the quoted word a name in a sentence (`「設定画面」から変更`).
  if (!(CLOSES[open] ?? '').includes(close) || !QUOTE_ENDS_SENTENCE.test(after)) return undefined;
  const replaced = replaceValue(`${lead}${open}`, inner, 'password', false) ?? (inUnspacedScript(inner) && !hasWeakShape(inner) ? unspacedWordAlone(`${lead}${open}`, inner) : undefined);
  return replaced === undefined ? undefined : `${replaced}${close}${after}`;
}

/**
 * ASSIGNED_WORD: a word right after `=` with no space on either side (`пароль=солнышко`, a `.env` or a
 * config line): an assignment, where no sentence goes on, so the word is the value whatever its script.
 */
const ASSIGNED_WORD = /^[\p{L}\p{M}][\p{L}\p{M}\p{N}_-]{0,63}$/u;

/**
 * PLAIN_WORD_ALONE: a plain word of letters alone on its line after the word and its colon (`Passwort:
 * Bärchen`, `Hasło: źrebak`, `Пароль: солнышко`, `Κωδικός: πορτοκάλι`) is the password, whatever its script,
 * as a word of Latin letters there already is (`Passwort: sommer`): a note gives a value there, and a sentence
 * goes on after its first word. What stays: a word telling the password's state or that there is none
 * (names.ts STATE_BY_LANGUAGE, NO_VALUE_BY_LANGUAGE: `Пароль: сменён`, `Пароль: нет`), the word itself, a
 * vault's name (values.ts). Not in scripts that write a sentence without spaces (UNSPACED_LETTER: Chinese,
 * Japanese, Thai, Lao, Khmer, Burmese), where one run may be a whole sentence (`密码：请联系管理员`), nor in
 * Korean's Hangul, typed on a Latin keyboard for a password (values.ts isCjkProse): a known miss there,
 * but in a login block (LOGIN_BLOCK). The word's test is prose.ts's (isPlainWord, inUnspacedScript).
 */

/**
 * A value with letters beyond ASCII (another script's, or Latin's with diacritics), after the word in
 * another language: a password when it is given as one, which a word of that language's sentence is not:
 * - a word and a number (WEAK_SHAPES: `лето2024`, `καλοκαίρι2024`, `קיץ2024`), after any separator,
 *   and in an unspaced script up to where the number ends (UNSPACED_VALUE_END). After a space alone too,
 *   whatever follows: what names a product or a version beside a number is written in Latin letters
 *   (`ubuntu2204`, which BARE waits for the clause's end to tell apart), and languages that put the
 *   verb last go on after the value (`पासवर्ड गर्मी2024 है`, `비밀번호 여름2024 입니다`);
 * - a word in quotation marks (OWN_QUOTES);
 * - a word assigned with `=` and nothing around it (ASSIGNED_WORD).
 * Any other word of that script stays: it reads as the sentence's (`Пароль: смотри в Vault`,
 * `Пароль: нет`), which no test blind to the language tells from a plain word chosen as the password.
 */
function valueInAnotherScript(lead: string, run: string, sep: string | undefined, next: string | undefined, inLoginBlock: () => boolean): string | undefined {
  if (/^[«„“「『]/.test(run)) return quotedInOwnMarks(lead, run);
  // One word of a script written without spaces, then a remark in brackets or a clause after a comma (UNSPACED_WORD_THEN_REMARK).
  const remarked = sep !== undefined && sep !== '(' ? UNSPACED_WORD_THEN_REMARK.exec(run)?.[1] : undefined;
  if (remarked !== undefined) {
    const replaced = unspacedWordAlone(lead, remarked);
    return replaced === undefined ? undefined : replaced + run.slice(remarked.length);
  }
  const cut = UNSPACED_VALUE_END.exec(run)?.[1];
  // A run longer than the pattern reads (64) is not a value: its start alone would be judged.
  if (cut === undefined && next !== undefined && !/\s/.test(next)) return undefined;
  const head = cut ?? (sep === '(' ? run.replace(/\).*$/, '') : run);
  const { value } = splitTrailingPunctuation(head);
  const assigned = sep === '=' && lead.endsWith('=') && !/[ \t]=$/.test(lead) && ASSIGNED_WORD.test(value);
  // A plain word alone on its line (the run ends there): the password in a script that spaces its words
  // (PLAIN_WORD_ALONE), in any script in a login block (LOGIN_BLOCK).
  const alone = sep !== undefined && (next === undefined || next === '\n' || next === '\r' || next === ' ' || next === '\t') && isPlainWord(value);
  // One word of a script written without spaces, alone (prose.ts UNSPACED_WORD_ALONE).
  if (alone && inUnspacedScript(value) && !hasWeakShape(value)) {
    const replaced = unspacedWordAlone(lead, head);
    return replaced === undefined ? undefined : replaced + run.slice(head.length);
  }
  if (!hasWeakShape(value) && !assigned && !(alone && !inUnspacedScript(value))) return undefined;
  const replaced = replaceValue(lead, head, 'password', false);
  return replaced === undefined ? undefined : replaced + run.slice(head.length);
}

/**
 * The tag for one word of a script written without spaces standing alone after the label (prose.ts
 * UNSPACED_WORD_ALONE), unless it is a word of state or of none (names.ts) or the word password itself; the
 * ASCII reading's value tests (values.ts isCredentialValue) read any such run as prose, so they are not asked.
 */
function unspacedWordAlone(lead: string, raw: string): string | undefined {
  const { value, rest } = splitTrailingPunctuation(raw);
  // A Korean noun with 하다's ending (prose.ts KOREAN_NOUN_HAEYO) is judged by its noun: `사랑해요` goes, `필요해요` stays.
  const noun = koreanNounOfHaeyo(value);
  const word = noun ?? value;
  if ((noun === undefined && !isUnspacedWordAlone(value)) || saysNoValueInOtherLanguage(word) || saysStateInOtherLanguage(word) || isTranslatedPasswordWord(word)) return undefined;
  return `${lead}${tag('password')}${rest}`;
}

/**
 * LOGIN_BLOCK: the user given just before the password, on the line above (`Логин: admin⏎Пароль: ромашка`,
 * a list's item) or earlier on the same line (`логин: root, пароль: медведь`), with a label in the note's
 * language (names.ts USER_IN_OTHER_LANGUAGES). There the word after the password's label is the password,
 * a plain word of any script too: a login block gives values, where a line of its own (`Пароль: сменён`,
 * "changed") may be a sentence, which no test blind to the language tells from a word chosen as the
 * password (`Пароль: солнышко` alone stays a known miss). A word saying there is none still stays (values.ts).
 */
const USER_BEFORE = new RegExp(
  `(?:^|[\\s,;|*_])(?:${USER_IN_OTHER_LANGUAGES.join('|')})(?:\\*\\*|__)?[ \\t]*[:=：](?:\\*\\*|__)?[ \\t]*[^\\s,;]{1,64}[ \\t]*(?:[,;/|][ \\t]*|\\r?\\n[ \\t]*(?:[-*+][ \\t]+)?)(?:\\*\\*|__)?$`,
  'iu',
);
function userGivenBefore(text: string, offset: number): boolean {
  return USER_BEFORE.test(text.slice(Math.max(0, offset - 120), offset));
}

/** With only a space after the word: not prose, or a weak shape (`hunter22`, `123456`) where the sentence or the line ends. */
function spacedValueIsPassword(raw: string, after: string): boolean {
  const { value, rest } = splitTrailingPunctuation(raw);
  return notProse(value) || (hasWeakShape(value) && (rest !== '' || /^[ \t]*(?:\r?\n|$)/.test(after)));
}

/**
 * KEY_SPELLINGS: the word in another language as a label or a key writes it; a key joins the words of a
 * word in several with `_` or `-` (`"mot_de_passe": …`, `kata_sandi=…`), as `mot de passe` is written in prose.
 */
const KEY_SPELLINGS = PASSWORD_IN_OTHER_LANGUAGES.flatMap((w) => (w.includes(' ') ? [w, w.replace(/ /g, '_'), w.replace(/ /g, '-')] : [w]));

/**
 * COLON_CASE_ENDING: Swedish and Finnish glue a case or definite ending to an abbreviation or a name with a
 * colon (`NAS:en`, `Wi-Fi:t`, `VPN:n`, `USB:llä`): part of the word, not the label's end, so a label
 * `Lösenord till NAS:en:` ends at its second colon. Up to four lower-case letters, then no letter or digit.
 */
const COLON_CASE_ENDING = '(?::\\p{Ll}{1,4}(?![\\p{L}\\p{N}]))?';

/**
 * "Password for the router: …" as a note in another language labels it: the word, what it is for
 * (`für den Router`, `du routeur`, `от роутера`: up to five words, no punctuation), then a colon or `=`,
 * or a dash between spaces (Russian writes its "is" as one: `Пароль от роутера — …`). The words between
 * may be any of a sentence's (`Passwort vergessen: siehe Wiki`), so a bare value must look typed, as
 * PROSE_IN_OTHER_LANGUAGES asks (`looksTyped`); a quoted one is a literal. The word may be a quoted key
 * (JSON's, a dict's: `{"Passwort": "Sommer"}`, `{"пароль": "котик"}`, `{"密码": "abc123456"}`), whose value is
 * as much the password as `"password": "Sommer"`'s is in English.
 */
const LABEL_FOR_IN_OTHER_LANGUAGES: RegexRule = {
  kind: 'password',
  hints: KEY_SPELLINGS,
  re: new RegExp(
    `((?<![\\p{L}\\p{N}_])(?:${KEY_SPELLINGS.join('|')})(?:(["'])|(?:[ \\t]+[^\\s.,:;!?\`"'()\\[\\]=：—–-][^\\s.,:;!?\`"'()\\[\\]=：]*${COLON_CASE_ENDING}){0,5}?(?:[ \\t]*\\([^()\\n]{1,40}\\))?)${BOLD}(?:[ \\t]*[:=：]|[ \\t]+[—–-])${BOLD}[ \\t]*)${VALUE}`,
    'giu',
  ),
  replace: (m, g, offset, text) => {
    const [lead = '', keyQuote, raw = ''] = g;
    // A quoted key (`{"Passwort": "Sommer"}`, `{'пароль': 'котик'}`) is one only between a pair of quotes.
    if (keyQuote !== undefined && text[offset - 1] !== keyQuote) return m;
    // In a language's own quotation marks (`Пароль от wifi: «солнышко»`), a literal as in `"…"`.
    if (/^[«„“「『]/.test(raw)) return quotedInOwnMarks(lead, raw) ?? m;
    const { value } = splitTrailingPunctuation(raw);
    // A plain word alone at its line's end after a label naming what the password is for (NAMES_WHAT_FOR).
    const endsLine = /^[ \t]*(?:\r?\n|$)/.test(text.slice(offset + m.length, offset + m.length + 24));
    const namedFor = keyQuote === undefined && isPlainWord(value) && endsLine && namesWhatItIsFor(lead);
    // One word of a script without spaces, alone after a label with other words (`รหัสผ่าน wifi: ดอกไม้`): UNSPACED_WORD_ALONE.
    if (keyQuote === undefined && endsLine && inUnspacedScript(value) && !looksTyped(value)) return unspacedWordAlone(lead, raw) ?? m;
    if (!/^["'`]/.test(raw) && !looksTyped(value) && !namedFor) return m;
    return replaceValue(lead, raw, 'password', false) ?? m;
  },
};

/**
 * FOR_WHAT_BY_LANGUAGE: the words that open what a password is for, after the word (`Passwort für den
 * Router`, `vom Router`, `Hasło do poczty`, `Contraseña del wifi`, `Пароль от почты`, `Пароль до бази`). With
 * one, the words before the colon are a label naming a thing the password opens, as `Password for the
 * router:` is in English, so a plain word alone after the colon is its value (`Hasło do poczty: żabka`);
 * without one they may be a sentence's (`Passwort geändert: gestern`, "changed: yesterday"), and only a
 * typed value is taken. One row per language.
 */
const FOR_WHAT_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  German: ['für', 'vom', 'von', 'zum', 'zur', 'des', 'der', 'fürs'],
  French: ['du', 'de', 'des', 'pour'],
  'Spanish and Catalan': ['del', 'de', 'para', 'per'],
  Italian: ['del', 'della', 'dello', 'dei', 'di', 'per'],
  Portuguese: ['do', 'da', 'de', 'dos', 'das', 'para'],
  Dutch: ['voor', 'van'],
  'Swedish, Danish and Norwegian': ['till', 'för', 'til', 'for'],
  Polish: ['do', 'od', 'dla'],
  'Czech and Slovak': ['k', 'ke', 'ku', 'pro', 'do', 'od', 'na'],
  Russian: ['от', 'для', 'к', 'на'],
  Ukrainian: ['до', 'від', 'для'],
  'Bulgarian, Serbian and Croatian': ['за', 'za', 'od'],
  Greek: ['για', 'του', 'της'],
  'Indonesian and Malay': ['untuk'],
};
const FOR_WHAT_WORDS = new Set(Object.values(FOR_WHAT_BY_LANGUAGE).flat());
/**
 * FOR_WHAT_GLUED_BY_LANGUAGE: the same, where a language glues it to the thing's name: Arabic's `لل` ("for the",
 * `كلمة السر للراوتر`, "the password for the router"). Not Hebrew's `ל`, which also opens `לא` ("not").
 */
const FOR_WHAT_GLUED_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  Arabic: ['لل'],
};
const FOR_WHAT_GLUED = Object.values(FOR_WHAT_GLUED_BY_LANGUAGE).flat();
const WORD_AFTER_THE_WORD = new RegExp(`^(?:\\*\\*|__)?(?:${KEY_SPELLINGS.join('|')})[ \\t]+([^\\s:=：—–-]+)`, 'iu');

function namesWhatItIsFor(lead: string): boolean {
  const first = WORD_AFTER_THE_WORD.exec(lead)?.[1];
  return first !== undefined && (FOR_WHAT_WORDS.has(first.toLowerCase()) || FOR_WHAT_GLUED.some((p) => first.startsWith(p) && first.length > p.length + 1));
}

/**
 * "The password for the staging server is …" as a note in another language says it: the word, what
 * it is for (`für den Staging-Server`, `de la base de datos`: up to six words, no punctuation), the
 * language's "is", then the value. One row per language, so a language is one more row, never a new
 * rule. Italian writes the English word (`La password del server è …`): its row has the word with
 * Italian's copulas only; English's own `password … is …` is the PROSE rule's (assignment.ts).
 */
const PASSWORD_PROSE_BY_LANGUAGE: ReadonlyArray<{ language: string; words: readonly string[]; copulas: readonly string[] }> = [
  { language: 'German', words: ['passwort', 'kennwort'], copulas: ['ist', 'lautet', 'war'] },
  { language: 'French', words: ['mot de passe'], copulas: ['est', 'était'] },
  { language: 'Spanish', words: ['contraseña'], copulas: ['es', 'era'] },
  { language: 'Portuguese', words: ['senha'], copulas: ['é', 'era'] },
  // Italian writes the English word: only its `è` tells the sentence apart (and is what the rule waits for, below).
  { language: 'Italian', words: ['password'], copulas: ['è'] },
  { language: 'Dutch', words: ['wachtwoord'], copulas: ['is', 'was'] },
  { language: 'Swedish', words: ['lösenordet', 'lösenord'], copulas: ['är', 'var'] },
  { language: 'Danish and Norwegian', words: ['adgangskoden', 'adgangskode', 'passordet', 'passord'], copulas: ['er', 'var'] },
  { language: 'Polish', words: ['hasło'], copulas: ['to', 'jest'] },
  { language: 'Finnish', words: ['salasana'], copulas: ['on', 'oli'] },
  { language: 'Czech', words: ['heslo'], copulas: ['je', 'bylo'] },
  { language: 'Catalan', words: ['contrasenya'], copulas: ['és', 'era'] },
  { language: 'Danish', words: ['kodeordet', 'kodeord'], copulas: ['er', 'var'] },
  { language: 'Estonian', words: ['parool', 'salasõna'], copulas: ['on', 'oli'] },
  { language: 'Lithuanian', words: ['slaptažodis'], copulas: ['yra', 'buvo'] },
  { language: 'Icelandic', words: ['lykilorðið', 'lykilorð'], copulas: ['er', 'var'] },
  { language: 'Croatian, Serbian and Bosnian', words: ['lozinka'], copulas: ['je', 'bila'] },
  { language: 'Slovenian', words: ['geslo'], copulas: ['je', 'bilo'] },
  { language: 'Romanian', words: ['parola', 'parolă'], copulas: ['este', 'e', 'era'] },
  { language: 'Vietnamese', words: ['mật khẩu'], copulas: ['là'] },
  { language: 'Indonesian and Malay', words: ['kata sandinya', 'kata sandi', 'kata laluan'], copulas: ['adalah', 'ialah'] },
  { language: 'Greek', words: ['κωδικός πρόσβασης', 'κωδικός'], copulas: ['είναι', 'ήταν'] },
  { language: 'Hebrew', words: ['הסיסמה', 'סיסמה', 'הסיסמא', 'סיסמא'], copulas: ['היא', 'הוא', 'הייתה'] },
  { language: 'Arabic', words: ['كلمة المرور', 'كلمة السر'], copulas: ['هي', 'كانت'] },
];

/**
 * A bare value there must look typed: 4 or more characters of what a keyboard types in any
 * language (printable ASCII) with a digit or a symbol among them. This rule cannot tell a word of
 * the sentence (`ist abgelaufen`, `est incorrect`, `es obligatoria`) from a password that is a
 * plain word in a language it does not read, so such a word stays: a known miss, where English
 * (the PROSE rule) takes it. A quoted value is a literal and is taken whatever its shape. Or a word
 * and a number in another script's letters (`лето2024`, WEAK_SHAPES).
 */
function looksTyped(value: string): boolean {
  // A word and a number in another script (`лето2024`, `καλοκαίρι2024`) is typed as a password is too (WEAK_SHAPES).
  return (value.length >= 4 && /^[!-~]+$/.test(value) && /[^A-Za-z]/.test(value)) || hasWeakShape(value);
}

const PROSE_IN_OTHER_LANGUAGES: RegexRule = {
  kind: 'password',
  // The words of each row, but for the English word Italian writes: `è`, which English notes do not hold
  // (the word `password` is in most notes about credentials, and this rule would run on all of them).
  hints: [...new Set(PASSWORD_PROSE_BY_LANGUAGE.flatMap((row) => (row.words.includes('password') ? row.copulas : row.words)))],
  re: new RegExp(
    `((?<![\\p{L}\\p{N}_])(?:${PASSWORD_PROSE_BY_LANGUAGE.map((row) => `(?:${row.words.join('|')})(?:[ \\t]+[^\\s.,:;!?\`"'()\\[\\]]+){0,6}?[ \\t]+(?:${row.copulas.join('|')})`).join('|')})[ \\t]+)${VALUE}`,
    'giu',
  ),
  replace: (m, g, offset, text) => {
    const [lead = '', raw = ''] = g;
    const { value, rest } = splitTrailingPunctuation(raw);
    // A plain word that ends the sentence and its line (`Le mot de passe de la base est soleil`), as PLAIN_WORD_ALONE reads one after a colon.
    const endsLine = /^[.!]?$/.test(rest) && /^[ \t]*(?:\r?\n|$)/.test(text.slice(offset + m.length, offset + m.length + 8));
    const plainWordAlone = endsLine && isPlainWord(value) && !inUnspacedScript(value);
    if (!/^["'`]/.test(raw) && !looksTyped(value) && !plainWordAlone) return m;
    return replaceValue(lead, raw, 'password', false) ?? m;
  },
};

/**
 * The value first, then the words saying what it is (`hunter22 is the staging password`, "`Tr0ub4dor&3` was
 * my old pw", `4821 is the PIN for the alarm`, `the password, hunter22, works on both`): people name a
 * password after giving it as often as before (or use it `as` one: `tried 'biscuit3' as the password`). A quoted or backticked value is a literal; a bare one must
 * look typed, letters with digits or a symbol (`This is the password policy` opens with a word of prose),
 * digits alone only for a PIN or a passcode. The word must end its clause (`… the password for staging`),
 * else it names something else (`v2 is the password reset flow`).
 */
// AS_THE_PASSWORD: `as` says it as `is` does (`tried 'biscuit3' as the password`, `uses "…" as its password`).
const NAMED_AFTER = /(?<=[ \t])(?:is|was|as)[ \t]+(?:the|my|our|your|his|her|their|its)[ \t]+(?:[\w-]+[ \t]+){0,3}?(password|passwd|pw|passcode|passphrase|pin)(?![A-Za-z0-9])/gi;
/**
 * The same value between commas right after the word (an apposition): `the password, hunter22, works`. A
 * determiner before the word makes it a noun phrase, not a list of names (`token(password, scramble1, …)`).
 */
const APPOSITION = /(?<![A-Za-z0-9])(password|passwd|pw|passcode|passphrase|pin),[ \t]+([^\s,"'`]{4,64}),(?=[ \t])/gi;
// Asked of a bounded slice before the word (a leading lookbehind would be tried at every position).
const DETERMINER_BEFORE = /(?:^|[^A-Za-z0-9])(?:the|my|our|your|his|her|their|new|old)[ \t]+(?:[\w-]{1,32}[ \t]+)?$/i;
const VALUE_BEFORE = /(?<![^\s(])(`[^`\n]{1,64}`|"[^"\n]{1,64}"|'[^'\n]{1,64}'|[^\s"'`(]{4,64})[ \t]+$/;
/** A bare value there: typed as a password is (letters and digits, or a symbol), or digits for a PIN. */
function typedValue(value: string, word: string): boolean {
  if (/^\d{4,12}$/.test(value)) return /^(?:pin|passcode)$/i.test(word);
  return value.length >= 6 && /^[!-~]+$/.test(value) && /[A-Za-z]/.test(value) && (/\d/.test(value) || /[^A-Za-z0-9]/.test(value)) && !/^v?\d+(?:\.\d+)+$/.test(value);
}
const VALUE_FIRST: ScanRule = {
  kind: 'password',
  // ` pw` and ` pin`, not `pw` and `pin` (pieces of `ping`, `mapping`): the word starts after a space or a comma's.
  hints: ['password', 'passwd', ' pw', 'passcode', 'passphrase', ' pin'],
  scan: (text) => {
    let out = text.replace(APPOSITION, (m, word: string, value: string, offset: number, whole: string) =>
      typedValue(value, word) && DETERMINER_BEFORE.test(whole.slice(Math.max(0, offset - 48), offset)) ? (replaceValue(`${word}, `, value, 'password', false)?.concat(',') ?? m) : m,
    );
    // Right to left, so the offsets found stay true while values before them are replaced.
    const found = [...out.matchAll(NAMED_AFTER)].filter((m) => endsClause(out.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 16)));
    for (const m of found.reverse()) {
      const at = m.index ?? 0;
      const before = VALUE_BEFORE.exec(out.slice(Math.max(0, at - 80), at));
      if (before === null) continue;
      const raw = before[1] ?? '';
      const quoted = /^[`"']/.test(raw);
      if (!quoted && !typedValue(raw, m[1] ?? '')) continue;
      const replaced = replaceValue('', raw, 'password', false);
      if (replaced === undefined) continue;
      const start = at - before[0].length;
      out = `${out.slice(0, start)}${replaced}${out.slice(start + raw.length)}`;
    }
    return out;
  },
};

/**
 * A pass phrase: words after a label that names one, taken whole however common each word is.
 * One row per kind of label, with the fewest words that make a phrase there, and how many words of a
 * sentence it may hold: a pass phrase has none, a wallet's seed phrase (BIP-39: 12 to 24 words of 3
 * to 8 letters, some of them `about`, `above`, `again`) a few. `password` alone takes a phrase of
 * four words or more: three are as often a note about it.
 */
const PHRASE_LABELS: ReadonlyArray<{ labels: readonly string[]; minWords: number; functionWords: number; proseWordsAfterFirst: boolean }> = [
  { labels: ['passphrase', 'pass phrase', 'master password', 'secret phrase'], minWords: 3, functionWords: 0, proseWordsAfterFirst: true },
  // After `password`, a later word of prose (`minimum twelve characters required`) also makes it a sentence.
  // German's words for it as well (`Passwort für das Backup: rote Tomaten wachsen langsam`), with German's row of prose.ts FUNCTION_WORDS_BY_LANGUAGE.
  { labels: ['password', 'passwort', 'kennwort'], minWords: 4, functionWords: 0, proseWordsAfterFirst: false },
  { labels: ['seed phrase', 'recovery phrase', 'mnemonic phrase', 'mnemonic', 'seed words', 'backup phrase', 'wallet seed'], minWords: 12, functionWords: 3, proseWordsAfterFirst: true },
];

const PHRASE_FOR_WHAT = `[ \\t]+(?:for|${FOR_WHAT_BY_LANGUAGE.German?.join('|')})(?:[ \\t]+[^\\s:=.,;!?"'\`]{1,24}){1,4}`;
const PHRASE_WORD = '[a-z\\u00c0-\\u024f]{2,12}';
const PASS_PHRASE: RegexRule = {
  kind: 'password',
  hints: ['passphrase', 'pass phrase', 'password', 'passwort', 'kennwort', 'secret phrase', 'seed', 'phrase', 'mnemonic'],
  // The label's left edge is checked in replace: a leading lookbehind would be tried at every position of every note.
  // In quotes the phrase is given verbatim (`The password is "correct horse battery staple"`).
  // PHRASE_FOR_WHAT: what the phrase is for may come between the label and its colon (`Passphrase für den Tresor:`,
  // `passphrase for the backup:`), a few words as LABEL_FOR_IN_OTHER_LANGUAGES reads them; the words of the phrase
  // may carry Latin diacritics (`grüne Katze tanzt leise`).
  re: new RegExp(`((${PHRASE_LABELS.flatMap((row) => row.labels).join('|')})(?![A-Za-z])(${PHRASE_FOR_WHAT})?[ \\t]*(?:[:=]|[ \\t]is)[ \\t]*(["“']?))(${PHRASE_WORD}(?:[ \\t]+${PHRASE_WORD}){2,23})(["”']?)(?=[ \\t]*(?:[.,;!?)]|$))`, 'gim'),
  replace: (m, g, offset, text) => {
    const [lead = '', label = '', forWhat, open = '', phrase = '', close = ''] = g;
    if (/[A-Za-z]/.test(text[offset - 1] ?? '')) return m;
    const quoted = open !== '' && (close === open || (open === '“' && close === '”'));
    if ((open !== '' || close !== '') && !quoted) return m;
    const row = PHRASE_LABELS.find((r) => r.labels.includes(label.toLowerCase()));
    const words = phrase.split(/[ \t]+/);
    // Quoted, three words make a phrase after any of the labels: the quotes say it is given as written.
    if (row === undefined || words.length < (quoted ? Math.min(row.minWords, 3) : row.minWords)) return m;
    // What it is for names a thing, not a sentence: words of the label's own, without a verb's `is` in them.
    if (forWhat !== undefined && /[ \t](?:is|ist)(?:[ \t]|$)/i.test(forWhat)) return m;
    const functionWords = words.filter(isFunctionWord).length;
    // QUOTED_PHRASE: in quotes a phrase is given as written, an article in it too (`'the quick brown fox'`); a
    // quoted sentence is made of such words (`"see the vault"`), so fewer than half of them may be.
    if (functionWords > row.functionWords && !(quoted && functionWords * 2 < words.length)) return m;
    if (row.functionWords > 0 && !words.every((w) => w.length >= 3 && w.length <= 8)) return m;
    if (!row.proseWordsAfterFirst && words.slice(1).some((w) => readsAsProse(w))) return m;
    return `${lead}${tag('password')}${close}`;
  },
};

// NAMED_PAIR first: after `id/pw` the user comes first, and PW_KEY or BARE would take `user/password` whole.
export const PASSWORD_FORM_RULES: readonly (RegexRule | ScanRule)[] = [NAMED_PAIR, USER_THEN_PASSWORD, THING_PASS_IS, PASS_IS_WEAK, SAME_AS_THEN_VALUE, WILL_BE_TYPED, PW_KEY, SHORTHAND_LABEL, ARROW, BARE, USE_TYPED_PASSWORD, USER_SLASH_PASSWORD, WIFI_SLASH_KEY, SLASH_LOGIN, COLON_LOGIN, HOST_LOGIN_IN_BRACKETS, SQL_IDENTIFIED_BY, SQL_PASSWORD_CLAUSE, VALUE_FIRST, OTHER_LANGUAGE, COPULA_AFTER_VALUE, VERB_LAST_COPULA, IS_THEN_WORD_ALONE, UNSPACED_WORD_AFTER_ENGLISH_LABEL, LABEL_FOR_IN_OTHER_LANGUAGES, PROSE_IN_OTHER_LANGUAGES];

/** Before the assignment rules, which would take a phrase's first word alone (`passphrase: purple` of `purple monkey dishwasher`). */
export const PASS_PHRASE_RULES: readonly RegexRule[] = [PASS_PHRASE];

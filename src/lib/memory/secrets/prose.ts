/**
 * Prose after a credential word that is not a value (issue 29's dev docs): asides, markup and
 * descriptions, which documentation puts right where a label's value would go.
 */
import { pointsToSecretManager } from './names.js';

/**
 * A remark in brackets: an opening bracket and a word of letters, then a comma, the closing
 * bracket, a space or the end (`(Optional)`, `(Required,`, `(default`, `(**Required**)`). Terraform's argument
 * references write one after every argument's name (`* \`token\` - (Optional) The Vault token…`).
 */
const REMARK = /^\((?:\*\*|__|\*|_)?[A-Za-z][a-z]*(?:[-][A-Za-z][a-z]*)*(?:\*\*|__|\*|_)?(?:[,)]|$)/;

export function isRemark(bare: string): boolean {
  return REMARK.test(bare);
}

/**
 * A bare value's closing HTML tags are markup, not part of it (`where the secret is located</p>`,
 * `is set.</p></td>`): cut from the first closing tag on.
 */
export function stripClosingTags(bare: string): string {
  if (!bare.includes('</')) return bare;
  const at = bare.search(/<\/[a-z][a-z0-9]*>/i);
  return at < 0 ? bare : bare.slice(0, at);
}

/** Words that open a clause of their own: what follows them is that clause's subject and verb (a regexp source). */
const CLAUSE_WORDS = '\\b(?:[Ww]hen|[Ww]here|[Ww]hich|[Ww]hose|[Uu]nless|[Ii]f|[Ww]hile|[Bb]ecause|[Tt]hat|[Ww]hether|WHEN|WHERE|UNLESS|IF)';
const CLAUSE = new RegExp(`${CLAUSE_WORDS}\\s`);
/** The credential word (and a word before it) right after a clause word: `where secret`, `unless Token`, `where the api key`. */
const CLAUSE_BEFORE = new RegExp(`${CLAUSE_WORDS}[ \\t]+(?:the[ \\t]+)?[\\w-]+(?:[ \\t][\\w-]+)?$`);

/** A clause word and at most one more word (`the`, or a word of the credential's name: `where the api`) before the credential word. */
const CLAUSE_BEFORE_WORD = new RegExp(`${CLAUSE_WORDS}[ \\t]+(?:(?:the|an?|this|[\\w-]+)[ \\t]+)?$`);

/**
 * Whether a sentence's credential word and the words after it up to `is`/`was`/`set to` (`lead`,
 * starting with the word) are a clause's subject and verb rather than a label: a clause word right
 * before the word (`where secret is`, `unless the token is`) or inside the lead (`password for the
 * archive when format is set to`).
 */
export function isClauseSubject(before: string, lead: string): boolean {
  return CLAUSE_BEFORE_WORD.test(before) || CLAUSE.test(lead);
}

/**
 * Whether the words between a credential word and its separator (`gap`, ending in it) make a label.
 * Not when the separator is:
 * - a pipe that is not a table's (`jsonpath='{.data.secretKey}' | base64 -d`, a regex's
 *   `SECRET|PRIVATE`, a template's `.private_key | rsaDecrypt`): a markdown row starts with `|`;
 * - a colon between digits (`23:59:59`, `host:5432`): a time or a port;
 * - `is`, `was`, `to` or `are` after a clause word (`the key where the token is found`, `when format is
 *   set to "pkcs12"`, `which goes to admin/`): that clause's verb, whose subject is another word.
 */
export function isLabelGap(line: string, after: number, gap: string): boolean {
  // The gap ends in its separator, then spaces and stars (markdown bold). (Read in place: this is
  // asked of every label in a note, so nothing is sliced or scanned twice.)
  let end = gap.length;
  while (end > 0 && (gap[end - 1] === ' ' || gap[end - 1] === '\t' || gap[end - 1] === '*')) end -= 1;
  const last = gap[end - 1] ?? '';
  // A table's cell separator; an escaped one (`\|`) is a pipe written inside a cell (`"password" \| "otp"`).
  if (last === '|') return /^[ \t]*\|/.test(line) && gap[end - 2] !== '\\';
  if (last === ':') {
    const at = after + end - 1;
    return !(isDigit(line[at - 1]) && isDigit(line[at + 1]));
  }
  if (!((last >= 'a' && last <= 'z') || (last >= 'A' && last <= 'Z'))) return true;
  // `to` after a verb in -ing is that verb's (`a password for connecting to zooKeeper`), not a separator.
  if (gap.includes('ing') && ING_TO.test(gap)) return false;
  // So is `to` after a participle other than a change's (`a cluster secret scoped to project-a`, `bound to
  // the app`): what follows is where the secret goes, not its value (`changed to`, `rotated to` still are).
  if (PARTICIPLE_TO.test(gap)) return false;
  return !CLAUSE.test(gap) && !CLAUSE_BEFORE.test(line.slice(Math.max(0, after - 48), after));
}

const ING_TO = /[A-Za-z]ing[ \t]+to[ \t*]*$/i;
const PARTICIPLE_TO = /(?<![A-Za-z])(?:(?!(?:chang|updat|rotat|switch|renam|modifi|reset)ed[ \t])[A-Za-z]{2,}ed|bound|sent|written|given|shown|held|kept|tied)[ \t]+to[ \t*]*$/i;
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** A word that names a credential right after a bare value: the value was an adjective of it (`OpenStack password`). */
const NAMES_CREDENTIAL = /^[ \t]+(?:pass(?:word|phrase)|secret|token|(?:api[ _-]?)?key|credentials?)\b/i;

export function describesCredential(rest: string): boolean {
  return NAMES_CREDENTIAL.test(rest);
}

/** A bare word and a colon is the next label (`error presenting token: gandiv5: unexpected …`), not a value. */
export function isNextLabel(bare: string): boolean {
  return bare.endsWith(':') && /^[A-Za-z][\w.-]*:$/.test(bare);
}

/** An HTML entity for a quote, as generated API references write them (`&lsquo;tls.crt&rsquo;`, `&#34;x&#34;`). */
const ENTITY_QUOTE = '&(?:[lr][sd]quo|quot|#34|#39|#x27);';
const ENTITY_QUOTED = new RegExp(`^${ENTITY_QUOTE}(.*?)${ENTITY_QUOTE}[.,:;!?)]*$`);

/** A bare value between quotes written as HTML entities, without them and what follows: `&lsquo;tls.crt&rsquo;.` → `tls.crt`. */
export function unquoteEntities(bare: string): string {
  if (bare[0] !== '&') return bare;
  const m = ENTITY_QUOTED.exec(bare);
  return m === null ? bare : (m[1] as string);
}

/** A run cut where an HTML entity starts (`DynamicSecret&#34` before `;`): `next` is the character after the run. */
export function cutAtEntity(run: string, next: string | undefined): string {
  if (next !== ';') return run;
  const m = /&(?:#\d{2,4}|#x[0-9a-f]{2,4}|[a-z]{2,8})$/i.exec(run);
  return m === null ? run : run.slice(0, m.index);
}

/**
 * A comment after the value that tells the reader to put their own there (`password: "P@ssw0rd"  #
 * Replace with an actual password`, `// change me`, `# example`): the value is a placeholder.
 */
const REPLACE_ME = /^["'`]?[ \t,;]*(?:#|\/\/|--|<!--)[ \t]*(?:replace|change|set|put|insert|fill|use|enter)\b.*\b(?:your|own|actual|real|with|me|this|here)\b|^["'`]?[ \t,;]*(?:#|\/\/|--|<!--)[ \t]*(?:an? )?(?:example|placeholder|dummy|sample|fake)\b/i;

export function saysReplaceMe(rest: string): boolean {
  return REPLACE_ME.test(rest);
}

/** A markdown link (`[#892](https://…/pull/892)`, `![badge](…)`): a reference in a document, not a value. */
export function isMarkdownLink(bare: string): boolean {
  return (bare[0] === '[' || bare[0] === '!') && /^!?\[[^\]]*\]\(/.test(bare);
}

/** Prose in a script written without spaces between words (Chinese, Japanese, Korean): text, not a value. */
export function isCjkProse(value: string): boolean {
  // Asked only of values holding a character past ASCII (a cheap scan first).
  return NON_ASCII.test(value) && /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2}/u.test(value);
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Letters (and their marks) only, of any script: a word, no digit or symbol. Persian joins a word's parts
 * with a zero-width non-joiner (`گربه‌ها`, U+200C), a part of the word. Where a note gives it alone as a
 * password (password-forms.ts PLAIN_WORD_ALONE, LOGIN_BLOCK; context.ts's table cells).
 */
const PLAIN_WORD = /^[\p{L}\p{M}](?:[\p{L}\p{M}]|\u200c(?=\p{L})){1,31}$/u;

export function isPlainWord(value: string): boolean {
  return PLAIN_WORD.test(value);
}

/**
 * UNSPACED_LETTER: a letter of a script that writes a sentence without spaces (Chinese, Japanese, Thai, Lao,
 * Khmer, Burmese), where one run of letters may be a whole sentence (`密码：请联系管理员`), and Korean's
 * Hangul, which a password is typed beside on a Latin keyboard (isCjkProse): a plain word of these alone is
 * not read as a password (password-forms.ts PLAIN_WORD_ALONE).
 */
const UNSPACED_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

export function inUnspacedScript(value: string): boolean {
  return UNSPACED_LETTER.test(value);
}

/**
 * UNSPACED_WORD_ALONE: one word of a script written without spaces, alone on its line after the word and its colon
 * (`パスワード：ひまわり`, `密码：月亮船`, `비밀번호: 고양이`, `รหัสผ่าน: แมวน้อย`), is the password, as a plain word of a
 * spaced script is there (password-forms.ts PLAIN_WORD_ALONE), when nothing in it makes the run a sentence or a
 * state, which such a script writes glued as well (`密码：请联系管理员`, `パスワード：変更済み`, `비밀번호: 변경됨`):
 * - one script's letters only, as an input method gives one word (Han, or kana, or Hangul, or Thai); Japanese
 *   writes a state or an instruction mixing Han with kana (`期限切れ`, `管理者に確認`);
 * - short: Han 2 to 4, kana 2 to 8, Hangul 2 to 6, Thai 2 to 16 letters;
 * - no grammar at its start (Chinese `已`, `未`, `无`, `请`, `见`, `同`, `不`: already, not yet, none, please, see,
 *   same, not; Thai `ไม่`, `ดู`, `ถาม`, `ติดต่อ`: not, see, ask, contact) nor `แล้ว` (already) or `อยู่` (is at) in Thai;
 *   no ending of a Korean note's sentence (`없음`, `변경됨`, `확인함`, `사랑해요`: 음, 됨, 함, 임, 요, 다);
 * - not a state word of the language (names.ts STATE_BY_LANGUAGE's rows, NO_VALUE_BY_LANGUAGE: `失効`, `なし`).
 */
const UNSPACED_ONE_WORD = /^(?:\p{Script=Han}{2,4}|[\p{Script=Hiragana}\p{Script=Katakana}ー]{2,8}|\p{Script=Hangul}{2,6}|[\p{Script=Thai}]{2,16})$/u;
const UNSPACED_GRAMMAR = /^[已未无無没沒不请請见見同默必可略空待需要在]|^(?:ไม่|ดู|ถาม|ติดต่อ|ขอ|ใช้|ตาม)|แล้ว|อยู่|[음됨함임요다]$/u;

export function isUnspacedWordAlone(value: string): boolean {
  return UNSPACED_ONE_WORD.test(value) && !UNSPACED_GRAMMAR.test(value);
}

/**
 * KOREAN_NOUN_HAEYO: a noun and the present ending of 하다 ("to do"), `해요` or `합니다`, alone after the word
 * (`비밀번호: 사랑해요`, "I love you"): a phrase a person picks as a password, as English's `iloveyou` is. Korean
 * ends a note's sentence the same way (`비밀번호: 필요해요`, "needed"; `확인해요`, "check it"), and only the noun
 * tells them apart: a sentence about a password says what it needs or what became of it, with the nouns the
 * language's rows of state and quality hold (names.ts STATE_BY_LANGUAGE, QUALITY_BY_LANGUAGE: `필요`, `변경`,
 * `안전`), so the caller asks those of the noun returned here. Other endings (`없어요`, `바뀌었어요`, `변경했어요`)
 * are a native verb or a past act, a sentence, and stay UNSPACED_GRAMMAR's.
 */
const KOREAN_NOUN_HAEYO = /^(\p{Script=Hangul}{1,4})(?:해요|합니다)$/u;

/** The noun of a KOREAN_NOUN_HAEYO phrase (`사랑` of `사랑해요`), or undefined when the value is not one. */
export function koreanNounOfHaeyo(value: string): string | undefined {
  return KOREAN_NOUN_HAEYO.exec(value)?.[1];
}

/**
 * Words a sentence cannot do without (articles, pronouns, prepositions, auxiliaries, conjunctions,
 * negations, quantifiers, and the verbs that say where a thing is): a run of words after a label holding one is a
 * sentence about the credential (`passphrase: not set`, `master password: kept in the safe`, `password: changes
 * every ninety days`, `Passphrase für den Tresor: steht im Notfallordner`), while a pass phrase is picked words
 * with none of them (`correct horse battery staple`, `blaue Wolke singt laut`). One row per language whose labels
 * the rules read with it (password-forms.ts PHRASE_LABELS, WORD_OPENS_SENTENCE), so a language is one more row.
 */
const FUNCTION_WORDS_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  English: ['the', 'a', 'an', 'this', 'that', 'these', 'those', 'it', 'its', 'my', 'our', 'your', 'their', 'his', 'her', 'in', 'on', 'at', 'to', 'from', 'by', 'via', 'with', 'without', 'for', 'of', 'as', 'into', 'under', 'inside', 'not', 'no', 'is', 'was', 'are', 'were', 'be', 'been', 'will', 'can', 'must', 'should', 'may', 'and', 'or', 'but', 'so', 'if', 'when', 'where', 'which', 'who', 'what', 'how', 'see', 'use', 'every', 'each', 'per', 'all', 'any', 'some', 'after', 'before', 'until', 'since', 'than', 'then', 'same', 'only', 'also'],
  // German (issue 40, 2026-12-07): a pass phrase after a label of what it is for (`Passphrase fürs Backup: …`).
  German: ['der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer', 'im', 'in', 'am', 'an', 'auf', 'bei', 'beim', 'mit', 'ohne', 'von', 'vom', 'zu', 'zum', 'zur', 'für', 'fürs', 'unter', 'nach', 'aus', 'ist', 'sind', 'war', 'wird', 'wurde', 'steht', 'liegt', 'siehe', 'und', 'oder', 'aber', 'nicht', 'kein', 'keine', 'wie', 'wo', 'alle', 'jeden', 'jede', 'gleich', 'noch', 'schon', 'hier', 'dort'],
};
const FUNCTION_WORDS = new Set(Object.values(FUNCTION_WORDS_BY_LANGUAGE).flat());
const ENGLISH_FUNCTION_WORDS = new Set(FUNCTION_WORDS_BY_LANGUAGE.English);
const OTHER_LANGUAGES_FUNCTION_WORDS = new Set([...FUNCTION_WORDS].filter((w) => !ENGLISH_FUNCTION_WORDS.has(w)));

/** Whether a word is one a sentence cannot do without, in a language of FUNCTION_WORDS_BY_LANGUAGE. */
export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word.toLowerCase());
}

/**
 * Words of a sentence, not a password, where one might follow `password is` or `password:` in prose
 * (`The password is stored in Vault`, `password: reset it via the panel`, `the PIN is printed on
 * the back`): words of grammar (articles, pronouns, prepositions, auxiliaries, negations) and the
 * few adjectives that describe a password, and words with the endings of participles, adverbs and
 * adjectives (`rotated`, `missing`, `securely`, `configurable`). A chosen password may be any other word:
 * `letmein`, `sunshine` and `dragon` are among the most common.
 */
const GRAMMAR_WORD =
  /^(?:the|an?|this|that|these|those|it|its|my|our|your|their|his|her|in|on|at|to|from|by|via|with|without|for|of|as|into|under|behind|inside|not|no|now|still|also|only|just|then|there|here|same|different|see|ask|use|set|reset|unset|new|old|too|very|be|been|being|is|was|are|were|will|can|must|should|may|and|or|but|so|if|when|where|which|who|what|how|already|never|always|optional|required|wrong|correct|invalid|valid|weak|strong|secure|long|short|blank|missing|known|unknown|shared|needed|kept|sent|ready|much|more|less|often|present|done|taken|given|written|shown|chosen|broken|forgotten|stolen)$/i;
const DESCRIPTIVE_ENDING = /(?:ed|ing|ly|able|ible|ive|ous|ful|less|ment|tion|sion|ness)$/i;

/**
 * A describing word negated (`incorrect`, `insecure`, `unshared`, `non-optional`) describes as the word
 * does: the prefix is read off and the rest asked of GRAMMAR_WORD (4 letters or more after it, so
 * `inset` or `unset` are not read as `set`), rather than each negation listed there.
 */
const NEGATING_PREFIX = /^(?:in|un|im|non-?)(?=[a-z]{4,}$)/i;

export function readsAsProse(word: string): boolean {
  const w = word.replace(/[.:!?]$/, '');
  return GRAMMAR_WORD.test(w) || GRAMMAR_WORD.test(w.replace(NEGATING_PREFIX, '')) || (w.length >= 4 && DESCRIPTIVE_ENDING.test(w));
}

/**
 * Whether a bare word after a label is a word of the sentence the label is in, not a password
 * (asked of passwords, which may be words; keys and tokens are never plain words):
 * - after `to`, a word in lower case is a verb's infinitive (`a password to authenticate with`,
 *   `the secret to fetch`): `changed to`/`set to` a value is the PROSE rule's (assignment.ts); after
 *   `are`, it describes things in the plural (`SecretStores are bound`), never one password; after a
 *   dash, with more words after it, it opens a description (`--secret - path to the file`);
 * - after an assignment spaced as code is, with more code after it, a keyword or a call (`:= range x`);
 * - a capitalised word with a word in lower case after it opens a sentence (`| Password for the
 *   etcd store |`, `password | Defines the …`): a capitalised password stands alone (`Password: Welcome`).
 * - after a table's `|`, a word followed by more text in its cell is a word of a description.
 * `gap` is the words and separator before the value, `next` what follows it on the line.
 */
/** Words that may follow a password at the end of its clause (`… is letmein on staging`, `… was admin before`). */
const JOINING_WORD = /^(?:and|or|but|for|on|in|at|of|before|after|since|until|till|so|now|then|too|also|if|when|while|as|from|with|by|here|there|again|still|though|yet)$/;

/**
 * After `is`/`was`, a word in lower case with another word of the sentence after it describes the credential
 * (`the secret is easy to forget`, `was last updated`, `is left intact`); a password there is followed by the end,
 * punctuation or a joining word (`The secret is hunter on staging`, `it was letmein before`). `next`: what follows the word.
 */
export function describedBySentence(value: string, next: string): boolean {
  return /^[a-z]+$/.test(value) && !endsClause(next);
}

/** Whether what follows a word (`next`) ends its clause: anything but another word in lower case, or a joining word. */
export function endsClause(next: string): boolean {
  const w = /^[ \t]+([a-z]+)/.exec(next);
  return w === null || JOINING_WORD.test(w[1] as string);
}

/** How much of the line after a value `continuesSentence` is given: the next word, or up to three words and a vault's name (`vedi il vault`). */
export const SENTENCE_LOOKAHEAD = 40;

const NO_VALUE_AFTER_VERB = /^[ \t]+(?:it[ \t]+)?(?:blank|empty|unset)(?![A-Za-z])/i;
/** NO_VALUE_AFTER_VERB's verbs: what one does to a field to leave it without a value (`keep`, `leave`, `left`, `stays`). */
const LEAVING_VERBS: ReadonlySet<string> = new Set(['keep', 'keeps', 'kept', 'leave', 'leaves', 'left', 'stay', 'stays', 'remain', 'remains', 'remained', 'set', 'make', 'is', 'was']);

export function continuesSentence(gap: string, value: string, next: string): boolean {
  // After a table's `|`, a word with more text in its cell is not the cell's value (`| password \`string\` |`).
  if (/\|[ \t]*$/.test(gap) && /^[A-Za-z]+$/.test(value) && !/^[ \t]*(?:\||$)/.test(next)) return true;
  // After `to`, a hyphenated verb is still an infinitive (`the password to de-crypt the file`).
  if (/^[a-z]+-[a-z]+$/.test(value) && /(?:^|\s)to[ \t*]*$/i.test(gap)) return true;
  if (/^[a-z]+$/.test(value)) {
    if (/(?:^|\s)(?:to|are)[ \t*]*$/i.test(gap)) return true;
    if (/(?:^|\s)(?:is|was)[ \t*]*$/i.test(gap) && describedBySentence(value, next)) return true;
    // After a dash, with more words after it: a description (`* \`--secret\` - path to the file`, `the secret — either …`).
    if (/\s[-–—][ \t*]*$/.test(gap) && /^[ \t]+[a-z]/.test(next)) return true;
    // A verb and an article after a label (`\`secret scan ci\`: fetch the target branch`, `**: store the PEM certificate`):
    // an instruction, a sentence; a password is not followed by `the` or `a`.
    if (/^[ \t]+(?:the|a|an)[ \t]/.test(next)) return true;
    // NO_VALUE_AFTER_VERB: a word, then a word saying the field is left without a value (`# password: keep empty`,
    // `password: leave it blank`, `secret: left unset`): an instruction about the field, and a password is not
    // followed by a word saying there is none. Not after a glued `=` (`DB_PASSWORD=hunter empty`): `.env` gives values.
    // Only after a verb of leaving (LEAVING_VERBS): any other word there is the value (`password: letmein empty for now`).
    if (LEAVING_VERBS.has(value) && NO_VALUE_AFTER_VERB.test(next) && !/(?:^|\S)=$/.test(gap)) return true;
    // Code, spaced as code is (`for _, secret := range x`, `password = await hash(…)`, `secret : await`): a keyword or a call.
    if (/[ \t](?::=|=|:)[ \t]+$/.test(gap) && /^[ \t]+[A-Za-z_(]/.test(next)) return true;
  }
  // A word, then words naming a password manager or a vault (`Password: vedi il vault`, `siehe KeePass`): where it is kept, in any language
  // (names.ts). Not when an English word of a sentence comes between (`sunshine in Bitwarden`, `hunter saved in 1Password`): in English
  // the word is the password and the rest says where it is kept as well.
  if (/^\p{L}+[.:]?$/u.test(value) && pointsToSecretManager(next) && !readsAsProse(/^[ \t]+([A-Za-z]+)/.exec(next)?.[1] ?? '')) return true;
  // WORD_OPENS_SENTENCE: a word of grammar of another language with another word after it (`Passphrase für den Tresor:
  // steht im Notfallordner`, "is in the emergency folder"): a sentence in that language, as a word of another script
  // is below. English's own words of grammar are not asked here (a password may be followed by words that say
  // where it is kept: `Password: hunter saved in 1Password`).
  if (OTHER_LANGUAGES_FUNCTION_WORDS.has(value.toLowerCase()) && /^[ \t]+\p{L}/u.test(next)) return true;
  // A word of another script's letters with another word after it (`Password: смотри в Vault`): a sentence in that language.
  if (OTHER_SCRIPT_WORD.test(value) && /^[ \t]+\p{L}/u.test(next)) return true;
  return /^[A-Z][a-z]+$/.test(value) && /^[ \t]+[a-z]/.test(next);
}

/**
 * OTHER_SCRIPT_WORD: a plain word in letters of a script other than Latin (`смотри`, `λάθος`), a
 * mark of punctuation after it allowed. After a credential word, with more words after it, it opens
 * a sentence in that language, as a word in lower case does in English (`Password: смотри в Vault`,
 * "see Vault"); a word chosen as the password stands alone (`password: солнышко`), and one with a
 * digit is typed (`лето2024 для гостей`, values.ts isWordAndNumberInAnyScript).
 */
const OTHER_SCRIPT_WORD = /^(?![A-Za-z])[\p{L}\p{M}]+[.,:;!?]?$/u;

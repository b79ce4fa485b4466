/**
 * Codes that open something, as people note them down: a door's, gate's or alarm's keypad code, a
 * safe's or padlock's combination, a card's or phone's PIN, and the recovery and backup codes an
 * account gives for a lost second factor. None of them holds a credential word the other rules
 * read (`password`, `secret`, `token`): what makes the digits a secret is what the code opens.
 * So each rule here asks for the thing it opens by name, from one table, and never takes a code of
 * a kind that is not a secret (`exit code 1`, `status code 404`, `zip code 94107`, `GPIO pin 13`,
 * `the 2021 building code`).
 */
import { tag, type RegexRule } from './engine.js';
import { endsClause } from './prose.js';

/**
 * What a code opens, and the words for the code there. Doors and locks take any of their words
 * (`door code`, `safe combination`, `alarm PIN`); cards and phones only a PIN's (`card code` is the
 * number on its back or a bank's routing code, `phone code` a country's dialling code). One row per
 * kind of thing, so a thing is one more word in a row, never a new rule. A lock is named with what it
 * locks (`door lock`, `bike lock`): a lock alone is as often a mutex's (`the lock code 1234 for the mutex`).
 */
const OPENS: ReadonlyArray<{ things: readonly string[]; words: readonly string[] }> = [
  {
    things: ['alarm', 'alarm system', 'alarm panel', 'door', 'front door', 'back door', 'garage', 'garage door', 'gate', 'keypad', 'lockbox', 'lock box', 'key box', 'key safe', 'keysafe', 'padlock', 'bike lock', 'door lock', 'safe', 'locker', 'entry', 'entrance', 'lobby', 'buzzer', 'intercom', 'storage unit', 'mailbox'],
    // An alarm's codes by their role (`master code`, `installer code`), and a thing's keypad (`garage keypad: …`).
    words: ['code', 'keypad code', 'door code', 'entry code', 'master code', 'user code', 'installer code', 'disarm code', 'duress code', 'keypad', 'combo', 'combination', 'pin', 'pin code', 'passcode'],
  },
  {
    things: ['sim', 'bank', 'bank card', 'card', 'debit card', 'credit card', 'debit', 'atm', 'phone', 'iphone', 'ipad', 'android', 'voicemail', 'unlock', 'screen', 'yubikey', 'smartcard', 'smart card', 'my', 'our'],
    words: ['pin', 'pin code', 'pin number', 'passcode', 'unlock code'],
  },
];

/**
 * KEYPAD_THINGS: the things of OPENS whose code is typed into a keypad and that issue no pass of their own:
 * after one, `pass` is its code or password (`the office alarm pass is marigold`), where a door's, gate's,
 * lobby's or locker's pass is as often a card or a permit (`the gate pass is in the drawer`). Read by
 * password-forms.ts THING_PASS_IS; the codes of digits stay CODE_OF_A_THING's.
 */
export const KEYPAD_THINGS: readonly string[] = ['alarm', 'alarm system', 'alarm panel', 'keypad', 'lockbox', 'lock box', 'key box', 'key safe', 'keysafe', 'padlock'];

/** A keypad's code: four to twelve digits, in groups a person separates by `-` or a space (`12-34-56`), perhaps with `#` or `*`. */
const CODE = '[#*]?\\d(?:[- ]?\\d){3,11}[#*]?';

const alternatives = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length).map((w) => w.replace(/ /g, '[ \\t]+')).join('|');

/** The last word of every code word (`code` of `keypad code`): what the rules look for first, the thing before it checked after. */
const CODE_WORDS = [...new Set(OPENS.flatMap((row) => row.words.map((w) => w.split(' ').at(-1) as string)))];
/**
 * Which of several things it is, between the thing and its word: a number, perhaps with a letter or `#`
 * (`Locker 14 combo`, `Gate B2 code`, `storage unit #118 code`, `the code for door 3`).
 */
const THING_NUMBER = '(?:[ \\t]+(?:#|no\\.[ \\t]*)?[A-Za-z]?\\d{1,4}[A-Za-z]?)?';
/** Whether the text before a code ends in a thing and its word (`garage keypad code`, `SIM PIN`), as a row of OPENS pairs them. */
const THING_AND_WORD = new RegExp(`(?<![\\w-])(?:${OPENS.map((row) => `(?:${alternatives(row.things)})${THING_NUMBER}[ \\t]+(?:${alternatives(row.words)})`).join('|')})$`, 'i');
/** Whether a phrase ends in a thing a code opens (`the back door`, `my debit card`, `locker 14`); not `my` or `our` alone. */
const ENDS_IN_THING = new RegExp(`(?:^|[ \\t])(?:${alternatives([...new Set(OPENS.flatMap((row) => row.things))].filter((t) => t !== 'my' && t !== 'our'))})${THING_NUMBER}$`, 'i');
/** Between the word and the code: a colon or `=`, `is`/`was`, or a space. */
const BEFORE_CODE = '(?:[ \\t]*[:=][ \\t]*|[ \\t]+(?:is|was|is now)[ \\t]+)';
const notGlued = (text: string, offset: number) => !/[\w-]/.test(text[offset - 1] ?? '');
/**
 * CODE_THEN_ITS_THING: after the code, `for` and a few words ending in a thing of OPENS (`PIN 4821 for the card`,
 * `PIN code 9713 for the garage door`): the thing is named after the code instead of before its word. A thing, not
 * any words: `PIN 4 for the LED` and `pin 13 for the button` are a board's pins (and too short for a code besides).
 */
const FOR_A_THING_AFTER = /^[ \t]+for[ \t]+((?:[^\s,.;:!?()]{1,24}[ \t]+){0,3}[^\s,.;:!?()]{1,24})/i;
function thingAfter(text: string, end: number): boolean {
  const what = FOR_A_THING_AFTER.exec(text.slice(end, end + 100));
  return what !== null && ENDS_IN_THING.test(what[1] as string);
}
/**
 * THING_LABEL: the thing as a label before the word (`- the alarm: PIN 8946`, `Safe — combo 12-34-56`): a list of
 * codes by what they open, where the label names the thing and the word the code.
 */
const THING_THEN_LABEL_MARK = /[ \t]*(?::|[-–—])[ \t]*$/;
/** The words a code's word may open with (`PIN` of `PIN code`, `keypad` of `keypad code`), skipped back over to the label. */
const CODE_WORD_OPENING = new RegExp(`(?:^|[ \\t])(?:${[...new Set(OPENS.flatMap((row) => row.words.flatMap((w) => w.split(' ').slice(0, -1))))].join('|')})[ \\t]+$`, 'i');
function thingLabelBefore(text: string, offset: number): boolean {
  let before = text.slice(Math.max(0, offset - 64), offset);
  const opening = CODE_WORD_OPENING.exec(before);
  if (opening !== null) before = before.slice(0, opening.index + (/^[ \t]/.test(opening[0]) ? 1 : 0));
  const mark = THING_THEN_LABEL_MARK.exec(before);
  return mark !== null && ENDS_IN_THING.test(before.slice(0, mark.index));
}
const clauseEndsAfter = (text: string, end: number) => endsClause(text.slice(end, end + 16));

/** The code words the second form (`… for the alarm is …`) never starts from: `number`, whose `number of …` is in every other note. */
const NOT_BEFORE_FOR = new Set(['number']);

/**
 * Two forms, read in one pass from the code's word (a pattern starting with the things would be tried
 * at every position of a note), where the clause ends after the code (`door code 1234 for the side
 * entrance`, not `lock code 2048 bytes`):
 * - the thing, its word, then the code: `alarm code 4821`, `door code: 1234`, `gate code is #4821`,
 *   `safe combo 24-11-07`, `SIM PIN 0000`, `my bank pin 4321` (the thing checked before the word);
 * - the word, what it opens, then the code: `the code for the alarm is 4821`, `combination to the safe:
 *   12-34-56`, `PIN for my debit card is 4821` (after for, to, of or on, a few words ending in a thing);
 *   or the thing and its word, then which one (`Door code for the server room is 6174`, THING_BEFORE_FOR).
 */
const CODE_OF_A_THING: RegexRule = {
  kind: 'password',
  hints: CODE_WORDS,
  re: new RegExp(`(${CODE_WORDS.join('|')})(?:(${BEFORE_CODE}|[ \\t]+)|([ \\t]+(?:for|to|of|on)[ \\t]+([^\\n:=]{1,48}?)${BEFORE_CODE}))(${CODE})(?![\\w-])`, 'gi'),
  replace: (m, g, offset, text) => {
    const [word = '', gap, forLead, what = ''] = g;
    if (!clauseEndsAfter(text, offset + m.length)) return m;
    if (gap !== undefined) {
      const named = THING_AND_WORD.test(text.slice(Math.max(0, offset - 48), offset + word.length)) || thingAfter(text, offset + m.length) || (notGlued(text, offset) && thingLabelBefore(text, offset));
      return named ? `${word}${gap}${tag('password')}` : m;
    }
    if (NOT_BEFORE_FOR.has(word.toLowerCase()) || !notGlued(text, offset) || what.split(/[ \t]+/).length > 5) return m;
    // THING_BEFORE_FOR: the thing may come before the word, and the words after `for` say which one
    // (`Door code for the server room is 6174`, `alarm code for the cabin: 1379`): the code is the thing's.
    if (!ENDS_IN_THING.test(what) && !THING_AND_WORD.test(text.slice(Math.max(0, offset - 48), offset + word.length))) return m;
    return `${word}${forLead ?? ''}${tag('password')}`;
  },
};

/**
 * One recovery or backup code (`3f9a2-bc71e`, `8472 1953`, `RK-4829-1937-2281`): letters and digits,
 * perhaps in groups, with two digits at least, so that a word of a sentence (`stored in 1Password`)
 * is never one.
 */
const RECOVERY_CODE = '(?=[A-Za-z0-9-]*\\d[A-Za-z0-9-]*\\d)[A-Za-z0-9]{2,}(?:-[A-Za-z0-9]{2,})*';

/** The labels of codes that stand in for a second factor or a lost password (Duo's `bypass code` too): a kind, then `code(s)` or `key`. */
const RECOVERY_KINDS = ['recovery', 'backup', 'scratch', 'emergency', 'rescue', 'one-time', 'bypass'];
const RECOVERY_KIND_BEFORE = new RegExp(`(?<![\\w-])(${RECOVERY_KINDS.join('|')})[ \\t]+$`, 'i');

/**
 * `GitHub recovery codes: 3f9a2-bc71e 8d1e4-77a0c`, `2FA backup code 84721953`, `recovery key: RK-4829-…`,
 * and a label alone on its line with the codes on the lines under it (a list or one per line). Each
 * code of the run is replaced; the run ends at the first word that is not a code. A code is four or more
 * characters, or two groups of digits (`8472 1953`), so that `backup codes v2` keeps its words.
 */
const RECOVERY_CODES: RegexRule = {
  kind: 'password',
  hints: [...RECOVERY_KINDS.map((kind) => `${kind} code`), 'recovery key'],
  // From the word `code` or `key`, the kind checked before it in replace (a leading alternation of the
  // kinds would be tried at every position).
  re: new RegExp(
    `((?:codes?|key)(?![\\w-])(?:[ \\t]*[:=][ \\t]*|[ \\t]+(?:are|is)[ \\t]*|[ \\t]+)?)((?:${RECOVERY_CODE})(?:[ \\t,;]+(?:${RECOVERY_CODE}))*(?=[ \\t.,;]*(?:$|\\n))|(?:\\n[ \\t]*(?:[-*•][ \\t]+|\\d{1,2}[.)][ \\t]+)?(?:${RECOVERY_CODE})(?:[ \\t,;]+(?:${RECOVERY_CODE}))*[ \\t]*(?=$|\\n))+)`,
    'gim',
  ),
  replace: (m, g, offset, text) => {
    const [lead = '', run = ''] = g;
    const kind = RECOVERY_KIND_BEFORE.exec(text.slice(Math.max(0, offset - 24), offset));
    if (kind === null || (lead.startsWith('key') && kind[1]?.toLowerCase() !== 'recovery')) return m;
    const codes = run.match(new RegExp(RECOVERY_CODE, 'g')) ?? [];
    // `8472 1953`: two groups of four digits are one code as Google prints them; a lone short code is a word's.
    if (!codes.some((c) => c.length >= 6 || (/^\d+$/.test(c) && c.length >= 4))) return m;
    return lead + run.replace(new RegExp(RECOVERY_CODE, 'g'), (c) => (c.length >= 4 ? tag('password') : c));
  },
};

/**
 * A second factor's seed, as people keep it in case they lose the phone: the base32 secret an
 * authenticator app is set up with, whole (`2FA seed: KZXW6YTBOI4DEMZQ`) or in the groups of four
 * Google's setup page prints (`setup key: kzxw 6ytb oi4d emzq`). Whoever holds it makes the codes, so it
 * is the second factor itself. From the word (`seed`, `secret`, `key`), the kind checked before it in
 * replace, as RECOVERY_CODES reads its label; base32 with a digit 2-7 among 16 characters at least, so
 * a run of four-letter words (`setup key this time`) is never one.
 */
const SEED_KINDS = ['2fa', 'totp', 'otp', 'mfa', 'authenticator', 'two-factor', '2-factor', 'setup'];
const SEED_KIND_BEFORE = new RegExp(`(?<![\\w-])(?:${SEED_KINDS.join('|')})(?:[ \\t]+(?:app|backup))?[ \\t]+$`, 'i');
const SECOND_FACTOR_SEED: RegexRule = {
  kind: 'password',
  hints: SEED_KINDS.map((kind) => (kind === 'setup' ? 'setup key' : kind)),
  re: /((?:seed|secret|key)(?![\w-])(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]+))((?:[A-Za-z2-7]{4}[ \t]){3,15}[A-Za-z2-7]{4}|[A-Za-z2-7]{16,64})(?![\w-])/gi,
  replace: (m, g, offset, text) => {
    const [lead = '', seed = ''] = g;
    if (!/[2-7]/.test(seed) || !SEED_KIND_BEFORE.test(text.slice(Math.max(0, offset - 32), offset))) return m;
    return `${lead}${tag('password')}`;
  },
};

export const ACCESS_CODE_RULES: readonly RegexRule[] = [RECOVERY_CODES, SECOND_FACTOR_SEED, CODE_OF_A_THING];

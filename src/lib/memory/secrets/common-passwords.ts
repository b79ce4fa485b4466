/**
 * The most common passwords, as every public most-common password list opens (they agree on their heads):
 * one owner for the list, read where a value's being one of them says a person chose it:
 * - password-forms.ts: a word after `password` with only a space, where the clause ends (`pi password raspberry`);
 * - assignment.ts WEAK_SECRET_VALUE: a value under a key set by hand (`SECRET_KEY=123456`, `API_KEY=letmein`,
 *   `SECRET_KEY=password123`), where a generated value is expected and none of these is ever generated.
 */

/**
 * Words at the head of the lists, and the passwords devices and keystores ship with (`raspberry` for a
 * Raspberry Pi's `pi`, `changeit` for a Java keystore). Left out are the words that are also terms of the
 * trade after a credential's name (`master`, `shadow`, `pepper`, `cookie`, `matrix`, `default`, `admin`,
 * `access`, `secret`, `test`, `password`): there they name something or stand in for a value, and stay
 * unless another form reads them.
 */
const COMMON_PASSWORD_WORDS = new Set([
  'qwerty', 'qwertyuiop', 'qazwsx', 'asdfgh', 'asdfghjkl', 'zxcvbnm', 'dragon', 'monkey', 'letmein', 'football',
  'baseball', 'soccer', 'hockey', 'sunshine', 'princess', 'superman', 'batman', 'iloveyou', 'welcome', 'whatever',
  'freedom', 'starwars', 'pokemon', 'charlie', 'michael', 'jordan', 'mustang', 'hunter', 'ranger', 'buster',
  'harley', 'killer', 'tigger', 'butterfly', 'chocolate', 'flower', 'summer', 'passw0rd', 'changeme', 'changeit',
  'raspberry', 'toor', 'opensesame', 'blahblah',
]);

/** Whether `value` is one of the lists' head words, in any case (`Letmein`, `QWERTY`). */
export function isCommonPasswordWord(value: string): boolean {
  return COMMON_PASSWORD_WORDS.has(value.toLowerCase());
}

/**
 * COUNTING_RUN: four digits or more typed along the keyboard's digit row, one way or the other (`1234`, `123456`,
 * `1234567890`, `654321`, `987654321`): the lists' numbers. Only along the row: a run that counts on past its end
 * (`123456789012`, AWS's example account id) is a document's stand-in for a number of that length, not a password.
 */
const DIGIT_ROW = '1234567890';
const DIGIT_ROW_BACKWARDS = '0987654321';
export function isCountingRun(value: string): boolean {
  return /^\d{4,10}$/.test(value) && (DIGIT_ROW.includes(value) || DIGIT_ROW_BACKWARDS.includes(value));
}

/**
 * WORD_THEN_DIGITS: a head word of the lists, or `password` or `admin` (which the head words leave out as terms of
 * the trade, but which the lists hold with digits: `password123`, `admin123`), then one to four digits and an
 * optional `!` (`qwerty123`, `letmein2024`, `password1!`): the lists' next rows, a person's weak password made
 * "stronger" by a number. With the number no document reads them as a term or a stand-in; `test123` and
 * `secret123` are left out, as test fixtures' stand-ins.
 */
export function isWeakWordWithDigits(value: string): boolean {
  const m = /^([A-Za-z]+)\d{1,4}!?$/.exec(value);
  if (m === null) return false;
  const word = (m[1] as string).toLowerCase();
  return COMMON_PASSWORD_WORDS.has(word) || word === 'password' || word === 'admin';
}

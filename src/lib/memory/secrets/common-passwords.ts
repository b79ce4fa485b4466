/**
 * The most common passwords, as every public most-common password list opens (they agree on their heads):
 * one owner for the list, read where a value's being one of them says a person chose it:
 * - password-forms.ts: a word after `password` with only a space, where the clause ends (`pi password raspberry`);
 * - assignment.ts WEAK_SECRET_VALUE: a value under a secret key's or an API key's name (`SECRET_KEY=123456`,
 *   `API_KEY=letmein`), where a generated value is expected and none of these is ever generated.
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

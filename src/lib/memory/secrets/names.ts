/**
 * Names, not values: what documentation and configuration write after a credential word when they
 * name where the credential is kept or what type it has, rather than give it (issue 29's
 * false positives, found in the dev docs: external-secrets' `secretKey: dbHost`, a Go struct tag
 * `json:"accessTokenSpec,omitempty"`, a table cell `[]byte`, `apiKey: 'sk_test_123'`). Asked of
 * keys, tokens and secrets only, never of passwords: a password may be any words (a pass phrase
 * `correct-horse-battery-staple`), a generated key or token is not made of words.
 */

/**
 * Words of letters (a digit or two after them: `v2`, `ec2`) and short numbers, joined by `.`, `_`,
 * `-`, `/`, `:` or `+`: `test-login-1`, `MY_ENV_VAR1`, `sk_test_123`, `user-profile-v2-2026-11`. A
 * generated token mixes letters and digits within its parts, so no part of it reads as a word.
 * Separators may repeat (BEM class names, `secret_santa_2024_draw.xlsx`); `+` joins key bindings
 * (`Ctrl+Alt+F12`).
 */
const SLUG = /^(?:[a-z]{2,}\d{0,2}|[a-z]\d{1,3}|\d{1,8})(?:[._/:+-]+(?:[a-z]{2,}\d{0,2}|[a-z]\d{1,3}|\d{1,8}))+$/i;

export function isSlug(value: string): boolean {
  return SLUG.test(value);
}

/**
 * A name in lowerCamelCase (`registryName`, `dbHost`, `featureBetaAPI`, `privateKey`): two or more
 * words, the first in lower case, each next one capitalised or an acronym, a short number at the
 * end. Go's struct tag options (`,omitempty`, `,string`) may follow.
 */
const LOWER_CAMEL = /^[a-z]{2,}(?:[A-Z][a-z]+|[A-Z]{2,}(?=[A-Z][a-z]|\d*(?:,|$)))+\d{0,3}(?:,[a-z]+)*$/;

/** A type in code: a slice, a map or a pointer of a named type (`[]byte`, `map[string]string`, `*AuthSpec`). */
const CODE_TYPE = /^(?:\[\]|\*|map\[[A-Za-z_][\w.]*\])+[A-Za-z_][\w.]*$/;

/** A mention of a person or a team (`@ryan-rowland`, `@org/team`): a handle, public by design. */
const MENTION = /^@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\/[A-Za-z0-9_.-]+)?$/;

/** A part that is a word: 3 or more letters alone between separators (`login` in `test-login-1`). */
const WORD_PART = /(?:^|[._/:+-])[A-Za-z]{3,}(?:[._/:+-]|$)/;

/**
 * Whether a value given to a key, token or secret name is a name or a type, not the credential. A
 * slug counts as a name only with a part that is a word: short random parts joined by separators
 * (`Zx9-Yw8_Xv7`) are a value.
 */
export function isNameNotValue(value: string): boolean {
  return (SLUG.test(value) && WORD_PART.test(value)) || LOWER_CAMEL.test(value) || CODE_TYPE.test(value) || MENTION.test(value);
}

/**
 * The name of a type or field that refers to a credential (`BarbicanProviderPasswordRef`,
 * `ClientSecretSpec`, `AccessTokenSelector`): CamelCase words where a credential word is followed by
 * a word saying what about it. Asked of passwords too: a pass phrase does not name its own reference.
 */
const CREDENTIAL_TYPE_NAME = /^(?:[A-Z][a-z0-9]+|[A-Z]{2,}(?=[A-Z][a-z]))*(?:Password|Passwd|Secret|Token|Key|Credentials?)(?:Ref|Refs|Spec|Selector|Source|Provider|Type|Name|Policy|Config|Options|Request|Response|Status|Reference)$/;

export function isCredentialTypeName(value: string): boolean {
  return CREDENTIAL_TYPE_NAME.test(value);
}

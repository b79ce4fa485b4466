/**
 * Names, not values: what documentation and configuration write after a credential word when they
 * name where the credential is kept or what type it has, rather than give it (issue 29's
 * false positives, found in the dev docs: external-secrets' `secretKey: dbHost`, a Go struct tag
 * `json:"accessTokenSpec,omitempty"`, a table cell `[]byte`, `apiKey: 'sk_test_123'`). Asked of
 * keys, tokens and secrets only, never of passwords: a password may be any words (a pass phrase
 * `correct-horse-battery-staple`), a generated key or token is not made of words. The words of other
 * languages at the end (the word password, the user's label, words saying there is no value) and the
 * password managers a value may name instead are asked of every value, passwords too.
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
  return SLUG.test(value) && !hasRandomCasePart(value);
}

/**
 * A part of 12 letters or more whose case changes at random: read as words (`Zm`, `Kt`, `Wg` of
 * `ybZmZufSYZdKtZEIsWgOelx`), three or more of them have no vowel. A generated key has such parts
 * (`JLjp-ybZmZufSYZdKt…_3` has a slug's shape by chance); a name's words have vowels, and its
 * acronyms are few (`XMLHttpRequest`: two).
 */
function hasRandomCasePart(value: string): boolean {
  for (const part of value.split(/[._/:+-]+/)) {
    if (part.length < 12 || !/[a-z]/.test(part) || !/[A-Z]/.test(part)) continue;
    const words = part.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? [];
    if (words.filter((w) => !/[aeiouy]/i.test(w)).length >= 3) return true;
  }
  return false;
}

/**
 * A name in lowerCamelCase (`registryName`, `dbHost`, `featureBetaAPI`, `privateKey`): two or more
 * words, the first in lower case, each next one capitalised or an acronym, a short number at the
 * end; a digit may end the first word (`pkcs8DER`, `sha256Sum`). Go's struct tag options (`,omitempty`, `,string`) may follow.
 */
const LOWER_CAMEL = /^[a-z]{2,}\d?(?:[A-Z][a-z]+|[A-Z]{2,}(?=[A-Z][a-z]|\d*(?:,|$)))+\d{0,3}(?:,[a-z]+)*$/;

/**
 * A type in code: a slice, a map or a pointer of a named type (`[]byte`, `map[string]string`,
 * `*AuthSpec`), also converting or building a value (`[]byte("test")`, `[]string{…}`); a Go composite
 * literal of a package's type (`ssm.PutParameterInput{`); a type annotation (`string;`, `boolean):`,
 * `Partial<AuthorizeResult>`, `str | None`).
 */
const CODE_TYPE = /^(?:(?:\[\]|\*|&|map\[[A-Za-z_][\w.]*\])+[A-Za-z_][\w.]*(?:[({].*)?|[a-z_]\w*\.[A-Z]\w*\{.*)$/;
const TYPE_ANNOTATION =
  /^(?:(?:string|number|boolean|bigint|any|unknown|never|void|undefined|object|symbol|Buffer|Uint8Array|ArrayBuffer|Date|URL|str|int|bool|bytes|float|dict|list|Optional\[\w+\]|SecretStr)(?:\[\])?(?:[;,)>\]:|]|$)|[A-Z][A-Za-z]*<)/;

/** A mention of a person or a team (`@ryan-rowland`, `@org/team`): a handle, public by design. */
const MENTION = /^@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\/[A-Za-z0-9_.-]+)?$/;

/** A part that is a word: 3 or more letters alone between separators (`login` in `test-login-1`). */
const WORD_PART = /(?:^|[._/:+-])[A-Za-z]{3,}(?:[._/:+-]|$)/;

/**
 * Whether a value given to a key, token or secret name is a name, not the credential. A
 * slug counts as a name only with a part that is a word: short random parts joined by separators
 * (`Zx9-Yw8_Xv7`) are a value.
 */
export function isNameNotValue(value: string): boolean {
  return (isSlug(value) && WORD_PART.test(value)) || LOWER_CAMEL.test(value) || MENTION.test(value);
}

/** Whether a value is a type in code (`[]byte`, `map[string]string`, `*AuthSpec`, `string;`): asked of passwords too. */
export function isCodeType(value: string): boolean {
  return CODE_TYPE.test(value) || TYPE_ANNOTATION.test(value);
}

/**
 * The name of a type or field that refers to a credential (`BarbicanProviderPasswordRef`,
 * `ClientSecretSpec`, `AccessTokenSelector`): CamelCase words where a credential word is followed by
 * a word saying what about it. Asked of passwords too: a pass phrase does not name its own reference.
 */
const CREDENTIAL_TYPE_NAME = /^(?:[A-Z][a-z0-9]+|[A-Z]{2,}(?=[A-Z][a-z]))*(?:Password|Passwd|Secret|Token|Key|Credentials?)(?:Ref|Refs|Spec|Selector|Source|Provider|Type|Name|Policy|Config|Options|Request|Response|Status|Reference)$/;

export function isCredentialTypeName(value: string): boolean {
  const c = value[0] ?? '';
  return c >= 'A' && c <= 'Z' && CREDENTIAL_TYPE_NAME.test(value);
}

/**
 * The name of an encoding, a hash, a key type or a format (`base64`, `utf-8`, `sha256`, `x509`,
 * `pkcs12`, `ed25519`, `scram-sha-256`): what a document says a secret is encoded as or shaped like (`the secret is
 * base64 encoded`, `format is set to "pkcs12"`), never the secret. Asked of passwords too.
 */
const FORMAT_NAME =
  /^(?:base(?:16|32|36|58|62|64)(?:url)?|hex|utf-?(?:8|16|32)|ascii|latin-?1|sha-?(?:1|224|256|384|512)|sha3-\d{3}|md5|hmac-?sha\d{1,3}|hs\d{3}|rs\d{3}|es\d{3}|x\.?509|pkcs#?(?:1|7|8|11|12)|pem|der|jks|jwk|jwt|rsa(?:-\d{4})?|ecdsa|ed25519|x25519|curve25519|aes-?\d{3}(?:-[a-z]{3})?|bcrypt|argon2(?:id|i|d)?|scrypt|pbkdf2|ipv[46]|oauth2?|tls(?:v?1\.[0-3])?|scram-sha-(?:1|256|512)(?:-plus)?)$/i;

export function isFormatName(value: string): boolean {
  return value.length <= 18 && FORMAT_NAME.test(value);
}

/**
 * A list of options, `name=value` pairs joined by commas (`source=ssh-key,target=ssh,uid=1000`,
 * Docker's `--secret` and `--mount` syntax): settings naming where a secret goes, unless one of
 * the names is itself a credential's (`user=app,password=…` is a credential).
 */
const OPTION_LIST = /^[A-Za-z][\w.-]*=[^,=\s]*(?:,[A-Za-z][\w.-]*=[^,=\s]*)+$/;
const CREDENTIAL_OPTION = /(?:^|,)[\w.-]*(?:pass|pwd|secret|token|key|credential|auth)[\w.-]*=/i;

export function isOptionList(value: string): boolean {
  return value.includes(',') && OPTION_LIST.test(value) && !CREDENTIAL_OPTION.test(value);
}

/**
 * SCOPE_PATH: a name followed by `::` is a segment of a path (Rust's `token::transfer(ctx, amount)?`,
 * `use anchor_spl::token::{self, Transfer}`, C++'s `std::`, PHP's `Password::hash(…)`, Ruby's `Net::`),
 * not a name given a value: the second colon belongs to the path, so what follows is the path's next
 * segment, never a credential. (Found on text people write for coding agents, dev-public-notes.json.)
 */
export function isScopePath(text: string, nameEnd: number): boolean {
  return text.charCodeAt(nameEnd) === 58 && text.charCodeAt(nameEnd + 1) === 58;
}

/**
 * Whether text ends inside a URN or an AWS ARN (`urn:k8s:`, `arn:aws:secretsmanager:us-west-2:1234:`): a
 * credential word that follows is one of its parts (`urn:k8s:secret:redis:password`, `…:secret:mysecret`).
 */
export function endsInUrn(before: string): boolean {
  return /(?:^|[^\w])[ua]rn:(?:[\w.-]*:)*$/i.test(before);
}

/**
 * A variable in camelCase whose last word is the credential's (`mockIdentityPassphrase`,
 * `functionBotAccessToken`, `clientSecret`, `krb5Password`): code handing the value on. Asked of passwords too: a
 * pass phrase written in camelCase does not end by naming itself.
 */
const CREDENTIAL_VARIABLE = /^[a-z]+\d?(?:[A-Z][a-z]+|[A-Z]{2,}(?=[A-Z]))*(?:Password|Passwd|Passphrase|Secret|Token|Key|Credentials?)$/;

export function isCredentialVariableName(value: string): boolean {
  const c = value[0] ?? '';
  return c >= 'a' && c <= 'z' && CREDENTIAL_VARIABLE.test(value);
}

/**
 * A Go struct tag's field name and options (`smtp_auth_password,omitempty`, `url,omitempty`, the env
 * library's `SMTP_PASSWORD,notEmpty`): the
 * name a credential is read from in YAML or JSON. Asked of passwords too: no password ends in `,omitempty`.
 */
const STRUCT_TAG_NAME = /^[A-Za-z_][\w.-]*(?:,(?:omitempty|omitzero|string|inline|flow|squash|remain|notEmpty|required|file|expand|unset|init))+$/;

export function isStructTagName(value: string): boolean {
  return STRUCT_TAG_NAME.test(value);
}

/**
 * WIFI_KEY_BY_LANGUAGE: what a note in another language calls a Wi-Fi network's key, the label routers print
 * on their sticker in that language (`WLAN-Schlüssel`, FRITZ!Box's `WLAN-Netzwerkschlüssel`, `clé WiFi`,
 * `clave wifi`): a passphrase a person chose, or the router's own, read as the word password is (it joins
 * PASSWORD_IN_OTHER_LANGUAGES). One row per language, the longer spelling first. Not a bare `clé`, `clave` or
 * `Schlüssel` (a key of any kind: `clave pública`), nor a security key (`clé de sécurité` is a hardware key too).
 */
const WIFI_KEY_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  German: ['wlan-netzwerkschlüssel', 'wlan-schlüssel', 'netzwerkschlüssel', 'wpa-schlüssel', 'wlan-key'],
  French: ['clé de sécurité réseau', 'clé wi-fi', 'clé wifi', 'clé wpa'],
  Spanish: ['clave del wifi', 'clave de red', 'clave wi-fi', 'clave wifi', 'clave wpa'],
  Italian: ['chiave di rete', 'chiave wi-fi', 'chiave wifi', 'chiave wpa'],
  Portuguese: ['chave de rede', 'chave wi-fi', 'chave wifi', 'chave wpa'],
  Dutch: ['netwerksleutel', 'wifi-sleutel', 'wpa-sleutel'],
  'Swedish, Danish and Norwegian': ['nätverksnyckel', 'wifi-nyckel', 'netværksnøgle', 'nettverksnøkkel'],
  Polish: ['klucz sieci', 'klucz wifi', 'klucz wpa'],
};

/**
 * The word password as notes written in another language give it (Korean, Japanese, Chinese, German,
 * French, Spanish, Catalan, Portuguese, Russian and Ukrainian, Dutch, Swedish, Danish and Norwegian,
 * Polish, Finnish, Estonian, Czech and Slovak, Hungarian, Croatian, Serbian and Bosnian, Slovenian,
 * Lithuanian, Icelandic, Romanian, Turkish, Vietnamese, Indonesian and Malay, Greek, Hebrew, Arabic,
 * Persian, Hindi, Thai, Bulgarian, Serbian and Macedonian in Cyrillic; the short Korean 비번 too; Latvian's `parole` is
 * left out, an English word):
 * one list, so a language is one
 * more entry, never a new rule. A password is mostly typed in Latin letters, digits and symbols
 * whatever the language around it; one in the note's own script is read only where it is given as
 * one (a word and a number, `лето2024`; in quotation marks; after a glued `=`: password-forms.ts
 * `valueInAnotherScript`; a plain word alone on its line, PLAIN_WORD_ALONE), and a plain word of that script
 * with more words after it is prose (`비밀번호 변경`, "change the password"). Read by password-forms.ts (the word as a label), context.ts (a table's
 * column or row: `namesPasswordInOtherLanguage`) and values.ts (the word as a value: `isTranslatedPasswordWord`).
 * A Wi-Fi network's key in those languages comes first (WIFI_KEY_BY_LANGUAGE).
 */
export const PASSWORD_IN_OTHER_LANGUAGES = [
  ...Object.values(WIFI_KEY_BY_LANGUAGE).flat(),
  '비밀번호', '비번', '패스워드', '암호', 'パスワード', '暗証番号', '密码', '密碼', '口令',
  'passwort', 'kennwort', 'mot de passe', 'contraseña', 'contrasenya', 'senha', 'пароль', 'wachtwoord', 'lösenord', 'adgangskode', 'kodeord', 'passord',
  'hasło', 'salasana', 'salasõna', 'parool', 'heslo', 'jelszó', 'lozinka', 'geslo', 'slaptažodis', 'lykilorð', 'parolă', 'parola', 'şifresi', 'şifre', 'sifre',
  'mật khẩu', 'kata sandi', 'kata laluan', 'κωδικός πρόσβασης', 'κωδικός', 'סיסמה', 'סיסמא', 'كلمة المرور', 'كلمة السر', 'رمز عبور', 'पासवर्ड', 'รหัสผ่าน',
  'парола', 'лозинка',
];

/**
 * The user's label as notes in those languages write it above or before the password (`Логин: admin`,
 * `Benutzer: pi`, `Χρήστης: admin`, `ユーザー名: root`): with it, the lines are a login block
 * (password-forms.ts LOGIN_BLOCK). English's own words too, as notes mix them (`Login: admin / Пароль: …`).
 */
export const USER_IN_OTHER_LANGUAGES = [
  'user', 'username', 'login', 'логин', 'логін', 'пользователь', 'користувач', 'потребител', 'корисник', 'χρήστης', 'όνομα χρήστη',
  'benutzer', 'benutzername', 'nutzer', 'identifiant', 'utilisateur', 'usuario', 'usuari', 'utente', 'usuário', 'gebruiker', 'gebruikersnaam',
  'användare', 'brugernavn', 'brukernavn', 'użytkownik', 'uživatel', 'felhasználó', 'käyttäjä', 'kullanıcı', 'utilizator', 'tên đăng nhập',
  'ユーザー名', 'ユーザー', 'ユーザ名', 'ユーザid', '用户名', '用戶名', '账号', '帳號', '아이디', '사용자', 'משתמש', 'اسم المستخدم',
];

const TRANSLATED_PASSWORD_WORDS = new Set(PASSWORD_IN_OTHER_LANGUAGES);

/**
 * The word password in a script written without spaces (`密码`, `パスワード`, `비밀번호`), found anywhere in a run:
 * there it is one word of a phrase or a sentence (`你的密码` "your password", `请输入密码` "enter the password",
 * `管理员密码` "the admin password", `-p后面直接跟密码` "-p is followed by the password"), never a password
 * itself. Read by values.ts CJK_RUN_OFF_SENTENCE.
 */
const PASSWORD_WORD_IN_UNSPACED_RUN = new RegExp(PASSWORD_IN_OTHER_LANGUAGES.filter((w) => /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u.test(w)).join('|'), 'u');

export function holdsPasswordWordUnspaced(run: string): boolean {
  return PASSWORD_WORD_IN_UNSPACED_RUN.test(run);
}

/**
 * A table's header or key cell that is the word password in another language (`| Пароль |`, `| パスワード |`,
 * `| Пароль от wifi |`): the word first, what it is for after it; not a longer word it opens
 * (`Passwortrichtlinie`, `パスワード変更日`, a column of dates). Read by context.ts's table rule.
 */
// The word ends at a space, ASCII punctuation or the cell's end (no `u` flag: this is asked of every table row's key cell).
const PASSWORD_WORD_FIRST = new RegExp(`^(?:${PASSWORD_IN_OTHER_LANGUAGES.join('|')})(?![^\\s!-/:-@\\[-\`{-~])`, 'i');

export function namesPasswordInOtherLanguage(cell: string): boolean {
  return PASSWORD_WORD_FIRST.test(cell.trim().replace(/^[*_`]{1,2}/, ''));
}
/** A numeric HTML entity as i18n files write non-ASCII letters (`L&#246;senord`; the last `;` sometimes left off). */
const NUMERIC_ENTITY = /&#(?:x([0-9a-f]{1,6})|(\d{1,7}));?/gi;

/**
 * TRANSLATED_CREDENTIAL_WORD: a value that is the word password itself in another language (`"Password":
 * "Lösenord"`, `"secret": "パスワード"`, also written with HTML entities): a UI string's translation, the
 * label's text in that language, not a password. Only the whole value: `Lösenord2024!` may be one.
 * (The English word as its own value, `password: password`, stays the weak password issue 40 names.)
 */
export function isTranslatedPasswordWord(value: string): boolean {
  if (value.length > 40) return false;
  const text = value.includes('&#') ? value.replace(NUMERIC_ENTITY, (_m, hex: string | undefined, dec: string | undefined) => String.fromCodePoint(hex !== undefined ? parseInt(hex, 16) : Number(dec))) : value;
  const lower = text.trim().toLowerCase();
  return TRANSLATED_PASSWORD_WORDS.has(lower) || namesPasswordInWords(lower);
}

/**
 * UI_TEXT_WITH_THE_WORD: a few words of letters, one of them the word password in another language
 * (`"Passwort eingeben"`, `"Введите пароль"`, `"Mot de passe oublié ?"`): a screen's text about the
 * password, as `"Enter password"` is in English (values.ts NAMES_ITSELF), not one.
 */
const UI_TEXT_WITH_THE_WORD = new RegExp(`^(?:[\\p{L}\\p{M}]+[ \\t]+){0,4}(?:${PASSWORD_IN_OTHER_LANGUAGES.join('|')})(?:[ \\t]+[\\p{L}\\p{M}]+){0,4}[ \\t]*[.:!?]?$`, 'u');

function namesPasswordInWords(lower: string): boolean {
  return /[ \t]/.test(lower) && UI_TEXT_WITH_THE_WORD.test(lower);
}

/**
 * NO_VALUE_BY_LANGUAGE: the words a note in another language writes where there is no value at all
 * (`Passwort: keins`, `Mot de passe : aucun`, `Пароль: нет`, `パスワード：なし`, `비밀번호: 없음`), as English
 * writes `none` or `empty` (values.ts EXAMPLE_WORD). One row per language, so a language is one more row;
 * only words that say "none", "empty" or "not set", never a word a person might choose.
 */
const NO_VALUE_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  German: ['kein', 'keins', 'keines', 'keiner', 'leer', 'ohne'],
  French: ['aucun', 'aucune', 'vide', 'néant'],
  Spanish: ['ninguna', 'ninguno', 'vacía', 'vacío', 'nada'],
  Italian: ['nessuna', 'nessuno', 'vuota', 'vuoto', 'niente'],
  Portuguese: ['nenhuma', 'nenhum', 'vazia', 'vazio'],
  Dutch: ['geen', 'leeg'],
  'Swedish, Danish and Norwegian': ['ingen', 'inget', 'intet', 'tomt', 'tom'],
  Polish: ['brak', 'puste', 'żadne'],
  'Czech and Slovak': ['žádné', 'žádná', 'není', 'žiadne'],
  Turkish: ['yok', 'boş'],
  Russian: ['нет', 'пусто', 'пустой', 'отсутствует'],
  Ukrainian: ['немає', 'порожньо', 'відсутній'],
  Japanese: ['なし', '無し', 'ナシ', '未設定'],
  Chinese: ['无', '無', '没有', '沒有', '未设置'],
  Korean: ['없음', '없습니다'],
};
const NO_VALUE_WORDS = new Set(Object.values(NO_VALUE_BY_LANGUAGE).flat());

/** Whether a value is a word saying there is none in another language (NO_VALUE_BY_LANGUAGE), punctuation after it allowed. */
export function saysNoValueInOtherLanguage(value: string): boolean {
  return value.length <= 16 && NO_VALUE_WORDS.has(value.replace(/[.,;:!?。、]+$/, '').toLowerCase());
}

/**
 * STATE_BY_LANGUAGE: the single words a note in another language writes after the word where it tells what
 * became of the password or what it must be, not the password (`Passwort: abgelaufen`, `Mot de passe :
 * changé`, `Пароль: сменён`, `Hasło: wygasło`): changed, updated, expired, reset, forgotten, unknown,
 * required, optional, temporary, default, the same, locked, disabled, wrong, set, generated, encrypted. A
 * word alone after the label is otherwise read as the password (password-forms.ts PLAIN_WORD_ALONE), as
 * English's `password: letmein` is; English's own state words are prose.ts's GRAMMAR_WORD. One row per
 * language, the forms its word for password takes (Spanish, Italian and the Slavic languages inflect the
 * participle by the word's gender). Only words no person picks as a password: German's `geheim` ("secret")
 * is one of the most common German passwords and is left out, as is German's `standard`, an English word a
 * password may be. Words of two (`mis à jour`, `такой же`) are
 * not here: a second word makes the line a sentence anyway. Chinese, Japanese, Korean and Thai have rows for the
 * words of their scripts that prose.ts UNSPACED_WORD_ALONE's grammar test lets through (`任意`, `失効`, `保密`,
 * `만료`, `ชั่วคราว`): a word of theirs alone is otherwise read as the password (password-forms.ts).
 */
const STATE_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  German: ['geändert', 'geaendert', 'aktualisiert', 'abgelaufen', 'zurückgesetzt', 'vergessen', 'unbekannt', 'erforderlich', 'pflicht', 'pflichtfeld', 'optional', 'temporär', 'vorläufig', 'gleich', 'dasselbe', 'identisch', 'gesperrt', 'deaktiviert', 'ungültig', 'falsch', 'gesetzt', 'generiert', 'erneuert', 'verschlüsselt'],
  French: ['changé', 'modifié', 'expiré', 'réinitialisé', 'oublié', 'inconnu', 'obligatoire', 'requis', 'facultatif', 'optionnel', 'temporaire', 'provisoire', 'identique', 'pareil', 'bloqué', 'désactivé', 'invalide', 'incorrect', 'défini', 'généré', 'renouvelé', 'chiffré'],
  Spanish: ['cambiada', 'cambiado', 'modificada', 'actualizada', 'caducada', 'caducó', 'expirada', 'expiró', 'restablecida', 'olvidada', 'desconocida', 'obligatoria', 'requerida', 'opcional', 'temporal', 'provisional', 'predeterminada', 'igual', 'misma', 'bloqueada', 'desactivada', 'inválida', 'incorrecta', 'establecida', 'generada', 'renovada', 'cifrada'],
  Catalan: ['canviada', 'caducada', 'oblidada', 'desconeguda', 'obligatòria', 'temporal', 'igual', 'bloquejada'],
  Portuguese: ['alterada', 'mudada', 'trocada', 'atualizada', 'expirada', 'expirou', 'redefinida', 'esquecida', 'desconhecida', 'obrigatória', 'opcional', 'temporária', 'provisória', 'padrão', 'igual', 'mesma', 'bloqueada', 'desativada', 'inválida', 'incorreta', 'definida', 'gerada', 'renovada', 'criptografada'],
  Italian: ['cambiata', 'modificata', 'aggiornata', 'scaduta', 'reimpostata', 'resettata', 'dimenticata', 'sconosciuta', 'obbligatoria', 'richiesta', 'facoltativa', 'opzionale', 'temporanea', 'provvisoria', 'predefinita', 'uguale', 'stessa', 'bloccata', 'disattivata', 'errata', 'impostata', 'generata', 'rinnovata', 'cifrata'],
  Dutch: ['gewijzigd', 'veranderd', 'bijgewerkt', 'verlopen', 'gereset', 'vergeten', 'onbekend', 'verplicht', 'optioneel', 'tijdelijk', 'standaard', 'hetzelfde', 'zelfde', 'geblokkeerd', 'uitgeschakeld', 'ongeldig', 'onjuist', 'ingesteld', 'gegenereerd', 'vernieuwd', 'versleuteld'],
  Swedish: ['ändrat', 'ändrad', 'bytt', 'uppdaterat', 'utgånget', 'utgått', 'återställt', 'glömt', 'glömd', 'okänt', 'okänd', 'obligatoriskt', 'valfritt', 'tillfälligt', 'tillfällig', 'samma', 'spärrat', 'låst', 'inaktiverat', 'ogiltigt', 'fel', 'genererat', 'förnyat', 'krypterat'],
  'Danish and Norwegian': ['ændret', 'endret', 'skiftet', 'byttet', 'opdateret', 'oppdatert', 'udløbet', 'utløpt', 'nulstillet', 'tilbakestilt', 'glemt', 'ukendt', 'ukjent', 'påkrævet', 'obligatorisk', 'valgfri', 'valgfritt', 'midlertidig', 'midlertidigt', 'samme', 'spærret', 'sperret', 'deaktiveret', 'deaktivert', 'ugyldig', 'ugyldigt', 'forkert', 'feil', 'genereret', 'generert', 'fornyet', 'krypteret', 'kryptert'],
  Polish: ['zmienione', 'zaktualizowane', 'wygasło', 'wygasłe', 'zresetowane', 'zapomniane', 'nieznane', 'wymagane', 'obowiązkowe', 'opcjonalne', 'tymczasowe', 'domyślne', 'zablokowane', 'wyłączone', 'nieprawidłowe', 'błędne', 'ustawione', 'wygenerowane', 'odnowione', 'zaszyfrowane'],
  'Czech and Slovak': ['změněno', 'změněné', 'aktualizováno', 'vypršelo', 'expirované', 'resetováno', 'obnoveno', 'zapomenuto', 'zapomenuté', 'neznámé', 'povinné', 'volitelné', 'dočasné', 'výchozí', 'stejné', 'zablokováno', 'zablokované', 'deaktivováno', 'neplatné', 'chybné', 'nastaveno', 'vygenerováno', 'zašifrované', 'zmenené', 'aktualizované', 'vypršalo', 'resetované', 'zabudnuté', 'neznáme', 'voliteľné', 'predvolené', 'rovnaké', 'nastavené', 'vygenerované'],
  Hungarian: ['megváltozott', 'megváltoztatva', 'módosítva', 'frissítve', 'lejárt', 'visszaállítva', 'elfelejtve', 'elfelejtett', 'ismeretlen', 'kötelező', 'opcionális', 'ideiglenes', 'alapértelmezett', 'ugyanaz', 'zárolva', 'letiltva', 'érvénytelen', 'hibás', 'beállítva', 'generált', 'megújítva', 'titkosítva'],
  Finnish: ['vaihdettu', 'muutettu', 'päivitetty', 'vanhentunut', 'nollattu', 'unohtunut', 'unohdettu', 'tuntematon', 'pakollinen', 'valinnainen', 'väliaikainen', 'oletus', 'sama', 'lukittu', 'estetty', 'virheellinen', 'väärä', 'asetettu', 'luotu', 'uusittu', 'salattu'],
  Estonian: ['muudetud', 'uuendatud', 'aegunud', 'lähtestatud', 'unustatud', 'tundmatu', 'kohustuslik', 'valikuline', 'ajutine', 'vaikimisi', 'lukus', 'blokeeritud', 'kehtetu', 'vale', 'määratud', 'genereeritud', 'krüpteeritud'],
  'Croatian, Serbian and Bosnian': ['promijenjena', 'promenjena', 'ažurirana', 'istekla', 'resetirana', 'resetovana', 'zaboravljena', 'nepoznata', 'obavezna', 'obvezna', 'neobavezna', 'privremena', 'zadana', 'podrazumevana', 'ista', 'blokirana', 'onemogućena', 'nevažeća', 'pogrešna', 'postavljena', 'generirana', 'generisana', 'obnovljena', 'šifrirana'],
  Slovenian: ['spremenjeno', 'posodobljeno', 'poteklo', 'ponastavljeno', 'pozabljeno', 'neznano', 'obvezno', 'neobvezno', 'začasno', 'privzeto', 'isto', 'zaklenjeno', 'onemogočeno', 'neveljavno', 'napačno', 'nastavljeno', 'ustvarjeno', 'šifrirano'],
  Lithuanian: ['pakeistas', 'atnaujintas', 'pasibaigęs', 'atstatytas', 'pamirštas', 'nežinomas', 'privalomas', 'neprivalomas', 'laikinas', 'numatytasis', 'užblokuotas', 'neteisingas', 'nustatytas', 'sugeneruotas', 'užšifruotas'],
  Icelandic: ['breytt', 'uppfært', 'útrunnið', 'endurstillt', 'gleymt', 'óþekkt', 'nauðsynlegt', 'valfrjálst', 'tímabundið', 'sjálfgefið', 'læst', 'ógilt', 'rangt', 'stillt', 'dulkóðað'],
  Romanian: ['schimbată', 'modificată', 'actualizată', 'expirată', 'resetată', 'uitată', 'necunoscută', 'obligatorie', 'opțională', 'temporară', 'implicită', 'aceeași', 'blocată', 'dezactivată', 'invalidă', 'greșită', 'setată', 'generată', 'criptată'],
  Turkish: ['değişti', 'değiştirildi', 'güncellendi', 'sıfırlandı', 'unutuldu', 'bilinmiyor', 'zorunlu', 'gerekli', 'geçici', 'varsayılan', 'aynı', 'kilitli', 'engellendi', 'geçersiz', 'yanlış', 'ayarlandı', 'oluşturuldu', 'yenilendi', 'şifreli'],
  'Indonesian and Malay': ['diubah', 'diganti', 'diperbarui', 'kedaluwarsa', 'kadaluarsa', 'direset', 'lupa', 'terlupa', 'wajib', 'opsional', 'sementara', 'bawaan', 'terkunci', 'diblokir', 'dinonaktifkan', 'salah', 'diatur', 'dienkripsi'],
  Greek: ['άλλαξε', 'αλλάχτηκε', 'ενημερώθηκε', 'έληξε', 'ληγμένος', 'επαναφέρθηκε', 'ξεχάστηκε', 'άγνωστος', 'υποχρεωτικός', 'προαιρετικός', 'προσωρινός', 'προεπιλογή', 'ίδιος', 'κλειδωμένος', 'απενεργοποιημένος', 'άκυρος', 'λάθος', 'ορίστηκε', 'κρυπτογραφημένος'],
  Hebrew: ['שונתה', 'הוחלפה', 'עודכנה', 'פגה', 'אופסה', 'נשכחה', 'חובה', 'אופציונלי', 'זמנית', 'זהה', 'נעולה', 'חסומה', 'שגויה', 'מוצפנת'],
  Arabic: ['تغيرت', 'منتهية', 'مؤقتة', 'مطلوبة', 'إلزامية', 'اختيارية', 'افتراضية', 'نفسها', 'مقفلة', 'محظورة', 'خاطئة', 'مشفرة', 'مجهولة', 'منسية'],
  Persian: ['منقضی', 'موقت', 'الزامی', 'اختیاری', 'پیش‌فرض', 'همان', 'قفل', 'نامعتبر', 'اشتباه', 'فراموش'],
  Hindi: ['बदला', 'समाप्त', 'अस्थायी', 'आवश्यक', 'अनिवार्य', 'वैकल्पिक', 'डिफ़ॉल्ट', 'वही', 'अमान्य', 'गलत', 'रीसेट'],
  Russian: ['сменён', 'сменен', 'изменён', 'изменен', 'обновлён', 'обновлен', 'истёк', 'истек', 'просрочен', 'сброшен', 'забыт', 'неизвестен', 'неизвестно', 'обязателен', 'обязательно', 'обязательный', 'необязательный', 'опционально', 'временный', 'стандартный', 'одинаковый', 'заблокирован', 'отключён', 'отключен', 'неверный', 'неправильный', 'задан', 'установлен', 'сгенерирован', 'зашифрован'],
  Ukrainian: ['змінено', 'змінений', 'оновлено', 'оновлений', 'закінчився', 'прострочений', 'скинуто', 'забутий', 'невідомий', 'невідомо', "обов'язковий", 'обов’язковий', "обов'язково", 'обов’язково', "необов'язковий", 'тимчасовий', 'стандартний', 'заблоковано', 'заблокований', 'вимкнено', 'невірний', 'неправильний', 'встановлено', 'згенеровано', 'зашифрований'],
  Bulgarian: ['сменена', 'променена', 'обновена', 'изтекла', 'нулирана', 'забравена', 'неизвестна', 'задължителна', 'незадължителна', 'временна', 'стандартна', 'същата', 'блокирана', 'деактивирана', 'невалидна', 'грешна', 'зададена', 'генерирана', 'криптирана'],
  Japanese: ['任意', '共通', '秘密', '変更', '変更済', '失効', '期限', '別途', '省略', '初期値', '初期設定', '管理者', '非公開', '再設定', '設定済', '既定', '本人', '個別', 'ひみつ', 'ありません', 'あり', 'まだ'],
  Chinese: ['保密', '相同', '临时', '臨時', '重置', '过期', '過期', '错误', '錯誤', '管理员', '管理員', '随机', '隨機', '变更', '變更', '修改', '更改', '本人', '个人', '個人', '私密', '机密', '機密', '加密'],
  // With 하다's ending too (`필요해요`, `확인합니다`: prose.ts KOREAN_NOUN_HAEYO asks these of the noun): what a note says
  // is needed or done about the password: needed, not needed, check, ask, enter, set, share, store, keep, manage, request,
  // pass on, generate, use, replace, renew, register, issue, lose, lock, remember, take care.
  Korean: ['만료', '미정', '비공개', '필수', '선택', '동일', '임시', '초기화', '재설정', '기본값', '변경', '관리자', '비밀', '암호화', '개인', '필요', '불필요', '확인', '문의', '입력', '설정', '공유', '저장', '보관', '관리', '요청', '전달', '생성', '사용', '교체', '갱신', '등록', '발급', '분실', '잠금', '기억', '주의'],
  Thai: ['ชั่วคราว', 'หมดอายุ', 'ค่าเริ่มต้น', 'เหมือนเดิม', 'ลืม', 'ความลับ', 'เปลี่ยน', 'รีเซ็ต', 'จำเป็น', 'ผิด', 'ส่วนตัว'],
  'Serbian and Macedonian (Cyrillic)': ['промењена', 'променета', 'ажурирана', 'истекла', 'ресетована', 'заборављена', 'заборавена', 'непозната', 'обавезна', 'задолжителна', 'привремена', 'подразумевана', 'иста', 'блокирана', 'неважећа', 'погрешна', 'постављена', 'генерисана', 'шифрована'],
};
/**
 * QUALITY_BY_LANGUAGE: the single words a sentence in another language ends with when it says what the
 * password is like (`Das Passwort ist sicher`, `La contraseña es segura`, `Hasło jest silne`): valid, secure,
 * weak, strong, short, long, simple, complex, correct, new, old, secret (`Kata sandi adalah rahasia`; German's
 * `geheim` is also one of its most common passwords, but the sentence says what the password is like; not
 * French's `secret`, the English word too, which `password: secret` gives as a weak password). Read as STATE_BY_LANGUAGE is, for the same
 * reason: a plain word that ends the sentence is otherwise its value (password-forms.ts
 * PROSE_IN_OTHER_LANGUAGES). One row per language, the forms its word for password takes.
 */
const QUALITY_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  German: ['gültig', 'sicher', 'unsicher', 'schwach', 'stark', 'kurz', 'lang', 'einfach', 'komplex', 'richtig', 'korrekt', 'geheim'],
  French: ['valide', 'sûr', 'sécurisé', 'faible', 'fort', 'court', 'long', 'simple', 'complexe', 'correct', 'nouveau', 'ancien'],
  Spanish: ['válida', 'segura', 'insegura', 'débil', 'fuerte', 'corta', 'larga', 'sencilla', 'simple', 'compleja', 'correcta', 'nueva', 'antigua', 'vieja', 'secreta'],
  Catalan: ['vàlida', 'segura', 'feble', 'forta', 'curta', 'llarga', 'senzilla', 'correcta', 'nova', 'antiga', 'secreta'],
  Portuguese: ['válida', 'segura', 'insegura', 'fraca', 'forte', 'curta', 'longa', 'simples', 'complexa', 'correta', 'nova', 'antiga', 'secreta'],
  Italian: ['valida', 'sicura', 'debole', 'forte', 'corta', 'lunga', 'semplice', 'complessa', 'corretta', 'nuova', 'vecchia', 'segreta'],
  Dutch: ['geldig', 'veilig', 'onveilig', 'zwak', 'sterk', 'kort', 'lang', 'eenvoudig', 'simpel', 'complex', 'correct', 'juist', 'nieuw', 'geheim'],
  Swedish: ['giltigt', 'säkert', 'osäkert', 'svagt', 'starkt', 'kort', 'långt', 'enkelt', 'komplext', 'korrekt', 'rätt', 'nytt', 'gammalt', 'hemligt'],
  'Danish and Norwegian': ['gyldig', 'gyldigt', 'sikker', 'sikkert', 'usikker', 'svag', 'svak', 'stærk', 'sterk', 'kort', 'lang', 'langt', 'enkel', 'enkelt', 'kompleks', 'korrekt', 'rigtig', 'riktig', 'nytt', 'gammel', 'gammelt', 'hemmelig', 'hemmeligt'],
  Polish: ['poprawne', 'bezpieczne', 'słabe', 'silne', 'krótkie', 'długie', 'proste', 'złożone', 'nowe', 'stare', 'tajne'],
  'Czech and Slovak': ['platné', 'bezpečné', 'slabé', 'silné', 'krátké', 'dlouhé', 'jednoduché', 'složité', 'správné', 'nové', 'staré', 'bezpečné', 'silné', 'krátke', 'dlhé', 'jednoduché', 'správne', 'tajné'],
  Hungarian: ['érvényes', 'biztonságos', 'gyenge', 'erős', 'rövid', 'hosszú', 'egyszerű', 'bonyolult', 'helyes', 'régi', 'titkos'],
  Finnish: ['kelvollinen', 'turvallinen', 'heikko', 'vahva', 'lyhyt', 'pitkä', 'yksinkertainen', 'monimutkainen', 'oikea', 'uusi', 'vanha', 'salainen'],
  Estonian: ['kehtiv', 'turvaline', 'nõrk', 'tugev', 'lühike', 'pikk', 'lihtne', 'keeruline', 'õige', 'vana'],
  'Croatian, Serbian and Bosnian': ['valjana', 'ispravna', 'sigurna', 'slaba', 'jaka', 'kratka', 'duga', 'jednostavna', 'složena', 'nova', 'stara'],
  Slovenian: ['veljavno', 'varno', 'šibko', 'močno', 'kratko', 'dolgo', 'preprosto', 'zapleteno', 'pravilno', 'novo', 'staro'],
  Lithuanian: ['galiojantis', 'saugus', 'silpnas', 'stiprus', 'trumpas', 'ilgas', 'paprastas', 'sudėtingas', 'teisingas', 'naujas', 'senas'],
  Icelandic: ['gilt', 'öruggt', 'veikt', 'sterkt', 'stutt', 'langt', 'einfalt', 'flókið', 'rétt', 'nýtt', 'gamalt'],
  Romanian: ['validă', 'sigură', 'slabă', 'puternică', 'scurtă', 'lungă', 'simplă', 'complexă', 'corectă', 'nouă', 'veche'],
  Turkish: ['geçerli', 'güvenli', 'zayıf', 'güçlü', 'kısa', 'uzun', 'basit', 'karmaşık', 'doğru', 'yeni', 'eski', 'gizli'],
  'Indonesian and Malay': ['aman', 'lemah', 'kuat', 'pendek', 'panjang', 'sederhana', 'rumit', 'benar', 'baru', 'rahasia'],
  Greek: ['έγκυρος', 'ασφαλής', 'αδύναμος', 'ισχυρός', 'σύντομος', 'μακρύς', 'απλός', 'σύνθετος', 'σωστός', 'νέος', 'παλιός', 'μυστικός'],
  Hebrew: ['תקינה', 'חזקה', 'חלשה', 'קצרה', 'ארוכה', 'פשוטה', 'מורכבת', 'נכונה', 'חדשה', 'ישנה', 'סודית'],
  Arabic: ['صالحة', 'قوية', 'ضعيفة', 'قصيرة', 'طويلة', 'بسيطة', 'معقدة', 'صحيحة', 'جديدة', 'قديمة', 'سرية'],
  Persian: ['معتبر', 'قوی', 'ضعیف', 'کوتاه', 'طولانی', 'ساده', 'پیچیده', 'درست', 'جدید', 'قدیمی', 'محرمانه'],
  Hindi: ['मान्य', 'सुरक्षित', 'कमजोर', 'मजबूत', 'छोटा', 'लंबा', 'सरल', 'जटिल', 'सही', 'नया', 'पुराना', 'गुप्त'],
  Russian: ['надёжный', 'надежный', 'слабый', 'сильный', 'простой', 'сложный', 'короткий', 'длинный', 'правильный', 'верный', 'новый', 'старый', 'секретный'],
  Ukrainian: ['надійний', 'слабкий', 'сильний', 'простий', 'складний', 'короткий', 'довгий', 'правильний', 'новий', 'старий', 'секретний'],
  Bulgarian: ['валидна', 'сигурна', 'слаба', 'силна', 'кратка', 'дълга', 'проста', 'сложна', 'правилна', 'нова', 'стара', 'тайна'],
  'Serbian and Macedonian (Cyrillic)': ['важећа', 'сигурна', 'слаба', 'јака', 'кратка', 'дуга', 'једноставна', 'сложена', 'исправна', 'нова', 'стара'],
  // The nouns Korean makes these adjectives of with 하다 (`안전해요`, "it is safe": prose.ts KOREAN_NOUN_HAEYO): valid, safe,
  // simple, complex, strong, weak, correct, similar, enough, too short of, important, possible, impossible, fitting.
  Korean: ['유효', '안전', '간단', '복잡', '강력', '취약', '정확', '비슷', '충분', '부족', '중요', '가능', '불가능', '적당'],
};
const STATE_WORDS = new Set([...Object.values(STATE_BY_LANGUAGE).flat(), ...Object.values(QUALITY_BY_LANGUAGE).flat()]);

/** Whether a value is a word telling the password's state or what it is like in another language (STATE_BY_LANGUAGE, QUALITY_BY_LANGUAGE), punctuation after it allowed. */
export function saysStateInOtherLanguage(value: string): boolean {
  return value.length <= 24 && STATE_WORDS.has(value.replace(/[.,;:!?]+$/, '').toLowerCase());
}

/**
 * SECRET_MANAGER: the name of a password manager or a vault, which a note writes where the password is
 * kept (`Password: Bitwarden`, `パスワード：1Passwordを参照`, `비밀번호: 1Password 참고`, Turkish's `Vault'ta`
 * with its case ending): issue 40's "references to a vault or secret manager", in any language, since the
 * product's name is the same in all of them.
 */
const SECRET_MANAGER = 'vault|1password|bitwarden|vaultwarden|keepass(?:xc)?|lastpass|dashlane|passbolt|keychain|infisical|doppler';
/** The name alone, a case ending after an apostrophe allowed (`Vault'ta`, `1Password'ta`). */
const SECRET_MANAGER_VALUE = new RegExp(`^(?:${SECRET_MANAGER})(?:['’]\\p{L}{1,5})?$`, 'iu');

export function isSecretManagerName(value: string): boolean {
  return value.length <= 24 && SECRET_MANAGER_VALUE.test(value);
}

/**
 * A word followed by up to two more and then a password manager's or a vault's name (`vedi il vault`, `siehe
 * KeePass`, `ver Bitwarden`, `см. Vault`): the words say where the password is kept, in whatever language.
 * `next` is what follows the word on its line.
 */
const POINTS_TO_SECRET_MANAGER = new RegExp(`^(?:[ \\t]+[\\p{L}.'’-]{1,16}){0,2}[ \\t]+(?:${SECRET_MANAGER})(?![\\p{L}\\p{N}])`, 'iu');

export function pointsToSecretManager(next: string): boolean {
  return POINTS_TO_SECRET_MANAGER.test(next);
}

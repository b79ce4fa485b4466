/**
 * Issue 29, precision: benign classes found in more dev data (secretlint's "ok" fixtures,
 * test/support/secret-heldout/dev-extra.json), one test per class, each beside a real-looking
 * value of the same shape that must still be removed. Values are written here, not copied.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { survives } from '../support/secret-corpus.js';

// Assembled at run time so this file does not look like a leaked credential to scanners.
const j = (...parts: string[]) => parts.join('');
const PW = j('Zx8!pq', '3Rt#w');
const TOKEN = j('a8Fk2Lq9Zt4Mx7Bn', '3Vc6Xz1Qw5Er8Ty0');
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

const untouched = (text: string): void => expect(redactSecrets(text).text).toBe(text);
const removed = (text: string, secret: string): void => expect(survives(redactSecrets(text).text, secret)).toBe(false);

describe('placeholders that say they are not real', () => {
  it('a value whose word is dummy, fake or not-a-real stays (at the start or after a separator)', () => {
    untouched('api_key: fake-api-key-for-local-runs-2024');
    untouched('OPS_TOKEN=ops_DUMMYk2Lq9Zt4Mx7Bn3Vc6Xz1Qw5Er8Ty0');
    untouched('password=notARealPassword99');
    untouched('STRIPE_SECRET=sk_test_FAKE4eC39HqLyjWDarjt');
  });
  it('the same words glued inside a random run do not vouch for it', () => {
    const glued = j('sk_live_a8Fk2Lq9', 'fake', 'Zt4Mx7Bn3Vc6Xz1Q');
    removed(`STRIPE_SECRET=${glued}`, glued);
    removed(`api_key: ${TOKEN}`, TOKEN);
  });
});

describe('a placeholder written in base64', () => {
  it('base64 that decodes to a documentation marker stays', () => {
    untouched(`ANY_KEY = ${b64('dummy text data data data')}`);
    untouched(`secret: ${b64('replace with your example secret')}`);
  });
  it('base64 of a password or of random bytes is still a secret', () => {
    const encoded = b64(`${PW}${PW}`);
    removed(`DB_SECRET = ${encoded}`, encoded);
    const bytes = Buffer.from(TOKEN, 'utf8').map((c, i) => (c * 7 + i * 13) & 0xff);
    const random = Buffer.from(bytes).toString('base64');
    removed(`ANY_KEY = ${random}`, random);
  });
});

describe('passwords in URLs that are no credential', () => {
  it('a password under 4 characters stays', () => {
    untouched('const URL = "https://user:abc@api.test/v1";');
  });
  it('issue 40: the default that repeats the user name and a PIN of one digit are passwords in a person\'s note, removed', () => {
    // Kept as placeholders until issue 40 (`mysql -u root -proot` is the issue's own example).
    removed('const MONGO = "mongodb://mongodb:mongodb@localhost:27017/app";', 'mongodb:mongodb@');
    removed('REDIS_URL=redis://cache:cache@127.0.0.1:6379/0', 'cache:cache@');
    removed('const URL = "https://user:1111@service.test/api";', 'user:1111@');
  });
  it('a real password in the same places is removed', () => {
    removed(`const MONGO = "mongodb://mongodb:${PW}@localhost:27017/app";`, PW);
    removed(`REDIS_URL=redis://cache:${TOKEN}@127.0.0.1:6379/0`, TOKEN);
    removed('const URL = "https://user:k9#Q@service.test/api";', 'k9#Q');
  });
});

describe('a service-account JSON with a placeholder key', () => {
  it('"private_key": "DUMMY" stays', () => {
    untouched('{\n  "private_key_id": "DUMMY",\n  "private_key": "DUMMY"\n}');
  });
  it('a key body is removed', () => {
    const pem = j('-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n');
    removed(`{\n  "type": "service_account",\n  "private_key": "${pem}"\n}`, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
  });
});

describe('more placeholders and templates (Nosey Parker negative examples, dev extension)', () => {
  it('an HTML-escaped template and the first word of a bracketed phrase stay', () => {
    untouched('"password": "&lt;YOUR_DB_PASSWORD&gt;"');
    untouched('Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=[Key name goes here];SharedAccessKey=[Shared Access key goes here];');
  });
  it('a value built on an upper-case variable and a path stays', () => {
    untouched('REACT_APP_FORGOT_PASSWORD=$REACT_APP_BASE_URL/#/forgot_password');
  });
  it('real values in the same places are removed', () => {
    removed(`"password": "${PW}"`, PW);
    removed(`Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${TOKEN}=;`, TOKEN);
    removed(`REACT_APP_PASSWORD=${PW}`, PW);
  });
});

describe('a mask with a word stuck on', () => {
  it('one character held down for three quarters of the value, then a short word, stays', () => {
    untouched('"aws_secret_access_key" =  aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaend');
    untouched('"aws_secret_access_key" =  aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaendbbbbbbb');
  });
  it('a token that opens with a long run and goes on at random is removed', () => {
    const bearer = j('AAAAAAAAAAAAAAAAAAAAA', TOKEN, TOKEN);
    removed(`TWITTER_BEARER_TOKEN=${bearer}`, bearer);
    const run = j('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'k2Lq9Zt4');
    removed(`"aws_secret_access_key" = ${run}`, run);
  });
});

describe('code, not a value, after a credential word', () => {
  it('a shell splice of a variable inside quotes stays', () => {
    untouched(`- echo 'export DATABASE_PASSWORD="'$PRECOMPILE_PASSWORD'"' >> .env`);
  });
  it('a CSS selector or fragment of words stays', () => {
    untouched('this.addPassword = "#add-password";');
    untouched("const field = { password: '.password-field' };");
  });
  it('the code between two strings, when the label ends its string, stays', () => {
    untouched('sb.append("MasterUserPassword: " + getMasterUserPassword() + ",");');
    untouched(`echo 'password = '.$p['config']['daemon_password']."\\n";`);
    untouched('usernameLabel:"Username or email:",passwordLabel:"Password:",rememberMeLabel:"Remember me:"');
  });
  it('real values written the same ways are removed', () => {
    removed(`- echo 'export DATABASE_PASSWORD="'${PW}'"' >> .env`, PW);
    removed(`this.password = "#${TOKEN}";`, TOKEN);
    removed(`sb.append("MasterUserPassword: ${PW}");`, PW);
    removed(`echo 'password = ${PW}';`, PW);
  });
});

describe('classes argued from the issue words: placeholders in angle brackets, paths, public keys', () => {
  it('a random-looking value enclosed in <…> after a credential word is a placeholder, as the labelling rule writes them', () => {
    untouched(`token = <${TOKEN}>`);
    untouched(`Use the header: Authorization token <${TOKEN}> from the console.`);
  });
  it('the same value not enclosed is removed', () => {
    removed(`token = ${TOKEN}`, TOKEN);
    removed(`token = <${TOKEN}`, TOKEN);
  });
  it('a path with a random part, assigned to a key of any name, stays; a base64 value holding / is removed', () => {
    untouched(`cache_dir: /var/lib/app/${TOKEN}${TOKEN}/data`);
    const b64secret = j('/K7MDENG/bPxRfiCYzq8Lm2Xv4T', 'wJalrXUtnFEMIa8Fk2Lq9');
    removed(`blob_value: ${b64secret}`, b64secret);
  });
  it('a public key by its name stays, a key of another name is removed', () => {
    const hexish = j(TOKEN, TOKEN.toLowerCase(), '9Zq');
    untouched(`DOTENV_PUBLIC_KEY=${hexish}`);
    untouched(`publishableKey: ${hexish}`);
    removed(`DOTENV_PRIVATE_KEY=${hexish}`, hexish);
  });
});

describe('classes from whispers and ripsecrets non-findings (dev extension)', () => {
  it('a URL template of {names} and words joined by _ stays', () => {
    untouched("write_key: 's3://{bucket}/deduped_events/schema_type={schema}/dt={date}'");
  });
  it('a URL holding a random part after a credential key is still removed', () => {
    const url = `s3://bucket/${TOKEN}/x`;
    removed(`write_key: '${url}'`, TOKEN);
  });
  it("a constant's upper-case name as a key's value stays; a password of upper-case words is still removed", () => {
    untouched('project_key = PROJECT_NAME_ALIAS');
    removed('db_password = CORRECT_HORSE_BATTERY', 'CORRECT_HORSE_BATTERY');
  });
  it('a PEM block around words stays; one around key material is removed', () => {
    untouched('-----BEGIN PRIVATE KEY-----this is not a private key-----END PRIVATE KEY-----');
    untouched('-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----');
    const body = j('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7');
    removed(`-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`, body);
  });
});

describe('classes from the AWS CLI examples (dev extension)', () => {
  it('a pagination or idempotency token is a cursor, not a credential', () => {
    untouched(`{\n    "NextToken": "${Buffer.from('{"NextToken": null, "boto_truncate_amount": 2}').toString('base64')}"\n}`);
    untouched('"nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA"');
    untouched('aws logs put-log-events --log-group-name g --sequence-token "49542672486831074009579604567656788214806863282469607346"');
    untouched('aws acm request-certificate --domain-name example.com --idempotency-token 91adc45q');
    untouched('aws ds create-trust --client-request-token abc123def456');
  });
  it('session, access and plain tokens are still removed', () => {
    removed(`"SessionToken": "${TOKEN}${TOKEN}"`, TOKEN);
    removed(`aws configure set aws_session_token ${TOKEN}`, TOKEN);
    removed(`gh auth login --token ${TOKEN}`, TOKEN);
    removed(`"accessToken": "${TOKEN}"`, TOKEN);
  });
  it("a URL scheme's colon after a credential word is not a label's separator", () => {
    untouched('For more information, see `Passwords, password recovery, and password policies <https://docs.aws.amazon.com/cognito/latest/developerguide/managing-users-passwords.html>`__ in the guide.');
    removed(`The password: ${PW} (rotated).`, PW);
  });
  it("markdown's closing emphasis after a word is punctuation, not part of a value", () => {
    untouched('**To wait until the password data for a Windows instance is available**');
    removed(`**The VPN password is ${PW}**`, PW);
  });
});

describe('more classes from the AWS CLI examples (dev extension)', () => {
  it("a separator word joined by hyphens is part of a name (`replicate-secret-to-regions`); 'to' alone still labels a value", () => {
    untouched('aws secretsmanager replicate-secret-to-regions \\');
    removed(`Set the secret to ${PW} before the deploy.`, PW);
  });
  it('a cloud region after a credential word is an id', () => {
    untouched('The following example replicates a secret to eu-west-3.');
  });
  it('a name for the value (my-…-password) is a placeholder', () => {
    untouched('aws codebuild import-source-credentials --auth-type BASIC_AUTH --token my-Bitbucket-password --username my-Bitbucket-username');
    removed(`aws codebuild import-source-credentials --auth-type BASIC_AUTH --token ${TOKEN}`, TOKEN);
  });
  it('a public key or certificate as a value is not a secret', () => {
    untouched('--token-signing-public-keys FIRST_KEY="-----BEGIN PUBLIC KEY-----');
  });
});

describe("a separator that belongs to another name's assignment", () => {
  it('the words after a credential word ending in another name= give that name its value', () => {
    untouched('aws cognito-idp set-user-mfa-preference --software-token-mfa-settings Enabled=true,PreferredMfa=true');
    untouched('aws ce get-tags --search-string secretProject --time-period Start=2017-01-01,End=2017-05-18 --tag-key Project');
  });
  it('a name that is itself a credential keeps its value removed', () => {
    removed(`The API token for prod: API_TOKEN=${TOKEN}`, TOKEN);
    removed(`database password DB_PASS=${PW}`, PW);
  });
});

describe('a variable of the same name as the credential key', () => {
  it('accountKey = $accountKey passes a variable on', () => {
    untouched('let accountKey = $accountKey;');
  });
  it('a $-value that is not the same name is still judged as a value', () => {
    removed(`let accountKey = $${TOKEN};`, TOKEN);
  });
});

describe('an encrypted value', () => {
  it("Spring Cloud Config's {cipher}… is ciphertext, not the secret (as ENC(…) already is)", () => {
    untouched(`password: '{cipher}${j('0d17b565c37bcbd895e9d923', '15a05c1c3c9a29f7')}${TOKEN}'`);
    removed(`password: '${TOKEN}'`, TOKEN);
  });
});

describe('a CSS colour in an escaped style string', () => {
  it('.passwordCheck-notValid { color: #DF3312; } inside a JSON string stays', () => {
    untouched('"CSS": ".passwordCheck-notValid-customizable {\\n\\tcolor: #DF3312;\\n}\\n.passwordCheck-valid-customizable {\\n\\tcolor: #19BF00;\\n}"');
  });
  it('a password before an escaped line break is still removed', () => {
    removed(`"text": "VPN password: ${PW}\\nuser: ops"`, PW);
  });
});

describe('the new judgements in linear time on lines made to be slow', () => {
  it.each([
    ['an HTML-escaped template that never closes', `password: &lt;${'a&g'.repeat(300_000)}`],
    ['a long mask of one character with a tail', `api_key: ${'a'.repeat(900_000)}end`],
    ['many short runs of one character', `api_key: ${'aab'.repeat(300_000)}`],
    ['code between strings with a long run of spaces', `"password: "${' '.repeat(500_000)}+x`],
    ['many quoted values that open with a concatenation', `password = "+${'x'.repeat(10)}" `.repeat(50_000)],
    ['a long run of closing emphasis after a word', `the password is x${'**'.repeat(300_000)}y and more`],
    ['many cursor token names', 'next_token page_token '.repeat(100_000)],
    ['base64 of words, many times', `secret: ${Buffer.from('dummy text '.repeat(10)).toString('base64')}\n`.repeat(20_000)],
    ['a word for password in another language, many times, never followed by a colon', 'Passwort für '.repeat(200_000)],
    ['one long word after a word for password in another language', `Passwort ${'a'.repeat(900_000)}`],
    ['a long run after a Chinese word for password that ends in a letter of another script', `密码是${'a'.repeat(900_000)}é`],
    ['a Chinese word for password after Latin letters, many times', 'Wi-Fi密码 '.repeat(200_000)],
    ['a long word of Cyrillic letters after a word for password in another language', `Пароль: ${'а'.repeat(900_000)}`],
    ['a long run of kana and a number after a Japanese word for password', `パスワード：${'な'.repeat(900_000)}2024です`],
    ['a quotation mark of another language that never closes', `Пароль: «${'а'.repeat(900_000)}`],
    ['a word for password and a glued `=`, many times', 'пароль='.repeat(200_000)],
    ['a Cyrillic word and a number after a label of what it is for, made long', `Пароль от wifi — ${'а'.repeat(900_000)}1`],
    ['a word and a number in another script after its label, many times', 'Пароль: лето2024 パスワードはなつ2024です '.repeat(50_000)],
    ['many table rows keyed by the word in another language', `| Сервис | Пароль |\n|---|---|\n${'| Пароль | лето2024 |\n| Пароль от wifi | смотри в Vault |\n'.repeat(40_000)}`],
    ['a long run of `!` after a password', `password: hunter22${'!'.repeat(900_000)} and the password is hunter22${'!'.repeat(900_000)}`],
    ['a word of Latin letters after a word for password in another language, its line never ending in time', `Пароль: ${'a'.repeat(900_000)}é`],
    ['login blocks in another language, many times', 'Логин: admin\nПароль: ромашка\n'.repeat(100_000)],
    ['a label of what the password is for in another language and a long word', `Hasło do poczty: ${'ż'.repeat(900_000)}`],
    ['a quoted key in another language, many times, its value never closing', `${'{"пароль": "котик", '.repeat(100_000)}"пароль": "${'к'.repeat(900_000)}`],
    ['a vault named after many words', `Password: ${'vedi '.repeat(200_000)}vault`],
    // 2026-12-07 (PLAIN_WORD_ALONE, COLON_CASE_ENDING, WIFI_SLASH_KEY, ABBREVIATED_BY_LANGUAGE, the plain word after "is").
    ['a plain word with diacritics alone after the word, many times', 'Passwort: Bärchen\nHasło: źrebak\nPassword: città\n'.repeat(30_000)],
    ['a Persian word of many parts joined by zero-width non-joiners', `رمز عبور: ${'ب\u200c'.repeat(400_000)}ب`],
    ['a label with many colon case endings', `Lösenord till ${'NAS:en '.repeat(150_000)}: hallon`],
    ['a label whose words end in a colon and letters, never in a value', `Lösenord till ${'a:b'.repeat(300_000)}`],
    ['a Wi-Fi label and a slash, many times', 'Guest wifi: CoffeeShop / latte2go '.repeat(100_000)],
    ['a Wi-Fi label before a long network name with no slash', `Guest wifi: ${'a'.repeat(900_000)} x`],
    ['French `mdp` and a colon, many times', 'mdp : '.repeat(200_000)],
    ['"the password is" in another language before a long word of another script', `Le mot de passe de la base est ${'é'.repeat(900_000)}`],
    ['many table rows under the word in another language holding plain words', `| Сервис | Пароль |\n|---|---|\n${'| почта | берёза |\n'.repeat(80_000)}`],
    // 2026-12-07, tenth session (XML_NAMED_VALUE, THING_BEFORE_FOR, PHRASE_FOR_WHAT, QUOTED_PHRASE, PIN_COLUMN,
    // UNSPACED_WORD_ALONE, WORD_OPENS_SENTENCE, USER_IS_PASS_IS, PW_LETTER_SWAPPED).
    ['XML elements naming a password, many times', '<add key="SmtpPassword" value="swordfish"/><entry key="password">kittens</entry>\n'.repeat(60_000)],
    ['an XML name attribute before a long run that never closes its tag', `<property name="password" ${'a'.repeat(900_000)}`],
    ['a door code and many words before the code', `Door code for ${'the '.repeat(300_000)}room is 6174`],
    ['a pass phrase label and a long what-for, many times', 'Passphrase für den Tresor: kleine Möwe fliegt hoch\n'.repeat(60_000)],
    ['a pass phrase label before many words with diacritics', `passphrase for the backup: ${'grüne '.repeat(200_000)}`],
    ['a quoted pass phrase that never closes', `passphrase: "${'the lazy '.repeat(150_000)}`],
    ['many rows under a PIN column', `| Lock | PIN |\n|---|---|\n${'| Shed | 8812 |\n'.repeat(80_000)}`],
    ['a long run of kana after a Japanese word for password', `パスワード：${'さ'.repeat(900_000)}`],
    ['a Thai word for password and a label before a long Thai run', `รหัสผ่าน wifi: ${'ม'.repeat(900_000)}`],
    ['one word of Chinese, Korean and Thai alone, many times', '密码：熊猫饭\n비밀번호: 호랑이\nรหัสผ่าน: มะม่วง\n'.repeat(40_000)],
    ['German words of a sentence after a label, many times', 'Passphrase für den Tresor: steht im Notfallordner\n'.repeat(60_000)],
    ['a user and `pass is`, many times', 'the NAS user is backup and the pass is lighthouse. '.repeat(60_000)],
    ['a user and a password, many times on one line (the netrc test looked for the line start in the whole text)', 'user ops, password letmein '.repeat(100_000)],
    ['`user is` before a long run of spaces', `user is ${' '.repeat(900_000)}admin pass is x`],
    ['`pw` and a word with a digit inside, many times', 'vpn pw W1nter! '.repeat(150_000)],
    // 2026-12-07, eleventh session (QUOTE_ENDS_SENTENCE, THING_PASS_IS).
    ['a Japanese word in its quotes after the glued "is", many times', 'パスワードは「たまご」です '.repeat(60_000)],
    ['a Japanese quote after the glued "is" that never closes', `パスワードは「${'た'.repeat(900_000)}`],
    ['an alarm pass, many times', 'the office alarm pass is marigold. '.repeat(60_000)],
    ['an alarm pass before a long run of spaces', `alarm pass is ${' '.repeat(900_000)}x`],
    ['many keypad things before `pass`, never followed by a value', 'alarm system key safe lock box '.repeat(100_000)],
    // 2026-12-07, twelfth session (PGPASS_CODE_SPAN, HTPASSWD_LINE, ECHO_INTO_PASSWORD_FILE, PRINTED_PASSWORD, PUBLIC_PEM,
    // COPULA_AFTER_VALUE, UNSPACED_WORD_THEN_REMARK, FOR_WHAT_GLUED).
    ['a .pgpass code span that never closes', `.pgpass: \`*:*:*:app:${'a'.repeat(900_000)}`],
    ['many .pgpass code spans', 'in .pgpass: `db:5432:*:app:Gopher#77` '.repeat(60_000)],
    ['an .htpasswd user before a long run of salt', `ops:$apr1$${'a'.repeat(900_000)}`],
    ['many echoes of a value, never into a file', 'echo walnut2020 '.repeat(150_000)],
    ['an echo before a long run of spaces and a password file', `echo walnut2020 ${' '.repeat(900_000)}> ~/.vault_pass`],
    ['a password manager command at a prompt with a long path, never a credential field', `$ op read op://${'a/'.repeat(400_000)}x\nvalue`],
    ['op item get with many words and never --fields', `$ op item get ${'nas '.repeat(200_000)}\nvalue`],
    ['security find-generic-password with many options and never -w', `$ security find-generic-password ${'-s x '.repeat(150_000)}\nvalue`],
    ['a long base64 run opening as PEM', `certificate-authority-data: LS0tLS1CRUdJTi${'A'.repeat(900_000)}`],
    ['a Korean word for password and its particle before a long Hangul run', `비밀번호는 ${'가'.repeat(900_000)}입니다`],
    ['a Japanese word for password, its particle and a copula, many times', 'パスワードは あおぞら です '.repeat(60_000)],
    ['a Chinese word for password before a long Han run and a bracket', `密码：${'熊'.repeat(900_000)}（x）`],
    ['an Arabic label with a glued "for the", many times', 'كلمة السر للراوتر: نخلة\n'.repeat(60_000)],
    ['`use` and a typed value, many times (USE_TYPED_PASSWORD)', 'Use Trustno1! for the jump host. '.repeat(60_000)],
    ['`use` before a long run of letters and symbols', `use ${'a1!B'.repeat(225_000)} for`],
    // 2026-12-07, twelfth session, qa-redact-8 (LABEL_FOR_WHAT, LOG_IN_WITH, CODE_THEN_ITS_THING, THING_LABEL,
    // SAME_AS_THEN_VALUE, PASS_IS_WEAK, WILL_BE_TYPED, QUOTED_TYPED, AS_THE_PASSWORD).
    ['a login label with what it is for and a pair, many times', 'creds for grafana are admin:admin123 '.repeat(80_000)],
    ['many colons after a login label with many words', `creds for ${'a '.repeat(300_000)}:x:y`],
    ['a PIN before `for` and many words, never a thing', `PIN 4821 for ${'the '.repeat(300_000)}LED`],
    ['many thing labels before a PIN', '- the alarm: PIN 8946\n'.repeat(80_000)],
    ['`the same as` and a long run with no colon', `password is the same as ${'Jira '.repeat(200_000)}`],
    ['`the same as` and its colon, many times', 'Jenkins password is the same as Jira: Winter2023\n'.repeat(60_000)],
    ['`pass is` and a weak value, many times', 'pass is rex2024\n'.repeat(100_000)],
    ['`pass is` before a long run of spaces', `pass is ${' '.repeat(900_000)}rex2024`],
    ['`will be` and a typed value, many times', 'new password will be oRP05J%wQ from Monday. '.repeat(60_000)],
    ['a quoted value after the word that never closes', `the password "${'Xk9!'.repeat(225_000)}`],
    ['many quoted values before `as the password`', `${'"Xk92!pq" '.repeat(100_000)}as the password`],
    // 2026-12-07, thirteenth session, qa-redact-9 (SCOPE_PATH, GLUED_IS_THEN_WORD_ALONE, VERB_LAST_COPULA, IS_THEN_WORD_ALONE,
    // UNSPACED_WORD_AFTER_ENGLISH_LABEL).
    ['many scope paths after a credential word', 'token::transfer(cpi_ctx, amount)?; '.repeat(100_000)],
    ['a Korean word for password and its particle, many times, each value alone on its line', '와이파이 비밀번호는 초코칩\n'.repeat(80_000)],
    ['a Hindi word for password before a long word that never reaches its copula', `पासवर्ड ${'न'.repeat(900_000)} है`],
    ['a Hindi word for password and a word, many times, never a copula', 'पासवर्ड नमस्ते '.repeat(150_000)],
    ['a Thai word for password and its "is", many times', 'รหัสผ่านไวไฟคือ มะม่วง\n'.repeat(60_000)],
    ['a Thai word for password and its "is" before a long Thai run', `รหัสผ่านคือ ${'ม'.repeat(900_000)}`],
    ['the English word and a colon before a long Hangul run', `password: ${'가'.repeat(900_000)}`],
    ['the English word and a Hangul word alone, many times', 'router password: 별빛\n'.repeat(80_000)],
    ['URLs with a short Hangul password, many times (LATIN_LENGTH)', 'https://user:사랑해@example.net/ '.repeat(80_000)],
    ['a command line with a long Han run after -p (CJK_RUN_OFF_SENTENCE)', `mysql -u root -p${'好'.repeat(900_000)}`],
    ['a long random key before an example comment, many times (OUTRUNS_EXAMPLE_COMMENT)', "SECRET_KEY = 'k#8v!q2(zr@m4p^x7w&n0t$e5y%b9c*d1f+g6h' # sample\n".repeat(40_000)],
    ['a long run of words joined by dashes before an example comment (OUTRUNS_EXAMPLE_COMMENT)', `SECRET_KEY = '${'ab-'.repeat(300_000)}x' # example`],
    ['a Korean noun with 하다\'s ending alone after the word, many times (KOREAN_NOUN_HAEYO)', '비밀번호: 사랑해요\n비밀번호: 필요해요\n'.repeat(60_000)],
    ['a word then "empty" after the word, many times (NO_VALUE_AFTER_VERB)', '# password: keep empty\n'.repeat(80_000)],
    ['a Protocol Buffers field named for a key, many times on one line (NAME_GOES_ON)', 'google.protobuf.StringValue key_encryption_key=24; '.repeat(40_000)],
    ['CloudFormation functions after a credential name, many times (CLOUDFORMATION_FUNCTIONS)', "HasPassword: !Not [!Equals [!Ref DBPassword, '']]\n".repeat(40_000)],
  ])('%s', (_name, input) => {
    const started = performance.now();
    redactSecrets(input);
    // Generous for a loaded machine; a quadratic pass takes minutes here.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

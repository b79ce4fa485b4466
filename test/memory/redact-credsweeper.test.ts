/**
 * Issue 40, fifth dev round: classes shown by CredSweeper's test samples (dev-credsweeper.json, dev
 * only; README "fifth round"). Each class is tested beside a real-looking value in the same place that
 * must still be removed; no test names or copies a sample, the values are written here.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { survives } from '../support/secret-corpus.js';

const j = (...parts: string[]) => parts.join('');
const KEY = j('Zk3Qp9Lm2X', 'v7Rt5Wn8Bd'); // a generated-looking key for the forms that take one

const untouched = (text: string): void => expect(redactSecrets(text).text).toBe(text);
const removed = (text: string, secret: string): void => expect(survives(redactSecrets(text).text, secret)).toBe(false);

describe("SQL's IDENTIFIED BY (password-forms.ts)", () => {
  it('the password of the account a statement creates or alters, quoted or bare, however weak: removed', () => {
    removed("CREATE USER 'app'@'%' IDENTIFIED BY 'Vq7!mR2pLs';", 'Vq7!mR2pLs');
    removed("ALTER USER 'root'@'localhost' IDENTIFIED WITH mysql_native_password BY 'letmein';", 'letmein');
    removed('CREATE USER reporting IDENTIFIED BY hunter22;', 'hunter22');
    removed('GRANT ALL ON app.* TO ops IDENTIFIED BY "changeme";', 'changeme');
  });
  it('a bind variable or a template as the password, and prose saying what something is identified by: stay', () => {
    untouched('ALTER USER app IDENTIFIED BY :new_password;');
    untouched("CREATE USER app IDENTIFIED BY '${DB_PASSWORD}';");
    untouched('Users are identified by email.');
    untouched('the account is identified by username and region');
  });
});

describe('the word password in another language (password-forms.ts)', () => {
  it('after a colon, in brackets, after a Korean particle, or after a space when the value is not prose: removed', () => {
    removed('서버 비밀번호: Qm4!zT8rWp', 'Qm4!zT8rWp');
    removed('관리자 비번은 Qm4!zT8rWp 입니다', 'Qm4!zT8rWp');
    removed('DB 패스워드(letmein)', 'letmein');
    removed('비번 Qm4!zT8rWp', 'Qm4!zT8rWp');
    removed('パスワード：hunter22', 'hunter22');
    removed('Passwort: geheim123', 'geheim123');
    removed('mot de passe : Tr0ub4dor&3', 'Tr0ub4dor&3');
    removed('пароль: qwerty123', 'qwerty123');
  });
  it("a word of the note's own script after the label, markup glued to a word, a prose word after a space: stay", () => {
    untouched('비밀번호 변경 방법');
    untouched('비밀번호는 8자 이상');
    untouched('암호 : @@@hl@@@비번@@@endhl@@@');
    untouched('비밀번호 reset');
    untouched('Kennwort ändern');
  });
});

describe('`pw` alone before its value (password-forms.ts BARE)', () => {
  it("PuTTY's `-pw` option and `PW` then a value that is not prose: removed", () => {
    removed('plink -ssh admin@10.0.0.5 -pw Qm4!zT8rWp', 'Qm4!zT8rWp');
    removed('router PW Qm4!zT8rWp', 'Qm4!zT8rWp');
  });
  it('a word of prose after `pw`: stays', () => {
    untouched('the pw field is required');
    untouched('PW reset link sent');
  });
});


describe('an XML element named for its credential, with attributes (xml-element.ts)', () => {
  it('the text of `<password …>` whose opening tag carries attributes, however weak: removed', () => {
    removed('<password name="db" type="text">letmein</password>', 'letmein');
    removed(`<apiKey env="prod">${KEY}</apiKey>`, KEY);
  });
  it('a template or a mask as the text, an element naming something about the credential: stay', () => {
    untouched('<password name="db">${env.DB_PASSWORD}</password>');
    untouched('<password mask="true">********</password>');
    untouched('<token-count unit="k">42</token-count>');
  });
});

describe('a type annotation between a name and its value (assignment.ts)', () => {
  it('`name: Type = "…"` in Kotlin, Scala, Swift or Python: the value after `=` removed', () => {
    removed('val password: String = "Vq7!mR2pLs"', 'Vq7!mR2pLs');
    removed('def connect(passwd: str = "letmein"):', 'letmein');
    removed(`var apiKey: String? = "${KEY}"`, KEY);
  });
  it('a parameter typed with no default, a default that is code or empty, a comparison of types: stay', () => {
    untouched('fun login(password: String, user: String)');
    untouched('def f(password: str = None):');
    untouched('password: String = System.getenv("DB_PASSWORD")');
    untouched('password: String = ""');
  });
});

describe("a credential's name compared with a literal (assignment.ts)", () => {
  it('`if (password === "…")`, `if passwd != \'…\'`: the literal removed, however weak', () => {
    removed('if (password !== "Vq7!mR2pLs") {', 'Vq7!mR2pLs');
    removed("if passwd == 'letmein':", 'letmein');
    removed(`if (user.apiKey === "${KEY}") return true;`, KEY);
  });
  it('a comparison with another name, an empty literal, a template, a name about the credential: stay', () => {
    untouched('if (password === expected) {');
    untouched('if (user.password === "")');
    untouched("if api_key != '${API_KEY}':");
    untouched('if (passwordPolicy == "strict")');
  });
});

describe("a credential's fallback in code (env-default.ts)", () => {
  it('the literal an environment lookup of a credential falls back to, however weak: removed', () => {
    removed('password = os.getenv("DB_PASSWORD", "letmein")', 'letmein');
    removed('PASSWORD = os.environ.get("DB_PASSWORD") or "Vq7!mR2pLs"', 'Vq7!mR2pLs');
    removed('const pw = process.env.DB_PASSWORD || "hunter22";', 'hunter22');
    removed(`const key = process.env["API_KEY"] ?? "${KEY}";`, KEY);
  });
  it('an empty default, a template, a variable naming something else, a path to the credential: stay', () => {
    untouched('x = getenv("DB_PASSWORD", "")');
    untouched('x = getenv("TOKEN", "${TOKEN}")');
    untouched('host = getenv("DB_HOST", "localhost")');
    untouched('path = os.environ.get("PASSWORD_FILE", "/run/secrets/pw")');
    untouched('const pw = process.env.DB_PASSWORD || defaults.password;');
  });
});

describe('precision: what the CredSweeper negatives showed (prose.ts, vendor.ts, context.ts, assignment.ts)', () => {
  it('a negated describing word after `is` (`incorrect`, `insecure`) is prose; a password there is still removed', () => {
    untouched('the password is incorrect');
    untouched('that password is insecure.');
    removed('the password is unicorn', 'unicorn');
    removed('my password is letmein', 'letmein');
  });
  it('a JSON Web Token that says it is an example in its text stays; a real-looking one is removed', () => {
    const header = j('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiJvcHMiLCJleHAiOjE3OTk5OTk5OTl9');
    untouched(`token ${header}.EXAMPLE-SIGNATURE`);
    removed(`token ${header}.kR3m9Qx2Lz7Vw8Nb5Tc1Yh4Jd6Fg0Sa2Pe8Uo3Ii7`, 'kR3m9Qx2Lz7Vw8Nb5Tc1Yh4Jd6Fg0Sa2Pe8Uo3Ii7');
  });
  it('`storage` after the credential word names where it is kept (`Password storage - Confluence`); a labelled password is removed', () => {
    untouched('<title>Password storage - Confluence</title>');
    removed('Password - Vq7!mR2pLs', 'Vq7!mR2pLs');
  });
  it('digits or a hex literal given to a name whose credential word other words follow are that thing\'s number; under the credential\'s own name they are removed', () => {
    untouched('"pass_mask32": "0x31c45018",');
    untouched('"ER_PASSWORD_ANONYMOUS_USER": "1131"');
    removed('"password": "0x31c45018"', '0x31c45018');
    removed('"DB_PASSWORD_PROD": "4821"', '4821');
    removed('DB_PASSWORD: 0xdeadbeef', '0xdeadbeef');
    // Longer hex is key material, not a machine word's number, whatever the name.
    const hexKey = j('0x', '4e9a1c07d2b85f36', 'a0c7e19b3d4f8265', '7b13e0c9a5d2f846', 'c2917fd05e3ab864');
    removed(`DEPLOYER_PRIVATE_KEY=${hexKey}`, hexKey);
  });
});

describe('a URL whose user is an e-mail address (structured.ts URL_PASSWORD)', () => {
  it("a mail server's login as the user, the password after it: removed, the user and host kept", () => {
    const out = redactSecrets('SMTP_URL=smtps://ops@example.com:Vq7mR2pLs9@smtp.example.com:465').text;
    expect(out).toBe('SMTP_URL=smtps://ops@example.com:[REDACTED:url-password]@smtp.example.com:465');
  });
  it('a user and a port with no password, a template as the password: stay', () => {
    untouched('git clone ssh://git@github.com:22/org/repo');
    untouched('https://user@host.example.com:8080/path@x');
    untouched('smtps://ops@example.com:${SMTP_PASSWORD}@smtp.example.com');
  });
});

describe('a quoted bearer token (assignment.ts BEARER)', () => {
  it("curl's `--oauth2-bearer \"…\"` and a quoted token after `Bearer`: removed, the quotes kept", () => {
    removed(`curl --oauth2-bearer "${KEY}" https://api.example.com`, KEY);
    expect(redactSecrets(`Authorization: Bearer "${KEY}"`).text).toBe('Authorization: Bearer "[REDACTED:bearer-token]"');
  });
  it('a word in quotes after bearer, a typed run: stay', () => {
    untouched('the bearer "token" field');
    untouched('use a bearer "abcdefghijklmnopqrstu"');
  });
});

describe('a user and a password under a label naming both (password-forms.ts NAMED_PAIR)', () => {
  it('`ID/PW: user/…`, `id/pw user/…`, `ID / PW : user / …`, `ID/PW user(…)`, `… are user/…`: the password removed, the user kept', () => {
    expect(redactSecrets('ID/PW: admin/Qm4!zT8rWp').text).toBe('ID/PW: admin/[REDACTED:password]');
    expect(redactSecrets('id/pw deploy/letmein').text).toBe('id/pw deploy/[REDACTED:password]');
    removed('NAS ID / PW : backup / hunter22', 'hunter22');
    removed('ID/PW admin(Qm4!zT8rWp)', 'Qm4!zT8rWp');
    removed('id/pw admin // Qm4!zT8rWp', 'Qm4!zT8rWp');
    removed('Default ID/PW are admin/letmein.', 'letmein');
  });
  it('prose after the label, templates for both: stay', () => {
    untouched('ID/PW login page');
    untouched('the id/pw fields are required');
    untouched('ID/PW: ${USER}/${PASS}');
  });
});

describe("a host's login in brackets after it (password-forms.ts HOST_LOGIN_IN_BRACKETS)", () => {
  it('`IP (user/password)`, `user@host (user/password)`, one word between: the password removed, the user kept', () => {
    expect(redactSecrets('db1 10.0.0.5 (admin/Qm4!zT8rWp)').text).toBe('db1 10.0.0.5 (admin/[REDACTED:password])');
    removed('ssh ops@db1.example.com (deploy/Vq7mR2pLs9)', 'Vq7mR2pLs9');
    removed('10.0.0.5:8443 console (root/Qm4!zT8rWp)', 'Qm4!zT8rWp');
  });
  it('words or a path in brackets, brackets after no host; a weak word with no credential word to say so: stay', () => {
    untouched('10.0.0.1 (eu-west/zone-a)');
    untouched('10.0.0.1 (router/AP)');
    untouched('see (docs/README2.md) for the layout');
    untouched('the build (release/Qm4!zT8rWp) failed');
    untouched('10.0.0.5 (admin/letmein)');
  });
});

describe("a bare value ends at its list's next label (assignment.ts nextEntryAt, read by password-forms.ts)", () => {
  it('`PW:…,password:…`, `password:…,비번:…`: each value removed, the labels kept', () => {
    expect(redactSecrets('PW:Qm4!zT8rWp,password:Qm4!zT8rWp').text).toBe('PW:[REDACTED:password],password:[REDACTED:password]');
    expect(redactSecrets('password:letmein,비번:letmein').text).toBe('password:[REDACTED:password],비번:[REDACTED:password]');
  });
  it("a URL query's next `&name=` ends the value: the secret removed, the rest of the query kept; a stand-in naming itself stays", () => {
    expect(redactSecrets('https://id.example.com/cb?client_secret=Qm4zT8rWp1Lk9&code=abc').text).toBe('https://id.example.com/cb?client_secret=[REDACTED:secret]&code=abc');
    removed('jdbc:postgresql://db/app?user=app&password=hunter22&ssl=true', 'hunter22');
    untouched('https://id.example.com/token?app_id=my-client-id&app_secret=my-client-password&code=abc');
  });
  it('punctuation after a bare value and a connection string keep their place', () => {
    expect(redactSecrets('PW: Qm4!zT8rWp.').text).toBe('PW: [REDACTED:password].');
    expect(redactSecrets('Server=db;User ID=app;Password=Qm4zT8rWp1;Encrypt=True').text).toBe('Server=db;User ID=app;Password=[REDACTED:password];Encrypt=True');
  });
});

describe("HTTP's Negotiate and NTLM schemes (assignment.ts AUTHORIZATION)", () => {
  it('the token after `Authorization: NTLM` or `Negotiate`: removed', () => {
    const ntlm = j('TlRMTVNTUAAB', 'AAAAB4IIogAAAAAAAAAAAAAAAAAAAAAGAbEdAAAADw==');
    removed(`Authorization: NTLM ${ntlm}`, ntlm);
    removed(`Authorization: Negotiate ${KEY}`, KEY);
  });
  it('the scheme alone, a template after it: stay', () => {
    untouched('Authorization: NTLM');
    untouched('Authorization: Negotiate <token>');
  });
});

describe('the word password shortened by dropping letters (assignment.ts PASSWORD_SHORTENED, read by context.ts)', () => {
  it('`PSWD=`, `psswd:`, `PSWRD:=`, `pasword:` and prose after `the pswd is`: removed, however weak', () => {
    removed('X3_PSWD=Qm4!zT8rWp', 'Qm4!zT8rWp');
    removed('ftp psswd: letmein', 'letmein');
    removed('PSWRD:=hunter22', 'hunter22');
    removed('pasword: Welcome1', 'Welcome1');
    removed('the pswd is letmein', 'letmein');
  });
  it('a template, a variable naming the file it is read from, words that only hold the letters: stay', () => {
    untouched('DB_PSWD=${DB_PSWD}');
    untouched('PSWD_FILE=/run/secrets/db');
    untouched('the psw module is loaded');
  });
});

/**
 * Issue 40, 2026-12-06 fifth session: classes shown by the linters' hard-coded-credential test suites
 * (dev-linters.json: gosec, bandit, DevSkim, eslint-plugin-no-secrets; dev only; README "Issue 40,
 * 2026-12-06 (fifth session)"). Each class is tested beside a real-looking value in the same place that
 * must still be removed; no test names or copies a sample, the values are written here.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { survives } from '../support/secret-corpus.js';

const untouched = (text: string): void => expect(redactSecrets(text).text).toBe(text);
const removed = (text: string, secret: string): void => expect(survives(redactSecrets(text).text, secret)).toBe(false);

describe('LITERAL_COMPARED_FIRST: a literal compared with a credential, the literal written first (assignment.ts)', () => {
  it('the literal is the credential the code checks for, in either order: removed', () => {
    removed('if "9c1e07a4b2d85f36e0a17c4b9d2e68f0a3c5b71d" == apiToken {', '9c1e07a4b2d85f36e0a17c4b9d2e68f0a3c5b71d');
    removed("if ('Marigold-77' === password) {", 'Marigold-77');
    removed('if "tangerine42" != user.passwd:', 'tangerine42');
    // Beside it, as before: the name first.
    removed('if password == "tangerine42":', 'tangerine42');
  });
  it('a literal compared with a name that holds no credential, or with a template, or an empty one: stays', () => {
    untouched('if "admin" == role {');
    untouched('if "9c1e07a4b2d85f36e0a17c4b9d2e68f0a3c5b71d" == commitSha {');
    untouched('if "${DB_PASSWORD}" == password {');
    untouched("if '' == password:");
    untouched('if "bearer" === tokenType {');
  });
});

describe('VARIABLE_UNDER_ITS_OWN_NAME: code passing a variable under a key spelled as it (assignment.ts)', () => {
  it('a quoted key whose value is the bare variable of the same name: stays', () => {
    untouched('log({"server": server, "password": password, "user": user})');
    untouched("payload = {'api_key': api_key}");
    untouched('const body = { "secret": secret };');
  });
  it('a value beside the same keys that is not the variable, and the weak password `password` unquoted: removed', () => {
    removed('log({"server": server, "password": "Lantern-88", "user": user})', 'Lantern-88');
    removed('payload = {"api_key": "k7Qz2Lm9Xw4Rt8Vb"}', 'k7Qz2Lm9Xw4Rt8Vb');
    // YAML and .env: a value spelled as its key is the weak password issue 40 names.
    expect(redactSecrets('password: password').text).not.toBe('password: password');
    expect(redactSecrets('DB_PASSWORD=password').text).not.toBe('DB_PASSWORD=password');
  });
});

describe('NEGATED_CREDENTIAL_NAME: a name that says its value is not a secret (assignment.ts)', () => {
  it('`NOT_A_SECRET`, `nonSecret`, `NO_PASSWORD_HINT` name no credential: a sentence under them stays', () => {
    untouched('const NOT_A_SECRET = "I am not a secret, I think";');
    untouched('nonSecret: "shown on the login page"');
  });
  it('a generated value under such a name is still removed (by its shape), and a credential named without the negation is', () => {
    removed('const NOT_A_SECRET = "Zq4wX9vLr2Tn8Kp5Ys7Hd3Gf6Jm1Bc0Ae";', 'Zq4wX9vLr2Tn8Kp5Ys7Hd3Gf6Jm1Bc0Ae');
    removed('const MY_SECRET = "I am the secret, 7 lanterns";', 'I am the secret, 7 lanterns');
    removed('const A_SECRET = "Lant3rn#88";', 'Lant3rn#88');
  });
});

describe('TYPE_ANNOTATION: Swift\'s implicitly unwrapped `!` after a type, as `?` (assignment.ts, asked by context.ts)', () => {
  it('the value after the `=` is read, not the type: a password there is removed', () => {
    removed('var password: String! = "Kq7#mz2Lp"', 'Kq7#mz2Lp');
    removed('var dbPassword: String? = "Kq7#mz2Lp"', 'Kq7#mz2Lp');
  });
  it('a UI element typed so, with no value, stays: the type is not the password', () => {
    untouched('var txtFieldPassword: UITextField! = nil');
    untouched('var passwordInput: UITextField? = nil');
  });
});

describe('TRANSLATED_CREDENTIAL_WORD: the word password translated, as a value (names.ts, asked by values.ts)', () => {
  it("a UI string's translation stays, also written with HTML entities", () => {
    untouched('"Password": "Lösenord"');
    untouched('"password": "Contraseña",');
    untouched('"password": "L&#246;senord"');
    untouched('"secret": "&#12497;&#12473;&#12527;&#12540;&#12489;"');
  });
  it('a password that only starts with the word, and the English word as its own value, are removed', () => {
    removed('"Password": "Lösenord2024!"', 'Lösenord2024!');
    removed('"password": "Passwort#77"', 'Passwort#77');
    expect(redactSecrets('password: password').text).not.toBe('password: password');
  });
});

describe("a connection string's next entry after `;` gives its own name the value (context.ts)", () => {
  it('`tokenType=userPassword;user=@user` names a token type, then the user: stays', () => {
    untouched('"connectionString": "Source;tokenType=userPassword;user=@user;password=@password"');
  });
  it('a password entry of the same string is removed', () => {
    removed('"connectionString": "Server=db;userPassword=Kq7#mz2Lp;user=bob"', 'Kq7#mz2Lp');
    removed('Server=db;user=bob;password=Kq7#mz2Lp', 'Kq7#mz2Lp');
  });
});

describe('CHAINED_ASSIGNMENT: a name of a chain where the value goes, the value after the last `=` (assignment.ts, asked by context.ts)', () => {
  it('the literal assigned down the chain is removed, the other name stays', () => {
    expect(redactSecrets('password = cached = "Kq7#mz2Lp"').text).toBe('password = cached = "[REDACTED:password]"');
    removed('d["password"] = cached = "tangerine42"', 'tangerine42');
  });
  it('a chain ending in code stays; a bare password with no spaced `=` after it is still removed', () => {
    untouched('password = cached = os.environ["DB_PASSWORD"]');
    removed('password = tangerine42', 'tangerine42');
    removed('DB_PASSWORD=tang=erine42', 'tang=erine42');
  });
});

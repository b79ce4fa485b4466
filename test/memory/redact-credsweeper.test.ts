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



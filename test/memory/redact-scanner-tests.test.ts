/**
 * Issue 40, fourteenth session: what the scanners' own tests (dev-scanner-tests.json's tuned half:
 * secret-detector's detector tables, GitHub's custom patterns) showed the redaction let through, as
 * rules about what makes a value a secret in general, each with the look-alikes that must stay. No
 * test names a sample of the data: the values here are written for the test.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { removed, untouched } from '../helpers/redaction.js';
import { survives } from '../support/secret-corpus.js';

/** Removed whole: no 12-character piece of the value is left (the scorer's check), not only its first occurrence cut. */
const removedWhole = (text: string, value: string): void => {
  const out = redactSecrets(text).text;
  expect(survives(out, value), out).toBe(false);
};

describe('LATIN_LENGTH (values.ts): a URL\'s password floor is counted in Latin letters', () => {
  it('two or three characters of a script written without spaces are a password in a URL', () => {
    removed('mysql://app:你好@db.internal:3306/app', '你好');
    removed('git clone https://ops:사랑해@git.example.net/team/repo.git', '사랑해');
    removed('postgres://admin:ねこ@10.0.0.5:5432/metrics', 'ねこ');
  });
  it('a user and password in the same script, written alike, loses the password', () => {
    removed('url=https://工作:工作@hello.example.net/', '工作');
  });
  it('stays: three Latin letters (the floor as it was), a single character, no password at all', () => {
    untouched('https://user:abc@example.net/');
    untouched('https://user:猫@example.net/');
    untouched('https://用户@example.net/path');
  });
});

describe('CJK_RUN_OFF_SENTENCE (values.ts): a command line\'s flag is in no sentence, so a word of Chinese, Japanese or Korean there is the value', () => {
  it('curl -u user:…, mysql -p…, redis-cli -a …', () => {
    removed('curl -u admin:你好 https://api.internal/health', '你好');
    removed('mysql -u root -p사랑해 app_db', '사랑해');
    removed('redis-cli -h cache.internal -a 你好吗 ping', '你好吗');
  });
  it('stays: the same words in a sentence after a label, and a -p with nothing glued to it', () => {
    untouched('비밀번호: 관리자에게 문의');
    untouched('password: 관리자에게 문의');
    untouched('mysql -u root -p 비밀번호');
  });
  it('stays: a run after a flag that says what goes there (the word password in its language: "your password", "please enter the password", "admin password", "new password"), or a sentence about the flag', () => {
    untouched('docker login -p 你的密码 registry.example.com');
    untouched('redis-cli -h cache.internal -a 请输入密码 ping');
    untouched('ldapsearch -x -D cn=admin,dc=example,dc=org -w 管理员密码');
    untouched('ssh-keygen -p -N 新密码 -f ~/.ssh/id_ed25519');
    untouched('curl -u admin:你的密码 https://api.internal/health');
    untouched('mysql -u root -pパスワード app_db');
    untouched('使用 mysql -p参数指定密码');
    untouched('redis-cli -a 密码在配置文件里');
    untouched('mysql 的 -p后面直接跟密码，不要有空格');
    untouched('mysql -uroot -p后面不加空格，直接写上。');
  });
});

describe('OUTRUNS_EXAMPLE_COMMENT (values.ts): a comment calling the value an example does not vouch for a generated key', () => {
  it('a random key of 32 characters or more is removed whatever the comment says', () => {
    removedWhole("SECRET_KEY = 'k#8v!q2(zr@m4p^x7w&n0t$e5y%b9c*d1f+g6h' # sample", 'k#8v!q2(zr@m4p^x7w&n0t$e5y%b9c*d1f+g6h');
    removedWhole("SECRET_KEY = 'django-insecure-8f#k2!pq9z@x4m7w(n1v^t6y&c3b0r5e'  # example", '8f#k2!pq9z@x4m7w(n1v^t6y&c3b0r5e');
    removedWhole('session_secret: "(Tq9#vL2!mZ8^xR4&kW7*pN1$bH5%cJ3@f"  // replace with your own', '(Tq9#vL2!mZ8^xR4&kW7*pN1$bH5%cJ3@f');
  });
  it('stays: what a person types as a stand-in, words joined by separators, counting runs, explicit placeholders', () => {
    untouched('  password: "P@ssw0rd"      # Replace with an actual password');
    untouched("SECRET_KEY = 'replace-this-with-a-long-random-string' # example");
    untouched("API_KEY = 'sk_1234567890abcdefghij1234567890ab' # example");
    untouched('token: "your-token-goes-here-replace-with-real-one" # example');
    untouched("SECRET_KEY = 'changeme'  # sample");
  });
  it('stays: words joined by their capitals (camelCase, PascalCase) are words joined, as by separators', () => {
    untouched('db_password = "DevelopmentDatabasePasswordForLocalOnly" # example');
    untouched("DB_PASSWORD = 'LocalDevelopmentOnlyDatabasePassword'  # sample");
    untouched('signing_key: "useAVeryLongRandomStringForProduction"  // replace with your own');
  });
});

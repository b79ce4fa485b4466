/**
 * Issue 40 names command lines among the forms a password is written in (`-p…`, `-a …`,
 * `-u user:…`). These are the commands people paste into ops notes whose password flag or
 * argument the rules did not know (2026-12-06, fifth session): each is removed, while the same
 * program's other options, a prompt (`-p -`, `*`, a bare `-p`), no passphrase (`-N ""`) and the
 * words in a sentence stay. Each case failed on b0a3935.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { removed, untouched } from '../helpers/redaction.js';


describe('issue 40: passwords on the command lines people keep in notes (command-line.ts)', () => {
  it("Oracle's user/password argument (`sqlplus scott/tiger@orcl`, `expdp`, `rman target`, `conn`)", () => {
    removed('sqlplus scott/tiger@orcl', 'tiger');
    removed('sqlplus -s system/Hunter22@//db:1521/XE', 'Hunter22');
    removed('sqlplus "sys/Oracle123 as sysdba"', 'Oracle123');
    removed('expdp system/manager directory=dp dumpfile=full.dmp', 'manager');
    removed('rman target sys/Oracle123@prod', 'Oracle123');
    removed('SQL> conn scott/tiger', 'tiger');
    removed('connect system/manager@xe', 'manager');
    // The user stays: it is what the note is about.
    expect(redactSecrets('sqlplus scott/tiger@orcl').text).toContain('scott/');
  });
  it('what is no Oracle login: OS authentication, a user alone, a slash in a sentence', () => {
    untouched('sqlplus / as sysdba');
    untouched('sqlplus scott@orcl');
    untouched('rman target /');
    untouched('connect frontend/backend services through the gateway');
  });
  it('archive passwords (`unzip -P`, `zip -P`, `7z -p…`, `rar -p…`)', () => {
    removed('unzip -P hunter22 backup.zip', 'hunter22');
    removed('zip -P hunter22 out.zip notes.txt', 'hunter22');
    removed('7z x -phunter22 backup.7z', 'hunter22');
    removed('rar a -pS3cret99 out.rar dir', 'S3cret99');
    untouched('unzip -o backup.zip -d out');
    untouched('7z a -p archive.7z files');
  });
  it("ssh-keygen's passphrases (`-N`, `-P`), not an empty one", () => {
    removed('ssh-keygen -t ed25519 -N hunter22 -f deploy_key', 'hunter22');
    removed('ssh-keygen -p -P oldpass1 -N newpass2 -f key', 'oldpass1');
    removed('ssh-keygen -p -P oldpass1 -N newpass2 -f key', 'newpass2');
    untouched('ssh-keygen -t ed25519 -N "" -f key');
  });
  it('remote desktops and Windows tools (`rdesktop -p`, `xfreerdp /p:`, `cmdkey /pass:`, `psexec -p`, `net user`)', () => {
    removed('rdesktop -u bob -p hunter22 host', 'hunter22');
    removed('xfreerdp /u:bob /p:hunter22 /v:host', 'hunter22');
    removed('cmdkey /add:server /user:bob /pass:hunter22', 'hunter22');
    removed('psexec \\\\host -u admin -p hunter22 cmd', 'hunter22');
    removed('net user bob Hunter22! /add', 'Hunter22!');
    untouched('rdesktop -u bob -p - host');
    untouched('net user bob * /add');
    untouched('the net user count rose sharply');
  });
  it('brokers, BMCs and database shells (`rabbitmqctl add_user`, `ipmitool -P`, `mosquitto_pub -P`, `cqlsh -p`, `neo4j-admin`, `mysqladmin password`)', () => {
    removed('rabbitmqctl add_user app hunter22', 'hunter22');
    removed('Run `rabbitmqctl change_password app hunter22` on the broker', 'hunter22');
    removed('ipmitool -I lanplus -H 10.0.0.9 -U ADMIN -P ADMIN power status', '-P ADMIN');
    removed('mosquitto_pub -u bob -P hunter22 -t x -m y', 'hunter22');
    removed('cqlsh -u cassandra -p cassandra', '-p cassandra');
    removed('neo4j-admin dbms set-initial-password hunter22', 'hunter22');
    removed('mysqladmin -u root password newpass22', 'newpass22');
    untouched('rabbitmqctl add_user then set its permissions');
  });
  it('Azure, lftp, Wi-Fi and OpenSSL (`az login -p`, `lftp -u user,pw`, `wpa_passphrase`, `openssl enc -k`, `-passphrase`)', () => {
    removed('az login -u bob@example.com -p Hunter2024!', 'Hunter2024!');
    removed('lftp -u bob,hunter22 ftp.example.com', 'hunter22');
    removed('wpa_passphrase HomeNet hunter22', 'hunter22');
    removed('openssl enc -aes256 -k hunter22 -in a -out b', 'hunter22');
    removed('hdiutil attach -passphrase hunter22 x.dmg', 'hunter22');
    // `-p` elsewhere in the Azure CLI is `--parameters`; `lftp -u user` prompts.
    untouched('az deployment group create -g rg -p @params.json');
    untouched('lftp -u bob ftp.example.com');
    untouched('openssl genrsa -out key.pem 2048');
    untouched('docker run -p 8080:80 nginx');
  });
});

describe('the new command-line and password-form rules in linear time on lines made to be slow', () => {
  it.each([
    ['a command name, then a long run of spaces', `net user${' '.repeat(500_000)}x`],
    // Quadratic before this session (USER_THEN_PASSWORD's two ways to split the spaces after `user`): 2.4 s at 40,000 spaces.
    ['user, then a long run of spaces', `user${' '.repeat(500_000)}x`],
    ['many options before no argument', `rabbitmqctl add_user ${'-x y '.repeat(100_000)}`],
    ['a password word, a comma and a long run of spaces', `the password,${' '.repeat(500_000)}x,`],
    ['a long run of spaces before the words that name a password', `${' '.repeat(500_000)}is the password`],
    ['an Oracle tool and a long user name with no slash', `sqlplus ${'a'.repeat(500_000)}`],
    ['a directive after a long indentation', `${' '.repeat(500_000)}requirepass`],
    ['a seed label, then many groups of four', `2FA seed: ${'abcd '.repeat(200_000)}`],
  ])('%s', (_name, input) => {
    const started = performance.now();
    redactSecrets(input);
    // Generous for a loaded machine; a quadratic pass takes minutes here.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

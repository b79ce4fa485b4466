/**
 * Issue 40: in a person's own note, a value given as a password, passphrase, PIN or secret next to
 * its word is a secret however weak or common. One test per form the issue names, each with the
 * issue's own examples; then what stays: explicit placeholders only, and notes that talk about
 * passwords without holding one. The measured figures are the bench's (weak-password set,
 * test/support/weak-passwords.ts); these tests pin the forms.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { removed, untouched } from '../helpers/redaction.js';
import { passwordTalkNotes, weakPasswordNotes, weakPasswordSurvives } from '../support/weak-passwords.js';


describe('issue 40: a weak or common password in a person\'s note is removed, in every form', () => {
  it('prose ("The staging database password is letmein", "the wifi password is sunshine")', () => {
    removed('The staging database password is letmein', 'letmein');
    removed('FYI the password for the router is dragon', 'dragon');
    removed('Reset the NAS password; it was monkey before.', 'monkey');
    removed('Password for Grafana is still football, need to change it.', 'football');
  });
  it('prose with a colon or a dash (`Password for the NAS: 123456`, `pw for RabbitMQ - admin123`)', () => {
    removed('Password for the NAS: 123456', '123456');
    removed('pw for RabbitMQ - admin123', 'admin123');
    removed('staging database password: iloveyou', 'iloveyou');
  });
  it('a list', () => {
    removed('## Jenkins\n\n- url: http://localhost:8080\n- user: admin\n- password: qwerty123\n- owner: me', 'qwerty123');
    removed('- pwd: batman', 'batman');
  });
  it('.env (`DB_PASSWORD=admin123`)', () => {
    removed('```\nNODE_ENV=development\nDB_PASSWORD=admin123\n```', 'admin123');
    removed('ADMIN_PASS=121212', '121212');
    removed('POSTGRES_PASSWORD=postgres', 'postgres');
  });
  it('YAML (`password: Welcome1`)', () => {
    removed('```yaml\ndb:\n  user: app\n  password: Welcome1\n```', 'Welcome1');
    removed('environment:\n  MYSQL_ROOT_PASSWORD: root', 'root');
  });
  it('JSON and TOML', () => {
    removed('{\n  "user": "admin",\n  "password": "changeme",\n  "port": 5432\n}', 'changeme');
    removed('{ "pass": "sunshine" }', 'sunshine');
    removed('[database]\npassword = "password"', '"password"');
  });
  it('a table: the row under a password column holding `123456`', () => {
    removed('| service | user | password |\n|---|---|---|\n| staging db | app | 123456 |\n| wiki | me | SSO |', '123456');
  });
  it('a URL (`postgres://app:changeme@localhost`), also when the password repeats the user', () => {
    removed('postgres://app:changeme@localhost:5432/app', 'changeme');
    removed('mysql://root:root@127.0.0.1:3306/shop', 'root@');
  });
  it('command lines: `mysql -u root -proot`, `redis-cli -a …`, `curl -u user:…`, `docker login -p`, `sshpass -p`', () => {
    removed('mysql -u root -proot app', '-proot');
    removed('redis-cli -h localhost -a foobared ping', 'foobared');
    removed('curl -u admin:admin http://localhost:8080/api', 'admin:admin');
    removed('docker login -u ci -p password registry.local:5000', '-p password');
    removed('sshpass -p raspberry ssh pi@10.0.0.12', 'raspberry');
  });
  it('`user / password` pairs', () => {
    removed('Grafana login: admin / admin', 'admin / admin');
    removed('user / password: root / toor', 'toor');
    removed('Creds for the NAS: dev / 654321', '654321');
  });
  it('a PIN, a passphrase and a secret named as such', () => {
    removed('The door PIN is 1234.', '1234');
    removed('Yubikey PIN: 123456', '123456');
    removed('ssh passphrase: trustno1', 'trustno1');
    removed('```\nJWT_SECRET=changeme\n```', 'changeme');
    removed('The webhook secret is starwars on staging.', 'starwars');
  });
  it('a label on its own line, the password on the next', () => {
    removed('Jenkins admin\n\nPassword:\ndemo\n', 'demo');
  });
});

describe('issue 40: only explicit placeholders stay', () => {
  it('templates: `<…>`, `${…}`, `{{…}}`, `$VAR`', () => {
    untouched('password: <your-password>');
    untouched('mysql -u root -p<password> app');
    untouched('DB_PASSWORD=${DB_PASSWORD}');
    untouched('password: "{{ vault_db_password }}"');
    untouched('redis-cli -a $REDIS_PASSWORD ping');
    untouched('postgres://app:${PGPASSWORD}@localhost:5432/app');
  });
  it('masks: `***`, `xxxx`, `••••`', () => {
    untouched('password: ********');
    untouched('DB_PASSWORD=xxxx');
    untouched('postgres://app:****@localhost:5432/app');
    untouched('- password: ••••••••');
  });
  it('references to a vault or a secret manager', () => {
    untouched('password: op://Infra/staging-db/password');
    untouched('password: vault:secret/data/db#password');
    untouched('DB_PASSWORD comes from AWS Secrets Manager (prod/db/password).');
    untouched('The password is stored in 1Password, in the Infra vault.');
  });
  it('words that say they are examples: placeholder, example, your-password, redacted', () => {
    untouched('password: placeholder');
    untouched('"password": "example"');
    untouched('DB_PASSWORD=your-password');
    untouched('POSTGRES_PASSWORD=your_password_here');
    untouched('password: [REDACTED]');
  });
  it('talk about passwords without one: policies, resets, prompts, code', () => {
    untouched('Password must be at least 12 characters and contain a digit.');
    untouched('password: reset it via the admin panel');
    untouched('The password was rotated yesterday.');
    untouched('The PIN is printed on the back of the device.');
    untouched('mysql -u root -p app   # prompts for the password');
    untouched('const password = process.env.DB_PASSWORD;');
    untouched('I forgot my password again and had to reset it.');
  });
});

describe('issue 40: more ways people write a password down', () => {
  it('a pass phrase of several words after a label naming one, and a wallet seed phrase (password-forms.ts PASS_PHRASE)', () => {
    removed('Bitwarden master password: correct horse battery staple', 'horse battery staple');
    removed('GPG passphrase: purple monkey dishwasher', 'purple monkey dishwasher');
    removed('passphrase is correct horse battery staple', 'horse battery staple');
    removed('password: correct horse battery staple', 'horse battery staple');
    removed('seed phrase: abandon ability able about above absent absorb abstract absurd abuse access accident', 'absorb abstract absurd');
  });
  it('a sentence about the pass phrase stays (a word of grammar in it, or a later word of prose after `password`)', () => {
    untouched('passphrase: not set');
    untouched('master password: kept in the safe');
    untouched('seed phrase: written on paper in the safe at home');
    untouched('passphrase: see vault entry');
    untouched('mnemonic: twelve words on paper');
    untouched('The passphrase is required for the key');
  });
  it('a user, then a password after its own word (`login admin pass hunter22`, `user ops, password letmein`)', () => {
    removed('login admin pass hunter22', 'hunter22');
    removed('user admin pw admin', 'pw admin');
    removed('user ops, password letmein', 'letmein');
    removed('Login with user admin pass admin123 on the NAS', 'admin123');
  });
  it('words about the password after a user stay, and so does an SQL account; a .netrc entry is NETRC\'s', () => {
    untouched('login page password reset');
    untouched('user admin password required');
    untouched('the user profile password field');
    untouched('user root password <your-password>');
    untouched("ALTER USER 'app'@'%' PASSWORD EXPIRE INTERVAL 90 DAY;");
    // .netrc's entry is read by NETRC (command-line.ts), with its own tag.
    expect(redactSecrets('machine example.com login ops password hunter22').text).toBe('machine example.com login ops password [REDACTED:netrc-password]');
  });
  it('a label saying what the password is for, then a spaced `=` (`Password for staging = hunter22`)', () => {
    removed('Password for staging = hunter22', 'hunter22');
    removed('Password for the NAS = 123456', '123456');
    untouched('aws cognito-idp admin-set-user-mfa-preference --software-token-mfa-settings Enabled=true');
  });
  it("command lines: `htpasswd -b`, a literal piped into `sudo -S` or `chpasswd`", () => {
    removed('htpasswd -b .htpasswd admin hunter22', 'hunter22');
    removed('htpasswd -nb admin hunter22', 'hunter22');
    removed('echo hunter22 | sudo -S apt update', 'hunter22');
    removed('echo "ops:hunter22" | chpasswd', 'hunter22');
    untouched('htpasswd -c .htpasswd admin');
    untouched('echo $PASS | sudo -S true');
    untouched('echo hello | sudo tee /etc/motd');
  });
  it('a word and a number after the word with only a space, where the clause ends (`wifi password bluebird77`)', () => {
    removed('wifi password bluebird77', 'bluebird77');
    removed('root pw hunter22 for the NAS', 'hunter22');
    untouched('the password ubuntu2204 image');
    untouched('password rotation90 days');
    untouched('password sha256 hash');
  });
  it('the same value in quotes after the word with only a space: the quotes do not hide its shape (password-forms.ts QUOTES_KEEP_SHAPE)', () => {
    removed('SSH into prod with password "letmein99"', 'letmein99');
    removed("root pw 'hunter22' for the NAS", 'hunter22');
    removed('Zoom passcode "882211".', '882211');
    removed('password `changeme`', 'changeme');
    // What stays unquoted stays quoted: a name in a sentence, a word of the interface.
    untouched('the password "ubuntu2204" image');
    untouched('Click the password "Show" button');
    untouched('the password "reset" link is broken');
  });
  it("a Wi-Fi network's pre-shared key (`psk`), as wpa_supplicant.conf and people write it", () => {
    removed('wpa_psk="bluebird77"', 'bluebird77');
    removed('psk=bluebird77', 'bluebird77');
    removed('Wifi PSK: bluebird77', 'bluebird77');
    untouched('PSK: enabled');
    untouched('psk: ${WIFI_PSK}');
    removed('The psk is bluebird77', 'bluebird77');
    removed('network key: bluebird77', 'bluebird77');
    removed('wifi key is bluebird77', 'bluebird77');
    removed('WIFI_KEY=bluebird77', 'bluebird77');
    untouched('the psk is stored in the router config');
  });
  it('a number alone after the word, where the clause ends (`password 123456`, `Zoom passcode 882211`)', () => {
    removed('password 123456', '123456');
    removed('Zoom passcode 882211', '882211');
    removed('iCloud pw sunshine1', 'sunshine1');
    removed('passcode 882211 for the meeting', '882211');
    untouched('Password 2024 rotation is due');
    untouched('reset password 3 times');
  });
  it('a common word password after the word with only a space, where the clause ends (`password raspberry`, `wifi password sunshine`)', () => {
    removed('pi password raspberry', 'raspberry');
    removed('wifi password sunshine', 'sunshine');
    removed('NAS admin password letmein.', 'letmein');
    removed('old router pw dragon, new one in the vault', 'dragon');
    untouched('password required');
    untouched('no password needed.');
    untouched('password manager');
    untouched('Use the password manager for the shared vault.');
    untouched('password policy: 12 characters');
    untouched('password master list lives in 1Password');
    untouched('the password dragon slayer quest');
  });
  it('a login split by a slash alone: a shipped account (`admin/admin`, `Jenkins: admin / jenkins123`), or after a login label', () => {
    removed('admin/admin', 'admin');
    removed('root/root on the switch', '/root');
    removed('Jenkins: admin / jenkins123', 'jenkins123');
    removed('Default login admin/admin', '/admin');
    removed('creds deploy/Deploy2024 for the router', 'Deploy2024');
    removed('login admin/admin123', 'admin123');
    removed('Netflix: me@example.com / hunter22', 'hunter22');
  });
  it('a login split by a colon: the password repeating the user (`Grafana admin:admin`), or after a login label (`NAS login admin:changeme`)', () => {
    removed('Grafana admin:admin', 'admin:admin');
    removed('Use root:root to log in', 'root:root');
    removed('NAS login admin:changeme', 'changeme');
    removed('creds deploy:Deploy2024', 'Deploy2024');
  });
  it("a colon pair that is an image's tag, a scope, an /etc/passwd line or a time stays", () => {
    untouched('postgres:16-alpine');
    untouched('image: postgres:15');
    untouched('ubuntu:22.04');
    untouched('root:x:0:0:root:/root:/bin/bash');
    untouched('GitHub token scopes admin:org, admin:repo_hook');
    untouched('admin:public_key');
    untouched('login admin:read scope');
    untouched('Time: 10:30');
  });
  it("the answer to an account's security question (`security answer: fluffy`, `SECURITY_ANSWER=…`)", () => {
    removed('security answer: fluffy', 'fluffy');
    removed('Okta recovery answer: fluffy', 'fluffy');
    removed('security question answer is fluffy', 'fluffy');
    removed('SECURITY_ANSWER=fluffy', 'fluffy');
    untouched('the answer is 42');
    untouched('answer: yes');
    untouched('security answers are hashed');
    untouched('security answer: see 1Password');
  });
  it('a login table whose password column is headed `Pass` or `PW` beside a user column', () => {
    removed('| Service | User | Pass |\n|---|---|---|\n| Grafana | admin | admin |\n| NAS | root | hunter2 |', 'hunter2');
    removed('| Host | Login | PW |\n|---|---|---|\n| nas | admin | letmein |', 'letmein');
    untouched('| Suite | Pass | Fail |\n|---|---|---|\n| unit | 2417 | 0 |');
  });
  it('a slash pair that is a path, a list or roles stays', () => {
    untouched('the admin/user split');
    untouched('read/write access to the bucket');
    untouched('admin/editor roles');
    untouched('credentials: read/write');
    untouched('login: SSO/SAML');
    untouched('open admin/index.html');
    untouched('GET /admin/admin/users');
    untouched('see admin/api/v2 for the routes');
    untouched('src/test/test_utils.py');
    untouched('config.vm.box = "ubuntu/jammy64"');
    untouched('Jenkins ran admin / v2 migration');
    untouched('mail alice@example.com / bob@example.com about it');
  });
});

describe('issue 40: codes that open something (access-codes.ts)', () => {
  it("a door's, gate's or alarm's code and a safe's combination, after the thing or after `for the …`", () => {
    removed('The code for the alarm is 4821', '4821');
    removed('alarm code 4821', '4821');
    removed('door code: 1234', '1234');
    removed('gate code is #4821', '4821');
    removed('garage keypad code 7734', '7734');
    removed('the lockbox combination is 12-34-56', '12-34-56');
    removed('safe combo 24-11-07', '24-11-07');
    removed('combination to the safe: 12-34-56', '12-34-56');
  });
  it('a number or a letter and a number between the thing and its word (`Locker 14 combo 3-22-17`, `Gate B2 code 4821`)', () => {
    removed('Locker 14 combo 3-22-17', '3-22-17');
    removed('Gate B2 code: 4821', '4821');
    removed('storage unit #118 code 5521', '5521');
    removed('door 3 keypad code 7734', '7734');
    removed('the code for locker 14 is 1234', '1234');
    untouched('pin 14 code 1234 bytes');
    untouched('Locker 14 combo changed last week');
    untouched('the 2 door code paths were merged');
  });
  it("a card's or a phone's PIN without `is` (`SIM PIN 0000`, `my bank pin 4321`)", () => {
    removed('SIM PIN 0000', '0000');
    removed('my bank pin 4321', '4321');
  });
  it('recovery and backup codes, on the line or listed under their label, and a recovery key', () => {
    removed('GitHub recovery codes: 3f9a2-bc71e 8d1e4-77a0c', '3f9a2-bc71e');
    removed('GitHub recovery codes: 3f9a2-bc71e 8d1e4-77a0c', '8d1e4-77a0c');
    removed('backup codes: 1234 5678 9012 3456', '9012');
    removed('2FA backup code 84721953', '84721953');
    removed('recovery key: RK-4829-1937-2281', 'RK-4829-1937-2281');
    removed('Duo bypass code 123456789', '123456789');
    removed('Slack 2FA backup codes\n  1. 7391-0284\n  2. 5519-3362\n', '5519-3362');
    const listed = 'Google backup codes:\n- 8472 1953\n- 5521 0984\n\nStored offline too.';
    removed(listed, '5521 0984');
    expect(redactSecrets(listed).text).toContain('Stored offline too.');
  });
  it('codes that open nothing stay: exit, status, area and zip codes, a GPIO pin, a building code, a promo code, a code with no digits', () => {
    untouched('exit code 1');
    untouched('the status code 404 means not found');
    untouched('area code 415');
    untouched('zip code 94107');
    untouched('GPIO pin 13 drives the LED');
    untouched('the 2021 building code applies');
    untouched('use code SAVE20 at checkout');
    untouched('the door code changed last week');
    untouched('lock code 2048 bytes long');
    untouched('Release the lock code 1234 for the mutex');
    untouched('recovery codes are stored in 1Password');
    untouched('backup codes v2 rollout');
    untouched('backup codes\nare in the safe');
  });
});

describe('issue 40: a note written in another language (password-forms.ts)', () => {
  it('"the password for … is …" in German, French, Spanish, Portuguese, Italian, Dutch, Swedish, Norwegian, Polish, Finnish, Czech: removed', () => {
    removed('Das Passwort für den Staging-Server ist sommer2024', 'sommer2024');
    removed('Le mot de passe du wifi est soleil42', 'soleil42');
    removed('La contraseña de la base de datos es perro123', 'perro123');
    removed('A senha do banco é brasil2023', 'brasil2023');
    removed('La password del server è ciao1234', 'ciao1234');
    removed('Het wachtwoord van de NAS is fiets123', 'fiets123');
    removed('Lösenordet till routern är sommar2023', 'sommar2023');
    removed('Passordet er hemmelig1', 'hemmelig1');
    removed('Hasło do serwera to kotek123', 'kotek123');
    removed('Salasana on kissa123', 'kissa123');
    removed('Heslo k serveru je Praha2024', 'Praha2024');
    removed("Das Passwort ist 'Sonnenschein'", 'Sonnenschein');
    removed('Das Passwort ist 4821.', '4821');
  });
  it('the word after a colon in Dutch, Swedish, Polish, Finnish, Hungarian: removed', () => {
    removed('wachtwoord: fiets123', 'fiets123');
    removed('lösenord: sommar2023', 'sommar2023');
    removed('hasło: kotek123', 'kotek123');
    removed('salasana: kissa123', 'kissa123');
    removed('jelszó: macska12', 'macska12');
  });
  it("a word of the sentence after the language's \"is\", a template, a mask, a vault, a length: stay", () => {
    untouched('Das Passwort ist abgelaufen');
    untouched('Das Passwort ist 8 Zeichen lang');
    untouched('Das Passwort für den Server ist in 1Password');
    untouched('Das Passwort ist ${DB_PASSWORD}');
    untouched('Das Passwort ist 2FA-geschützt');
    untouched('Le mot de passe est stocké dans Vault');
    untouched('La contraseña es ********');
    untouched('A senha é obrigatória');
    untouched('La password è scaduta');
    untouched('Het wachtwoord is 12 tekens');
    untouched('The password era of computing is ending');
    untouched('Passwort-Richtlinie ist streng');
  });
});

describe('issue 40: a password named after it is given, a shorthand label, a quoted phrase (2026-12-06, fifth session)', () => {
  it('the value first, then what it is (`hunter22 is the staging password`, `4821 is the PIN`), and between commas after the word', () => {
    removed('hunter22 is the password for staging', 'hunter22');
    removed('hunter22 is the password.', 'hunter22');
    removed('`Tr0ub4dor&3` was my old pw', 'Tr0ub4dor&3');
    removed('"sunshine" is the password', 'sunshine');
    removed('4821 is the PIN for the alarm', '4821');
    removed('the password, hunter22, works on both', 'hunter22');
  });
  it('what stays: a word of the sentence first, a name the words go on from, a number that is no PIN, a list of names', () => {
    untouched('This is the password policy');
    untouched('Below is the password');
    untouched('1Password is the password manager we use');
    untouched('v2.3 is the password reset release');
    untouched('Argon2id is the password hash.');
    untouched('Step 2 is the password reset');
    untouched('2024 is the password rotation year');
    untouched('the password, however, is rotated');
    untouched('function token(password, scramble1, scramble2) {');
  });
  it('the shorthands people write the word in (`p/w: …`, `pword: …`, `pass word: …`)', () => {
    removed('p/w: hunter22', 'hunter22');
    removed('NAS pword: letmein', 'letmein');
    removed('pass word = hunter22', 'hunter22');
    untouched('p/w: see the vault');
  });
  it("an alarm's codes by their role, a thing's keypad, devices' shipped logins, a VPN's psk after its user", () => {
    removed('Alarm panel master code 4821', '4821');
    removed('alarm installer code: 5555', '5555');
    removed('Garage keypad: 7731#', '7731');
    removed('Telnet to switch: cisco/cisco', 'cisco/cisco');
    removed('UniFi AP: ubnt/ubnt', 'ubnt/ubnt');
    removed('VPN: user bob, psk Vpn2024x', 'Vpn2024x');
    untouched('the keypad layout 1234 is odd');
    untouched('user code review is done');
    untouched('the psk rotation is monthly');
    untouched('github.com/cisco/cisco-ios');
  });
  it("a second factor's seed kept for a lost phone (`2FA seed: …`, Google's `setup key` in groups of four)", () => {
    removed('2FA seed: KZXW6YTBOI4DEMZQGA3TQNRV', 'KZXW6YTBOI4DEMZQGA3TQNRV');
    removed('authenticator setup key kzxw 6ytb oi4d emzq', 'kzxw 6ytb oi4d emzq');
    removed('Google Authenticator key: kzxw 6ytb oi4d emzq 4ba3 twq7', '6ytb oi4d');
    untouched('setup key this time will be sent');
    untouched('the 2FA seed is stored in 1Password');
    untouched('OTP secret ABCDEFGHIJKLMNOPQRST');
  });
  it('a pass phrase in quotes after the word (`The password is "correct horse battery staple"`)', () => {
    removed('The password is "correct horse battery staple"', 'correct horse battery staple');
    removed('The password is “purple monkey dishwasher”.', 'purple monkey dishwasher');
    removed("password: 'tall green tree'", 'tall green tree');
    untouched('The password is "not set yet"');
  });
});

describe('issue 40: the last character of a password, and labels in other languages (2026-12-06, sixth session)', () => {
  // A `!` left outside the tag told a reader how the password ends (`[REDACTED:password]!` of `Summer2024!`).
  const gone = (text: string, password: string): void => {
    const out = redactSecrets(text).text;
    expect(out, out).not.toContain(password);
    expect(out, out).not.toMatch(/\]!/);
  };
  it("a `!` glued to a password is redacted with it, in every form (values.ts restAfterChosenSecret)", () => {
    gone('The wifi password was changed to Summer2024!', 'Summer2024');
    gone('The password is Vpn2024!', 'Vpn2024');
    gone('Use password Welcome1! for the VPN', 'Welcome1');
    gone('password hunter22!', 'hunter22');
    gone('VPN psk Vpn2024!', 'Vpn2024');
    gone('Passwort: sommer2024!', 'sommer2024');
  });
  it('a placeholder with a `!` after it still stays, and a token keeps the sentence\'s `!` outside', () => {
    untouched('The password is example!');
    untouched('The password is <your-password>!');
    // A generated token holds no `!`: the one after it is the sentence's.
    expect(redactSecrets('The API token was rotated to Xk9fP2mQ7vL3wR8t!').text).toBe('The API token was rotated to [REDACTED:token]!');
  });
  it('a capitalised word and a number after the word with only a space, where the clause ends (`password Vpn2024!`, `psk Abc123`)', () => {
    removed('password Vpn2024!', 'Vpn2024');
    removed('VPN psk Vpn2024', 'Vpn2024');
    removed('router password Abc123', 'Abc123');
    untouched('the password Reset22 flow');
    untouched('Password reset22 done');
  });
  it('a label saying what the password is for, in another language, then a colon or a dash (`Passwort für den Router: …`, `Пароль от роутера — …`)', () => {
    removed('Passwort für den Router: sommer2024', 'sommer2024');
    removed('Mot de passe du routeur : soleil123', 'soleil123');
    removed('Contraseña del router: verano2024', 'verano2024');
    removed('пароль от вайфая: leto2024', 'leto2024');
    removed('Пароль от роутера — qwerty123', 'qwerty123');
    removed('Пароль — secret12', 'secret12');
    removed('Senha do wifi: "casa nova"', 'casa nova');
  });
  it('the word after a colon in more languages: Turkish, Romanian, Vietnamese, Indonesian, Greek, Hebrew, Arabic, Hindi, Croatian, Slovenian, Danish', () => {
    removed('Şifre: ankara06', 'ankara06');
    removed('Wifi şifresi: ankara06', 'ankara06');
    removed('Parola: bucuresti1', 'bucuresti1');
    removed('Mật khẩu: hanoi2024', 'hanoi2024');
    removed('Kata sandi: jakarta99', 'jakarta99');
    removed('Κωδικός πρόσβασης: athina2024', 'athina2024');
    removed('סיסמה: shalom123', 'shalom123');
    removed('كلمة المرور: cairo2024', 'cairo2024');
    removed('पासवर्ड: delhi2024', 'delhi2024');
    removed('Lozinka: zagreb12', 'zagreb12');
    removed('geslo: ljubljana1', 'ljubljana1');
    removed('Kodeord: hygge2024', 'hygge2024');
  });
  it("Japanese and Chinese: the word's glued \"is\" (`パスワードは…`, `密码是…`), a value that ends where their script starts again, the word after a Latin one (`Wi-Fi密码`)", () => {
    removed('パスワードは hunter22 です', 'hunter22');
    removed('パスワードはhunter22です', 'hunter22');
    removed('密码是 hunter22', 'hunter22');
    removed('密码是hunter22', 'hunter22');
    removed('Wi-Fi密码：hunter22', 'hunter22');
    removed('wifi 密码 hunter22', 'hunter22');
    untouched('パスワードが必要です');
    untouched('密码 2024 年更新');
    // A particle of another language's row is not read: は after a Korean word.
    untouched('비번は hunter22');
  });
  it('"the password for … is …" in Romanian, Vietnamese, Indonesian, Greek, Croatian, Slovenian, Danish, Hebrew, Arabic, Estonian, Lithuanian, Icelandic, Catalan', () => {
    removed('Parola wifi-ului este bucuresti1', 'bucuresti1');
    removed('Mật khẩu wifi là hanoi2024', 'hanoi2024');
    removed('Kata sandi wifi adalah jakarta99', 'jakarta99');
    removed('Ο κωδικός πρόσβασης του router είναι athina2024', 'athina2024');
    removed('Lozinka za server je zagreb12', 'zagreb12');
    removed('Geslo je ljubljana1', 'ljubljana1');
    removed('Kodeordet er hygge2024', 'hygge2024');
    removed('הסיסמה היא shalom123', 'shalom123');
    removed('كلمة المرور هي cairo2024', 'cairo2024');
    removed('Parool on tallinn1', 'tallinn1');
    removed('Slaptažodis yra vilnius1', 'vilnius1');
    removed('Lykilorðið er reykjavik1', 'reykjavik1');
    removed('La contrasenya és barcelona1', 'barcelona1');
  });
  it("a word of the sentence after those languages' \"is\" stays", () => {
    untouched('Parola este obligatorie');
    untouched('Mật khẩu là bắt buộc');
    untouched('Kata sandi adalah rahasia');
    untouched('Geslo je 8 znakov');
    untouched('La parola è bella');
  });
  it('a label in another language followed by words of a sentence stays', () => {
    untouched('Passwort vergessen: siehe Wiki');
    untouched('Mot de passe oublié : voir le wiki');
    untouched('Passwort-Richtlinie: mindestens 12 Zeichen');
    untouched('Contraseña del router: en el gestor');
    untouched('Пароль от роутера — в менеджере паролей');
  });
});

describe('issue 40: a password written in another script, next to the word in that language (2026-12-06, seventh session)', () => {
  it("a word of the note's script and a number after a colon, `=` or a label of what it is for (`Пароль: лето2024`, `Κωδικός: καλοκαίρι2024`)", () => {
    removed('Пароль: лето2024', 'лето2024');
    removed('пароль = лето2024', 'лето2024');
    removed('ПАРОЛЬ=лето2024', 'лето2024');
    removed('  пароль: лето2024\n  логин: admin', 'лето2024');
    removed('Пароль — лето2024', 'лето2024');
    removed('пароль от wifi — лето2024', 'лето2024');
    removed('Пароль от роутера: Солнце2024!', 'Солнце2024');
    removed('Κωδικός: καλοκαίρι2024', 'καλοκαίρι2024');
    removed('סיסמה: קיץ2024', 'קיץ2024');
    removed('كلمة المرور: صيف2024', 'صيف2024');
    // Digits as the script writes them: Arabic-Indic, full-width.
    removed('كلمة المرور: صيف٢٠٢٤', 'صيف٢٠٢٤');
    removed('パスワード：なつ２０２４', 'なつ２０２４');
    removed('पासवर्ड: गर्मी2024', 'गर्मी2024');
    removed('รหัสผ่าน: ฤดูร้อน2024', 'ฤดูร้อน2024');
    removed('비밀번호: 여름2024', '여름2024');
    removed('пароль солнце77', 'солнце77');
    // Languages that put the verb last go on after the value (Hindi's `है`, Korean's `입니다`).
    removed('पासवर्ड गर्मी2024 है', 'गर्मी2024');
    removed('비밀번호 여름2024 입니다', '여름2024');
  });
  it("the same after the language's \"is\", glued (`パスワードは…`, `密码是…`) or a word of its own (`είναι`, `היא`)", () => {
    removed('パスワード：なつ2024', 'なつ2024');
    removed('パスワードはなつ2024です', 'なつ2024');
    removed('密码：夏天2024', '夏天2024');
    removed('Wi-Fi密码是夏天2024。', '夏天2024');
    removed('비번은 여름2024', '여름2024');
    removed('Ο κωδικός του router είναι καλοκαίρι2024', 'καλοκαίρι2024');
    removed('הסיסמה היא קיץ2024', 'קיץ2024');
    untouched('Пароль был изменён в 2024');
  });
  it('a word the person chose, given as the password: in quotes (the language\'s own too) or assigned with `=` and nothing around it', () => {
    removed('Пароль: «солнышко»', 'солнышко');
    removed('Passwort: „Sonnenschein“', 'Sonnenschein');
    removed('パスワード：「なつ2024」', 'なつ2024');
    removed('пароль = "солнышко"', 'солнышко');
    removed('пароль=солнышко', 'солнышко');
  });
  it('prose about the password in those languages, placeholders, counts and dates stay', () => {
    untouched('Пароль: смотри в Vault');
    untouched('Пароль: см. менеджер паролей');
    untouched('Пароль забыт, сбросить через портал');
    untouched('Пароль: <пароль>');
    untouched('Пароль: ${PASSWORD}');
    untouched('Пароль: нет');
    untouched('Пароль: 8 символов');
    untouched('Пароль: минимум12символов');
    untouched('пароль: 2FA-защищён');
    untouched('Пароль сменён 2024-01-15');
    untouched('Пароль от роутера — у админа');
    untouched('Пароль: «смотри в Vault»');
    untouched('パスワード：「設定画面」から変更');
    untouched('Пароль: «Войти»-кнопка');
    untouched('パスワード：2024年に変更');
    untouched('パスワード：最低12文字');
    untouched('密码：至少12位');
    untouched('密码是8位数字');
    untouched('비밀번호: 최소12자');
    untouched('Ο κωδικός είναι λάθος');
    untouched('הסיסמה היא סודית');
  });
  it('markdown around the label (`**Пароль:** …`), a bracket saying what it is for (`Пароль (wifi): …`), diacritics of a Latin script (`größe2024`)', () => {
    removed('**Пароль:** лето2024', 'лето2024');
    removed('**Passwort**: sommer2024', 'sommer2024');
    removed('**Пароль от wifi:** лето2024', 'лето2024');
    // The bracket's word was redacted and the password sent.
    removed('Passwort (wifi): sommer2024', 'sommer2024');
    removed('Пароль (wifi): лето2024', 'лето2024');
    expect(redactSecrets('Passwort (wifi): sommer2024').text).toBe('Passwort (wifi): [REDACTED:password]');
    removed('Passwort: größe2024', 'größe2024');
    removed('пароль — «лето»', 'лето');
    removed('Пароль от wifi: «солнышко»', 'солнышко');
    // A word of prose before the next label is not read as a value, so the label after it is found.
    removed('Новый пароль, старый пароль: qwerty123', 'qwerty123');
    untouched('**Пароль:** смотри в Vault');
    untouched('Пароль (см. ниже)');
    untouched('비밀번호(필수)');
  });
  it('after the colon of a label in another language, a plain word with more words after it opens a sentence; a word alone or a most-common one is the password', () => {
    untouched('Passwort: siehe Wiki');
    untouched('Mot de passe : voir le wiki');
    untouched('Passwort: mindestens 12 Zeichen');
    removed('Passwort: sommer', 'sommer');
    removed('Passwort: sommer (alt)', 'sommer');
    removed('Passwort: sommer, Benutzer: admin', 'sommer');
    removed('Пароль: qwerty для гостей', 'qwerty');
    removed('Passwort: Sommer2024 für wifi', 'Sommer2024');
  });
  it("a table's column or row named by the word in another language (`| Пароль | лето2024 |`, a login table's `| Логин | Пароль |`)", () => {
    removed('| Пароль | лето2024 |', 'лето2024');
    removed('| Пароль | summer2024 |', 'summer2024');
    removed('| Пароль от wifi | лето2024 |', 'лето2024');
    removed('| Сервис | Логин | Пароль |\n|---|---|---|\n| Почта | ivan | лето2024 |', 'лето2024');
    removed('| パスワード | なつ2024 |', 'なつ2024');
    untouched('| Пароль | смотри в Vault |');
    untouched('| Пароль | Строка | Да |');
    untouched('| Пароль | <пароль> |');
    untouched('| Passwortrichtlinie | 12 Zeichen |');
    untouched('| Поле | Тип |\n|---|---|\n| Пароль | string |');
    untouched('| パスワード変更日 | 2024-04-01 |');
  });
  it('after the English word, a word of another script with more words after it is a sentence in that language; a typed one is still a password', () => {
    untouched('Password: смотри в Vault');
    untouched('Password - смотри в Vault');
    untouched('password: Κοίτα στο Vault');
    removed('password: солнышко', 'солнышко');
    removed('wifi password: лето2024 для гостей', 'лето2024');
  });
});

describe('issue 40: notes written by hand in several languages (2026-12-06, eighth session; dev-own-notes.ts)', () => {
  it('a word saying there is no password, in the note\'s language, stays (`Passwort: keins`, `Senha: nenhuma`, `Пароль: нет`)', () => {
    untouched('Passwort: keins');
    untouched('Mot de passe : aucun');
    untouched('Contraseña: ninguna');
    untouched('password: nessuna');
    untouched('Senha: nenhuma');
    untouched('Hasło: brak');
    untouched('Wachtwoord: geen');
    untouched('Пароль: нет');
    untouched('パスワード：なし');
    untouched('비밀번호: 없음');
    // English's own `none` stayed before too; a word people choose is still a password.
    untouched('Password: none (key auth only)');
    removed('Passwort: Sommer2024', 'Sommer2024');
    removed('Senha: saudade123', 'saudade123');
  });
  it('a password manager or a vault named where the password goes stays, in any language (`Password: Bitwarden`, `パスワード：1Passwordを参照`)', () => {
    untouched('Password: Bitwarden');
    untouched('password: 1Password');
    untouched("Şifre: Vault'ta");
    untouched('パスワード：1Passwordを参照');
    untouched('비밀번호: 1Password 참고');
    untouched('Password: vedi il vault');
    untouched('contraseña: ver Bitwarden');
    // A password with the manager named after it is still the password.
    removed('Password: hunter22 (also in Bitwarden)', 'hunter22');
    removed('Password: sunshine in Bitwarden', 'sunshine');
    removed('Password: hunter saved in 1Password', 'hunter');
    removed('Password: Vault2024!', 'Vault2024!');
  });
  it('`1Password → Infra → staging-db` is a path in a product, not the word password and a value (ARROW, as BARE)', () => {
    untouched('password: see 1Password → Infra → staging-db');
    removed('password → Infra2024', 'Infra2024');
  });
  it('the word in another language as a quoted key (JSON, a dict): its value is the password (`{"Passwort": "Sommer"}`, `{"пароль": "котик"}`)', () => {
    removed('{"Benutzer": "admin", "Passwort": "Sommer"}', 'Sommer');
    removed('{"логин": "admin", "пароль": "котик"}', 'котик');
    removed('{"ユーザー": "admin", "パスワード": "sakura123"}', 'sakura123');
    removed('{"用户名": "root", "密码": "abc123456"}', 'abc123456');
    removed("{'contraseña': 'verano2024'}", 'verano2024');
    // A key of several words joined as keys join them.
    removed('{"utilisateur": "admin", "mot_de_passe": "bonjour123"}', 'bonjour123');
    removed('mot_de_passe: bonjour123', 'bonjour123');
  });
  it('what stays beside a quoted key: templates, placeholders, a screen\'s text about the password, a quote that opens nothing', () => {
    untouched('{"Passwort": "${PASSWORT}"}');
    untouched('{"пароль": "<пароль>"}');
    untouched('{"Passwort": "Passwort eingeben"}');
    untouched('{"пароль": "Введите пароль"}');
    untouched('{"mot_de_passe": "Mot de passe oublié ?"}');
    untouched('Passwort": "x1234"');
  });
});

describe('issue 40: a plain word after the word in another language, where the note says it is the value (2026-12-06, eighth session)', () => {
  it('in a login block, the user given just before (the line above, or earlier on the line), a plain word of any script is the password', () => {
    removed('Логин: admin\nПароль: ромашка', 'ромашка');
    removed('Користувач: admin\nПароль: кавун', 'кавун');
    removed('Χρήστης: admin\nΚωδικός: θάλασσα', 'θάλασσα');
    removed('логин: root, пароль: медведь', 'медведь');
    removed('**Логин:** admin\n**Пароль:** ромашка', 'ромашка');
    removed('- Benutzer: pi\n- Passwort: Gänseblümchen', 'Gänseblümchen');
    removed('ユーザー名: admin\nパスワード：himawari', 'himawari');
  });
  it('in a login block, a word saying there is none, words of a sentence or a vault stay', () => {
    untouched('Логин: guest\nПароль: нет');
    untouched('Логин: admin\nПароль: сменён, новый в KeePass');
    untouched('Логин: admin\nПароль: см. Vault');
    untouched('Користувач: admin\nПароль: немає');
    // Chinese, Japanese and Korean type a password in Latin letters (an input method writes their scripts): a word of theirs is prose (values.ts isCjkProse).
    untouched('ユーザー名: admin\nパスワード：未設定');
  });
  it('a plain word alone after a label naming what the password is for (`Hasło do poczty: żabka`, `Пароль до бази: сонечко`)', () => {
    removed('Passwort vom Router: sonnenblume', 'sonnenblume');
    removed('Heslo k wifi: kocicka', 'kocicka');
    removed('Hasło do poczty: żabka', 'żabka');
    removed('Contraseña del wifi: mariposa', 'mariposa');
    removed('Пароль до бази: сонечко', 'сонечко');
  });
  it('without a word of what it is for, or with words after the value, the label may be a sentence and a plain word stays', () => {
    untouched('Passwort geändert: gestern');
    untouched('Passwort vergessen: Link kommt per Mail');
    untouched('Mot de passe oublié : voir le support');
    untouched('Passwort für den Router: siehe KeePass');
  });
  it('a plain word of the note\'s own script on a line of its own is the password (PLAIN_WORD_ALONE, 2026-12-07: was a known miss), its status words stay (`Пароль: сменён`)', () => {
    untouched('Пароль: сменён');
    untouched('Пароль: временный');
    removed('Пароль: солнышко', 'солнышко');
  });
  it('the word in Bulgarian and in Serbian Cyrillic (`Парола: лято2023`, `Лозинка: лето2024`)', () => {
    removed('Парола: лято2023', 'лято2023');
    removed('Лозинка: лето2024', 'лето2024');
    untouched('Парола: сменена');
  });
});

describe('issue 40: the last rounds\' known misses (2026-12-07, eleventh session)', () => {
  it('QUOTE_ENDS_SENTENCE: one word of a script without spaces in its own quotation marks, where the sentence ends (a copula may close it), is the password', () => {
    removed('パスワードは「たまご」です', 'たまご');
    removed('# Staging\n\nパスワードは「たまご」です。\n\nAsk Sam if unsure.', 'たまご');
    removed('パスワード：「ひまわり」', 'ひまわり');
    removed('密码是「月亮船」。', '月亮船');
  });
  it('a state, a word of none, an instruction or a screen\'s name in those quotes stays (UNSPACED_WORD_ALONE\'s tests, words glued after the quote)', () => {
    for (const text of ['パスワードは「変更済み」です', 'パスワードは「なし」です', 'パスワードは「管理者に確認」です', 'パスワードは「設定画面」から変更', 'パスワードは「ログイン画面」で入力', '密码是「见群公告」', 'パスワードは「パスワード」です']) untouched(text);
  });
  it('THING_PASS_IS: `pass` after a thing opened by a keypad, then one word where the clause ends', () => {
    removed('the office alarm pass is marigold', 'marigold');
    removed('The alarm pass is marigold. Code for the gate is on the fridge.', 'marigold');
    removed('lockbox pass: tulip', 'tulip');
    removed('keypad pass: hunter22', 'hunter22');
  });
  it('a pass of a thing that issues passes, words of a sentence or of state, and templates stay', () => {
    for (const text of ['the gate pass is marigold', 'the door pass is in the drawer', 'boarding pass is ready', 'alarm pass is required', 'the alarm pass is not set', 'the alarm pass is in the drawer', 'the alarm pass is changed monthly', 'alarm pass is ${ALARM_PASS}', 'alarm pass is <pass>']) untouched(text);
  });
});

describe('issue 40: the weak-password set is what the bench measures', () => {
  it('has >= 96 notes in >= 15 forms, both halves, and benign password talk in both halves', () => {
    const notes = weakPasswordNotes();
    expect(notes.length).toBeGreaterThanOrEqual(96);
    expect(new Set(notes.map((n) => n.form)).size).toBeGreaterThanOrEqual(15);
    expect(new Set(notes.map((n) => n.split))).toEqual(new Set(['dev', 'test']));
    const talk = passwordTalkNotes();
    expect(new Set(talk.map((n) => n.split))).toEqual(new Set(['dev', 'test']));
  });
  it('removes >= 95 % of the dev half and touches <= 1 in 20 of its password talk (the test half is reported by the bench only)', () => {
    const dev = weakPasswordNotes().filter((n) => n.split === 'dev');
    const kept = dev.filter((n) => !weakPasswordSurvives(redactSecrets(n.note).text, n));
    expect(kept.length / dev.length).toBeGreaterThanOrEqual(0.95);
    const talk = passwordTalkNotes().filter((n) => n.split === 'dev');
    const touched = talk.filter((n) => redactSecrets(n.note).text !== n.note);
    expect(touched.length / talk.length).toBeLessThanOrEqual(0.05);
  });
  it('a password that is also a word of its note counts as removed only where it was planted (`pass` in "password manager")', () => {
    const note = weakPasswordNotes().find((n) => n.elsewhere > 0);
    expect(note).toBeDefined();
    if (note === undefined) return;
    expect(weakPasswordSurvives(note.note, note)).toBe(true);
  });
});

describe('issue 40: a plain word alone after the word, in any script that spaces its words (2026-12-07, ninth session; dev-own-notes-4.ts)', () => {
  it('with diacritics or in the note\'s own script, alone on its line, it is the password (PLAIN_WORD_ALONE)', () => {
    removed('Passwort: Bärchen', 'Bärchen');
    removed('Mot de passe : hérisson', 'hérisson');
    removed('Contraseña: piña', 'piña');
    removed('Lösenord: blåbär', 'blåbär');
    removed('Heslo: kočička', 'kočička');
    removed('Şifre: çiçekçi', 'çiçekçi');
    removed('Лозинка: јагодица', 'јагодица');
    removed('Пароль: їжачок', 'їжачок');
    removed('סיסמה: שמשון', 'שמשון');
    // Persian joins a word's parts with a zero-width non-joiner.
    removed('رمز عبور: گربه‌ها', 'گربه‌ها');
  });
  it('a word telling the password\'s state in the note\'s language stays (names.ts STATE_BY_LANGUAGE), as a sentence after the word does', () => {
    untouched('Passwort: abgelaufen');
    untouched('Contraseña: cambiada');
    untouched('Senha: alterada');
    untouched('password: scaduta');
    untouched('Hasło: zmienione');
    untouched('Пароль: обновлён');
    untouched('Парола: сменена');
    untouched('Κωδικός: άλλαξε');
    untouched('Пароль: изменён вчера, новый у Сергея');
  });
  it('in scripts that write a sentence without spaces, and in Hangul, a sentence or a state alone stays (`パスワード：ひまわり`, a known miss until 2026-12-07, is now removed: UNSPACED_WORD_ALONE)', () => {
    removed('パスワード：ひまわり', 'ひまわり');
    untouched('密码：请联系管理员');
    untouched('비밀번호: 변경됨');
    untouched('รหัสผ่าน: เปลี่ยนแล้ว');
  });
  it('in a table under the word in another language, a plain word alone in its cell is the password; a state word stays', () => {
    removed('| Сервис | Логин | Пароль |\n|---|---|---|\n| почта | ivan | берёза |', 'берёза');
    removed('| Пароль | солнышко |', 'солнышко');
    untouched('| Gerät | Passwort |\n|---|---|\n| NAS | geändert |');
    // A row of more cells is a form's fields: the field's type, whether it is required.
    untouched('| Пароль | Строка | Да |');
  });
});

describe('issue 40: a Swedish or Finnish case ending after a colon inside the label (COLON_CASE_ENDING, 2026-12-07)', () => {
  it('`Lösenord till NAS:en:` ends at its second colon, and the value after it is read', () => {
    removed('Lösenord till NAS:en: sommar2023', 'sommar2023');
    removed('Lösenord till Wi-Fi:t: hallon', 'hallon');
    removed('Salasana VPN:n: kissa2024', 'kissa2024');
    untouched('Lösenord till NAS:en: se lappen på kylskåpet');
  });
});

describe('issue 40: a Wi-Fi network\'s key as a note in another language names it (names.ts WIFI_KEY_BY_LANGUAGE, 2026-12-07)', () => {
  it('the router\'s own label in that language is read as the word password', () => {
    removed('WLAN-Schlüssel: 81726354918273645546', '81726354918273645546');
    removed('clave wifi: casa1234', 'casa1234');
    removed('| Netz | WLAN-Schlüssel |\n|---|---|\n| Gast | Sommer2024 |', 'Sommer2024');
  });
  it('a key of another kind stays: a bare `clave` or `Schlüssel`, a public key, a word of a sentence after the label', () => {
    untouched('Clave pública: en el repositorio, ~/.ssh/id_ed25519.pub');
    untouched('Schlüssel: liegt im Briefkasten');
    untouched('WLAN-Schlüssel: steht auf der Rückseite der Fritzbox');
  });
});

describe('issue 40: a Wi-Fi network and its key split by a slash (password-forms.ts WIFI_SLASH_KEY, 2026-12-07)', () => {
  it('after a Wi-Fi label, the value after the network\'s name and ` / ` is its key, a plain word too', () => {
    removed('Guest wifi: CoffeeShop / latte2go', 'latte2go');
    removed('WiFi: HomeNet-5G / sunflower88', 'sunflower88');
    removed('Guest wifi: CoffeeShop / pancake', 'pancake');
    removed('wifi - "Cafe Luna" / espresso2go', 'espresso2go');
  });
  it('a second network, a band, a security mode, words of a sentence, a template and a path stay', () => {
    untouched('WiFi: HomeNet / HomeNet-5G');
    untouched('Wi-Fi: 2.4GHz / 5GHz');
    untouched('WiFi: WPA2 / TKIP');
    untouched('wifi: on / off');
    untouched('wifi: eduroam / university login');
    untouched('wifi: Acme-Guest / no password');
    untouched('WiFi: HomeNet / ${WIFI_PASSWORD}');
    untouched('wifi: config/wpa.conf');
  });
});

describe('issue 40: French `mdp` as a label (password-forms.ts ABBREVIATED_BY_LANGUAGE, 2026-12-07)', () => {
  it('`mdp :` in lower case is the word password shortened: its value is read', () => {
    removed('mdp : coquelicot', 'coquelicot');
    removed('identifiant : admin / mdp : azerty123', 'azerty123');
    removed('Mdp : soleil2024', 'soleil2024');
  });
  it('`MDP` in capitals (a Markov decision process), `mdp` without a colon, and a state or a vault after it stay', () => {
    untouched('MDP: gridworld');
    untouched('the mdp gridworld has 16 states');
    untouched('mdp : oublié, demander à Paul');
    untouched('mdp: voir KeePass');
  });
});

describe('issue 40: "the password … is" in another language with a plain word that ends the sentence and its line (2026-12-07)', () => {
  it('the word is the password (PROSE_IN_OTHER_LANGUAGES, as PLAIN_WORD_ALONE)', () => {
    removed('Le mot de passe de la base est soleil', 'soleil');
    removed('Das WLAN-Passwort ist Sonnenschein', 'Sonnenschein');
    removed('Lösenordet till routern är blåbär.', 'blåbär');
  });
  it('a word saying what the password is like or what became of it stays (names.ts QUALITY_BY_LANGUAGE, STATE_BY_LANGUAGE), as a sentence that goes on does', () => {
    untouched('Das Passwort ist sicher.');
    untouched('La contraseña es segura');
    untouched('Het wachtwoord is sterk');
    untouched('Hasło jest silne.');
    untouched('A senha é forte');
    untouched('La password è corretta');
    untouched('Das Passwort ist falsch.');
    untouched('Le mot de passe est expiré');
    untouched('Das Passwort ist zu kurz, mindestens 12 Zeichen');
    // "Secret", as the Indonesian and Hebrew sentences above say it.
    untouched('Das Passwort ist geheim');
  });
});

describe('issue 40: forms batch 5 showed missed, and their benign twins (2026-12-07, tenth session; dev-own-notes-5.ts)', () => {
  it('XML_NAMED_VALUE: an element naming the credential in `name` or `key` gives it in `value` or its text', () => {
    removed('<add key="SmtpPassword" value="swordfish"/>', 'swordfish');
    removed('<property name="password" value="Tulip2020"/>', 'Tulip2020');
    removed("<property name='jdbc.password' value='oracle'/>", 'oracle');
    removed('<entry key="password">kittens</entry>', 'kittens');
    // A setting about the password, a template and a value no person chose stay.
    untouched('<add key="PasswordMinLength" value="12"/>');
    untouched('<property name="password" value="${db.password}"/>');
    untouched('<property name="tokenTtl" value="3600"/>');
  });
  it('THING_BEFORE_FOR: a thing and its code word, then which one, then the code', () => {
    removed('Door code for the server room is 5718', '5718');
    removed('gate code for the back lot: 9043', '9043');
    untouched('exit code for the build is 1234');
    untouched('the error code for the door sensor is 4012');
  });
  it('PASS_PHRASE: after a label of what it is for, with diacritics, in German, and quoted with an article', () => {
    removed('Passphrase für den Tresor: kleine Möwe fliegt hoch', 'kleine Möwe fliegt hoch');
    removed('passphrase for the offsite backup: amber falcon copper meadow', 'amber falcon copper meadow');
    removed('Passwort für den Router: fünf grüne Äpfel tanzen', 'fünf grüne Äpfel tanzen');
    removed('Vault passphrase: "the lazy otter sleeps"', 'the lazy otter sleeps');
    // German words of a sentence, and a quoted sentence, stay.
    untouched('Passphrase für den Tresor: liegt im Safe bei Anna');
    untouched('passphrase: "see the vault"');
  });
  it('WORD_OPENS_SENTENCE: a word of German grammar with more words after it opens a sentence, not a value', () => {
    untouched('Passphrase für den Tresor: steht im Notfallordner');
    untouched('Passwort vom NAS: liegt in der Schublade');
    // English: the word is the password and the rest says where it is kept (unchanged).
    removed('Password: hunter saved in 1Password', 'hunter');
  });
  it('PIN_COLUMN: digits under a PIN column; a pinout and words stay', () => {
    removed('| Lock | PIN |\n|---|---|\n| Shed | 8812 |', '8812');
    removed('| Card | Pin code |\n|---|---|\n| debit | 0451 |', '0451');
    untouched('| Signal | Pin |\n|---|---|\n| GPIO17 | 11 |');
    untouched('| Door | PIN |\n|---|---|\n| front | ask reception |');
  });
  it('UNSPACED_WORD_ALONE: one word of Chinese, Japanese, Korean or Thai alone after the word; sentences and states stay', () => {
    removed('パスワード：こいのぼり', 'こいのぼり');
    removed('ルーターのパスワード：桜島', '桜島');
    removed('密码：熊猫饭', '熊猫饭');
    removed('와이파이 비밀번호: 호랑이', '호랑이');
    removed('รหัสผ่าน: มะม่วง', 'มะม่วง');
    removed('รหัสผ่าน router: มะพร้าว', 'มะพร้าว');
    for (const text of ['パスワード：変更済み', 'パスワード：未設定', 'パスワード：不明', 'パスワード：管理者に確認', '密码：已重置', '密码：请联系管理员', '密码：保密', '密码：见 1Password', '비밀번호: 없음', '비밀번호: 만료', '비밀번호: 확인함', 'รหัสผ่าน: ไม่มี', 'รหัสผ่าน: ชั่วคราว', 'รหัสผ่านอยู่ใน 1Password']) untouched(text);
  });
  it('USER_IS_PASS_IS: a user, then `pass is …` in the same sentence', () => {
    removed('Grafana: user is viewer, pass is pelican', 'pelican');
    removed('the NAS user is backup and the pass is lighthouse', 'lighthouse');
    untouched('the user is admin and the pass is valid');
    untouched('the boarding pass is in my email');
    untouched('CI pass is flaky on arm64');
  });
  it('PW_LETTER_SWAPPED: after `pw`, a word with a digit put in for a letter, where the clause ends', () => {
    removed('vpn pw W1nter!', 'W1nter');
    removed('use ops with pw Sk8board on the jump host', 'Sk8board');
    untouched('pw reset link expires after 15 min');
    untouched('pw manager: Bitwarden');
    untouched('pw mp3player mode');
  });
  it('a short token a person typed, a prefix and a few characters, next to its word: a value, not a stub (a rule reading them as cut-short tokens was reverted after review)', () => {
    removed('API_TOKEN=ops_A1B2C3', 'ops_A1B2C3');
    removed('token: team_x7Yq9Z', 'team_x7Yq9Z');
    removed('SECRET_KEY=dev_x9Qz7w', 'dev_x9Qz7w');
    removed('The staging api key is stg_k9Zq2X', 'stg_k9Zq2X');
    removed('the deploy token is dep-Q7x9Za', 'dep-Q7x9Za');
  });
});

describe('issue 40: the names people give PINs, and a weak value under a secret key or an API key (fifteenth session)', () => {
  it('PIN_NAME: a PIN under the names code gives it (`PIN_CODE`, `pin_code`, `pinCode`, `pincode`, `PIN_NUMBER`), digits or a word', () => {
    removed('```\nPIN_CODE=8531\n```', '8531');
    removed('pin_code: 8531', '8531');
    removed('PIN_CODE=letmein', 'letmein');
    removed('{ "pinCode": "4821" }', '4821');
    removed('pincode: 4821', '4821');
    removed('PIN_NUMBER=2580', '2580');
    removed('sim:\n  pin-code: 0000\n', '0000');
  });
  it('PIN_NAME in two words, as a label or in a sentence (`pin code: 8531`, `the pin code is 8531`), and in XML', () => {
    removed('pin code: 8531', '8531');
    removed('the pin code is 8531', '8531');
    removed('Phone pin number: 2468', '2468');
    removed('<pinCode>8531</pinCode>', '8531');
  });
  it('a board\'s pin number and a PIN name with no value stay', () => {
    untouched('pin_number: 13');
    untouched('int pin_number = 7;');
    untouched('PIN_CODE=${PIN_CODE}');
    untouched('pin_code: <your-pin>');
  });
  it('WEAK_SECRET_VALUE: a common password or a counting run under a secret key or an API key is that weak secret', () => {
    removed('SECRET_KEY=123456', '123456');
    removed('SECRET_KEY=letmein', 'letmein');
    removed('API_KEY=123456', '123456');
    removed('api_key: sunshine', 'sunshine');
    removed('{ "apiKey": "654321" }', '654321');
    removed('secret_key = "qwerty"', 'qwerty');
    removed('DJANGO_SECRET_KEY=1234567890', '1234567890');
    removed('"secret_key": "123456"', '123456');
    removed('<apiKey>654321</apiKey>', '654321');
    removed('api key: 123456', '123456');
    removed('The API key is 123456 for now', '123456');
    untouched('the API key is xxxxxx');
  });
  it("a vendor's access key is issued, never chosen: a counting run or a number there is a document's stand-in", () => {
    untouched('AWS_SECRET_ACCESS_KEY=1234');
    untouched('access_key = "123456789012"');
    untouched('API_KEY=123456789012');
  });
  it("documentation's stand-ins that say they are one stay under a secret key or an API key", () => {
    untouched('SECRET_KEY=your-secret-key');
    untouched('API_KEY=your_api_key_here');
    untouched('api_key: <your-api-key>');
    untouched('SECRET_KEY=example');
    untouched('API_KEY=xxxxxx');
    untouched('API_KEY=${API_KEY}');
    untouched('secret_key: changeme_in_production');
    untouched('api_key: changeme');
  });
});

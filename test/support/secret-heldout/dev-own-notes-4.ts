/**
 * Batch 4 of the memory notes written here by hand (issue 40, 2026-12-07, ninth session), aimed at the forms
 * the first three batches (dev-own-notes.ts) left weak: a value with diacritics or in another script right
 * after the word, in every language names.ts's tables cover; Chinese, Japanese and Korean values; wifi and
 * guest-network lines; PINs; pass phrases of several words; a user and a password in a sentence; passwords
 * in Markdown tables and code fences. And their benign twins: policies, "password changed", "in 1Password
 * under X", `${VAR}`, CLI help, release notes, status words in each language.
 *
 * Written in one go, before the redaction was run on any of them. Split by position, fixed before the
 * first run: the even entries of each list are the half the rules are tuned on (`tune`), the odd ones the
 * check, reported on its own row and never tuned on (`check`). Neighbouring entries are written as pairs of
 * a form, so each half holds one of most pairs. Every note is dev: none is a test-half sample or copied
 * from one.
 *
 * A secret's value occurs once in its note (checked on load), as in dev-own-notes.ts.
 */
import { inNote, occurrences, type OwnBenignNote, type OwnSecretNote } from './dev-own-notes.js';

export type Half = 'tune' | 'check';

/** [cls, secret, body]. */
const SECRETS: readonly (readonly [string, string, string])[] = [
  // A plain word with diacritics or in the note's own script, right after the word and its colon, alone on its line.
  ['de/colon-diacritics', 'Bärchen', 'Passwort: Bärchen'],
  ['de/label-diacritics', 'Frühling', 'WLAN-Passwort: Frühling'],
  ['fr/colon-diacritics', 'hérisson', 'Mot de passe : hérisson'],
  ['fr/label-diacritics', 'cœurdelion', 'Mot de passe du NAS : cœurdelion'],
  ['es/colon-diacritics', 'piña', 'Contraseña: piña'],
  ['ca/colon-diacritics', 'gatçó', 'Contrasenya: gatçó'],
  ['pt/colon-diacritics', 'coração', 'Senha: coração'],
  ['it/colon-diacritics', 'città', 'password: città'],
  ['sv/colon-diacritics', 'blåbär', 'Lösenord: blåbär'],
  ['da/colon-diacritics', 'rødgrød', 'Adgangskode: rødgrød'],
  ['no/colon-diacritics', 'bjørnebær', 'Passord: bjørnebær'],
  ['fi/colon-diacritics', 'mökkiläinen', 'Salasana: mökkiläinen'],
  ['et/colon-diacritics', 'jäätis', 'Parool: jäätis'],
  ['pl/colon-diacritics', 'źrebak', 'Hasło: źrebak'],
  ['cs/colon-diacritics', 'kočička', 'Heslo: kočička'],
  ['sk/colon-diacritics', 'mačička', 'heslo: mačička'],
  ['hu/colon-diacritics', 'virág', 'Jelszó: virág'],
  ['hr/colon-diacritics', 'čokolada', 'Lozinka: čokolada'],
  ['sl/colon-diacritics', 'žabica', 'Geslo: žabica'],
  ['lt/colon-diacritics', 'saulėtekis', 'Slaptažodis: saulėtekis'],
  ['is/colon-diacritics', 'hestaþing', 'Lykilorð: hestaþing'],
  ['ro/colon-diacritics', 'pisică', 'Parolă: pisică'],
  ['tr/colon-diacritics', 'çiçekçi', 'Şifre: çiçekçi'],
  ['vi/colon-diacritics', 'hoahồng', 'Mật khẩu: hoahồng'],
  ['id/colon-word', 'kucingku', 'Kata sandi: kucingku'],
  ['el/colon-script', 'πορτοκάλι', 'Κωδικός: πορτοκάλι'],
  ['he/colon-script', 'שמשון', 'סיסמה: שמשון'],
  ['ar/colon-script', 'قمرية', 'كلمة المرور: قمرية'],
  ['fa/colon-script', 'گربه‌ها', 'رمز عبور: گربه‌ها'],
  ['hi/colon-script', 'सूरजमुखी', 'पासवर्ड: सूरजमुखी'],
  ['th/colon-script', 'แมวน้อย', 'รหัสผ่าน: แมวน้อย'],
  ['bg/colon-script', 'слънчоглед', 'Парола: слънчоглед'],
  ['sr/colon-script', 'јагодица', 'Лозинка: јагодица'],
  ['ru/colon-script', 'ёжик', 'Пароль: ёжик'],
  ['uk/colon-script', 'їжачок', 'Пароль: їжачок'],
  ['ru/label-script', 'берёзка', 'Пароль от NAS: берёзка'],
  // Chinese, Japanese and Korean values.
  ['ja/colon-kana', 'ひまわり', 'パスワード：ひまわり'],
  ['ja/label-kana', 'もみじ', 'Wi-Fiのパスワード：もみじ'],
  ['zh/colon-han', '月亮船', '密码：月亮船'],
  ['zh/label-latin', 'xiaomi888', 'WiFi密码：xiaomi888'],
  ['ko/colon-hangul', '사랑해요', '비밀번호: 사랑해요'],
  ['ko/label-latin', 'gimchi77', '공유기 비밀번호: gimchi77'],
  // Wifi and guest networks.
  ['en/guest-wifi-pair', 'pannkaka', 'Guest wifi — SSID: Lindqvist-Guest, password: pannkaka'],
  ['en/wifi-slash', 'sunflower88', 'WiFi: HomeNet-5G / sunflower88'],
  ['en/wifi-prose', 'bananabread', 'the cabin wifi pw is bananabread'],
  ['en/wifi-key', '48213377120945613287', 'SSID FRITZ!Box 7590 QX, WPA key 48213377120945613287'],
  ['de/wlan-schluessel', '81726354918273645546', 'WLAN-Schlüssel: 81726354918273645546'],
  ['fr/cle-wifi', '7F3A9C21D4E5', 'Clé WiFi : 7F3A9C21D4E5'],
  ['en/guest-network', 'visitor2024', 'Guest network "Acme-Visitors", passphrase visitor2024 (rotates in January)'],
  ['en/wifi-table-row', 'Kj8#mP2q', '- Office wifi: AcmeCorp-5G, pass Kj8#mP2q'],
  // PINs.
  ['en/pin-colon', '4471', 'Garage door PIN: 4471'],
  ['en/pin-prose', '2580', 'SIM PIN is 2580, PUK is on the card'],
  ['en/alarm-code', '1379', 'Alarm code: 1379 (disarm within 30 s)'],
  ['de/pin', '0815', 'PIN vom Handy: 0815'],
  ['en/pin-for', '8026', 'PIN for the bike lock: 8026'],
  ['fr/code-pin', '9174', 'Code PIN de la carte : 9174'],
  // Pass phrases of several words.
  ['en/passphrase-colon', 'purple elephant dancing quietly', 'passphrase: purple elephant dancing quietly'],
  ['en/passphrase-quoted', 'mango tiger river cloud', 'The restic passphrase is "mango tiger river cloud"'],
  ['en/password-four-words', 'lemon orbit canvas thunder', 'Backup drive password: lemon orbit canvas thunder'],
  ['en/passphrase-dashes', 'otter-violin-basket-ninety', 'GPG key passphrase: otter-violin-basket-ninety'],
  ['de/passphrase', 'grüne Katze tanzt leise', 'Passphrase fürs Backup: grüne Katze tanzt leise'],
  ['en/master-password', 'Blue Whale Singing 1987', 'KeePass master password: Blue Whale Singing 1987'],
  // A user and a password in a sentence.
  ['en/prose-as-with', 'hunter42', 'Log in as admin with password hunter42'],
  ['en/prose-user-and-pass', 'Kestrel77', 'I set the user to deploy and the password to Kestrel77'],
  ['en/prose-pass-is', 'sunflower', "The router's user is admin and the pass is sunflower"],
  ['en/prose-slash', 'toor', 'logged in as root / toor on the old box'],
  ['en/prose-pw-with', 'Tr4vel!', 'use ops with pw Tr4vel! on the bastion'],
  ['en/prose-creds-are', 'jenkins', 'Jenkins creds are admin and jenkins, change them'],
  // Markdown tables.
  ['en/table', 'jenkins1', '| Service | User | Password |\n|---|---|---|\n| Jenkins | admin | jenkins1 |'],
  ['de/table-diacritics', 'Kürbis', '| Gerät | Benutzer | Passwort |\n|---|---|---|\n| NAS | admin | Kürbis |'],
  ['ru/table-script', 'берёза', '| Сервис | Логин | Пароль |\n|---|---|---|\n| почта | ivan | берёза |'],
  ['ja/table-kana', 'もちもち', '| サービス | パスワード |\n|---|---|\n| NAS | もちもち |'],
  ['en/table-key-value', 'letmein', '| Key | Value |\n|---|---|\n| host | db.lan |\n| password | letmein |'],
  ['en/table-pin', '3141', '| Door | PIN |\n|---|---|\n| back office | 3141 |'],
  // Code fences.
  ['en/fence-export', 'kittycat', '```bash\nexport PGPASSWORD=kittycat\npsql -h db -U app\n```'],
  ['en/fence-ini', 'ebony', '```ini\n[client]\nuser = app\npassword = ebony\n```'],
  ['en/fence-yaml-psk', 'mariposa77', '```yaml\nwifi:\n  ssid: Casa\n  psk: mariposa77\n```'],
  ['de/fence-env', 'Zuckerwatte', '```env\nWLAN_PASSWORT=Zuckerwatte\n```'],
  ['en/fence-compose', 'postgres', '```yaml\nservices:\n  db:\n    environment:\n      POSTGRES_PASSWORD: postgres\n```'],
  ['ru/fence-yaml-script', 'малинка', '```yaml\nwifi:\n  пароль: малинка\n```'],
  // Labels in another language for the same things.
  ['fr/mdp', 'coquelicot', 'mdp : coquelicot'],
  ['es/clave', 'tortuga', 'Clave: tortuga'],
  ['sv/label-colon-inside', 'hallon', 'Lösenord till Wi-Fi:t: hallon'],
  ['nl/colon-word', 'stroopwafel', 'Wachtwoord: stroopwafel'],
];

/** [cls, body]. */
const BENIGN: readonly (readonly [string, string])[] = [
  // Status words after the word, in each language (changed, expired, unknown, temporary, reset, required).
  ['de/status', 'Passwort: abgelaufen'],
  ['de/status', 'Passwort: unbekannt'],
  ['fr/status', 'Mot de passe : changé'],
  ['fr/status', 'Mot de passe : expiré'],
  ['es/status', 'Contraseña: cambiada'],
  ['es/status', 'Contraseña: olvidada'],
  ['pt/status', 'Senha: alterada'],
  ['pt/status', 'Senha: expirou'],
  ['it/status', 'password: scaduta'],
  ['it/status', 'Password: cambiata'],
  ['pl/status', 'Hasło: wygasło'],
  ['cs/status', 'Heslo: změněno'],
  ['sv/status', 'Lösenord: ändrat'],
  ['nl/status', 'Wachtwoord: gewijzigd'],
  ['tr/status', 'Şifre: değişti'],
  ['fi/status', 'Salasana: vaihdettu'],
  ['hu/status', 'Jelszó: megváltozott'],
  ['ro/status', 'Parolă: schimbată'],
  ['el/status', 'Κωδικός: άλλαξε'],
  ['ru/status', 'Пароль: обновлён'],
  ['ru/status', 'Пароль: изменён'],
  ['uk/status', 'Пароль: оновлено'],
  ['bg/status', 'Парола: сменена'],
  ['ja/status', 'パスワード：期限切れ'],
  ['zh/status', '密码：已过期'],
  ['ko/status', '비밀번호: 변경됨'],
  ['ru/required', 'Пароль: обязательно'],
  ['de/required', 'Passwort: erforderlich'],
  ['ru/sentence', 'Пароль: изменён вчера, новый у Сергея'],
  ['de/sentence', 'Passwort: wurde am Montag zurückgesetzt'],
  ['ru/same-as', 'Пароль: такой же, как от почты'],
  ['es/same-as', 'Contraseña: igual que la del correo'],
  // Wifi and guest networks without a password.
  ['en/wifi-open', 'Guest wifi: open network, no password'],
  ['en/wifi-where', 'WiFi password: on the back of the router'],
  ['en/wifi-reception', 'Wi-Fi: Acme-Guest (password at reception)'],
  ['de/wlan-where', 'WLAN-Passwort: steht auf der Rückseite der Fritzbox'],
  ['en/wifi-ssid-only', 'Home wifi SSID: HomeNet-5G (5 GHz), HomeNet (2.4 GHz)'],
  ['en/wifi-vault', 'Guest network password: in 1Password under Home / Wifi'],
  // PINs without one.
  ['en/pin-ask', 'PIN: ask the front desk'],
  ['en/pin-policy', 'PIN policy: 6 digits, no repeats, changed every 180 days'],
  ['en/pin-length', 'PIN length: 4 to 8 digits'],
  ['en/pin-reset', 'SIM PIN reset with the PUK, the card is in the drawer'],
  // Vault references and changed passwords.
  ['en/vault-under', 'Password in 1Password under Infra / NAS'],
  ['en/vault-under', 'passphrase: see 1Password, item "Restic B2"'],
  ['en/changed-on', 'password changed on 2026-11-03'],
  ['en/changed-vault', 'Password changed, the new one is in Bitwarden (Shared/Ops)'],
  ['en/changed-by', 'DB password rotated by the on-call, nothing to do'],
  ['en/forgot', 'Forgot the NAS password again, reset it via the recovery key'],
  // Templates and variables.
  ['en/template', 'DB password: ${POSTGRES_PASSWORD}'],
  ['en/template-helm', '```yaml\npassword: {{ .Values.db.password }}\n```'],
  ['en/template-env', '```bash\nexport PGPASSWORD="$(op read op://Infra/db/password)"\n```'],
  ['en/template-compose', '```yaml\nenvironment:\n  POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it in .env}\n```'],
  ['en/code-getpass', '```python\npassword = getpass.getpass("Password: ")\n```'],
  ['en/code-read', '```bash\nread -s -p "Password: " PASS\n```'],
  // CLI help.
  ['en/cli-help', '```\n  -P, --password-file FILE   read the password from FILE\n  --passphrase-fd N          read the passphrase from file descriptor N\n```'],
  ['en/cli-help', '```\n  -p, --password[=name]   Password to use when connecting to server. If password is\n                          not given it\'s asked from the tty.\n```'],
  ['en/cli-help', '`restic init --repo /srv/backup` asks for the repository password twice'],
  ['en/cli-help', '```\nwpa_passphrase <ssid> [passphrase]\n```'],
  // Release notes and changelogs.
  ['en/release-notes', '### 3.2.0\n- Passwords are now hashed with argon2id\n- PIN login removed'],
  ['en/release-notes', '- v2.1: the wifi password can be set from the app\n- v2.0: guest network support'],
  ['de/release-notes', '## 1.4.0\n- Neu: Passwort vergessen-Link\n- Behoben: PIN-Eingabe auf Android'],
  ['ru/release-notes', '### 2.0\n- Пароль теперь можно сменить в настройках'],
  // Policies.
  ['en/policy', 'Passwords: at least 14 characters, no reuse of the last 5'],
  ['en/policy-table', '| Setting | Value |\n|---|---|\n| Password min length | 12 |\n| Password expiry | 90 days |'],
  ['fr/policy', 'Mot de passe : 12 caractères minimum, à changer tous les 90 jours'],
  ['ja/policy', 'パスワード：8文字以上、英数字を含む'],
  // Tables and fences that name where the password is.
  ['en/table-vault', '| User | Password |\n|---|---|\n| admin | in Vault |'],
  ['en/table-vault', '| Service | Password |\n|---|---|\n| NAS | see KeePass |'],
  ['ru/table-vault', '| Сервис | Пароль |\n|---|---|\n| почта | в KeePass |'],
  ['de/table-status', '| Gerät | Passwort |\n|---|---|\n| NAS | geändert |'],
  // A user and a password talked about in a sentence.
  ['en/prose', 'Log in as admin with your usual password.'],
  ['en/prose', 'user and password are the same as for the VPN'],
  ['en/prose', 'logged in as root with the SSH key, no password'],
  ['en/prose', 'The password is the one from the onboarding email.'],
  // Labels in another language for the same things, and a colon inside the label.
  ['fr/mdp-status', 'mdp : oublié, demander à Paul'],
  ['es/clave-doc', 'Clave pública: en el repositorio, ~/.ssh/id_ed25519.pub'],
  ['sv/label-colon-inside', 'Lösenord till Wi-Fi:t: se lappen på kylskåpet'],
  ['nl/status', 'Wachtwoord: verlopen'],
];

function half(i: number): Half {
  return i % 2 === 0 ? 'tune' : 'check';
}

/** A batch's secret notes with their half (by position); throws if a value is not in its note exactly once. Shared by batch 5. */
export function splitSecretNotes(batch: string, secrets: readonly (readonly [string, string, string])[]): (OwnSecretNote & { half: Half })[] {
  return secrets.map(([cls, secret, body], i) => {
    const note = inNote(body, i);
    if (occurrences(note, secret) !== 1) throw new Error(`${batch}: ${cls} holds ${secret} ${occurrences(note, secret)} times`);
    return { cls, secret, note, half: half(i) };
  });
}

/** A batch's benign notes with their half (by position). */
export function splitBenignNotes(benign: readonly (readonly [string, string])[]): (OwnBenignNote & { half: Half })[] {
  return benign.map(([cls, body], i) => ({ cls, note: inNote(body, i), half: half(i) }));
}

/** The secret notes of batch 4 with their half; throws if a value is not in its note exactly once. */
export function ownSecretNotesBatch4(): (OwnSecretNote & { half: Half })[] {
  return splitSecretNotes('dev-own-notes-4', SECRETS);
}

export function ownBenignNotesBatch4(): (OwnBenignNote & { half: Half })[] {
  return splitBenignNotes(BENIGN);
}

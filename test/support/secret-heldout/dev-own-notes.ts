/**
 * Memory notes written here by hand, as people keep them (issue 40, 2026-12-06, seventh session): secrets
 * and weak passwords in several languages and forms, and benign notes that talk about passwords, keys
 * and tokens without holding one (policies, vault references, `${VAR}`, config docs, changelogs, CLI
 * help pasted into a note). Written in one go, before the redaction was run on any of them; every note
 * is dev (tuned on, like the dev extension), none is a test-half sample or copied from one.
 *
 * A secret's value occurs once in its note (checked on load), so "removed" means that occurrence is
 * gone; `survives` (the held-out set's scorer) judges it.
 */

export interface OwnSecretNote {
  /** Language and form, e.g. `ru/colon-word`. */
  cls: string;
  secret: string;
  note: string;
}

export interface OwnBenignNote {
  cls: string;
  note: string;
}

const TITLES = ['# Home lab', '# Staging', '# Notes', '# Onboarding', '# Ops', '# Setup after reinstall', '# Handover'];

/** The note around a body: a title, the body, sometimes a line after (fixed by the index). */
export function inNote(body: string, i: number): string {
  const after = ['', 'Update when it changes.', '', 'Ask Sam if unsure.', ''][i % 5] as string;
  return [TITLES[i % TITLES.length], body, after].filter((s) => s !== '').join('\n\n');
}

/** [cls, secret, body]. */
const SECRETS: readonly (readonly [string, string, string])[] = [
  // English
  ['en/colon-word', 'bluebird', 'Proxmox root password: bluebird\n\nBackups run at 3am.'],
  ['en/prose-is', 'tangerine', 'The NAS admin pw is tangerine, I never changed it.'],
  ['en/space-word-number', 'greenfield42', "Wifi at mum's: network BTHub-7F2A, password greenfield42"],
  ['en/json', 'Reports#2023', '```json\n{"username": "svc_reports", "password": "Reports#2023"}\n```'],
  ['en/mysql', 'Report2023', '    mysql -h 10.0.3.4 -u reporting -pReport2023 analytics'],
  ['en/dotenv', 'mailpass99', '```\nSMTP_HOST=smtp.office365.com\nSMTP_PASS=mailpass99\n```'],
  ['en/yaml', 's3ndgr1d!', '```yaml\nsmtp:\n  user: alerts@acme.io\n  password: s3ndgr1d!\n```'],
  ['en/prose-shared-secret', 'orangejuice', 'The VPN shared secret is orangejuice (ask before sharing).'],
  ['en/table', 'Fortinet#1', '| Host | Login | Password |\n|---|---|---|\n| fw01 | admin | Fortinet#1 |'],
  ['en/bracket', 'raspberry', 'ssh pi@octopi.local (pw: raspberry)'],
  ['en/oracle', 'oracle123', 'sqlplus system/oracle123@XE'],
  ['en/url', 'Winter2024', 'psql postgresql://analytics:Winter2024@db-ro.internal:5432/warehouse'],
  ['en/slash-pair', 'latte2go', 'Guest wifi: CoffeeShop / latte2go'],
  ['en/label-lines', 'grafana!2024', 'Grafana\nuser: admin\npass: grafana!2024'],
  ['en/passphrase', 'correct-horse-battery-staple', 'Backup encryption passphrase: correct-horse-battery-staple'],
  ['en/dotenv', 'kc-admin-pw', 'KEYCLOAK_ADMIN_PASSWORD=kc-admin-pw'],
  ['en/export', 'Zk3u9Qb1Lr8Vx2Hn7Tc4Wm6Py0Sa5Ed1Fg8Jh3K', 'export AWS_ACCESS_KEY_ID=AKIA4QX7RZ2MPL6TYV3N\nexport AWS_SECRET_ACCESS_KEY=Zk3u9Qb1Lr8Vx2Hn7Tc4Wm6Py0Sa5Ed1Fg8Jh3K'],
  ['en/token-label', 'glpat-Xy7k2Lm9Qw3Er5Ty8Ui1o', 'token for the deploy bot: glpat-Xy7k2Lm9Qw3Er5Ty8Ui1o'],
  ['en/github-token', 'ghp_R4nd0mL00k1ngT0k3nV4lu3xYz98765Qw', 'my old PAT ghp_R4nd0mL00k1ngT0k3nV4lu3xYz98765Qw, revoke it'],
  ['en/prose-was', 'summer19', 'Reset the printer admin password, it was summer19.'],
  ['en/pin', '7294', 'Bike lock combo is 7294'],
  ['en/colon-word', 'pumpkin', 'router login: admin, password: pumpkin'],
  ['en/api-key', 'a8f5f167f44f4964e6c998dee827110c', 'OpenWeather api key: a8f5f167f44f4964e6c998dee827110c'],
  ['en/yaml-key', 'hunter42', 'ansible inventory:\n\n```yaml\nall:\n  vars:\n    ansible_become_pass: hunter42\n```'],
  ['en/prose-use', 'Trustno1!', 'Use Trustno1! for the jump host until IT resets it.'],
  // German
  ['de/colon-word', 'sonnenblume', 'Passwort vom Router: sonnenblume'],
  ['de/prose-ist', 'Kaffee2024', 'Das WLAN-Passwort ist Kaffee2024'],
  ['de/json-key', 'Sommer', '```json\n{"Benutzer": "admin", "Passwort": "Sommer"}\n```'],
  ['de/space-word-number', 'Test1234!', 'Zugangsdaten Testsystem: Benutzer testuser, Passwort Test1234!'],
  ['de/kennwort', 'Hallo123', 'Kennwort: Hallo123'],
  ['de/yaml', 'geheim123', '```yaml\ndatenbank:\n  benutzer: app\n  passwort: geheim123\n```'],
  // French
  ['fr/colon-label', 'chaton2023', 'Mot de passe du wifi : chaton2023'],
  ['fr/prose-est', 'soleil', 'Le mot de passe de la base est soleil'],
  ['fr/json-key', 'bonjour123', '```json\n{"utilisateur": "admin", "mot_de_passe": "bonjour123"}\n```'],
  ['fr/mdp', 'azerty123', 'identifiant : admin / mdp : azerty123'],
  // Spanish
  ['es/prose-es', 'gatito99', 'La contraseña del router es gatito99'],
  ['es/colon-word', 'perro', 'contraseña: perro'],
  ['es/json-key', 'verano2024', '```json\n{"usuario": "root", "contraseña": "verano2024"}\n```'],
  ['es/clave', 'casa1234', 'clave wifi: casa1234'],
  // Italian
  ['it/colon-word', 'gattino', 'password del NAS: gattino'],
  ['it/prose-e', 'ciao2024', 'La password di Grafana è ciao2024'],
  // Portuguese
  ['pt/prose-e', 'brasil2022', 'A senha do banco é brasil2022'],
  ['pt/colon-word', 'saudade', 'senha: saudade'],
  // Dutch, Polish, Swedish, Czech, Turkish
  ['nl/colon-label', 'fiets123', 'Wachtwoord voor de VPN: fiets123'],
  ['pl/colon-label', 'kotek123', 'Hasło do routera: kotek123'],
  ['pl/colon-word', 'słoneczko', 'hasło: słoneczko'],
  ['sv/colon-label', 'sommar2023', 'Lösenord till NAS:en: sommar2023'],
  ['cs/colon-word', 'kocicka', 'Heslo k wifi: kocicka'],
  ['tr/colon-word-number', 'kedi1234', 'Şifre: kedi1234'],
  ['tr/colon-label', 'ankara06', 'wifi şifresi: ankara06'],
  // Russian, Ukrainian
  ['ru/colon-word', 'солнышко', 'Пароль: солнышко'],
  ['ru/colon-label-word-number', 'лето2024', 'Пароль от почты: лето2024'],
  ['ru/json-key', 'котик', '```json\n{"логин": "admin", "пароль": "котик"}\n```'],
  ['ru/dash-latin', 'qwerty2023', 'пароль от wifi — qwerty2023'],
  ['ru/login-then-password', 'Zima2024', 'Логин admin, пароль Zima2024'],
  ['ru/yaml', 'котик123', '```yaml\nбаза:\n  пароль: котик123\n```'],
  ['uk/colon-label-word', 'сонечко', 'Пароль до бази: сонечко'],
  // Japanese, Chinese, Korean
  ['ja/colon-word', 'さくら', 'パスワード：さくら'],
  ['ja/glued-is', 'hanako2020', 'Wi-Fiのパスワードはhanako2020です'],
  ['ja/json-key', 'sakura123', '```json\n{"ユーザー": "admin", "パスワード": "sakura123"}\n```'],
  ['zh/colon-label', 'woaini520', '数据库密码：woaini520'],
  ['zh/json-key', 'abc123456', '```json\n{"用户名": "root", "密码": "abc123456"}\n```'],
  ['zh/glued-is', 'zhang1988', '密码是 zhang1988'],
  ['ko/colon-latin', 'sarang123', '비밀번호: sarang123'],
  ['ko/prose', 'qwer1234', '와이파이 비밀번호는 qwer1234 입니다'],
  // Second batch (written before the rules for a plain word in another language were changed): login blocks, words with diacritics.
  ['ru/login-block', 'ромашка', 'Логин: admin\nПароль: ромашка'],
  ['uk/login-block', 'кавун', 'Користувач: admin\nПароль: кавун'],
  ['el/login-block', 'θάλασσα', 'Χρήστης: admin\nΚωδικός: θάλασσα'],
  ['de/colon-diacritics', 'gänseblümchen', 'Passwort: gänseblümchen'],
  ['fr/colon-diacritics', 'église', 'mot de passe : église'],
  ['pl/label-for-word', 'żabka', 'Hasło do poczty: żabka'],
  ['es/label-for-word', 'mariposa', 'Contraseña del wifi: mariposa'],
  ['de/login-block', 'Schneeflocke', 'Benutzer: pi\nPasswort: Schneeflocke'],
  ['ru/login-line', 'медведь', 'логин: root, пароль: медведь'],
  ['bg/colon-word-number', 'лято2023', 'Парола: лято2023'],
  // Third batch, written after this session's rules as a check of them (reported, not tuned on).
  ['ru/login-block-list', 'пингвин', '- логин: backup\n- пароль: пингвин\n- хост: 10.0.0.5'],
  ['de/login-block-bold', 'Löwenzahn', '**Benutzername:** admin\n**Kennwort:** Löwenzahn'],
  ['fr/label-for-word', 'papillon', 'Mot de passe pour la box : papillon'],
  ['it/label-for-word', 'girasole', 'Password della stampante: girasole'],
  ['pt/label-for-word', 'cachorro', 'Senha do roteador: cachorro'],
  ['ru/json-key-word-number', 'весна2022', '```json\n{"пароль": "весна2022", "порт": 5432}\n```'],
  ['de/python-dict', 'Regenbogen7', "cfg = {'Benutzer': 'sa', 'Passwort': 'Regenbogen7'}"],
  ['uk/login-line', 'ластівка', 'користувач: admin, пароль: ластівка'],
];

/** [cls, body]. */
const BENIGN: readonly (readonly [string, string])[] = [
  // English
  ['en/none', 'Password: none (key auth only)'],
  ['en/vault-ref', 'password: see 1Password → Infra → staging-db'],
  ['en/rotated', 'API key: rotated on 2024-03-02, the new one is in Vault'],
  ['en/cli-help', '```\n  -p, --password <password>   Password to use when connecting to server\n  -u, --user <name>           User for login\n```'],
  ['en/cli-help', '```\nUsage: redis-cli [OPTIONS] [cmd [arg [arg ...]]]\n  -a <password>      Password to use when connecting to the server.\n```'],
  ['en/changelog', '## 2.3.1\n- Fixed: password field no longer trims trailing spaces\n- Added `--token-file` to read the token from a file'],
  ['en/config-doc', '`DB_PASSWORD` (required): the database password. Defaults to empty.'],
  ['en/config-table', '| Variable | Description |\n|---|---|\n| `REDIS_PASSWORD` | Password for Redis, optional |'],
  ['en/state', 'token: expired, ask Sam for a new one'],
  ['en/k8s-ref', 'secret: stored in the k8s secret `db-creds` (key `password`)'],
  ['en/shell-sub', '`PGPASSWORD=$(pass show db/staging) psql -h staging-db -U app`'],
  ['en/prose', 'Password reset emails go out via SES now.'],
  ['en/prose', 'auth: token (not password) since v3'],
  ['en/same-as', 'Password: same as the wifi one'],
  ['en/ask', 'Password: ask Anna'],
  ['en/usual', 'passphrase: the usual one'],
  ['en/na', 'pw: n/a'],
  ['en/gha', '```yaml\nenv:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n```'],
  ['en/shell-sub', 'export VAULT_TOKEN=$(vault login -token-only -method=oidc)'],
  ['en/prose', 'The token TTL is 24h; refresh tokens last 30 days.'],
  ['en/policy', 'Secret rotation: every 90 days, owner: platform team'],
  ['en/kubectl', '`kubectl create secret generic db-creds --from-literal=password=$DB_PASSWORD`'],
  ['en/config-doc', '```yaml\npassword_min_length: 12\npassword_require_symbol: true\n```'],
  ['en/policy', 'password expiry: 90 days'],
  ['en/state', 'Password: changed yesterday, the new one is in Bitwarden'],
  ['en/prose', 'passwords.txt was deleted from the repo and the history was rewritten.'],
  ['en/cli-help', '```\n--password-stdin   Take the password from stdin\n```\n\n`docker login -u ci --password-stdin < token.txt`'],
  ['en/config-doc', '```yaml\nauth:\n  password: ""  # set via AUTH_PASSWORD\n```'],
  ['en/state', 'Token: valid for 24 hours'],
  ['en/placeholder', 'curl -H "Authorization: Bearer $TOKEN" https://api.internal/v1/health'],
  ['en/state', 'api key: pending (requested from the vendor on Monday)'],
  ['en/prose', 'The client secret lives in the Azure app registration, not in the repo.'],
  ['en/cli-help', '```\nOptions:\n  --api-key TEXT      API key (or set ACME_API_KEY)\n  --token TEXT        Access token\n```'],
  ['en/changelog', '- v1.4.0: tokens are now hashed with SHA-256 before storage\n- v1.3.2: fixed the password strength meter on Safari'],
  ['en/config-doc', '`secret_key_base`: generated by `rails secret`, kept in credentials.yml.enc'],
  ['en/state', 'ssh key: ~/.ssh/id_ed25519 (passphrase in the keychain)'],
  ['en/prose', 'Postgres uses scram-sha-256 for password auth since we upgraded.'],
  ['en/dotenv-template', '```\nDATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app\nREDIS_URL=redis://:${REDIS_PASSWORD}@redis:6379\n```'],
  // German
  ['de/vault-ref', 'Passwort: siehe KeePass'],
  ['de/none', 'Passwort: keins'],
  ['de/policy', 'Passwort: muss alle 90 Tage geändert werden'],
  ['de/policy', 'Passwortrichtlinie: mindestens 12 Zeichen, eine Ziffer'],
  ['de/same-as', 'Kennwort: wie beim Mailkonto'],
  ['de/template', '```json\n{"Benutzer": "admin", "Passwort": "${PASSWORT}"}\n```'],
  ['de/changelog', '- Behoben: das Passwort wird nicht mehr im Log ausgegeben'],
  // French
  ['fr/vault-ref', 'Mot de passe : voir le coffre KeePass'],
  ['fr/none', 'Mot de passe : aucun'],
  ['fr/prose', 'mot de passe oublié → lien de réinitialisation valable 30 min'],
  // Spanish
  ['es/usual', 'Contraseña: la de siempre'],
  ['es/vault-ref', 'contraseña: ver Bitwarden'],
  ['es/none', 'Contraseña: ninguna'],
  // Italian, Portuguese, Dutch, Polish, Turkish
  ['it/vault-ref', 'Password: vedi il vault'],
  ['it/none', 'password: nessuna'],
  ['pt/none', 'Senha: nenhuma'],
  ['pt/vault-ref', 'senha: ver o cofre'],
  ['nl/vault-ref', 'Wachtwoord: zie de kluis'],
  ['pl/none', 'Hasło: brak'],
  ['pl/vault-ref', 'Hasło: w menedżerze haseł'],
  ['tr/none', 'Şifre: yok'],
  ['tr/vault-ref', "Şifre: Vault'ta"],
  // Russian, Ukrainian
  ['ru/none', 'Пароль: нет'],
  ['ru/vault-ref', 'Пароль: см. Vault'],
  ['ru/ask', 'Пароль: спросить у Сергея'],
  ['ru/same-as', 'Пароль: тот же, что от почты'],
  ['ru/vault-ref', 'Пароль: в KeePass, запись «Прод БД»'],
  ['ru/policy', 'Пароль должен содержать не менее 12 символов.'],
  ['ru/template', '```json\n{"логин": "admin", "пароль": "${DB_PASSWORD}"}\n```'],
  ['ru/placeholder', '```json\n{"логин": "admin", "пароль": "<пароль>"}\n```'],
  ['ru/required', 'Пароль: обязателен'],
  ['ru/changelog', '- Исправлено: пароль больше не выводится в лог'],
  ['ru/one-word', 'Пароль: сменён'],
  ['ru/one-word', 'Токен: истёк'],
  ['uk/none', 'Пароль: немає'],
  ['uk/vault-ref', 'Пароль: у менеджері паролів'],
  // Japanese, Chinese, Korean
  ['ja/none', 'パスワード：なし'],
  ['ja/vault-ref', 'パスワード：1Passwordを参照'],
  ['ja/policy', 'パスワードは12文字以上にしてください。'],
  ['zh/vault-ref', '密码：见 1Password'],
  ['zh/none', '密码：无'],
  ['zh/policy', '密码至少 12 位，包含数字。'],
  ['ko/none', '비밀번호: 없음'],
  ['ko/vault-ref', '비밀번호: 1Password 참고'],
  // Second batch (as above).
  ['de/label-status', 'Passwort geändert: gestern'],
  ['de/label-status', 'Passwort vergessen: Link kommt per Mail'],
  ['fr/label-status', 'Mot de passe oublié : voir le support'],
  ['ru/login-block-status', 'Логин: admin\nПароль: сменён, новый в KeePass'],
  ['ru/login-block-vault', 'Логин: admin\nПароль: см. Vault'],
  ['ru/login-block-none', 'Логин: guest\nПароль: нет'],
  ['ru/status', 'Пароль: временный'],
  ['ru/status', 'Пароль: истёк'],
  ['uk/status', 'Пароль: змінено'],
  ['pl/status', 'Hasło: zmienione'],
  ['de/status', 'Passwort: geändert'],
  ['es/status', 'Contraseña: caducó'],
  ['ja/status', 'パスワード：変更済み'],
  ['zh/status', '密码：已修改'],
  ['en/login-block-status', 'User: admin\nPassword: changed last week'],
  ['ru/policy-label', 'Требования к паролю: не менее 12 символов'],
  ['de/docs', '| Feld | Beschreibung |\n|---|---|\n| Passwort | Das Passwort des Benutzers |'],
  // Third batch (as above).
  ['ru/login-block-ask', 'Логин: admin\nПароль: спросить у Пети'],
  ['ru/login-block-same', 'Логин: admin\nПароль: такой же'],
  ['ru/login-block-template', 'Логин: admin\nПароль: ${DB_PASSWORD}'],
  ['de/login-block-vault', 'Benutzer: admin\nPasswort: Bitwarden'],
  ['es/login-block-none', 'Usuario: invitado\nContraseña: ninguna'],
  ['fr/label-for-vault', 'Mot de passe pour la box : voir KeePass'],
  ['it/label-for-status', 'Password della stampante: cambiata'],
  ['de/label-for-sentence', 'Passwort für den Router: steht auf dem Aufkleber'],
  ['ru/json-template', '```json\n{"пароль": "{{ vault_password }}"}\n```'],
  ['de/json-ui-text', '```json\n{"Passwort": "Passwort vergessen?"}\n```'],
  ['ja/json-ui-text', '```json\n{"パスワード": "パスワードを入力"}\n```'],
  ['en/vault-word', 'The password is in Vault; the token is in Bitwarden.'],
  ['en/cli-help', '```\n  --vault-password-file FILE   vault password file\n  --ask-vault-pass             ask for vault password\n```'],
  ['ru/changelog', '## 1.2.0\n- Пароль: теперь хранится в KeePass\n- Логин: без изменений'],
  ['pl/policy', 'Hasło do poczty: minimum 12 znaków, zmiana co 90 dni'],
  ['ru/how-to', 'Пароль от роутера: на наклейке снизу'],
];

export function occurrences(s: string, word: string): number {
  let n = 0;
  for (let i = s.indexOf(word); i >= 0; i = s.indexOf(word, i + 1)) n += 1;
  return n;
}

/** The secret notes; throws if a value is not in its note exactly once (the scorer counts on it). */
export function ownSecretNotes(): OwnSecretNote[] {
  return SECRETS.map(([cls, secret, body], i) => {
    const note = inNote(body, i);
    if (occurrences(note, secret) !== 1) throw new Error(`dev-own-notes: ${cls} holds ${secret} ${occurrences(note, secret)} times`);
    return { cls, secret, note };
  });
}

export function ownBenignNotes(): OwnBenignNote[] {
  return BENIGN.map(([cls, body], i) => ({ cls, note: inNote(body, i) }));
}

/**
 * Batch 5 of the memory notes written here by hand (issue 40, 2026-12-07, tenth session), aimed at what the
 * dev sets under-represent: BENIGN memory notes as Claude Code keeps them (project facts, debugging notes,
 * runbooks, decision logs, commit and PR summaries, config explanations) that talk about credentials without
 * holding one: error messages quoting `password authentication failed`, key names such as `API_KEY` without a
 * value, token counts, hashes, ids, UUIDs, commit SHAs, base64 images, URLs with query parameters, JWT
 * explanations, `Authorization: Bearer $TOKEN`, rotation policies and expiry times, tables of variable names,
 * code that reads a secret from the environment or a vault, Kubernetes `secretKeyRef`, CI `${{ secrets.X }}`,
 * `.env.example`, password-reset flows, integrity hashes, public keys. And secrets in the forms the earlier
 * batches still miss (a Chinese, Japanese, Korean or Thai word alone after the word; a German pass phrase after
 * a label of what it is for; `the pass is …`; `pw …`) and in commands, URLs, tables, YAML, JSON and `.env`.
 *
 * Written in one go, before the redaction was run on any of them. Split by position, fixed before the first
 * run: the even entries of each list are the half the rules are tuned on (`tune`), the odd ones the check,
 * reported on its own row and never tuned on or shown (`check`). Neighbouring entries are written as pairs of
 * a form, so each half holds one of most pairs. Every note is dev: none is a test-half sample or copied from
 * one.
 *
 * A secret's value occurs once in its note (checked on load), as in dev-own-notes.ts.
 */
import type { OwnBenignNote, OwnSecretNote } from './dev-own-notes.js';
import { splitBenignNotes, splitSecretNotes, type Half } from './dev-own-notes-4.js';

/** [cls, secret, body]. */
const SECRETS: readonly (readonly [string, string, string])[] = [
  // A word in a script without spaces, alone after the word and its colon.
  ['ja/colon-kana-alone', 'さくらんぼ', 'NASのパスワード：さくらんぼ'],
  ['ja/colon-kanji-alone', '富士山', 'ルーターのパスワード: 富士山'],
  ['zh/colon-han-alone', '小兔子', 'Wi-Fi 密码：小兔子'],
  ['zh/colon-han-alone', '白菜汤', '数据库密码: 白菜汤'],
  ['ko/colon-hangul-alone', '고양이', '공유기 비밀번호: 고양이'],
  ['ko/colon-hangul-alone', '바다소리', '와이파이 비밀번호: 바다소리'],
  ['th/colon-thai-alone', 'ดอกไม้', 'รหัสผ่าน wifi: ดอกไม้'],
  ['th/colon-thai-alone', 'ทะเลสาบ', 'รหัสผ่าน: ทะเลสาบ'],
  ['ja/quoted-sentence', 'たまご', 'パスワードは「たまご」です'],
  ['zh/quoted-sentence', '西瓜皮', '路由器密码是“西瓜皮”'],
  // A German pass phrase after a label of what it is for.
  ['de/passphrase-for', 'blaue Wolke singt laut', 'Passphrase für den Tresor: blaue Wolke singt laut'],
  ['de/password-for', 'rote Tomaten wachsen langsam', 'Passwort für das Backup: rote Tomaten wachsen langsam'],
  // `pass is …` and `pw …`.
  ['en/pass-is', 'marigold', 'the office alarm pass is marigold'],
  ['en/pass-is', 'wombat', 'Jenkins: user is ci, pass is wombat'],
  ['en/pw-short', 'Gr8day!', 'ssh deploy@bastion, pw Gr8day!'],
  ['en/pw-short', 'Kiwi#42', 'vpn pw Kiwi#42 (expires in march)'],
  // Command lines.
  ['en/mysql-glued', 'rootroot', 'mysql -uroot -prootroot -e "show databases"'],
  ['en/mysql-long', 'Secr3t!', 'mysql --user=root --password=Secr3t! shop'],
  ['en/redis-a', 'r3disPass', 'redis-cli -h cache.internal -a r3disPass ping'],
  ['en/curl-u', 'hunter22', 'curl -u admin:hunter22 http://localhost:9200/_cat/indices'],
  ['en/pgpassword-inline', 'pgpass123', 'PGPASSWORD=pgpass123 psql -h localhost -U postgres'],
  ['en/sshpass', 'raspberry1', 'sshpass -p raspberry1 ssh pi@192.168.1.50'],
  ['en/docker-login', 'dockerpw77', 'docker login -u builder -p dockerpw77 registry.lan:5000'],
  ['en/smbclient', 'Samba2020', 'smbclient //nas/share -U alice%Samba2020'],
  ['en/psql-conninfo', 'pgadmin9', 'psql "host=db user=postgres password=pgadmin9 dbname=app"'],
  ['en/env-inline', 'minio123', 'MINIO_ROOT_USER=minio MINIO_ROOT_PASSWORD=minio123 minio server /data'],
  ['en/docker-run-env', 'mysqlroot', 'docker run -e MYSQL_ROOT_PASSWORD=mysqlroot -d mysql:8'],
  ['en/ansible-extra-vars', 'deploy2024', 'ansible all -i hosts -u deploy --extra-vars "ansible_password=deploy2024"'],
  ['en/netrc', 'netrcpw', 'machine api.home.lan login me password netrcpw'],
  ['en/htpasswd', 'letmein99', 'htpasswd -b .htpasswd admin letmein99'],
  // URLs.
  ['en/mongo-url', 'mongoPw1', 'MONGO_URL=mongodb://app:mongoPw1@mongo:27017/app?authSource=admin'],
  ['en/amqp-url', 'guestguest', 'Broker: amqp://rabbit:guestguest@mq.local:5672/'],
  ['en/redis-url', 'cachepass', 'REDIS_URL=redis://:cachepass@redis:6379/0'],
  ['en/ftp-url', 'ftp2024', 'Old backups: ftp://backup:ftp2024@files.lindqvist.net/archive'],
  ['en/git-url-token', 'glpat-abcdEFGH1234ijklMNOP', 'git clone https://oauth2:glpat-abcdEFGH1234ijklMNOP@gitlab.com/team/app.git'],
  ['en/pip-index-url', 'pypiPass9', 'pip install -i https://deploy:pypiPass9@pypi.internal/simple app'],
  // Tables.
  ['en/table-pair-cell', 'Admin123', '| Service | URL | Login |\n|---|---|---|\n| Portainer | https://nas:9443 | admin / Admin123 |'],
  ['en/table-pass-column', 'qwerty', '| Host | User | Pass |\n|---|---|---|\n| printer | admin | qwerty |'],
  ['en/table-pin-column', '5521', '| Lock | PIN |\n|---|---|\n| Safe | 5521 |'],
  ['en/table-secret-column', 'bananas', '| App | Secret |\n|---|---|\n| dev jwt | bananas |'],
  // YAML, JSON, INI, TOML, XML.
  ['en/yaml-changeme', 'changeme', '```yaml\ndatabase:\n  host: localhost\n  username: app\n  password: changeme\n```'],
  ['en/yaml-quoted', 'Welcome1', "```yaml\nldap:\n  bind_dn: cn=admin,dc=home\n  bind_password: 'Welcome1'\n```"],
  ['en/json-pass', 'admin123', '```json\n{ "host": "10.0.0.5", "user": "admin", "pass": "admin123" }\n```'],
  ['en/json-secret', 'shhh-its-me', '```json\n{\n  "client_id": "grafana",\n  "client_secret": "shhh-its-me"\n}\n```'],
  ['en/ini', 'ircpass', '```ini\n[irc]\nnick = bot\npassword = ircpass\n```'],
  ['en/toml', 'hamster', '```toml\n[smtp]\nuser = "me@home.lan"\npassword = "hamster"\n```'],
  ['en/xml-property', 'Pa55word', '<property name="password" value="Pa55word"/>'],
  ['en/k8s-stringdata', 'supersecret', '```yaml\nkind: Secret\nstringData:\n  password: supersecret\n```'],
  ['en/connection-string', 'Sql2019!', 'Server=sql01;Database=crm;User Id=sa;Password=Sql2019!;'],
  ['en/jdbc-slash', 'oraclepw', 'jdbc:oracle:thin:scott/oraclepw@db:1521/ORCL'],
  // .env.
  ['en/env', 'password1', 'DB_PASSWORD=password1'],
  ['en/env-quoted', 'qwerty123', 'MYSQL_ROOT_PASSWORD="qwerty123"'],
  // Prose and lists.
  ['en/prose-is', 'letmein', 'The staging database password is letmein'],
  ['en/prose-set-to', 'dragon', 'Set the Grafana admin password to dragon for now'],
  ['en/prose-door-code', '6174', 'Door code for the server room is 6174'],
  ['en/prose-pin', '2468', 'phone unlock pin 2468'],
  ['en/passphrase-quoted', 'the quick brown fox', "Wallet passphrase: 'the quick brown fox'"],
  ['en/wifi-prose', 'goldfish7', 'wifi password for the guest room is goldfish7'],
  ['en/list-nested', 'monkey12', '- Router: 192.168.0.1\n  - user: admin\n  - pass: monkey12'],
  ['en/pw-colon', 'Spring2025!', 'pw: Spring2025!'],
  ['en/user-slash-password', 'nimda', 'user / password: admin / nimda'],
  ['en/creds-colon-pair', 's3cret', 'creds: root:s3cret'],
  ['en/login-colon-pair', 't0mcat', 'Tomcat manager login: tomcat:t0mcat'],
  ['en/api-key-prose', '3f9c2a7b81d44e0fa6c15b2e9d7a3c08', 'weather API key is 3f9c2a7b81d44e0fa6c15b2e9d7a3c08'],
  ['en/bearer-jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.Xh3k9Qm2LrV8sT1uW5yZ0aB4cD6eF7gH', 'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.Xh3k9Qm2LrV8sT1uW5yZ0aB4cD6eF7gH" https://api.lan/me'],
  ['en/token-prose', 'tok_9a8b7c6d5e4f3a2b1c0d', 'the webhook token is tok_9a8b7c6d5e4f3a2b1c0d'],
  ['en/jwt-secret-colon', 'pineapple', 'JWT secret: pineapple (dev only)'],
  ['en/secret-in-memory-frontmatter', 'Otter#2026', '---\nname: nas-access\ndescription: How to reach the NAS\ntype: reference\n---\nSSH as admin, password Otter#2026, port 2222.'],
  // Other languages in a sentence.
  ['de/passwort-ist', 'Sonnenblume', 'Das WLAN-Passwort ist Sonnenblume'],
  ['fr/mdp-est', 'framboise', 'Le mot de passe du routeur est framboise'],
  ['es/contrasena-es', 'mariposa', 'La contraseña del wifi es mariposa'],
  ['pt/senha-e', 'abacaxi', 'A senha do wifi é abacaxi'],
];

/** [cls, body]. */
const BENIGN: readonly (readonly [string, string])[] = [
  // Error messages quoting a credential word.
  ['en/error-pg', 'Postgres login failed with `FATAL: password authentication failed for user "app"`: the pod had the old secret mounted; restarted it.'],
  ['en/error-mysql', "`ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)` means the password is wrong, not missing."],
  ['en/error-401', '`401 Unauthorized: invalid_token (token expired)` from the API after the laptop slept; logging in again fixes it.'],
  ['en/error-k8s-secret', '`Error: secret "app-tls" not found`: the cert-manager Certificate had a typo in secretName.'],
  ['en/error-sudo', '`sudo: a password is required` in CI: the runner user lacks NOPASSWD; added it to sudoers.d.'],
  ['en/error-missing-key', 'The CLI reads `OPENAI_API_KEY` from the environment; without it it exits with "missing API key".'],
  ['en/error-ssh', '`Permission denied (publickey,password).` on the new box: my key was not in authorized_keys yet.'],
  ['en/error-git', '`remote: Invalid username or password. fatal: Authentication failed for \'https://github.com/acme/app.git/\'`: GitHub wants a PAT, not the account password.'],
  // Key names without a value.
  ['en/env-names', 'Env vars the app needs: `DATABASE_URL`, `REDIS_URL`, `SESSION_SECRET`, `STRIPE_SECRET_KEY`. All in 1Password, item "App prod".'],
  ['en/env-names', 'Set API_KEY in the shell before running the integration tests; if it is empty the client falls back to anonymous mode.'],
  ['en/env-table', '| Variable | Purpose | Where |\n|---|---|---|\n| `DB_PASSWORD` | Postgres password | Vault `kv/app/db` |\n| `JWT_SECRET` | signs session tokens | Vault `kv/app/jwt` |\n| `SMTP_PASS` | mail relay | GitHub secret |'],
  ['en/env-table', '| Name | Required | Notes |\n|---|---|---|\n| `GITHUB_TOKEN` | yes | needs `repo` scope |\n| `SLACK_WEBHOOK_URL` | no | alerts only |\n| `ADMIN_PASSWORD` | first boot | change it after login |'],
  ['en/env-example', '```\n# .env.example: copy to .env and fill in\nDATABASE_URL=\nSESSION_SECRET=<random 32 bytes>\nSTRIPE_SECRET_KEY=sk_test_...\n```'],
  ['en/env-example', '`.env.example` lists every key with an empty value; `.env` itself is in .gitignore.'],
  // Token counts and model settings.
  ['en/token-count', 'Token usage last run: 182,344 input tokens, 12,903 output tokens (cache hit 71 %).'],
  ['en/token-count', 'The context window fills at about 180k tokens; compaction starts at 95 %.'],
  ['en/token-settings', '```yaml\nmodel: claude-sonnet\nmax_tokens: 4096\ntemperature: 0.2\n```'],
  ['en/token-count', 'Token counts per file: README 1.2k, architecture.md 4.8k, CHANGELOG 9.1k.'],
  // Hashes, ids, SHAs.
  ['en/commit-sha', 'Commit 4f2a9c1e8b7d6a5f3c2b1a0e9d8c7b6a5f4e3d2c fixed the token refresh race.'],
  ['en/short-sha', 'Fixed in a1b2c3d (PR #412): the refresh token is now rotated on every use.'],
  ['en/request-id', 'Request id 7c9e6679-7425-40de-944b-e07fc1f90ae7 in the logs shows the 401 from the auth service.'],
  ['en/uuids', 'Tenant 3f1e2d4c-5b6a-4978-8d9e-0a1b2c3d4e5f, workspace 9a8b7c6d-5e4f-4a3b-8c1d-0e9f8a7b6c5d (both prod).'],
  ['en/checksum', 'Backup checksum: sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  ['en/image-digest', 'Docker image: ghcr.io/acme/api@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['en/integrity', '`"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="` changed in package-lock after the npm upgrade; harmless.'],
  ['en/yarn-resolved', 'yarn.lock: `resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#679591c564c3bffaae8454cf0b3df370c3d6911c"`'],
  ['en/ssh-fingerprint', 'ssh-keygen -t ed25519 -C "me@laptop"; fingerprint SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8'],
  ['en/gpg-id', 'GPG signing key: 3AA5C34371567BD2 (expires 2027-06-01)'],
  ['en/job-id', 'Token rotation job: last run 2026-12-01, job id 5f3c9a1e, status ok'],
  ['en/build-id', 'Build 2026.11.3 (git 9c1d2e3): the token bucket limiter is set to 100 requests a minute.'],
  // Base64 images and public keys.
  ['en/data-uri', 'The tracking pixel is `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==`'],
  ['en/public-key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop is in authorized_keys on the NAS'],
  ['en/age-recipient', 'sops recipient (public): age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p'],
  ['en/publishable', 'Stripe: the publishable key starts with pk_live_, the secret key with sk_live_; only the publishable one goes to the browser.'],
  // URLs with query parameters.
  ['en/url-query', 'Grafana dashboard: https://grafana.lan/d/abc123/nodes?orgId=1&refresh=30s&from=now-6h'],
  ['en/url-query', 'Open auth issues: https://github.com/acme/app/issues?q=is%3Aopen+label%3Aauth+token&page=2'],
  ['en/url-callback', 'OAuth callback: http://localhost:3000/callback?code=<code>&state=<state>'],
  ['en/url-expires', 'Presigned uploads use `X-Amz-Expires=3600`; the URL is valid for an hour.'],
  // JWT explanations and bearer headers with a variable.
  ['en/jwt-explain', 'A JWT is three base64url parts, header.payload.signature. We verify the signature with the public key from the JWKS endpoint; never log the token.'],
  ['en/jwt-explain', 'Access tokens are JWTs signed with RS256; `kid` picks the key, `exp` is 15 minutes after `iat`.'],
  ['en/bearer-var', '`Authorization: Bearer $TOKEN`, where TOKEN comes from `gh auth token`.'],
  ['en/bearer-var', '```bash\ncurl -H "Authorization: Bearer ${API_TOKEN}" https://api.internal/v1/health\n```'],
  // Rotation and expiry.
  ['en/rotation', 'Rotate the deploy key every 90 days; next rotation due 2027-01-15.'],
  ['en/expiry', 'The access token expires in 1h, the refresh token in 30 days.'],
  ['en/session-cookie', 'Session cookie `sid` is HttpOnly, Secure, SameSite=Lax; max-age 86400.'],
  ['en/expiry', 'PAT for CI expires on 2027-03-01, calendar reminder set.'],
  // Code that reads a secret from somewhere.
  ['en/code-env-ts', "```ts\nconst apiKey = process.env.ANTHROPIC_API_KEY;\nif (!apiKey) throw new Error('ANTHROPIC_API_KEY is not set');\n```"],
  ['en/code-env-py', '```python\npassword = os.environ["DB_PASSWORD"]\nconn = psycopg.connect(host=host, password=password)\n```'],
  ['en/code-vault-go', '```go\nsecret, err := client.Logical().Read("secret/data/app")\n```'],
  ['en/code-keyring', '`keyring.get_password("app", "db")` returns None on headless boxes; fall back to the environment.'],
  ['en/code-secrets-module', 'Tokens are made with `secrets.token_urlsafe(32)` (Python `secrets` module).'],
  ['en/code-config', "```js\nmodule.exports = {\n  password: process.env.SMTP_PASSWORD,\n  user: process.env.SMTP_USER,\n};\n```"],
  // Kubernetes and CI.
  ['en/k8s-secretkeyref', '```yaml\nenv:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: app-db\n        key: password\n```'],
  ['en/k8s-kubectl', '`kubectl get secret app-db -o jsonpath="{.data.password}" | base64 -d` prints the password; do not paste it here.'],
  ['en/ci-secrets', '```yaml\n- uses: docker/login-action@v3\n  with:\n    username: ${{ github.actor }}\n    password: ${{ secrets.GITHUB_TOKEN }}\n```'],
  ['en/ci-secrets', '```yaml\nenv:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n```'],
  // Vaults and password managers.
  ['en/vault-cmd', '`vault kv get -field=password kv/app/db`'],
  ['en/op-read', '`op read "op://Private/NAS/password"`'],
  ['en/aws-sm', '`aws secretsmanager get-secret-value --secret-id prod/app/db --query SecretString`'],
  ['en/keychain', '`security find-generic-password -s "wifi" -w` prints the wifi password from the keychain.'],
  ['en/pm-where', 'Team passwords: Bitwarden org "Acme", collection Infra.'],
  ['en/pm-migration', 'Password manager migration: LastPass to Bitwarden finished on 2026-09-14.'],
  ['en/aws-creds-file', 'Access key id and secret are in ~/.aws/credentials under [prod]; never copy them here.'],
  ['en/git-credential-helper', '`git config --global credential.helper osxkeychain` stores the PAT in the keychain.'],
  ['en/gh-token-file', '`gh auth login --with-token < token.txt` (token.txt lives in ~/.config, mode 600)'],
  ['en/token-file-flag', '`--token-file ~/.config/app/token` is read at start; the file must be 0600.'],
  // Config explanations.
  ['en/pg-conf', '`password_encryption = scram-sha-256` in postgresql.conf; md5 is deprecated.'],
  ['en/sshd', '`PasswordAuthentication no` in sshd_config, keys only.'],
  ['en/pg-hba', 'pg_hba.conf: `host all all 10.0.0.0/8 scram-sha-256`'],
  ['en/bcrypt', 'Password hashing: bcrypt cost 12; a hash looks like `$2b$12$` and 53 more characters.'],
  ['en/keycloak', 'Keycloak: the admin password is set at first boot from `KEYCLOAK_ADMIN_PASSWORD`; after that, change it in the UI.'],
  ['en/sentry', 'The Sentry DSN is public by design; it lives in `SENTRY_DSN`.'],
  // Flows, decisions, PRs and commits.
  ['en/reset-flow', 'Password reset: the user clicks "Forgot password", gets an email with a one-time link (token valid 15 min) and sets a new password; old sessions are revoked.'],
  ['en/decision', 'Decision (2026-10-02): store API keys hashed (sha256) and show only the last 4 characters in the UI.'],
  ['en/pr-summary', 'PR #233 "auth: move secrets to Vault" replaces the hard-coded passwords in docker-compose with `${...}` variables; reviewers Sam and Priya.'],
  ['en/commit-summary', 'feat(auth): add a password strength meter (zxcvbn), reject scores below 3'],
  ['en/meeting', 'Agreed to require passkeys for admins by Q1; passwords stay for customers.'],
  ['en/bug', 'Bug: the password input lost focus on every keystroke (the React key changed); fixed in 8e1f0a2.'],
  ['en/ui', 'The login form has the fields `username` and `password`; the submit button stays disabled until both are filled.'],
  ['en/ui', 'Password field max length was 64; raised to 128 for passphrases.'],
  ['en/flag', 'Passwordless login by magic link is behind the flag `auth.magic_link`.'],
  ['en/2fa', '2FA: TOTP in Authy; backup codes printed and in the safe.'],
  ['en/sso', 'SSO through Okta; no local passwords except the break-glass admin (sealed envelope in the safe).'],
  ['en/secret-scanning', 'Secret scanning alert #17 closed as a false positive (test fixture).'],
  ['en/linter-regex', 'The pre-commit check greps for `(password|secret|token)\\s*[:=]` and fails the commit.'],
  ['en/feedback', "Feedback: the user wants tokens never printed in the terminal; mask them as `***`."],
  ['en/memory-frontmatter', '---\nname: auth-flow\ndescription: How login and tokens work in the app\ntype: project\n---\nLogin posts to /api/session and the server sets an HttpOnly cookie. API clients send a personal access token in `Authorization: Bearer <token>`.'],
  ['en/memory-frontmatter', '---\nname: secrets-policy\ndescription: Where secrets live\ntype: feedback\n---\nNever write a password or token into memory; point to the vault path instead.'],
  // `pass` and `pw` that are not a password.
  ['en/pass-not-password', 'the boarding pass is in my email'],
  ['en/pass-not-password', 'CI pass is flaky on arm64, rerun once'],
  ['en/pass-not-password', '`pass show infra/nas` (pass, the unix password manager) prints it'],
  ['en/pass-not-password', 'Pass rate: 98 % (412/420 tests)'],
  ['en/pw-not-password', 'pw reset link expires after 15 min'],
  ['en/pw-not-password', 'pw manager: Bitwarden'],
  // Words in scripts without spaces that say where the password is or what happened to it.
  ['ja/where', 'パスワードは1Passwordの「NAS」に保存済み。'],
  ['ja/status', 'パスワード：変更済み'],
  ['zh/where', '密码保存在公司的 Vault 里，路径 kv/app/db。'],
  ['zh/status', '密码：已重置'],
  ['zh/status', '密码：见 1Password'],
  ['ko/where', '비밀번호는 팀 Bitwarden에 있음'],
  ['ko/status', '비밀번호: 없음'],
  ['th/where', 'รหัสผ่านอยู่ใน 1Password'],
  ['th/status', 'รหัสผ่าน: ไม่มี'],
  ['ja/status', 'パスワード：未設定'],
  // A German label of what it is for, then where it is.
  ['de/passphrase-for-where', 'Passphrase für den Tresor: steht im Notfallordner'],
  ['de/password-for-where', 'Passwort für das Backup: liegt im KeePass unter „Backup“'],
  ['de/policy', 'Passwort-Richtlinie: mindestens 12 Zeichen, alle 90 Tage ändern'],
  ['de/where', 'Das Passwort liegt im Tresor (KeePassXC, Eintrag „NAS“).'],
  ['fr/expiry', "Le token expire au bout d'une heure ; le rafraîchir avec /oauth/token."],
  // Talk about a password that is not written down.
  ['en/not-written', 'I told Sam the password over the phone; not writing it down.'],
  ['en/ask', 'Wi-Fi: ask the host for the password.'],
  ['en/pin-changes', 'PIN for the office door changes monthly; ask reception.'],
  ['en/pin-pad', 'The PIN pad on the safe beeps three times when the battery is low.'],
];

/** The secret notes of batch 5 with their half; throws if a value is not in its note exactly once. */
export function ownSecretNotesBatch5(): (OwnSecretNote & { half: Half })[] {
  return splitSecretNotes('dev-own-notes-5', SECRETS);
}

export function ownBenignNotesBatch5(): (OwnBenignNote & { half: Half })[] {
  return splitBenignNotes(BENIGN);
}

/**
 * Batch 6 of the memory notes written here (issue 40, 2026-12-07, twelfth session): credentials as people paste
 * them into their own notes in the forms credential files and commands really take: `.netrc`, `.pgpass`, Docker's
 * `config.json` auths, `Authorization: Basic/Bearer` headers from `curl -v`, JDBC/ODBC/ADO.NET connection strings,
 * kubeconfig `token:`/`client-key-data:`, `.htpasswd`, `sshpass -p`, `curl -u`, `wget --password=`,
 * `smbclient -U user%pass`, `PGPASSWORD=… psql`, `redis-cli -a`, `git clone https://user:token@…`, AWS
 * `credentials`, `.npmrc` `_authToken`/`_auth`, `pip.conf` index URLs, Maven `settings.xml`, `wpa_supplicant`
 * `psk=`, `openssl -passin pass:`, Ansible vault password files, 1Password/Bitwarden CLI output; and passwords in
 * Korean, Chinese, Japanese, Russian and Arabic notes with native-script values. Beside them, more benign notes
 * than secrets: the same files and commands with placeholders, `${VAR}`, `$VAR`, vault references, prompts,
 * credential helpers, and knowledge about the formats without a value.
 *
 * Written in one go, before the redaction was run on any of them and before any rule was read. Every value is
 * made up: drawn by a seeded generator (mulberry32, seed below) from made-up weak-common words or random
 * characters, never a real credential. Each secret form is drawn twice in a row and each benign form is written
 * as a pair, and the lists are split alternately (even entries `tune`, odd entries `check`), so each half holds
 * one of each form. The tune half is what the rules are tuned on (`dev-eval.ts --show` prints it); the check half
 * is counted only with `dev-eval.ts --check-6`, once at the end of the round, never shown line by line.
 *
 * A secret's value occurs once in its note (checked on load, as in dev-own-notes.ts).
 */
import { mulberry32 } from '../prng.js';
import type { OwnBenignNote, OwnSecretNote } from './dev-own-notes.js';
import { splitBenignNotes, splitSecretNotes, type Half } from './dev-own-notes-4.js';

const SEED = 6_2026_12_07;

type Rng = () => number;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = `${ALNUM}+/`;
const HEX = '0123456789abcdef';

function chars(rng: Rng, n: number, alphabet: string): string {
  let s = '';
  for (let i = 0; i < n; i += 1) s += alphabet[Math.floor(rng() * alphabet.length)];
  return s;
}

/** Made-up weak-common passwords, the kind people keep (words, years, a symbol), none taken from a list. */
const WEAK = ['sunflower7', 'Summer2025!', 'letmein22', 'dragonfly', 'Passw0rd!', 'monkey99', 'Hunter#12', 'qwerty2024', 'tiger123', 'Winter!24', 'chocolate1', 'P@ssword22', 'rainbow77', 'Marlin2019', 'kitty2020', 'Gandalf1', 'pancake88', 'Orange#7', 'football10', 'Welcome2026'];

/** A password: half the time weak-common, else random with a symbol or two (people's generated ones). */
function password(rng: Rng): string {
  if (rng() < 0.5) return pick(rng, WEAK);
  return chars(rng, 8 + Math.floor(rng() * 9), ALNUM) + pick(rng, ['', '!', '#', '-', '.', '%']) + chars(rng, 2, ALNUM);
}

const USERS = ['deploy', 'admin', 'svc_backup', 'jenkins', 'app', 'reporting', 'ops', 'mara'];
const HOSTS = ['nas.home.lan', 'db.internal', 'git.corp.lan', 'files.acme.io', 'build01', '10.0.4.12', 'registry.lan', 'pg-prod.acme.io'];
const DBS = ['app', 'analytics', 'shop', 'billing'];

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** A form of a secret: the k-th draw (0 or 1) gives [cls, secret, body]. */
type SecretForm = (rng: Rng, k: number) => readonly [string, string, string];

const SECRET_FORMS: readonly SecretForm[] = [
  // .netrc
  (rng) => { const v = password(rng); return ['netrc/one-line', v, `~/.netrc on the build box:\n\n    machine ${pick(rng, HOSTS)} login ${pick(rng, USERS)} password ${v}`]; },
  (rng) => { const v = password(rng); return ['netrc/multi-line', v, `\`\`\`\nmachine ${pick(rng, HOSTS)}\n  login ${pick(rng, USERS)}\n  password ${v}\n\`\`\``]; },
  // .pgpass
  (rng) => { const v = password(rng); return ['pgpass/line', v, `\`~/.pgpass\` on the laptop (chmod 600):\n\n    ${pick(rng, HOSTS)}:5432:${pick(rng, DBS)}:${pick(rng, USERS)}:${v}`]; },
  (rng) => { const v = password(rng); return ['pgpass/wildcards', v, `Added to .pgpass: \`*:*:*:${pick(rng, USERS)}:${v}\``]; },
  // Docker config.json auths (base64 of user:pass).
  (rng) => { const v = b64(`${pick(rng, USERS)}:${password(rng)}`); return ['docker/config-auths', v, `~/.docker/config.json after docker login:\n\`\`\`json\n{\n  "auths": {\n    "${pick(rng, HOSTS)}:5000": {\n      "auth": "${v}"\n    }\n  }\n}\n\`\`\``]; },
  // Headers pasted from curl -v.
  (rng) => { const v = b64(`${pick(rng, USERS)}:${password(rng)}`); return ['curl-v/basic', v, `curl -v output:\n\`\`\`\n> GET /api/v1/status HTTP/1.1\n> Host: ${pick(rng, HOSTS)}\n> Authorization: Basic ${v}\n> User-Agent: curl/8.5.0\n\`\`\``]; },
  (rng) => { const v = chars(rng, 24 + Math.floor(rng() * 20), `${ALNUM}-_`); return ['curl-v/bearer', v, `\`\`\`\n> POST /v2/jobs HTTP/2\n> host: ${pick(rng, HOSTS)}\n> authorization: Bearer ${v}\n> content-type: application/json\n\`\`\``]; },
  (rng, k) => { const v = k === 0 ? `${chars(rng, 20, ALNUM)}.${chars(rng, 10, ALNUM)}` : chars(rng, 32, HEX); return ['header/bearer-inline', v, `Copied from devtools for the repro: \`Authorization: Bearer ${v}\``]; },
  // JDBC, ODBC, ADO.NET.
  (rng) => { const v = password(rng); return ['jdbc/sqlserver', v, `jdbc:sqlserver://${pick(rng, HOSTS)}:1433;databaseName=${pick(rng, DBS)};user=${pick(rng, USERS)};password=${v};encrypt=true`]; },
  (rng) => { const v = password(rng); return ['jdbc/postgres-query', v, `spring.datasource.url=jdbc:postgresql://${pick(rng, HOSTS)}:5432/${pick(rng, DBS)}?user=${pick(rng, USERS)}&password=${v}&ssl=true`]; },
  (rng) => { const v = password(rng); return ['odbc/pwd', v, `DSN-less ODBC string: \`Driver={ODBC Driver 18 for SQL Server};Server=${pick(rng, HOSTS)};Database=${pick(rng, DBS)};Uid=${pick(rng, USERS)};Pwd=${v};\``]; },
  (rng) => { const v = password(rng); return ['adonet/password', v, `appsettings.Development.json:\n\`\`\`json\n"ConnectionStrings": { "Default": "Server=tcp:${pick(rng, HOSTS)},1433;Initial Catalog=${pick(rng, DBS)};User ID=${pick(rng, USERS)};Password=${v};Encrypt=True;" }\n\`\`\``]; },
  // kubeconfig.
  (rng) => { const v = chars(rng, 40 + Math.floor(rng() * 20), `${ALNUM}._-`); return ['kubeconfig/token', v, `\`\`\`yaml\nusers:\n- name: ${pick(rng, USERS)}\n  user:\n    token: ${v}\n\`\`\``]; },
  (rng) => { const v = b64(`-----BEGIN EC PRIVATE KEY-----\n${chars(rng, 64, B64)}\n${chars(rng, 48, B64)}\n-----END EC PRIVATE KEY-----\n`); return ['kubeconfig/client-key-data', v, `k3s kubeconfig, user part:\n\`\`\`yaml\n- name: default\n  user:\n    client-key-data: ${v}\n\`\`\``]; },
  // .htpasswd: the command with the password, and the line it writes (a crackable hash of a weak password).
  (rng) => { const v = password(rng); return ['htpasswd/command', v, `htpasswd -bc /etc/nginx/.htpasswd ${pick(rng, USERS)} '${v}'`]; },
  (rng) => { const v = `$apr1$${chars(rng, 8, `${ALNUM}./`)}$${chars(rng, 22, `${ALNUM}./`)}`; return ['htpasswd/line', v, `staging basic auth, /etc/nginx/.htpasswd:\n\n    ${pick(rng, USERS)}:${v}`]; },
  // Commands.
  (rng) => { const v = password(rng); return ['sshpass/p', v, `sshpass -p '${v}' scp backup.tar ${pick(rng, USERS)}@${pick(rng, HOSTS)}:/srv/`]; },
  (rng) => { const v = password(rng); return ['curl/u', v, `curl -u ${pick(rng, USERS)}:${v} -X POST https://${pick(rng, HOSTS)}/api/reload`]; },
  (rng) => { const v = password(rng); return ['wget/password', v, `wget --user=${pick(rng, USERS)} --password=${v} https://${pick(rng, HOSTS)}/exports/latest.csv`]; },
  (rng) => { const v = password(rng); return ['wget/http-password', v, `wget --http-user=${pick(rng, USERS)} --http-password='${v}' -O dump.sql.gz https://${pick(rng, HOSTS)}/dump`]; },
  (rng) => { const v = password(rng); return ['smbclient/U', v, `smbclient -U '${pick(rng, USERS)}%${v}' //${pick(rng, HOSTS)}/scans -c 'ls'`]; },
  (rng) => { const v = password(rng); return ['pgpassword/export', v, `export PGPASSWORD='${v}'\npsql -h ${pick(rng, HOSTS)} -U ${pick(rng, USERS)} ${pick(rng, DBS)}`]; },
  (rng) => { const v = password(rng); return ['redis-cli/a', v, `redis-cli -h ${pick(rng, HOSTS)} -p 6380 -a '${v}' --no-auth-warning info memory`]; },
  (rng, k) => { const v = k === 0 ? `ghp_${chars(rng, 36, ALNUM)}` : password(rng); return ['git/clone-userinfo', v, `git clone https://${pick(rng, USERS)}:${v}@${k === 0 ? 'github.com' : pick(rng, HOSTS)}/acme/infra.git`]; },
  // AWS credentials.
  (rng) => { const v = chars(rng, 40, `${ALNUM}/+`); return ['aws/credentials-ini', v, `\`\`\`ini\n[default]\naws_access_key_id = AKIA${chars(rng, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}\naws_secret_access_key = ${v}\nregion = eu-west-1\n\`\`\``]; },
  (rng) => { const v = chars(rng, 40, `${ALNUM}/+`); return ['aws/credentials-profile', v, `~/.aws/credentials, profile for the backup job:\n\n    [backup]\n    aws_secret_access_key=${v}`]; },
  // .npmrc.
  (rng) => { const v = `npm_${chars(rng, 36, ALNUM)}`; return ['npmrc/authToken', v, `.npmrc:\n\n    //registry.npmjs.org/:_authToken=${v}`]; },
  (rng) => { const v = [8, 4, 4, 4, 12].map((n) => chars(rng, n, HEX)).join('-'); return ['npmrc/registry-token-uuid', v, `Nexus npm token in ~/.npmrc: \`//${pick(rng, HOSTS)}/repository/npm-group/:_authToken=${v}\``]; },
  (rng) => { const v = b64(`${pick(rng, USERS)}:${password(rng)}`); return ['npmrc/_auth', v, `\`\`\`\nregistry=https://${pick(rng, HOSTS)}/npm/\n_auth=${v}\nalways-auth=true\n\`\`\``]; },
  // pip.
  (rng) => { const v = password(rng); return ['pip/conf-index-url', v, `\`\`\`ini\n[global]\nindex-url = https://${pick(rng, USERS)}:${v}@${pick(rng, HOSTS)}/simple\n\`\`\``]; },
  (rng) => { const v = password(rng); return ['pip/env-index-url', v, `PIP_INDEX_URL=https://${pick(rng, USERS)}:${v}@${pick(rng, HOSTS)}/repository/pypi/simple pip install -r requirements.txt`]; },
  // Maven settings.xml.
  (rng) => { const v = password(rng); return ['maven/settings-server', v, `~/.m2/settings.xml:\n\`\`\`xml\n<server>\n  <id>nexus</id>\n  <username>${pick(rng, USERS)}</username>\n  <password>${v}</password>\n</server>\n\`\`\``]; },
  (rng) => { const v = password(rng); return ['maven/settings-inline', v, `settings.xml: \`<server><id>releases</id><username>${pick(rng, USERS)}</username><password>${v}</password></server>\``]; },
  // wpa_supplicant.
  (rng) => { const v = password(rng); return ['wpa/psk-quoted', v, `/etc/wpa_supplicant/wpa_supplicant.conf on the Pi:\n\`\`\`\nnetwork={\n    ssid="${pick(rng, ['HomeNet', 'Fritz-7F2A', 'attic'])}"\n    psk="${v}"\n}\n\`\`\``]; },
  (rng) => { const v = chars(rng, 64, HEX); return ['wpa/psk-hex', v, `network={\n  ssid="cabin"\n  psk=${v}\n}`]; },
  // openssl.
  (rng) => { const v = password(rng); return ['openssl/passout', v, `openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:${v}`]; },
  (rng) => { const v = password(rng); return ['openssl/passin', v, `openssl rsa -in server.key -passin 'pass:${v}' -out server.nopass.key`]; },
  // Ansible vault.
  (rng) => { const v = password(rng); return ['ansible/vault-pass-file', v, `echo '${v}' > ~/.vault_pass.txt && chmod 600 ~/.vault_pass.txt`]; },
  (rng) => { const v = password(rng); return ['ansible/vault-password-label', v, `ansible-vault password for group_vars/all/vault.yml: ${v}`]; },
  // 1Password and Bitwarden CLI output.
  (rng) => { const v = password(rng); return ['1password/op-item-get', v, `\`\`\`\n$ op item get "NAS" --reveal\nID:          ${chars(rng, 26, 'abcdefghijklmnopqrstuvwxyz0123456789')}\nTitle:       NAS\nVault:       Private\nFields:\n  username:    ${pick(rng, USERS)}\n  password:    ${v}\n\`\`\``]; },
  (rng) => { const v = password(rng); return ['1password/op-read-output', v, `\`\`\`\n$ op read op://Infra/${pick(rng, ['router', 'nas', 'pg-prod'])}/password\n${v}\n\`\`\``]; },
  (rng) => { const v = password(rng); return ['bitwarden/bw-get-password', v, `\`\`\`\n$ bw get password ${pick(rng, HOSTS)}\n${v}\n\`\`\``]; },
  (rng) => { const v = password(rng); return ['bitwarden/item-json', v, `bw get item router:\n\`\`\`json\n{"object":"item","name":"router","login":{"username":"${pick(rng, USERS)}","password":"${v}","totp":null}}\n\`\`\``]; },
  // Native scripts: the value in the note's own script.
  (rng, k) => { const v = pick(rng, ['해바라기', '별빛바다', '초코우유', '무지개다리', '달빛정원', '파란하늘']); return ['ko/native-value', v, k === 0 ? `공유기 관리자 비밀번호는 ${v} 입니다` : `NAS 비밀번호 = ${v}`]; },
  (rng, k) => { const v = pick(rng, ['月亮船', '青龙山', '小熊猫', '桂花糕', '大白兔', '长江水']); return ['zh/native-value', v, k === 0 ? `服务器 root 密码：${v}（别外传）` : `数据库的密码是 ${v}，周一改`]; },
  (rng, k) => { const v = pick(rng, ['ひまわり', 'こもれび', 'さくらもち', 'ゆきだるま', 'あおぞら']); return ['ja/native-value', v, k === 0 ? `ルーターの管理パスワードは ${v} です` : `Wi-Fiのパスワード = ${v}`]; },
  (rng, k) => { const v = pick(rng, ['ромашка', 'медвежонок', 'снегирь', 'кукуруза', 'подсолнух']); return ['ru/native-value', v, k === 0 ? `Пароль от роутера — ${v}` : `пароль от сервера: ${v} (сменить в январе)`]; },
  (rng, k) => { const v = pick(rng, ['ياسمين', 'نخلة', 'قهوة', 'زيتونة', 'غزالة']); return ['ar/native-value', v, k === 0 ? `كلمة السر للراوتر: ${v}` : `كلمة المرور هي ${v}`]; },
];

/** [cls, body]: the same files and commands without a value, and talk about them. Written as pairs of a form. */
const BENIGN: readonly (readonly [string, string])[] = [
  ['netrc/format', 'The .netrc format is `machine <host> login <user> password <password>`; curl reads it with `-n`.'],
  ['netrc/format', '~/.netrc must be chmod 600 or curl and git warn and ignore it.'],
  ['netrc/placeholder', '```\nmachine api.heroku.com\n  login me@example.com\n  password <api key from heroku authorizations:create>\n```'],
  ['netrc/helper', 'Git over https uses the credential helper `osxkeychain`, not ~/.netrc.'],
  ['pgpass/format', '`.pgpass` lines are `hostname:port:database:username:password`; `*` matches anything.'],
  ['pgpass/format', 'psql ignores ~/.pgpass when it is group-readable: `chmod 0600 ~/.pgpass`.'],
  ['pgpass/placeholder', 'Add to .pgpass: `db.internal:5432:*:app:<password from Vault>`'],
  ['pgpass/passfile', 'PGPASSFILE=/run/secrets/pgpass points libpq at the mounted secret.'],
  ['docker/creds-store', '```json\n{\n  "auths": { "ghcr.io": {} },\n  "credsStore": "desktop"\n}\n```'],
  ['docker/cred-helpers', '```json\n{ "credHelpers": { "123456789012.dkr.ecr.eu-west-1.amazonaws.com": "ecr-login" } }\n```'],
  ['docker/knowledge', 'docker login stores base64 user:pass in ~/.docker/config.json unless a credsStore is set; we use pass.'],
  ['docker/login-stdin', 'echo "$REGISTRY_TOKEN" | docker login registry.lan:5000 -u ci --password-stdin'],
  ['curl-v/401', '```\n< HTTP/1.1 401 Unauthorized\n< WWW-Authenticate: Basic realm="staging"\n< Content-Length: 0\n```'],
  ['curl-v/registry-challenge', '```\n< www-authenticate: Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/nginx:pull"\n```'],
  ['header/env', 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user'],
  ['header/placeholder', '`Authorization: Basic <base64 of user:password>` is what `curl -u` sends.'],
  ['header/template', 'Postman: `Authorization: Bearer {{access_token}}`, the token set by the login request.'],
  ['header/masked', '```\n> Authorization: Bearer ***\n```\n(curl --trace-ascii masks nothing; this was masked by hand)'],
  ['jdbc/env', 'jdbc:postgresql://db.internal:5432/app?user=app&password=${DB_PASSWORD}&ssl=true'],
  ['jdbc/integrated', 'jdbc:sqlserver://sql.lan:1433;databaseName=app;integratedSecurity=true;encrypt=true'],
  ['odbc/trusted', 'Driver={ODBC Driver 18 for SQL Server};Server=sql.lan;Database=app;Trusted_Connection=yes;'],
  ['odbc/placeholder', 'Driver={PostgreSQL Unicode};Server=db.internal;Port=5432;Database=app;Uid=app;Pwd=<password>;'],
  ['adonet/aad', 'Server=tcp:sql.lan,1433;Initial Catalog=app;Authentication=Active Directory Default;Encrypt=True;'],
  ['adonet/env', '"Default": "Server=tcp:sql.lan,1433;Initial Catalog=app;User ID=app;Password=${SQL_PASSWORD};"'],
  ['adonet/keyvault', 'App setting `SqlPwd` = `@Microsoft.KeyVault(SecretUri=https://kv-app.vault.azure.net/secrets/sql-pwd/)`'],
  ['adonet/knowledge', 'ADO.NET reads `Password=` or `Pwd=`; with `Authentication=Active Directory Managed Identity` neither is needed.'],
  ['kubeconfig/view', '`kubectl config view`:\n```yaml\nusers:\n- name: admin\n  user:\n    client-certificate-data: DATA+OMITTED\n    client-key-data: DATA+OMITTED\n```'],
  ['kubeconfig/view', '```yaml\nusers:\n- name: ci\n  user:\n    token: REDACTED\n```'],
  ['kubeconfig/exec', '```yaml\nusers:\n- name: eks-prod\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [eks, get-token, --cluster-name, prod]\n```'],
  ['kubeconfig/token-file', '```yaml\nusers:\n- name: sa\n  user:\n    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token\n```'],
  ['htpasswd/prompt', 'htpasswd -B -c /etc/nginx/.htpasswd admin (prompts for the password twice)'],
  ['htpasswd/knowledge', 'Basic-auth users are in /etc/nginx/.htpasswd; add one with `htpasswd -B /etc/nginx/.htpasswd <user>`.'],
  ['sshpass/file', 'sshpass -f ~/.config/nas.pass ssh admin@nas.home.lan'],
  ['sshpass/env', 'SSHPASS="$(pass show nas)" sshpass -e ssh admin@nas.home.lan'],
  ['curl/env', 'curl -u "$JIRA_USER:$JIRA_TOKEN" https://jira.lan/rest/api/2/myself'],
  ['curl/prompt', 'curl -u admin https://nas.home.lan:5001/ (prompts for the password)'],
  ['wget/ask', 'wget --user=backup --ask-password https://files.acme.io/dump.sql.gz'],
  ['wget/env', 'wget --ftp-user=anonymous --password="$FTP_PASS" ftp://files.acme.io/pub/'],
  ['smbclient/prompt', 'smbclient //nas/scans -U alice (asks for the password)'],
  ['smbclient/authfile', 'smbclient -A ~/.smbcredentials //nas/scans; that file holds `username=` and `password=` lines, chmod 600.'],
  ['pgpassword/op', 'PGPASSWORD="$(op read op://Infra/pg-prod/password)" psql -h db.internal -U postgres'],
  ['pgpassword/knowledge', 'PGPASSWORD is read by libpq; prefer ~/.pgpass so it does not show in `ps e`.'],
  ['redis-cli/askpass', 'redis-cli -h cache.lan --askpass'],
  ['redis-cli/env', 'redis-cli -a "$REDIS_PASSWORD" --no-auth-warning ping'],
  ['git/clone-plain', 'git clone https://github.com/acme/infra.git && cd infra && make bootstrap'],
  ['git/clone-ci-token', 'git clone https://gitlab-ci-token:${CI_JOB_TOKEN}@gitlab.com/acme/infra.git'],
  ['git/clone-env', 'git clone https://x-access-token:$GH_TOKEN@github.com/acme/infra.git'],
  ['git/clone-ssh', 'git clone git@github.com:acme/infra.git (SSH key in the agent)'],
  ['aws/config', '```ini\n[default]\nregion = eu-west-1\noutput = json\n```'],
  ['aws/sso', '```ini\n[profile prod]\nsso_start_url = https://acme.awsapps.com/start\nsso_account_id = 123456789012\nsso_role_name = Admin\nregion = eu-west-1\n```'],
  ['aws/credential-process', '```ini\n[profile backup]\ncredential_process = aws-vault exec backup --json\n```'],
  ['aws/knowledge', '~/.aws/credentials holds aws_access_key_id and aws_secret_access_key per profile; we moved to SSO, the file is empty now.'],
  ['npmrc/env', '.npmrc:\n\n    //registry.npmjs.org/:_authToken=${NPM_TOKEN}'],
  ['npmrc/github', '```\n@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${GITHUB_TOKEN}\n```'],
  ['npmrc/knowledge', 'npm login writes `_authToken` into ~/.npmrc; CI gets it from the NPM_TOKEN secret instead.'],
  ['npmrc/scope', '```\n@acme:registry=https://registry.lan/npm/\nalways-auth=true\n```'],
  ['pip/conf-plain', '```ini\n[global]\nindex-url = https://pypi.acme.io/simple\ntrusted-host = pypi.acme.io\n```'],
  ['pip/env', 'index-url = https://${PIP_USER}:${PIP_PASSWORD}@pypi.acme.io/simple'],
  ['pip/keyring', 'pip asks keyring for the index password (`pip install keyring keyrings.google-artifactregistry-auth`); pip.conf keeps the URL without credentials.'],
  ['pip/token-user', 'For PyPI uploads the user is `__token__` and the password is the API token, kept in the CI secret PYPI_API_TOKEN.'],
  ['maven/env', '```xml\n<server>\n  <id>nexus</id>\n  <username>${env.NEXUS_USER}</username>\n  <password>${env.NEXUS_PASSWORD}</password>\n</server>\n```'],
  ['maven/knowledge', 'settings-security.xml holds the master password; encrypt server passwords with `mvn --encrypt-password`.'],
  ['wpa/open', '```\nnetwork={\n    ssid="GuestNet"\n    key_mgmt=NONE\n}\n```'],
  ['wpa/ext', '```\nnetwork={\n    ssid="HomeNet"\n    psk=ext:home_psk\n}\n```'],
  ['wpa/knowledge', 'Generate the psk line with `wpa_passphrase HomeNet` (reads the passphrase from stdin).'],
  ['wpa/eap', '```\nnetwork={\n    ssid="eduroam"\n    key_mgmt=WPA-EAP\n    identity="mara@uni.example"\n    password=hash:$WIFI_NTHASH\n}\n```'],
  ['openssl/env', 'openssl rsa -in server.key -passin env:KEY_PASS -out server.nopass.key'],
  ['openssl/file', 'openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout file:/run/secrets/p12pass'],
  ['openssl/stdin', 'openssl req -new -key server.key -passin stdin -out server.csr'],
  ['openssl/knowledge', 'openssl takes `-passin pass:`, `env:`, `file:`, `fd:` or `stdin`; only `pass:` puts the password on the command line.'],
  ['ansible/password-file', 'ansible-playbook site.yml --vault-password-file ~/.vault_pass.txt'],
  ['ansible/ask', 'ansible-playbook site.yml --ask-vault-pass'],
  ['ansible/knowledge', 'The vault password lives in 1Password (`Ansible vault`); ~/.vault_pass.txt is a script calling `op read`.'],
  ['ansible/encrypted', '```yaml\ndb_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n```\n(the rest of the blob is in the repo)'],
  ['1password/op-read', 'op read op://Private/NAS/password | pbcopy'],
  ['1password/fields', 'op item get NAS --fields label=password prints it; never paste the output into a note.'],
  ['bitwarden/get', 'bw get password github.com | wl-copy'],
  ['bitwarden/list', '`bw list items --search nas` returns JSON with `login.username` and `login.password`.'],
  ['ko/where', '공유기 비밀번호는 팀 금고(1Password)에 있음'],
  ['ko/status', '공유기 비밀번호 변경함 (2026-11-30)'],
  ['zh/where', '密码已经改了，新的在 Bitwarden 里'],
  ['zh/status', '服务器密码：见 Vault secret/data/server'],
  ['ja/where', 'パスワードは ~/.pgpass に書いてある'],
  ['ja/status', 'Wi-Fiのパスワード：変更済み（ルーター裏のシール）'],
  ['ru/where', 'Пароль лежит в KeePass, запись «Роутер»'],
  ['ru/status', 'пароль от сервера: см. Vault (secret/data/server)'],
  ['ar/where', 'كلمة المرور محفوظة في 1Password'],
  ['ar/status', 'كلمة السر: تم تغييرها'],
  ['kubeconfig/ca-data', '```yaml\nclusters:\n- cluster:\n    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJlRENDQVIrZ0F3SUJBZ0lCQURBS0JnZ3Foa2pPUFFRREFqQWpNU0V3SHdZRFZRUUQK\n    server: https://10.0.4.12:6443\n  name: homelab\n```'],
  ['kubeconfig/ca-file', '```yaml\nclusters:\n- cluster:\n    certificate-authority: /etc/rancher/k3s/server-ca.crt\n    server: https://10.0.4.12:6443\n```'],
  ['jdbc/knowledge', 'JDBC drivers read `user` and `password` properties; for Postgres put them in the URL or in `Properties`, not both.'],
  ['odbc/knowledge', 'In an ODBC string a value holding `;` must be wrapped in braces: `Pwd={...}`.'],
  ['en/expiry', 'The GitHub PAT for the backup job expires 2027-01-15; renew it in Settings, Developer settings.'],
  ['en/incident', 'Incident 2026-11-12: a .npmrc with a token was pushed to a fork; token revoked within 10 min, history rewritten.'],
  ['en/smbcredentials', '```\nusername=scanner\npassword=${SMB_PASSWORD}\n```\n(~/.smbcredentials is rendered from this template by chezmoi)'],
  ['en/chezmoi', '~/.pgpass and ~/.netrc are chezmoi templates that call `bitwarden` at apply time; nothing secret is in the dotfiles repo.'],
  ['en/policy', 'Credential files (.netrc, .pgpass, .npmrc, ~/.aws/credentials) never go into the repo; the pre-commit hook blocks them.'],
  ['en/rotation', 'Rotated the registry token and the kubeconfig service-account token on 2026-11-28; old ones revoked.'],
];

/** Draws each secret form twice in a row (one per half) with the seeded generator. */
function drawSecrets(): (readonly [string, string, string])[] {
  const rng = mulberry32(SEED);
  return SECRET_FORMS.flatMap((form) => [form(rng, 0), form(rng, 1)]);
}

/** The secret notes of batch 6 with their half; throws if a value is not in its note exactly once. */
export function ownSecretNotesBatch6(): (OwnSecretNote & { half: Half })[] {
  return splitSecretNotes('dev-own-notes-6', drawSecrets());
}

export function ownBenignNotesBatch6(): (OwnBenignNote & { half: Half })[] {
  return splitBenignNotes(BENIGN);
}

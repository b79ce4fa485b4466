/**
 * Benign notes for the redaction corpus: text that looks like a secret to a careless rule but
 * is not one. Each class is one kind of look-alike; a redaction that touches any of these notes
 * is a false positive. Documentation examples (AWS's `…EXAMPLE` keys, jwt.io's sample token) are
 * assembled from parts so this file does not itself look like a leak to scanners.
 */
import { ALNUM, B64, chars, HEX, pick, type Rng } from './secret-kinds.js';

export interface BenignClass {
  cls: string;
  notes: (rng: Rng) => string[];
}

const j = (...parts: string[]): string => parts.join('');
const AWS_DOC_ID = j('AKIA', 'IOSFODNN7', 'EXAMPLE');
const AWS_DOC_SECRET = j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCY', 'EXAMPLEKEY');
const JWT_IO = j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c');

const uuid = (r: Rng): string => `${chars(r, HEX, 8)}-${chars(r, HEX, 4)}-4${chars(r, HEX, 3)}-8${chars(r, HEX, 3)}-${chars(r, HEX, 12)}`;

/**
 * Notes this corpus called benign until issue 40, which makes them secrets: in a person's own note a
 * URL's password is the password, however common (`password`, `pass`) or equal to the user's name
 * (`guest:guest`, the way `mysql -u root -proot` is written). Kept, word for word, as secrets that
 * must be removed (test/memory/redact-corpus.test.ts), not dropped.
 */
export const BENIGN_UNTIL_ISSUE_40: readonly { note: string; secret: string }[] = [
  { note: 'DATABASE_URL=postgres://user:password@localhost:5432/app', secret: 'user:password@' },
  { note: 'Default broker: amqp://guest:guest@localhost:5672/', secret: 'guest:guest@' },
  { note: 'Use https://user:pass@example.com only in the docs.', secret: 'user:pass@' },
  { note: 'postgres://postgres:postgres@localhost:5432/test is the local default.', secret: 'postgres:postgres@' },
];

export const BENIGN_CLASSES: readonly BenignClass[] = [
  {
    cls: 'vendor-placeholder',
    notes: () => [
      'Set OPENAI_API_KEY=sk-... in your shell before running the eval.',
      'export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'HF_TOKEN=hf_*** (ask in #ml-infra for one)',
      'The key looks like `sk-ant-api03-...`; never commit it.',
      'SLACK_BOT_TOKEN=xoxb-your-bot-token',
      'STRIPE_SECRET_KEY=sk_test_XXXXXXXXXXXXXXXXXXXXXXXX',
      'GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx',
      'NPM_TOKEN=npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
      'Use `ghp_xxxx` style tokens only in the sandbox org.',
      'GOOGLE_API_KEY=AIza... (restricted to the Maps API)',
      'VAULT_TOKEN=hvs.xxxxxxxxxxxxxxxxxxxxxxxx',
      'ANTHROPIC_API_KEY=sk-ant-xxxxxxxx',
    ],
  },
  {
    cls: 'angle-placeholder',
    notes: () => [
      'Authorization: Bearer <token>',
      'api_key: <your key here>',
      'password: <password>',
      'curl -u <user>:<password> https://ci.corp.example/api/json',
      'npx vercel deploy --token <VERCEL_TOKEN>',
      'docker login -u <user> -p <password> registry.corp.example',
      'mysql -u root -p<password> app',
      'client_secret = "<client-secret>"',
      'token: {{ .Values.apiToken }}',
      'password: "{{ vault_db_password }}"',
      'X-API-Key: <api key>',
      'sig=<signature>',
    ],
  },
  {
    cls: 'env-reference',
    notes: () => [
      'password: ${DB_PASSWORD}',
      'token = $GITHUB_TOKEN',
      'curl -u "$CI_USER:$CI_TOKEN" https://ci.corp.example/api/json',
      'mysql -u app -p"$MYSQL_PWD" orders',
      'docker login -u ci -p $REGISTRY_PASSWORD registry.corp.example',
      'sentry-cli releases --auth-token $SENTRY_AUTH_TOKEN new 1.4.2',
      'sshpass -p "$SSHPASS" ssh pi@10.0.0.12',
      'redis-cli -a "$REDIS_PASSWORD" ping',
      'export AWS_SECRET_ACCESS_KEY=$(pass show aws/secret)',
      'api_key = os.environ["API_KEY"]',
      'const token = process.env.GITHUB_TOKEN;',
      'DB_PASSWORD=${{ secrets.DB_PASSWORD }}',
      'kubectl create secret generic db --from-literal=password="$DB_PASSWORD"',
    ],
  },
  {
    cls: 'url-placeholder',
    notes: () => [
      'mongodb://admin:***@cluster0.example.net/db (password masked)',
      'redis://:<password>@localhost:6379',
      'See https://docs.example.com/auth?token=true for the flow.',
      'Connect to postgres://localhost:5432/app or https://example.com/path?x=1',
    ],
  },
  {
    cls: 'aws-doc-example',
    notes: () => [
      `The AWS docs use ${AWS_DOC_ID} as the sample access key id.`,
      `[default]\naws_access_key_id = ${AWS_DOC_ID}\naws_secret_access_key = ${AWS_DOC_SECRET}`,
      `export AWS_SECRET_ACCESS_KEY=${AWS_DOC_SECRET}`,
      `{"AccessKeyId": "${AWS_DOC_ID}", "SecretAccessKey": "${AWS_DOC_SECRET}"}`,
    ],
  },
  {
    cls: 'jwt-io-sample',
    notes: () => [
      `jwt.io's example token is ${JWT_IO}; paste it into the debugger to see the claims.`,
      `\`\`\`\ncurl -H "Authorization: Bearer ${JWT_IO}" http://localhost:3000/me\n\`\`\`\n(the sample from jwt.io, rejected by our server)`,
      `Test fixture: id_token = "${JWT_IO}"`,
    ],
  },
  {
    cls: 'config-word',
    notes: () => [
      'token_endpoint_auth_method: client_secret_basic',
      'token_endpoint_auth_method: private_key_jwt',
      'secretName: tls-wildcard-cert',
      'tokenUrl: https://sso.corp.example/oauth2/token',
      'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password',
      'passwordPolicy: strict',
      'grant_type: client_credentials',
      'api_key_header: X-API-Key',
      'password_min_length: 12',
      'token_type: Bearer',
      'private_key_path: ~/.ssh/id_ed25519',
      'GOOGLE_APPLICATION_CREDENTIALS=/secrets/service-account.json',
      'secret_ref: prod/database',
      'authorizationUrl: https://sso.corp.example/oauth2/authorize',
      'secrets:\n  - name: tls-cert\n    mountPath: /etc/tls',
      'max_tokens: 4096',
      'token_count = 123456',
      'password_file: /etc/app/password.txt',
      'tokenizer: cl100k_base',
      'keyPrefix: "cache:v2:"',
    ],
  },
  {
    cls: 'backticks',
    notes: () => [
      'Send the `Authorization: Bearer <token>` header on every call.',
      'Set `GITHUB_TOKEN` in the repo settings, not in `.env`.',
      'The `token` field of the response is `null` when the session expired.',
      '`password`-less login works through `ssh-agent`.',
      'Rename `api_key` to `apiKey` in the client options.',
      'Header: `X-API-Key: $KEY`',
      'Use `Authorization: token $GH_TOKEN` with the REST API.',
    ],
  },
  {
    cls: 'prose-about-secrets',
    notes: () => [
      'The admin password is stored in 1Password, in the Infra vault.',
      'The API key is rotated every 90 days by the secrets operator.',
      'The token was revoked after the incident on Tuesday.',
      'The password for the staging database is in Vault under kv/staging/db.',
      'Password reset emails go out via SES; the template lives in the repo.',
      'The secret is mounted at /run/secrets/db and read at start-up.',
      'We need to fix the password reset flow before Friday.',
      'Token refresh happens every hour; see the auth service.',
      'The bearer token expires after 1 hour.',
      'Authorization: required for all endpoints.',
      'password: reset it via the admin panel',
      'token: the JWT is refreshed every hour.',
      'secrets: managed by 1Password',
      'passwords: rotate quarterly',
      'The pin is printed on the back of the device.',
    ],
  },
  {
    cls: 'code',
    notes: () => [
      'const token = await getToken();',
      'password: z.string().min(8),',
      'def login(username: str, password: str) -> Token:',
      'interface Options { apiKey?: string; timeoutMs: number }',
      'if (password === confirmPassword) submit();',
      'token = request.headers.get("Authorization")',
      'let secret = cache.get(userId);',
      'password = getPassword()',
      'token = self.config.token',
      'api_key = settings.API_KEY',
      'private_key = load_pem(path)',
      'const { password, ...rest } = user;',
    ],
  },
  {
    cls: 'hash-and-id',
    notes: (r) => [
      `Fixed in commit ${chars(r, HEX, 40)}; see the PR for details.`,
      `docker pull ghcr.io/corp/api@sha256:${chars(r, HEX, 64)}`,
      `"integrity": "sha512-${chars(r, B64, 86)}=="`,
      `Request id ${uuid(r)} failed with a 502.`,
      `trace_id=${chars(r, HEX, 32)} span_id=${chars(r, HEX, 16)}`,
      `The cache key is sha256 of the path: ${chars(r, HEX, 64)}`,
      `Build ${chars(r, HEX, 7)} deployed to staging at 14:02.`,
      `Stripe customer id cus_${chars(r, ALNUM, 14)} is the test account.`,
      `GitHub run https://github.com/corp/app/actions/runs/${Math.floor(r() * 1e10)} failed on lint.`,
      `Object key: uploads/${uuid(r)}/report.pdf`,
    ],
  },
  {
    cls: 'public-key-material',
    notes: (r) => [
      `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${chars(r, B64, 43)} deploy@ci`,
      `-----BEGIN CERTIFICATE-----\n${chars(r, B64, 64)}\n${chars(r, B64, 64)}\n-----END CERTIFICATE-----`,
      `-----BEGIN PUBLIC KEY-----\n${chars(r, B64, 64)}\n-----END PUBLIC KEY-----`,
      `client-certificate-data lives in the kubeconfig; the CA is ${chars(r, B64, 40)}`,
      `age recipient: age1${chars(r, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}`,
      `Stripe publishable key pk_test_${chars(r, ALNUM, 24)} goes in the frontend bundle.`,
    ],
  },
  {
    cls: 'k8s-non-secret',
    notes: () => [
      '```yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: "search,export"\n```',
      '```yaml\nkind: Secret\napiVersion: v1\nmetadata:\n  name: db\ndata: {}\n```\nThe data is filled in by the external-secrets operator.',
      '```yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: api\nstringData:\n  token: <set by CI>\n```',
      'envFrom:\n  - secretRef:\n      name: api-credentials',
      'kubectl get secret db -o jsonpath="{.data.password}" | base64 -d',
    ],
  },
  {
    cls: 'cli-benign',
    notes: () => [
      'mysql -u root -p app   # prompts for the password',
      'echo "$PASS" | docker login --password-stdin -u ci registry.corp.example',
      'docker run -u 1000:1000 -v "$PWD":/src node:20 npm test',
      'gh auth login --with-token < token.txt',
      'kubectl create secret generic tls --from-file=key.pem --from-file=cert.pem',
      'vault login -method=oidc --token-file /var/run/vault/token',
      'sshpass -f ~/.sshpass ssh pi@10.0.0.12',
      'ssh -p 2222 deploy@bastion.corp.example',
      'psql -h localhost -p 5432 -U app',
      'pip install -r requirements.txt --no-cache-dir',
      'git push --force-with-lease origin main',
      'curl -u "$USER" https://ci.corp.example/api/json',
      'openssl req -new -key key.pem -out req.csr -passin env:KEY_PASS',
      'npm publish --access public --otp 123456',
    ],
  },
  {
    cls: 'numbers-and-counts',
    notes: (r) => [
      'max_tokens: 4096',
      `tokens used: ${Math.floor(r() * 90000) + 10000}`,
      'The context window is 200k tokens; we use about 40k.',
      `token_count: ${Math.floor(r() * 9e5)}`,
      'Password must be at least 12 characters and contain a digit.',
      'api_version: 2024-10-21',
      `key_count = ${Math.floor(r() * 100)}`,
    ],
  },
  {
    cls: 'prefix-mention',
    notes: () => [
      'The ghp_ prefix marks classic GitHub PATs; github_pat_ marks fine-grained ones.',
      'Anthropic keys start with sk-ant-, OpenAI project keys with sk-proj-.',
      'AKIA marks long-term AWS keys, ASIA temporary ones.',
      'JWTs start with eyJ because that is base64 for {"',
      'Use sk-learn and scikit-learn for the model.',
      'Hugging Face tokens begin with hf_ and Replicate ones with r8_.',
      'xoxb- is a bot token, xoxp- a user token.',
    ],
  },
  {
    cls: 'azure-doc',
    notes: () => [
      'A SAS URL ends with sig=<signature>; never paste a real one here.',
      'AccountKey=<storage-account-key> goes in local.settings.json only.',
      'AccountName=devstoreaccount1;AccountKey=... is the Azurite default connection string.',
      'The client secret looks like abc8Q~... and expires after 24 months.',
    ],
  },
  {
    cls: 'ordinary-note',
    notes: (r) => [
      'Decided to keep the state file as JSON plus a journal; SQLite was overkill for 10k records.',
      'The watcher debounces saves by 500 ms; editors write temp files first.',
      `Meeting notes ${pick(r, ['Monday', 'Tuesday', 'Thursday'])}: ship the redaction fix, then the soak test.`,
      'Graphiti groups are per project; group ids must match [A-Za-z0-9_-].',
      'The key insight: retries must be idempotent, so episodes carry a marker.',
      'Primary key on (tenant_id, id); secondary index on created_at.',
      'Keyboard shortcut: Ctrl+Shift+P opens the command palette.',
      'The secret to fast builds is caching node_modules by lockfile hash.',
      'The monkey-patched fetch broke the token bucket limiter; reverted.',
      'Use key: value pairs in the frontmatter, one per line.',
    ],
  },
];

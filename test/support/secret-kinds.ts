/**
 * Over 300 lines on purpose: a data table, one row per kind of secret.
 *
 * The kinds of secrets in the redaction corpus (secret-corpus.ts) and the contexts they are
 * planted in. A kind with `contexts` undefined is a bare value (a vendor token) that fits every
 * generic context; a kind with its own `plant` brings its context (a command line, a manifest).
 */
export type Rng = () => number;

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const HEX = '0123456789abcdef';
export const B64 = `${ALNUM}+/`;
export const URLSAFE = `${ALNUM}_-`;
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
const PASSWORD_CHARS = `${ALNUM}!@#%^&*_+-=.?~`;

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

/** `n` random characters of `alphabet`, with at least one digit when the alphabet has digits (as real tokens do at these lengths). */
export function chars(rng: Rng, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += 1) s += alphabet[Math.floor(rng() * alphabet.length)];
  if (n >= 8 && /\d/.test(alphabet) && !/\d/.test(s)) s = `${s.slice(0, n - 1)}${Math.floor(rng() * 10)}`;
  if (n >= 8 && /[a-z]/.test(alphabet) && /[A-Z]/.test(alphabet) && !(/[a-z]/.test(s) && /[A-Z]/.test(s))) s = `q${s.slice(1, n - 1)}Q`;
  return s;
}

/**
 * Breaks up a run that marks an elided or masked value (`...`, `***`, `xxxx`), keeping the length:
 * the redaction takes a password holding one for a documentation example (secrets/values.ts
 * isDummy; the README's redaction section says so), so a generated one never holds one by chance.
 */
function withoutMaskRuns(s: string): string {
  return s.replace(/\.{3,}|\*{3,}|x{4,}|X{4,}/g, (run) => [...run].map((c, i) => (i % 2 === 0 ? c : '7')).join(''));
}

/** A password without characters that a shell, YAML or a connection string would treat specially. */
export function safePassword(rng: Rng): string {
  return withoutMaskRuns(`${chars(rng, ALNUM, 4)}${chars(rng, `${ALNUM}!@%^*_+-=.~`, 8 + Math.floor(rng() * 10))}${Math.floor(rng() * 90) + 10}`);
}

/** A password people choose or generate: letters, digits and a symbol or two. */
export function password(rng: Rng): string {
  const n = 10 + Math.floor(rng() * 14);
  return withoutMaskRuns(`${chars(rng, ALNUM, 2)}${chars(rng, PASSWORD_CHARS, n - 4)}${Math.floor(rng() * 90) + 10}`);
}

const b64encode = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

export interface KindSpec {
  kind: string;
  /** Expected `[REDACTED:<label>]`; undefined when several labels are right (context-dependent). */
  label: string | undefined;
  /** Environment variable name used by the generic contexts. */
  env?: string;
  make: (rng: Rng) => string;
  /** Plants the secret in a context of its own (the kind's `contexts` name them). */
  plant?: (secret: string, rng: Rng, context: string) => string;
  contexts?: string[];
  /** The part of `make`'s result that must not survive, when not all of it. */
  reveal?: (made: string) => string;
}

/** Generic contexts for bare values: the ways a token ends up in a note. */
export const CONTEXTS: Record<string, (s: string, env: string, rng: Rng) => string> = {
  dotenv: (s, env) => `# .env for local dev\nNODE_ENV=development\n${env}=${s}\nLOG_LEVEL=debug`,
  'shell-export': (s, env) => `Before running the deploy script:\n\n\`\`\`bash\nexport ${env}="${s}"\n./scripts/deploy.sh staging\n\`\`\``,
  'json-neutral-key': (s, env) => `The CI variable dump:\n\n\`\`\`json\n{"name": "${env}", "value": "${s}", "protected": true}\n\`\`\``,
  'yaml-env-list': (s, env) => `\`\`\`yaml\nenv:\n  - name: ${env}\n    value: "${s}"\n  - name: REGION\n    value: eu-west-1\n\`\`\``,
  hcl: (s, env) => `Terraform variables for the staging workspace:\n\n\`\`\`hcl\nvariable "${env.toLowerCase()}" {\n  default = "${s}"\n}\n\`\`\``,
  prose: (s) => `Rotated the integration credential today; the new one is ${s} and the old one was revoked.`,
  'inline-code': (s) => `Paste \`${s}\` into the CI settings page, then re-run the failed job.`,
  frontmatter: (s, env) => `---\nname: deploy notes\ndescription: how the staging deploy authenticates\ncredential: ${s}\n---\nThe deploy job reads ${env} from the environment.`,
  'markdown-table': (s, env) => `| variable | value |\n|---|---|\n| ${env} | ${s} |\n| REGION | eu-west-1 |`,
  'curl-bearer': (s) => `\`\`\`\ncurl -sS -H "Authorization: Bearer ${s}" https://api.example.com/v1/me\n\`\`\``,
  'python-call': (s) => `\`\`\`python\nclient = Client("${s}", timeout=30)\n\`\`\``,
  'log-line': (s) => `2026-11-20T10:02:11Z DEBUG request headers={'user-agent': 'sdk/1.2', 'x': '${s}'} status=401`,
};

/** A bare vendor token: redacted under its own label in every generic context. */
function vendor(kind: string, env: string, make: (rng: Rng) => string): KindSpec {
  return { kind, label: kind, env, make };
}

function jwtOf(rng: Rng, claims: Record<string, unknown>): string {
  return `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(claims))}.${chars(rng, URLSAFE, 43)}`;
}

const VENDOR_KINDS: KindSpec[] = [
  vendor('aws-access-key-id', 'AWS_ACCESS_KEY_ID', (r) => `${pick(r, ['AKIA', 'ASIA'])}${chars(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`),
  vendor('gcp-api-key', 'GOOGLE_API_KEY', (r) => `AIza${chars(r, URLSAFE, 35)}`),
  vendor('google-oauth-client-secret', 'GOOGLE_CLIENT_SECRET', (r) => `GOCSPX-${chars(r, URLSAFE, 28)}`),
  vendor('google-oauth-token', 'GOOGLE_ACCESS_TOKEN', (r) => pick(r, [`ya29.${chars(r, URLSAFE, 150)}`, `1//0${chars(r, URLSAFE, 100)}`])),
  vendor('github-token', 'GITHUB_TOKEN', (r) => pick(r, [`${pick(r, ['ghp_', 'gho_', 'ghs_', 'ghu_'])}${chars(r, ALNUM, 36)}`, `github_pat_${chars(r, ALNUM, 22)}_${chars(r, ALNUM, 59)}`])),
  vendor('gitlab-token', 'GITLAB_TOKEN', (r) => `${pick(r, ['glpat-', 'gldt-', 'glrt-'])}${chars(r, URLSAFE, 20)}`),
  vendor('slack-token', 'SLACK_BOT_TOKEN', (r) => `${pick(r, ['xoxb-', 'xoxp-'])}${chars(r, '0123456789', 12)}-${chars(r, '0123456789', 13)}-${chars(r, ALNUM, 24)}`),
  vendor('stripe-key', 'STRIPE_SECRET_KEY', (r) => `${pick(r, ['sk_live_', 'rk_live_', 'sk_test_'])}${chars(r, ALNUM, 99)}`),
  vendor('stripe-webhook-secret', 'STRIPE_WEBHOOK_SECRET', (r) => `whsec_${chars(r, ALNUM, 32)}`),
  vendor('anthropic-key', 'ANTHROPIC_API_KEY', (r) => `sk-ant-${pick(r, ['api03', 'admin01'])}-${chars(r, URLSAFE, 93)}AA`),
  vendor('openrouter-key', 'OPENROUTER_API_KEY', (r) => `sk-or-v1-${chars(r, HEX, 64)}`),
  vendor('mapbox-token', 'MAPBOX_SECRET_TOKEN', (r) => `sk.eyJ1IjoiJ${chars(r, URLSAFE, 50)}.${chars(r, URLSAFE, 22)}`),
  vendor('openai-key', 'OPENAI_API_KEY', (r) => pick(r, [`sk-proj-${chars(r, URLSAFE, 156)}`, `sk-svcacct-${chars(r, URLSAFE, 120)}`, `sk-${chars(r, ALNUM, 20)}T3BlbkFJ${chars(r, ALNUM, 20)}`])),
  { kind: 'deepseek-key', label: 'openai-key', env: 'DEEPSEEK_API_KEY', make: (r) => `sk-${chars(r, HEX, 32)}` },
  vendor('perplexity-key', 'PERPLEXITY_API_KEY', (r) => `pplx-${chars(r, ALNUM, 48)}`),
  vendor('groq-key', 'GROQ_API_KEY', (r) => `gsk_${chars(r, ALNUM, 52)}`),
  vendor('xai-key', 'XAI_API_KEY', (r) => `xai-${chars(r, ALNUM, 80)}`),
  vendor('replicate-token', 'REPLICATE_API_TOKEN', (r) => `r8_${chars(r, ALNUM, 37)}`),
  vendor('huggingface-token', 'HF_TOKEN', (r) => `hf_${chars(r, ALNUM, 34)}`),
  vendor('npm-token', 'NPM_TOKEN', (r) => `npm_${chars(r, ALNUM, 36)}`),
  vendor('pypi-token', 'TWINE_PASSWORD', (r) => `pypi-AgEIcHlwaS5vcmc${chars(r, URLSAFE, 150)}`),
  vendor('dockerhub-token', 'DOCKERHUB_TOKEN', (r) => `dckr_pat_${chars(r, URLSAFE, 27)}`),
  vendor('shopify-token', 'SHOPIFY_ACCESS_TOKEN', (r) => `${pick(r, ['shpat_', 'shpss_', 'shpca_'])}${chars(r, HEX, 32)}`),
  vendor('square-token', 'SQUARE_ACCESS_TOKEN', (r) => pick(r, [`EAAA${chars(r, URLSAFE, 60)}`, `sq0csp-${chars(r, URLSAFE, 43)}`, `sq0atp-${chars(r, URLSAFE, 22)}`])),
  vendor('postman-key', 'POSTMAN_API_KEY', (r) => `PMAK-${chars(r, HEX, 24)}-${chars(r, HEX, 34)}`),
  vendor('linear-key', 'LINEAR_API_KEY', (r) => `lin_api_${chars(r, ALNUM, 40)}`),
  vendor('databricks-token', 'DATABRICKS_TOKEN', (r) => `dapi${chars(r, HEX, 32)}`),
  vendor('grafana-token', 'GRAFANA_TOKEN', (r) => pick(r, [`glsa_${chars(r, ALNUM, 32)}_${chars(r, HEX, 8)}`, `glc_eyJ${chars(r, B64, 120)}`])),
  vendor('tailscale-key', 'TS_AUTHKEY', (r) => `tskey-${pick(r, ['auth', 'api', 'client'])}-k${chars(r, ALNUM, 11)}CNTRL-${chars(r, ALNUM, 33)}`),
  vendor('vault-token', 'VAULT_TOKEN', (r) => pick(r, [`hvs.${chars(r, URLSAFE, 90)}`, `hvb.${chars(r, URLSAFE, 130)}`, `s.${chars(r, ALNUM, 24)}`])),
  vendor('doppler-token', 'DOPPLER_TOKEN', (r) => `dp.${pick(r, ['pt', 'st', 'sa'])}.${chars(r, ALNUM, 43)}`),
  vendor('digitalocean-token', 'DIGITALOCEAN_TOKEN', (r) => `${pick(r, ['dop_v1_', 'doo_v1_'])}${chars(r, HEX, 64)}`),
  vendor('cloudflare-origin-ca-key', 'CF_ORIGIN_CA_KEY', (r) => `v1.0-${chars(r, HEX, 24)}-${chars(r, HEX, 146)}`),
  vendor('newrelic-key', 'NEW_RELIC_API_KEY', (r) => `NRAK-${chars(r, UPPER, 27)}`),
  vendor('sentry-token', 'SENTRY_AUTH_TOKEN', (r) => pick(r, [`sntrys_eyJ${chars(r, B64, 100)}_${chars(r, URLSAFE, 43)}`, `sntryu_${chars(r, HEX, 64)}`])),
  vendor('atlassian-token', 'JIRA_API_TOKEN', (r) => pick(r, [`ATATT3xFfGF0${chars(r, URLSAFE, 180)}=${chars(r, HEX, 8).toUpperCase()}`, `ATBB${chars(r, ALNUM, 32)}`])),
  vendor('notion-token', 'NOTION_TOKEN', (r) => pick(r, [`ntn_${chars(r, '0123456789', 11)}${chars(r, ALNUM, 35)}`, `secret_${chars(r, ALNUM, 43)}`])),
  vendor('figma-token', 'FIGMA_TOKEN', (r) => `figd_${chars(r, URLSAFE, 40)}`),
  vendor('heroku-key', 'HEROKU_API_KEY', (r) => `HRKU-AA${chars(r, URLSAFE, 58)}`),
  vendor('fly-token', 'FLY_API_TOKEN', (r) => `FlyV1 fm2_${chars(r, B64, 200)},fm2_${chars(r, B64, 120)}`),
  vendor('supabase-key', 'SUPABASE_ACCESS_TOKEN', (r) => pick(r, [`sbp_${chars(r, HEX, 40)}`, `sb_secret_${chars(r, URLSAFE, 31)}`])),
  vendor('netlify-token', 'NETLIFY_AUTH_TOKEN', (r) => `nfp_${chars(r, ALNUM, 36)}`),
  vendor('pulumi-token', 'PULUMI_ACCESS_TOKEN', (r) => `pul-${chars(r, HEX, 40)}`),
  vendor('terraform-cloud-token', 'TFE_TOKEN', (r) => `${chars(r, ALNUM, 14)}.atlasv1.${chars(r, URLSAFE, 67)}`),
  vendor('buildkite-token', 'BUILDKITE_API_TOKEN', (r) => `bkua_${chars(r, HEX, 40)}`),
  vendor('circleci-token', 'CIRCLE_TOKEN', (r) => `CCIPAT_${chars(r, ALNUM, 22)}_${chars(r, HEX, 40)}`),
  vendor('langsmith-key', 'LANGSMITH_API_KEY', (r) => `lsv2_${pick(r, ['pt', 'sk'])}_${chars(r, HEX, 32)}_${chars(r, HEX, 10)}`),
  vendor('contentful-token', 'CONTENTFUL_MANAGEMENT_TOKEN', (r) => `CFPAT-${chars(r, URLSAFE, 43)}`),
  vendor('dynatrace-token', 'DT_API_TOKEN', (r) => `dt0c01.${chars(r, UPPER, 24)}.${chars(r, UPPER, 64)}`),
  vendor('prefect-key', 'PREFECT_API_KEY', (r) => `pnu_${chars(r, ALNUM, 36)}`),
  vendor('readme-key', 'README_API_KEY', (r) => `rdme_${chars(r, HEX + 'ghijklmnopqrstuvwxyz', 70)}`),
  vendor('planetscale-token', 'PLANETSCALE_SERVICE_TOKEN', (r) => `pscale_${pick(r, ['tkn', 'pw'])}_${chars(r, URLSAFE, 43)}`),
  vendor('resend-key', 'RESEND_API_KEY', (r) => `re_${chars(r, ALNUM, 8)}_${chars(r, ALNUM, 24)}`),
  vendor('infracost-key', 'INFRACOST_API_KEY', (r) => `ico-${chars(r, ALNUM, 32)}`),
  vendor('age-secret-key', 'SOPS_AGE_KEY', (r) => `AGE-SECRET-KEY-1${chars(r, BECH32, 58)}`),
  vendor('onepassword-secret-key', 'OP_SECRET_KEY', (r) => `A3-${chars(r, UPPER, 6)}-${chars(r, UPPER, 6)}-${chars(r, UPPER, 5)}-${chars(r, UPPER, 5)}-${chars(r, UPPER, 5)}-${chars(r, UPPER, 5)}`),
  // Service-account tokens are ~850 characters: the old 500-character cap leaked their tail.
  vendor('onepassword-service-token', 'OP_SERVICE_ACCOUNT_TOKEN', (r) => `ops_eyJ${chars(r, B64, 860)}`),
  vendor('twilio-api-key', 'TWILIO_API_KEY', (r) => `SK${chars(r, HEX, 32)}`),
  vendor('sendgrid-key', 'SENDGRID_API_KEY', (r) => `SG.${chars(r, URLSAFE, 22)}.${chars(r, URLSAFE, 43)}`),
  vendor('mailgun-key', 'MAILGUN_API_KEY', (r) => `key-${chars(r, HEX, 32)}`),
  vendor('mailchimp-key', 'MAILCHIMP_API_KEY', (r) => `${chars(r, HEX, 32)}-us${1 + Math.floor(r() * 20)}`),
  vendor('telegram-bot-token', 'TELEGRAM_BOT_TOKEN', (r) => `${chars(r, '123456789', 10)}:AA${chars(r, URLSAFE, 33)}`),
  vendor('discord-bot-token', 'DISCORD_TOKEN', (r) => `${pick(r, ['M', 'N', 'O'])}${chars(r, ALNUM, 25)}.${chars(r, URLSAFE, 6)}.${chars(r, URLSAFE, 38)}`),
  vendor('jwt', 'ID_TOKEN', (r) => jwtOf(r, { sub: chars(r, HEX, 24), email: `dev${Math.floor(r() * 100)}@corp.example`, iat: 1763000000 + Math.floor(r() * 1e6) })),
];

/** A kind that brings its own contexts: `contexts` name the variants `plant` knows. */
function contextual(kind: string, label: string | undefined, make: (rng: Rng) => string, variants: Record<string, (s: string, rng: Rng) => string>, reveal?: (made: string) => string): KindSpec {
  const spec: KindSpec = { kind, label, make, contexts: Object.keys(variants), plant: (s, rng, context) => (variants[context] as (s: string, rng: Rng) => string)(s, rng) };
  if (reveal !== undefined) spec.reveal = reveal;
  return spec;
}

const pemBody = (rng: Rng, lines: number): string => Array.from({ length: lines }, () => chars(rng, B64, 64)).join('\n');
const host = (rng: Rng): string => pick(rng, ['db.internal', 'pg-prod-1.corp.example', 'cache.svc.cluster.local', 'mq.staging.example.net']);

const CONTEXT_KINDS: KindSpec[] = [
  contextual('aws-secret-access-key', 'aws-secret-access-key', (r) => chars(r, B64, 40), {
    'aws-credentials-ini': (s, r) => `~/.aws/credentials on the build box:\n\n[default]\naws_access_key_id = AKIA${chars(r, UPPER, 16)}\naws_secret_access_key = ${s}\nregion = eu-west-1`,
    env: (s) => `export AWS_SECRET_ACCESS_KEY=${s}`,
    'sts-json': (s) => `{"Credentials": {"AccessKeyId": "ASIAQWERTYUIOPASDFGH", "SecretAccessKey": "${s}", "Expiration": "2026-11-24T00:00:00Z"}}`,
  }),
  // STS session tokens: 400 to 1,200+ characters.
  contextual('aws-session-token', 'aws-session-token', (r) => `IQoJb3JpZ2luX2VjE${chars(r, B64, 600 + Math.floor(r() * 700))}`, {
    'aws-credentials-ini': (s) => `[tmp]\naws_session_token = ${s}\n`,
    env: (s) => `AWS_SESSION_TOKEN="${s}"`,
    'sts-json': (s) => `{"Credentials": {"SessionToken": "${s}", "Expiration": "2026-11-24T00:00:00Z"}}`,
  }),
  contextual('gcp-service-account', 'gcp-private-key', (r) => pemBody(r, 4).replace(/\n/g, '\\n'), {
    json: (s, r) => `{"type": "service_account", "project_id": "acme-${chars(r, HEX, 6)}", "private_key_id": "${chars(r, HEX, 40)}", "private_key": "-----BEGIN PRIVATE KEY-----\\n${s}\\n-----END PRIVATE KEY-----\\n", "client_email": "ci@acme.iam.gserviceaccount.com"}`,
  }),
  contextual('pem-private-key', 'pem-private-key', (r) => pemBody(r, 6), {
    'fenced-rsa': (s) => `The old deploy key, kept here until the migration is done:\n\n\`\`\`\n-----BEGIN RSA PRIVATE KEY-----\n${s}\n-----END RSA PRIVATE KEY-----\n\`\`\``,
    'openssh-prose': (s) => `id_ed25519 for the bastion: -----BEGIN OPENSSH PRIVATE KEY-----\n${s}\n-----END OPENSSH PRIVATE KEY----- (rotate after use)`,
    'yaml-block': (s) => `tls:\n  key: |\n    -----BEGIN EC PRIVATE KEY-----\n    ${s.replace(/\n/g, '\n    ')}\n    -----END EC PRIVATE KEY-----`,
    truncated: (s) => `Pasted from the terminal (cut off):\n-----BEGIN PRIVATE KEY-----\n${s}`,
  }),
  contextual('kubeconfig-client-key', 'kubeconfig-client-key', (r) => chars(r, B64, 1600) + '==', {
    kubeconfig: (s, r) => `apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://10.0.0.${Math.floor(r() * 250)}:6443\n  name: prod\nusers:\n- name: admin\n  user:\n    client-certificate-data: ${chars(r, B64, 200)}\n    client-key-data: ${s}\n`,
  }),
  contextual('k8s-secret-data', 'k8s-secret-data', (r) => b64encode(password(r)), {
    manifest: (s, r) => `\`\`\`yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\n  namespace: prod\ntype: Opaque\ndata:\n  username: ${b64encode(pick(r, ['app', 'svc_orders', 'reporting']))}\n  password: ${s}\n\`\`\``,
    'multi-doc': (s) => `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  LOG_LEVEL: info\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: api\ndata:\n  API_SIGNING_MATERIAL: "${s}"\n`,
    'string-data': (s) => `kind: Secret\napiVersion: v1\nmetadata:\n  name: smtp\nstringData:\n  relay: "${s}"\n`,
  }),
  contextual('kubectl-literal', 'kubectl-literal', password, {
    shell: (s) => `kubectl -n prod create secret generic db --from-literal=username=app --from-literal=password='${s}'`,
    bare: (s) => `kubectl create secret generic api --from-literal=signing=${s} --dry-run=client -o yaml`,
  }),
  contextual('azure-storage-key', 'azure-storage-key', (r) => `${chars(r, B64, 86)}==`, {
    'connection-string': (s) => `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=${s};EndpointSuffix=core.windows.net"`,
    'service-bus': (s) => `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${s}`,
  }),
  contextual('azure-sas-signature', 'azure-sas-signature', (r) => encodeURIComponent(`${chars(r, B64, 43)}=`), {
    url: (s) => `Download with https://acmelogs.blob.core.windows.net/exports/2026-11.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&spr=https&sig=${s}`,
    token: (s) => `SAS token for the upload container: sv=2022-11-02&sr=c&sp=racwl&se=2026-12-31&sig=${s}`,
  }),
  contextual('azure-ad-client-secret', 'azure-ad-client-secret', (r) => `${chars(r, ALNUM, 3)}${Math.floor(r() * 10)}Q~${chars(r, `${ALNUM}_~.-`, 34)}`, {
    'az-output': (s) => `Output of az ad sp create-for-rbac:\n{"appId": "0b8e2f1c-7d3a-4c2b-9a1e-5f6d7c8b9a0e", "displayName": "ci", "secret": "${s}", "tenant": "72f988bf-86f1-41af-91ab-2d7cd011db47"}`,
    prose: (s) => `New app registration for the reporting job; its client value is ${s} (expires in 6 months).`,
    env: (s) => `AZURE_CLIENT_ID=0b8e2f1c-7d3a-4c2b-9a1e-5f6d7c8b9a0e\nAZURE_CLIENT_CREDENTIAL=${s}`,
  }),
  contextual('url-password', 'url-password', password, {
    postgres: (s, r) => `DATABASE_URL=postgres://app:${encodeURIComponent(s)}@${host(r)}:5432/orders`,
    mongodb: (s) => `Connect with \`mongosh "mongodb+srv://reporting:${encodeURIComponent(s)}@cluster0.ab1cd.mongodb.net/analytics"\``,
    redis: (s, r) => `cache url: redis://default:${encodeURIComponent(s)}@${host(r)}:6379/0`,
    'git-remote': (s) => `git remote set-url origin https://deploy:${encodeURIComponent(s)}@git.corp.example/team/app.git`,
  }, (s) => encodeURIComponent(s)),
  contextual('slack-webhook', 'slack-webhook', (r) => `T${chars(r, UPPER, 8)}/B${chars(r, UPPER, 10)}/${chars(r, ALNUM, 24)}`, {
    env: (s) => `SLACK_WEBHOOK_URL=https://hooks.slack.com/services/${s}`,
    curl: (s) => `curl -X POST -d '{"text":"deploy done"}' https://hooks.slack.com/services/${s}`,
  }),
  contextual('discord-webhook', 'discord-webhook', (r) => `${chars(r, '0123456789', 19)}/${chars(r, URLSAFE, 68)}`, {
    env: (s) => `DISCORD_WEBHOOK=https://discord.com/api/webhooks/${s}`,
    prose: (s) => `Alerts go to https://discordapp.com/api/webhooks/${s} for now.`,
  }),
  contextual('authorization-basic', 'authorization', (r) => b64encode(`deploy:${password(r)}`), {
    curl: (s) => `curl -H "Authorization: Basic ${s}" https://registry.corp.example/v2/_catalog`,
    'http-dump': (s) => `GET /v2/_catalog HTTP/1.1\nHost: registry.corp.example\nAuthorization: Basic ${s}\nAccept: */*`,
  }),
  contextual('bearer-token', undefined, (r) => chars(r, URLSAFE, 40 + Math.floor(r() * 30)), {
    'log-line': (s) => `10:14:03 upstream call failed: 401 for Bearer ${s} (token expired?)`,
    'http-dump': (s) => `> POST /v1/jobs\n> authorization: Bearer ${s}\n> content-type: application/json`,
    'fetch-code': (s) => `await fetch(url, { headers: { Authorization: \`Bearer ${s}\` } });`,
  }),
  contextual('api-key-header', 'auth-header', (r) => chars(r, HEX, 32), {
    curl: (s) => `curl https://api.corp.example/v2/reports -H "X-API-Key: ${s}"`,
    gitlab: (s) => `curl --header "PRIVATE-TOKEN: ${s}" "https://gitlab.example.com/api/v4/projects"`,
    cloudflare: (s) => `curl -H "X-Auth-Email: ops@corp.example" -H "X-Auth-Key: ${s}" https://api.cloudflare.com/client/v4/zones`,
  }),
  contextual('curl-user', 'cli-password', password, {
    quoted: (s) => `\`\`\`\ncurl -u 'deploy:${s}' https://ci.corp.example/api/json\n\`\`\``,
    bare: (s) => `curl -sSf --user admin:${s} -X POST https://jenkins.corp.example/job/build/build`,
    double: (s) => `curl -u "ops:${s}" https://nexus.corp.example/service/rest/v1/status`,
  }),
  contextual('mysql-password', 'cli-password', safePassword, {
    attached: (s, r) => `mysql -h ${host(r)} -u root -p'${s}' orders < dump.sql`,
    bare: (s) => `mysqldump -u backup -p${s} --all-databases > all.sql`,
  }),
  contextual('sshpass-password', 'cli-password', password, {
    space: (s) => `sshpass -p '${s}' ssh -o StrictHostKeyChecking=no pi@10.0.0.12`,
    attached: (s) => `sshpass -p"${s}" scp build.tar.gz deploy@web-1:/srv/`,
  }),
  contextual('docker-login-password', 'cli-password', safePassword, {
    short: (s) => `docker login -u ci-bot -p '${s}' registry.corp.example`,
    long: (s) => `podman login --username ci --password "${s}" quay.io`,
    helm: (s) => `helm registry login registry.corp.example --username ci --password=${s}`,
  }),
  contextual('token-flag', 'cli-token', (r) => chars(r, ALNUM, 40), {
    'auth-token': (s) => `sentry-cli releases --auth-token ${s} new 1.4.2`,
    token: (s) => `npx vercel deploy --prod --token ${s}`,
    'api-key': (s) => `datadog-ci sourcemaps upload ./dist --api-key ${s} --service web`,
  }),
  contextual('redis-cli-password', 'cli-password', password, {
    auth: (s) => `redis-cli -h cache.internal -p 6379 -a '${s}' --no-auth-warning info keyspace`,
  }),
  contextual('openssl-pass', 'cli-password', safePassword, {
    passout: (s) => `openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:${s}`,
    keytool: (s) => `keytool -importkeystore -srckeystore bundle.p12 -srcstorepass '${s}' -destkeystore app.jks -deststorepass '${s}'`,
  }),
  contextual('ldap-password', 'cli-password', password, {
    search: (s) => `ldapsearch -x -H ldaps://ldap.corp.example -D "cn=admin,dc=corp,dc=example" -w '${s}' -b "dc=corp,dc=example"`,
  }),
  contextual('netrc-password', 'netrc-password', (r) => chars(r, ALNUM, 32), {
    'one-line': (s) => `~/.netrc:\nmachine api.heroku.com login ops@corp.example password ${s}`,
    'multi-line': (s) => `machine git.corp.example\n  login deploy\n  password ${s}\n`,
  }),
  contextual('docker-config-auth', 'docker-config-auth', (r) => b64encode(`ci:${password(r)}`), {
    json: (s) => `~/.docker/config.json:\n{\n  "auths": {\n    "ghcr.io": {\n      "auth": "${s}"\n    }\n  }\n}`,
  }),
  contextual('env-password', 'password', password, {
    dotenv: (s) => `DB_HOST=localhost\nDB_PASSWORD=${s}\nDB_NAME=app`,
    'export-quoted': (s) => `export PGPASSWORD='${s}'\npsql -h db -U app`,
    powershell: (s) => `$env:SQL_PASSWORD = "${s}"`,
  }),
  contextual('yaml-password', 'password', safePassword, {
    nested: (s) => `database:\n  host: db.internal\n  user: app\n  password: "${s}"\n  pool: 10`,
    'docker-compose': (s) => `services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: ${s}`,
  }),
  contextual('json-api-key', 'api-key', (r) => chars(r, ALNUM, 32), {
    config: (s) => `{"endpoint": "https://api.corp.example", "apiKey": "${s}", "retries": 3}`,
    'python-dict': (s) => `settings = {"api_key": "${s}", "timeout": 10}`,
  }),
  contextual('hcl-client-secret', 'secret', (r) => chars(r, URLSAFE, 40), {
    provider: (s) => `provider "keycloak" {\n  client_id     = "terraform"\n  client_secret = "${s}"\n  url           = "https://sso.corp.example"\n}`,
    tfvars: (s) => `# terraform.tfvars\noauth_client_secret = "${s}"`,
  }),
  contextual('toml-token', 'token', (r) => chars(r, ALNUM, 40), {
    cargo: (s) => `# ~/.cargo/credentials.toml\n[registry]\ntoken = "${s}"`,
    pypirc: (s) => `[distutils]\nindex-servers = private\n\n[private]\nrepository = https://pkg.corp.example\nusername = ci\nauth_token = ${s}`,
  }),
  contextual('frontmatter-token', 'token', (r) => chars(r, ALNUM, 36), {
    frontmatter: (s) => `---\nname: status page\ndescription: how to post incidents\nstatuspage_api_token: ${s}\n---\nPost incidents through the API.`,
  }),
  contextual('python-environ', 'secret', (r) => chars(r, URLSAFE, 50), {
    assign: (s) => `os.environ["DJANGO_SECRET_KEY"] = "${s}"`,
    settings: (s) => `SECRET_KEY = '${s}'`,
  }),
  contextual('prose-password', 'password', password, {
    admin: (s) => `The admin password is ${s} until we move it to the vault.`,
    'for-db': (s) => `FYI the password for the staging database is \`${s}\`.`,
    changed: (s) => `Heads-up: the wifi password was changed to "${s}" yesterday.`,
  }),
  contextual('prose-api-key', 'api-key', (r) => chars(r, ALNUM, 32), {
    is: (s) => `The API key for the weather service is ${s}; it has a 1000/day quota.`,
    colon: (s) => `My API key: ${s}`,
  }),
  contextual('markdown-bold-password', 'password', password, {
    bold: (s) => `**Host:** db-1\n**Password:** ${s}\n**Port:** 5432`,
    list: (s) => `- user: admin\n- password: ${s}\n- url: https://admin.corp.example`,
  }),
  contextual('datadog-api-key', undefined, (r) => chars(r, HEX, 32), {
    env: (s) => `DD_API_KEY=${s}`,
    helm: (s) => `helm install datadog datadog/datadog --set datadog.apiKey=${s}`,
    header: (s) => `curl -X POST "https://api.datadoghq.eu/api/v1/series" -H "DD-API-KEY: ${s}"`,
  }),
  contextual('cloudflare-api-token', undefined, (r) => chars(r, URLSAFE, 40), {
    env: (s) => `CLOUDFLARE_API_TOKEN=${s}`,
    wrangler: (s) => `curl -H "Authorization: Bearer ${s}" https://api.cloudflare.com/client/v4/user/tokens/verify`,
    yaml: (s) => `cloudflare:\n  api_token: ${s}\n  zone: corp.example`,
  }),
  contextual('heroku-legacy-key', undefined, (r) => `${chars(r, HEX, 8)}-${chars(r, HEX, 4)}-4${chars(r, HEX, 3)}-a${chars(r, HEX, 3)}-${chars(r, HEX, 12)}`, {
    env: (s) => `HEROKU_API_KEY=${s}`,
    netrc: (s) => `machine api.heroku.com\n  login me@corp.example\n  password ${s}`,
  }),
  contextual('wireguard-private-key', 'private-key', (r) => `${chars(r, B64, 43)}=`, {
    conf: (s) => `[Interface]\nAddress = 10.8.0.2/24\nPrivateKey = ${s}\nDNS = 1.1.1.1`,
  }),
  contextual('hex-private-key', 'private-key', (r) => `0x${chars(r, HEX, 64)}`, {
    env: (s) => `DEPLOYER_PRIVATE_KEY=${s}`,
    json: (s) => `{"network": "sepolia", "privateKey": "${s}"}`,
  }),
  contextual('passphrase-with-spaces', 'password', (r) => `${pick(r, ['correct', 'purple', 'silent', 'orbit'])} ${pick(r, ['horse', 'monkey', 'river', 'lantern'])} ${pick(r, ['battery', 'tuesday', 'copper'])} ${Math.floor(r() * 9000) + 1000}`, {
    yaml: (s) => `gpg:\n  passphrase: "${s}"`,
    env: (s) => `BACKUP_PASSPHRASE='${s}'`,
  }),
  contextual('npmrc-auth-token', 'token', (r) => chars(r, ALNUM, 40), {
    npmrc: (s) => `.npmrc:\n//npm.pkg.github.com/:_authToken=${s}\n@corp:registry=https://npm.pkg.github.com`,
  }),
  contextual('connection-string-password', 'password', safePassword, {
    adonet: (s) => `Server=tcp:sql.corp.example,1433;Database=app;User ID=app;Password=${s};Encrypt=True;`,
    dsn: (s) => `psql "host=db.internal dbname=app user=app password=${s}"`,
  }),
];

export const KINDS: readonly KindSpec[] = [...VENDOR_KINDS, ...CONTEXT_KINDS];

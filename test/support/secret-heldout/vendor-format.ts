/**
 * Held-out samples in formats that vendor documentation publishes (AWS IAM's credentials CSV,
 * PostgreSQL's .pgpass, HTTPie's `-a`, Azure's `az storage account keys list` output, Sentry DSNs,
 * Telegram's bot API URLs…), with seeded random values, for the classes issue 29 lists. Unlike
 * data.json these samples were written here (from the formats), so the bench reports them apart
 * (`vendor:` sources) from the scanner-derived ones. Benign: the placeholders those same docs use.
 */
import { createHash } from 'node:crypto';
import { mulberry32 } from '../prng.js';
import type { HeldoutBenign, HeldoutSecret } from './extract.js';

const rng = mulberry32(2029);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = `${ALNUM}+/`;
const HEX = '0123456789abcdef';
const BASE32L = 'abcdefghijklmnopqrstuvwxyz234567';
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const chars = (alphabet: string, n: number): string => {
  let s = '';
  for (let i = 0; i < n; i += 1) s += alphabet[Math.floor(rng() * alphabet.length)];
  return s;
};
const pw = (): string => `${chars(ALNUM, 6)}!${chars(ALNUM, 5)}#${chars('0123456789', 2)}`;
const awsSecret = (): string => chars(B64, 40);
const b64 = (s: string): string => Buffer.from(s).toString('base64');

function secret(source: string, value: string, line: string): HeldoutSecret {
  return { source: `vendor:${source}`, secret: value, line };
}
function bare(source: string, identifier: string, value: string): HeldoutSecret {
  return { source: `vendor:${source}`, identifier, secret: value };
}

const vpn = pw();
const apiKey = chars(ALNUM, 32);
const signing = chars(HEX, 32);
const stripeSecret = `${chars(ALNUM, 12)}${chars(HEX, 12)}`;
const pgpass = pw();
const jsonPass = pw();
const envPass = pw();
const unusual = [chars(ALNUM, 40), chars(ALNUM, 36), chars(HEX, 40)];
const httpie = pw();
const cookie = chars(B64, 48);
const setCookie = chars(HEX, 64);
const flagPw = [pw(), pw(), pw(), pw()];
const urlPw = [pw(), chars(ALNUM, 40), pw(), pw()];
const awsAlone = awsSecret();
const csvPw = pw();
const csvSecret = awsSecret();
const azureKey = `${chars(B64, 86)}==`;
const adoPat = chars(BASE32L, 52);
const adoPat2 = chars(BASE32L, 52);
const twilioToken = chars(HEX, 32);
const telegram = `${Math.floor(rng() * 9e9) + 1e9}:AA${chars(`${ALNUM}_-`, 33)}`;
const jwtSpaced = `${b64('{ "alg": "HS256", "typ": "JWT" }').replace(/=+$/, '')}.${b64(`{ "sub": "svc-${chars(HEX, 6)}", "exp": 1893456000 }`).replace(/=+$/, '')}.${chars(`${ALNUM}_-`, 43)}`;
const sentryKey = chars(HEX, 32);
const sentryLegacy = chars(HEX, 32);
const ethKey = `0x${chars(HEX, 64)}`;
const wif = `5${'HJK'[Math.floor(rng() * 3)]}${chars(B58, 49)}`;
const pemB64 = b64(`-----BEGIN RSA PRIVATE KEY-----\nMIIEow${chars(B64, 120)}\n-----END RSA PRIVATE KEY-----\n`);

export const VENDOR_FORMAT_SECRETS: HeldoutSecret[] = [
  // Credentials in prose and tables.
  secret('prose-password-label', vpn, `Password for the VPN: ${vpn}`),
  secret('prose-api-key-dash', apiKey, `API Key - ${apiKey}`),
  secret('prose-signing-secret', signing, `The webhook signing secret ${signing} goes into the app settings.`),
  secret('table-env-secret', stripeSecret, `| name | value |\n|---|---|\n| STRIPE_SECRET | ${stripeSecret} |`),
  secret('pgpass', pgpass, `~/.pgpass on the bastion:\n\ndb.internal:5432:app:app_user:${pgpass}`),
  secret('json-pass', jsonPass, `{"host": "db.internal", "user": "deploy", "pass": "${jsonPass}"}`),
  secret('env-password', envPass, `DB_PASS=${envPass}`),
  secret('unusual-assign-r', unusual[0] as string, `api_key <- "${unusual[0]}"`),
  secret('unusual-assign-prose', unusual[1] as string, `set the api key to ${unusual[1]} in the dashboard`),
  secret('unusual-assign-typed', unusual[2] as string, `API_KEY: str = "${unusual[2]}"`),
  // Command lines and headers.
  secret('httpie-auth', httpie, `http -a deploy:${httpie} POST https://api.internal/v1/jobs`),
  secret('cookie-header', cookie, `curl -H 'Cookie: session=${cookie}' https://app.internal/`),
  secret('set-cookie', setCookie, `< Set-Cookie: sessionid=${setCookie}; Path=/; HttpOnly; Secure`),
  secret('sqlcmd-P', flagPw[0] as string, `sqlcmd -S db.internal -U sa -P ${flagPw[0]} -Q "select 1"`),
  secret('psql-password-eq', flagPw[1] as string, `pg_dump --username=app --password=${flagPw[1]} app > app.sql`),
  secret('single-dash-password', flagPw[2] as string, `java -jar admin.jar -user admin -password ${flagPw[2]}`),
  secret('windows-p-colon', flagPw[3] as string, `msdeploy -verb:sync -dest:auto,userName=deploy,password=${flagPw[3]}`),
  secret('url-port-path', urlPw[0] as string, `https://admin:${urlPw[0]}@git.internal:8443/repo.git`),
  secret('url-oauth2', urlPw[1] as string, `git clone https://oauth2:${urlPw[1]}@gitlab.internal/group/app.git`),
  secret('url-empty-user', urlPw[2] as string, `REDIS_URL=redis://:${urlPw[2]}@cache.internal:6379/0`),
  secret('url-amqp', urlPw[3] as string, `amqp://worker:${urlPw[3]}@mq.internal:5672/vhost`),
  // Vendor formats.
  secret('aws-secret-under-label', awsAlone, `AWS secret access key:\n${awsAlone}`),
  secret('aws-iam-credentials-csv', csvSecret, `User name,Password,Access key ID,Secret access key,Console login link\nalice,${csvPw},AKIA${chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)},${csvSecret},https://123456789012.signin.aws.amazon.com/console`),
  secret('aws-iam-console-password', csvPw, `User name,Password,Console login link\nbob,${csvPw},https://123456789012.signin.aws.amazon.com/console`),
  secret('azure-storage-keys-list', azureKey, `az storage account keys list output:\n[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "${azureKey}"\n  }\n]`),
  bare('azure-devops-pat', 'azure_devops', adoPat),
  secret('azure-devops-pat-url', adoPat2, `git clone https://anything:${adoPat2}@dev.azure.com/org/project/_git/repo`),
  bare('twilio-auth-token', 'twilio', twilioToken),
  secret('telegram-bot-url', telegram, `curl https://api.telegram.org/bot${telegram}/getMe`),
  bare('telegram-bot-token', 'telegram_bot', telegram),
  bare('jwt-spaced-header', 'service', jwtSpaced),
  secret('sentry-dsn', sentryKey, `SENTRY_DSN=https://${sentryKey}@o${Math.floor(rng() * 1e6)}.ingest.sentry.io/${Math.floor(rng() * 1e7)}`),
  secret('sentry-dsn-legacy', sentryLegacy, `dsn: https://${chars(HEX, 32)}:${sentryLegacy}@sentry.internal/12`),
  secret('eth-private-key', ethKey, `Wallet for the testnet faucet, private key ${ethKey}`),
  secret('bitcoin-wif', wif, `Imported the cold wallet key (WIF): ${wif}`),
  bare('base64-pem', 'tls', pemB64),
];

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const uuid = (): string => `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-a${chars(HEX, 3)}-${chars(HEX, 12)}`;

function benign(source: string, text: string): HeldoutBenign {
  return { source: `vendor-doc:${source}`, text };
}

export const VENDOR_FORMAT_BENIGN: HeldoutBenign[] = [
  benign('aws-example-keys', 'From the AWS CLI docs:\n\n```\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n```'),
  benign('sentry-example-dsn', "Sentry's quick start uses `dsn: \"https://examplePublicKey@o0.ingest.sentry.io/0\"`; ours is in the secret store."),
  benign('twilio-placeholders', 'Twilio docs: `client = Client("ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "your_auth_token")`.'),
  benign('angle-placeholder', 'Run `gh auth login --with-token < token.txt`, or set `GITHUB_TOKEN=<your-token>` for CI.'),
  benign('env-reference', 'The workflow passes `token: ${{ secrets.GITHUB_TOKEN }}` and `NPM_TOKEN=${NPM_TOKEN}` through.'),
  benign('masked', 'The dashboard shows the key as `sk-live-****************` after creation; copy it then.'),
  benign('x-placeholder', '```\napi_key: "xxxxxxxxxxxxxxxxxxxxxxxx"\npassword: ********\n```'),
  benign('pgpass-doc', 'The `.pgpass` format is `hostname:port:database:username:password`; chmod 0600 or psql ignores it.'),
  benign('curl-user-doc', 'curl docs: `curl -u username:password https://example.com` sends basic auth.'),
  benign('cookie-doc', 'Set-Cookie: `Set-Cookie: <cookie-name>=<cookie-value>; Secure; HttpOnly` per MDN.'),
  benign('request-ids', `The failing request ids were ${uuid()} and ${uuid()}; both timed out at the gateway.`),
  benign('trace-table', `| trace | span |\n|---|---|\n| ${chars(HEX, 32)} | ${chars(HEX, 16)} |`),
  benign('file-checksums', `Release checksums:\n\n\`\`\`\n${sha256('a')}  graphiti-memory-sync-1.4.0.tgz\n${sha256('b')}  graphiti-memory-sync-1.4.1.tgz\n\`\`\``),
  benign('sha256-label', `Verified the download: sha256 ${sha256('c')} matches the release page.`),
  benign('integrity', `package-lock has integrity sha512-${b64(sha256('d') + sha256('e')).slice(0, 86)}== for the tarball.`),
  benign('key-id', `The signing key id is ${chars('0123456789ABCDEF', 16)} (gpg --list-keys shows it).`),
  benign('token-prose', 'Tokens expire after 90 days; rotate the API key before then and update the password manager.'),
  benign('uuid-yaml', `\`\`\`yaml\nproject_id: ${uuid()}\nworkspace_id: ${uuid()}\n\`\`\``),
  benign('git-log', `Commits in the range:\n\n${Array.from({ length: 4 }, () => `- ${chars(HEX, 40)} fix token refresh`).join('\n')}`),
  benign('docker-digest', `Pinned the image to node@sha256:${sha256('f')}.`),
];

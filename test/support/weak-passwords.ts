/**
 * Weak and common passwords as people write them in their own notes (issue 40), and notes that talk
 * about passwords without holding one. Written once, before the redaction was measured on them.
 *
 * - The passwords are the public most-common lists' usual heads, written down here from common
 *   knowledge (no list was downloaded): `123456`, `password`, `letmein`, `admin123`, `Welcome1`…
 * - Each is written in one of the FORMS below (prose, list, .env, YAML, JSON, TOML, table, URL,
 *   command lines, `user / password` pairs, a PIN, a passphrase, a secret, a label above its value),
 *   inside a few lines of an ordinary memory note; the form, its wording and the note around it are
 *   drawn by a seeded generator, so the set is the same on every run.
 * - Split by the password (FNV-1a of the value, like the held-out set's split by kind): a password is
 *   in the dev half or the test half, never both, so the test half's values were never tuned on.
 *   The benign notes are split by their template the same way.
 *
 * `bench/redact-bench.ts` reports each half on its own; `test/support/secret-heldout/dev-eval.ts`
 * prints the dev half only.
 */
import { mulberry32 } from './prng.js';

export type WeakSplit = 'dev' | 'test';

export interface WeakPasswordNote {
  /** The form it is written in (FORMS' names). */
  form: string;
  /** The value that must not survive. */
  secret: string;
  note: string;
  /**
   * How often the note holds `secret` elsewhere than where it was planted (`pass` in "password
   * manager", `admin` as the user name): a common password is often a common word, so it is gone when
   * the redacted note holds it no more often than that (weakPasswordSurvives).
   */
  elsewhere: number;
  split: WeakSplit;
}

export interface PasswordTalkNote {
  /** The template's name: what kind of password talk it is. */
  cls: string;
  note: string;
  split: WeakSplit;
}

/**
 * The heads of the most-common password lists (any of the public ones: they agree on these), plus
 * the defaults people keep (`changeme`, `root`, `toor`, `admin123`) and the seasonal pattern
 * (`Summer2024!`). Numeric ones serve as PINs too.
 */
export const COMMON_PASSWORDS: readonly string[] = [
  '123456', 'password', '123456789', '12345678', '12345', 'qwerty', '1234567', '111111', '1234567890', '123123',
  'abc123', '1234', 'password1', 'iloveyou', '1q2w3e4r', '000000', 'qwerty123', 'zaq12wsx', 'dragon', 'sunshine',
  'princess', 'letmein', '654321', 'monkey', '1qaz2wsx', '123321', 'qwertyuiop', 'superman', 'asdfghjkl', 'trustno1',
  'football', 'baseball', 'welcome', 'Welcome1', 'admin', 'admin123', 'root', 'toor', 'changeme', 'master',
  'shadow', 'michael', 'passw0rd', 'P@ssw0rd', 'Password1', 'Password123', 'hunter2', 'secret', 'test123', 'guest',
  'default', 'login', 'starwars', 'whatever', 'freedom', 'qazwsx', '666666', '121212', '7777777', 'access',
  'mustang', 'pass123', 'Summer2024!', 'Winter2023', 'letmein1', 'changeit', 'postgres', 'mysql', 'hello123', 'abcd1234',
  'secret123', 'welcome123', 'root123', 'qwe123', 'q1w2e3r4', 'asdf1234', 'Spring2025', 'Company123', 'iloveyou1', 'admin1',
  'pass', 'test', 'demo', 'love123', 'batman', 'jordan23', 'killer', 'pokemon', 'charlie', 'computer',
  '1111', '0000', '4321', '2580', '1212', '9999', '112233', '159753', '987654321', 'password123!',
];

/** FNV-1a, even: dev, odd: test. */
export function weakSplitOf(key: string): WeakSplit {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return h % 2 === 0 ? 'dev' : 'test';
}

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

const SERVICES = ['staging database', 'Grafana', 'Jenkins', 'the office wifi', 'the NAS', 'the router', 'RabbitMQ', 'the test VM', 'Postgres on the laptop', 'the demo tenant', 'pgAdmin', 'the build box'];
const USERS = ['admin', 'root', 'app', 'deploy', 'ci', 'postgres', 'dev'];
const HOSTS = ['localhost', '127.0.0.1', 'db.internal', 'staging-db', '10.0.0.12'];

/** A password in one form: `(pw, r) => text`. `urlSafe`/`digitsOnly` say which passwords the form can hold. */
interface Form {
  name: string;
  digitsOnly?: boolean;
  /** Only passwords made of characters a URL or a `user:password` pair carries unencoded. */
  plain?: boolean;
  write: (pw: string, r: Rng) => string;
}

export const FORMS: readonly Form[] = [
  { name: 'prose', write: (pw, r) => pick(r, [`The ${pick(r, SERVICES)} password is ${pw}.`, `FYI the password for ${pick(r, SERVICES)} is ${pw}`, `Reset the ${pick(r, SERVICES)} password; it was ${pw} before.`, `Password for ${pick(r, SERVICES)} is still ${pw}, need to change it.`]) },
  { name: 'prose-colon', write: (pw, r) => pick(r, [`${pick(r, SERVICES)} password: ${pw}`, `Password for ${pick(r, SERVICES)}: ${pw}`, `pw for ${pick(r, SERVICES)} - ${pw}`]) },
  { name: 'list', write: (pw, r) => `## ${pick(r, SERVICES)}\n\n- url: http://${pick(r, HOSTS)}:3000\n- user: ${pick(r, USERS)}\n- ${pick(r, ['password', 'pass', 'pwd', 'Password'])}: ${pw}\n- owner: me` },
  { name: 'dotenv', write: (pw, r) => `Local .env that works:\n\n\`\`\`\nNODE_ENV=development\n${pick(r, ['DB_PASSWORD', 'POSTGRES_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'ADMIN_PASS', 'REDIS_PASSWORD', 'PGPASSWORD'])}=${pw}\nLOG_LEVEL=debug\n\`\`\`` },
  { name: 'yaml', write: (pw, r) => `docker-compose bit I keep using:\n\n\`\`\`yaml\nservices:\n  db:\n    image: postgres:16\n    environment:\n      ${pick(r, ['password', 'POSTGRES_PASSWORD', 'db_password'])}: ${pw}\n\`\`\`` },
  { name: 'json', write: (pw, r) => `settings.json for the local run:\n\n\`\`\`json\n{\n  "user": "${pick(r, USERS)}",\n  "${pick(r, ['password', 'pass', 'adminPassword'])}": "${pw}",\n  "port": 5432\n}\n\`\`\`` },
  { name: 'toml', write: (pw, r) => `config.toml:\n\n\`\`\`toml\n[database]\nuser = "${pick(r, USERS)}"\npassword = "${pw}"\n\`\`\`` },
  { name: 'table', write: (pw, r) => `| service | user | password |\n|---|---|---|\n| ${pick(r, SERVICES)} | ${pick(r, USERS)} | ${pw} |\n| wiki | me | SSO |` },
  { name: 'url', plain: true, write: (pw, r) => `${pick(r, ['postgres', 'mysql', 'redis', 'amqp', 'mongodb'])}://${pick(r, USERS)}:${pw}@${pick(r, HOSTS)}:${pick(r, ['5432', '3306', '6379', '5672', '27017'])}/app` },
  { name: 'mysql', write: (pw, r) => `Quick access:\n\n    mysql -u ${pick(r, USERS)} -p${pw} ${pick(r, ['app', 'orders', 'wordpress'])}` },
  { name: 'redis-cli', write: (pw, r) => `Check the queue: \`redis-cli -h ${pick(r, HOSTS)} -a ${pw} llen jobs\`` },
  { name: 'curl-u', plain: true, write: (pw, r) => `\`\`\`sh\ncurl -u ${pick(r, USERS)}:${pw} http://${pick(r, HOSTS)}:8080/api/health\n\`\`\`` },
  { name: 'docker-login', write: (pw, r) => `docker login -u ${pick(r, USERS)} -p ${pw} registry.${pick(r, ['local', 'internal', 'lab'])}:5000` },
  { name: 'user-slash-password', plain: true, write: (pw, r) => pick(r, [`${pick(r, SERVICES)} login: ${pick(r, USERS)} / ${pw}`, `user / password: ${pick(r, USERS)} / ${pw}`, `Creds for ${pick(r, SERVICES)}: ${pick(r, USERS)} / ${pw}`]) },
  { name: 'pin', digitsOnly: true, write: (pw, r) => pick(r, [`The ${pick(r, ['door', 'alarm', 'SIM', 'phone', 'safe'])} PIN is ${pw}.`, `${pick(r, ['SIM', 'Yubikey', 'alarm'])} PIN: ${pw}`, `PIN for the ${pick(r, ['garage', 'safe', 'card'])} - ${pw}`]) },
  { name: 'passphrase', write: (pw, r) => pick(r, [`The passphrase for the ${pick(r, ['backup key', 'ssh key', 'GPG key'])} is ${pw}`, `${pick(r, ['ssh', 'gpg', 'restic'])} passphrase: ${pw}`]) },
  { name: 'secret', write: (pw, r) => pick(r, [`\`\`\`\n${pick(r, ['JWT_SECRET', 'SESSION_SECRET', 'APP_SECRET'])}=${pw}\n\`\`\``, `The ${pick(r, ['JWT', 'session', 'webhook'])} secret is ${pw} on staging.`]) },
  { name: 'label-above', write: (pw, r) => `${pick(r, SERVICES)} admin\n\nPassword:\n${pw}\n\nChange after the demo.` },
  { name: 'sshpass', write: (pw, r) => `sshpass -p ${pw} ssh ${pick(r, USERS)}@${pick(r, HOSTS)}` },
];

/** A memory note around the form: a title and a line or two, as people write them. */
function inNote(body: string, r: Rng): string {
  const title = pick(r, ['# Local setup', '# Notes', '# Staging', '# Home lab', '# Onboarding', '# Debugging the deploy']);
  const before = pick(r, ['Things I keep forgetting:', 'Setting this up again after the reinstall.', 'From today\'s pairing session.', '']);
  const after = pick(r, ['TODO: move this to the password manager.', 'Works as of this week.', '', 'Ask Sam if this changes.']);
  return [title, before, body, after].filter((s) => s !== '').join('\n\n');
}

/** Stands where the password goes while a note is written (no form or note text holds it). */
const MARK = '\u0001';

/** How many times `s` holds `word` (overlapping). */
export function occurrences(s: string, word: string): number {
  let n = 0;
  for (let i = s.indexOf(word); i >= 0; i = s.indexOf(word, i + 1)) n += 1;
  return n;
}

/**
 * Whether the planted password is still in the redacted text: it occurs there, outside the
 * `[REDACTED:…]` tags (`pass` is in `[REDACTED:cli-password]`), more often than elsewhere in the note.
 */
export function weakPasswordSurvives(redacted: string, n: WeakPasswordNote): boolean {
  return occurrences(redacted.replace(/\[REDACTED:[a-z0-9-]+\]/g, MARK), n.secret) > n.elsewhere;
}

const isDigits = (pw: string): boolean => /^\d+$/.test(pw);
const isPlain = (pw: string): boolean => /^[A-Za-z0-9._~-]+$/.test(pw);

/**
 * `perPassword` notes for each common password, forms drawn so every form is met (seeded). Only
 * forms that can hold the password are drawn (a PIN is digits; a URL or `user:password` pair holds
 * no `@`, `:` or `!` unencoded).
 */
export function weakPasswordNotes(seed = 40, perPassword = 3): WeakPasswordNote[] {
  const r = mulberry32(seed);
  const out: WeakPasswordNote[] = [];
  let turn = 0;
  for (const pw of COMMON_PASSWORDS) {
    const fits = FORMS.filter((f) => (!f.digitsOnly || isDigits(pw)) && (!f.plain || isPlain(pw)));
    for (let i = 0; i < perPassword; i += 1) {
      // Rotate through the forms, so each is met about as often; the rng picks the wording.
      // A password of digits is written as a PIN once (forms that take any password rarely draw it).
      const pin = FORMS.find((f) => f.name === 'pin') as Form;
      const form = i === 0 && isDigits(pw) ? pin : (fits[(turn + Math.floor(r() * 3)) % fits.length] as Form);
      turn += 1;
      // Written with a marker where the password goes, to count the password's other occurrences.
      const marked = inNote(form.write(MARK, r), r);
      out.push({ form: form.name, secret: pw, note: marked.split(MARK).join(pw), elsewhere: occurrences(marked.split(MARK).join(''), pw), split: weakSplitOf(pw) });
    }
  }
  return out;
}

/**
 * Notes that talk about passwords without holding one: policies, resets, rotations, where the password
 * is kept (a vault, a secret manager), templates (`${VAR}`, `$VAR`, `{{ }}`, `<…>`), masks, and words
 * that say they are examples, in the same forms as the passwords above.
 */
const TALK: Record<string, (r: Rng) => string> = {
  policy: (r) => pick(r, ['Password must be at least 12 characters and contain a digit.', 'Password policy: 14 characters minimum, rotated every 90 days, no reuse of the last 5.', 'The PIN has to be 6 digits now, 4 is no longer accepted.']),
  'reset-flow': (r) => pick(r, ['Fixed the password reset flow; the email link expires after 30 minutes.', 'Users who forget their password get a reset link, not a new password.', 'The password reset page 500s when the token is expired.']),
  'state-of-password': (r) => pick(r, [`The ${pick(r, SERVICES)} password is stored in 1Password, in the Infra vault.`, `The ${pick(r, SERVICES)} password was rotated yesterday.`, `The ${pick(r, SERVICES)} password is required for the migration.`, `The ${pick(r, SERVICES)} password is the same as the one in Vault.`]),
  'vault-reference': (r) => pick(r, [`${pick(r, SERVICES)} password: in Vault under kv/staging/db`, `DB_PASSWORD comes from AWS Secrets Manager (prod/db/password).`, `password: op://Infra/${pick(r, ['staging-db', 'grafana'])}/password`, `Password for ${pick(r, SERVICES)}: see the team vault.`]),
  'env-template': (r) => pick(r, ['```\nDB_PASSWORD=${DB_PASSWORD}\nLOG_LEVEL=debug\n```', '```yaml\nenvironment:\n  POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}\n```', `postgres://app:\${PGPASSWORD}@${pick(r, HOSTS)}:5432/app`, '`mysql -u root -p"$MYSQL_ROOT_PASSWORD" app`', '`redis-cli -a $REDIS_PASSWORD ping`']),
  'angle-placeholder': (r) => pick(r, ['password: <your-password>', '`mysql -u root -p<password> app`', `curl -u admin:<password> http://${pick(r, HOSTS)}:8080/api`, '| service | password |\n|---|---|\n| db | <db password> |', 'docker login -u ci -p <token> registry.local:5000']),
  'mustache-template': (r) => pick(r, ['password: "{{ vault_db_password }}"', '"password": "{{ .Values.db.password }}"', 'DB_PASSWORD={{ db_password }}']),
  mask: (r) => pick(r, ['password: ********', 'DB_PASSWORD=xxxx', `postgres://app:****@${pick(r, HOSTS)}:5432/app`, 'The log prints password=*** so it is safe to paste.', '- password: ••••••••']),
  'example-word': (r) => pick(r, ['password: placeholder', 'DB_PASSWORD=your-password', '"password": "example"', 'password: [REDACTED]', 'POSTGRES_PASSWORD=your_password_here', 'password = "<redacted>"']),
  'prompting-command': (r) => pick(r, [`mysql -u root -p app   # prompts for the password`, `ssh ${pick(r, USERS)}@${pick(r, HOSTS)} asks for the password twice, then works`, 'psql -h localhost -U app -W  (-W asks for the password)']),
  'password-words': (r) => pick(r, ['I forgot my password again and had to reset it.', 'Password managers: we use 1Password for the team, Bitwarden at home.', 'No passwords in notes: everything goes to the vault.', 'The password field is hidden behind a toggle on mobile.', 'Passwordless login via passkeys works on Chrome and Safari.']),
  'code-reference': (r) => pick(r, ['password = os.environ["DB_PASSWORD"]', 'const password = process.env.DB_PASSWORD;', 'password: z.string().min(12),', 'if (password !== confirmPassword) return error;']),
};

/** `perTemplate` notes of each kind of password talk (seeded), each inside a memory note; split by kind. */
export function passwordTalkNotes(seed = 41, perTemplate = 8): PasswordTalkNote[] {
  const r = mulberry32(seed);
  const out: PasswordTalkNote[] = [];
  for (const [cls, make] of Object.entries(TALK)) {
    for (let i = 0; i < perTemplate; i += 1) out.push({ cls, note: inNote(make(r), r), split: weakSplitOf(cls) });
  }
  return out;
}

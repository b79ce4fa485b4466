/**
 * Builds `dev-docs.json`: benign samples for the DEV half of the held-out set (issue 29) from
 * technical documentation nobody here wrote, the class issue 29 names as false positives
 * ("documentation examples and placeholders, ids and hashes"). Each source is read as data from a
 * repository snapshot (the `fetch` tool's mirror) at the commit recorded in `dev-docs.json`: every
 * distinct line of its documentation that holds a credential word, or an id or a hash (a UUID, a
 * run of 7 or more hex digits, a named hash), one sample per line. Lines are labelled by the SAME
 * rule as the rest of the held-out set (rule v5, README.md, `benignByRule` in extract.ts): benign
 * when every credential-shaped token in the line is a placeholder or an identifier; the rest is
 * left out (counted per source in `skipped`). Every sample is dev, whatever its name hashes to.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-docs.ts <name>=<git dir> …` for the
 * names in SOURCES below.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benignByRule, type HeldoutBenign } from './extract.js';

const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });

interface Source {
  name: string;
  /** Which mirror to read (a `name=<git dir>` argument); default: the source's own name. */
  dir?: string;
  url: string;
  license: string;
  /** Which files are documentation (paths inside the repository). */
  files: RegExp;
  paths: string;
  /** Read only the first lines of each file (a changelog's latest releases), so one file does not outweigh the rest. */
  firstLines?: number;
  /** Keep at most this many lines from the source (in the order of its files), so one repository does not outweigh the rest. */
  maxLines?: number;
}

/** Repositories' documentation (paths described as recorded in dev-docs.json). */
const DOCS: readonly Source[] = [
  { name: 'external-secrets', url: 'https://github.com/external-secrets/external-secrets', license: 'Apache-2.0', files: /^docs\/.*\.(?:md|ya?ml)$/, paths: 'docs/**/*.{md,yaml,yml}' },
  { name: 'terraform-provider-vault', url: 'https://github.com/hashicorp/terraform-provider-vault', license: 'MPL-2.0', files: /^website\/docs\/.*\.(?:md|markdown)$/, paths: 'website/docs/**/*.{md,markdown}' },
  { name: 'ggshield', url: 'https://github.com/GitGuardian/ggshield', license: 'MIT', files: /\.md$/, paths: '**/*.md (README, CHANGELOG, changelog.d, doc)' },
  { name: 'stripe-node', url: 'https://github.com/stripe/stripe-node', license: 'MIT', files: /\.md$/, paths: '**/*.md (README, CHANGELOG)' },
  { name: 'twilio-node', url: 'https://github.com/twilio/twilio-node', license: 'MIT', files: /\.md$/, paths: '**/*.md (README, CHANGES, UPGRADE)' },
  { name: 'gh-cli', url: 'https://github.com/cli/cli', license: 'MIT', files: /\.md$/, paths: '**/*.md' },
  { name: 'kingfisher', url: 'https://github.com/mongodb/kingfisher', license: 'Apache-2.0', files: /\.md$/, paths: '**/*.md' },
  // Added in a second pass for ids, hashes and encrypted or public values (digests, commit links, sops files, age recipients, htpasswd hashes).
  { name: 'sops', url: 'https://github.com/getsops/sops', license: 'MPL-2.0', files: /\.(?:md|rst)$/, paths: '**/*.{md,rst}' },
  { name: 'docker-cli', url: 'https://github.com/docker/cli', license: 'Apache-2.0', files: /^docs\/.*\.md$/, paths: 'docs/**/*.md' },
  { name: 'traefik', url: 'https://github.com/traefik/traefik', license: 'MIT', files: /^docs\/.*\.md$/, paths: 'docs/**/*.md' },
  { name: 'argo-cd', url: 'https://github.com/argoproj/argo-cd', license: 'Apache-2.0', files: /^docs\/.*\.md$/, paths: 'docs/**/*.md' },
  { name: 'eslint', url: 'https://github.com/eslint/eslint', license: 'MIT', files: /^CHANGELOG\.md$/, paths: 'CHANGELOG.md (its first 2,000 lines: the latest releases, a commit hash on every line)', firstLines: 2000 },
  { name: 'age', url: 'https://github.com/FiloSottile/age', license: 'BSD-3-Clause', files: /\.md$/, paths: '**/*.md' },
  // Added in a fourth pass: API SDKs, whose docs show how to pass keys and tokens.
  { name: 'bolt-js', url: 'https://github.com/slackapi/bolt-js', license: 'MIT', files: /\.mdx?$/, paths: '**/*.{md,mdx}' },
  { name: 'sendgrid-nodejs', url: 'https://github.com/sendgrid/sendgrid-nodejs', license: 'MIT', files: /\.mdx?$/, paths: '**/*.{md,mdx}' },
  { name: 'openai-node', url: 'https://github.com/openai/openai-node', license: 'Apache-2.0', files: /\.mdx?$/, paths: '**/*.{md,mdx}' },
  { name: 'mailgun-js', url: 'https://github.com/mailgun/mailgun.js', license: 'Apache-2.0', files: /\.mdx?$/, paths: '**/*.{md,mdx}' },
  { name: 'doctl', url: 'https://github.com/digitalocean/doctl', license: 'Apache-2.0', files: /^(?!vendor\/).*\.md$/, paths: '**/*.md outside vendor/' },
  { name: 'node-auth0', url: 'https://github.com/auth0/node-auth0', license: 'MIT', files: /\.mdx?$/, paths: '**/*.{md,mdx}' },
  // Added in a sixth pass (2026-11-26): database drivers, an ORM, a mail library and login tools,
  // whose docs write connection settings and logins (`password: '…'`, `user:pass@host`).
  { name: 'node-postgres', url: 'https://github.com/brianc/node-postgres', license: 'MIT', files: /\.mdx?$/, paths: '**/*.{md,mdx}' },
  { name: 'node-mysql2', url: 'https://github.com/sidorares/node-mysql2', license: 'MIT', files: /\.mdx?$/, paths: '**/*.{md,mdx}' },
  { name: 'nodemailer', url: 'https://github.com/nodemailer/nodemailer', license: 'MIT-0', files: /\.md$/, paths: '**/*.md' },
  { name: 'octokit-js', url: 'https://github.com/octokit/octokit.js', license: 'MIT', files: /\.md$/, paths: '**/*.md' },
  { name: 'login-action', url: 'https://github.com/docker/login-action', license: 'Apache-2.0', files: /\.md$/, paths: '**/*.md' },
  { name: 'typeorm', url: 'https://github.com/typeorm/typeorm', license: 'MIT', files: /^(?:docs\/.*\.mdx?|README\.md)$/, paths: 'README.md, docs/**/*.{md,mdx}' },
  // A seventh pass (2026-11-26), to check the sixth pass's fixes on projects of other languages:
  // HTTP clients, a web framework, an SDK and a `.env` loader, whose docs show auth and settings.
  { name: 'requests', url: 'https://github.com/psf/requests', license: 'Apache-2.0', files: /\.(?:md|rst)$/, paths: '**/*.{md,rst}' },
  { name: 'boto3', url: 'https://github.com/boto/boto3', license: 'Apache-2.0', files: /\.(?:md|rst)$/, paths: '**/*.{md,rst}' },
  { name: 'flask', url: 'https://github.com/pallets/flask', license: 'BSD-3-Clause', files: /\.(?:md|rst)$/, paths: '**/*.{md,rst}' },
  { name: 'dotenv', url: 'https://github.com/motdotla/dotenv', license: 'BSD-2-Clause', files: /\.md$/, paths: '**/*.md' },
  { name: 'httpx', url: 'https://github.com/encode/httpx', license: 'BSD-3-Clause', files: /\.md$/, paths: '**/*.md' },
  { name: 'google-auth-node', url: 'https://github.com/googleapis/google-auth-library-nodejs', license: 'Apache-2.0', files: /\.md$/, paths: '**/*.md' },
  // An eighth pass (2026-11-26), measured before any fix it might suggest: operators' tools whose
  // docs configure notification receivers, DNS providers and CI credentials.
  { name: 'alertmanager', url: 'https://github.com/prometheus/alertmanager', license: 'Apache-2.0', files: /^(?!vendor\/).*\.md$/, paths: '**/*.md outside vendor/' },
  { name: 'watchtower', url: 'https://github.com/containrrr/watchtower', license: 'Apache-2.0', files: /\.md$/, paths: '**/*.md' },
  { name: 'external-dns', url: 'https://github.com/kubernetes-sigs/external-dns', license: 'Apache-2.0', files: /^docs\/.*\.md$/, paths: 'docs/**/*.md' },
  { name: 'configure-aws-credentials', url: 'https://github.com/aws-actions/configure-aws-credentials', license: 'MIT', files: /\.md$/, paths: '**/*.md' },
  // A ninth pass (2026-11-26), measured before any fix: release and CI tools, whose docs pass
  // registry and forge tokens around.
  { name: 'goreleaser', url: 'https://github.com/goreleaser/goreleaser', license: 'MIT', files: /\.md$/, paths: '**/*.md' },
  { name: 'semantic-release', url: 'https://github.com/semantic-release/semantic-release', license: 'MIT', files: /\.md$/, paths: '**/*.md' },
  { name: 'woodpecker', url: 'https://github.com/woodpecker-ci/woodpecker', license: 'Apache-2.0', files: /^(?:docs\/docs\/.*\.mdx?|README\.md)$/, paths: 'README.md, docs/docs/**/*.{md,mdx} (not the versioned copies)' },
];

/** The repository a source of configuration is read from (one of DOCS). */
const repoOf = (dir: string): Source => DOCS.find((d) => d.name === dir) as Source;

/** The sources: the docs, then configuration full of ids and hashes, from the same snapshots. */
export const SOURCES: readonly Source[] = [
  ...DOCS,
  // Added in a third pass: CI workflows (pinning actions by commit, reading secrets by name) and
  // lockfiles (integrity hashes, resolved URLs).
  ...(['argo-cd', 'traefik', 'docker-cli', 'eslint', 'external-secrets', 'ggshield', 'kingfisher', 'gh-cli', 'stripe-node', 'twilio-node', 'sops', 'age', 'terraform-provider-vault'] as const).map((dir) => ({
    name: `${dir}-workflows`,
    dir,
    url: repoOf(dir).url,
    license: repoOf(dir).license,
    files: /^\.github\/workflows\/[^/]+\.ya?ml$/,
    paths: '.github/workflows/*.{yml,yaml}',
  })),
  { name: 'traefik-yarn-lock', dir: 'traefik', url: 'https://github.com/traefik/traefik', license: 'MIT', files: /^webui\/yarn\.lock$/, paths: 'webui/yarn.lock (first 3,000 lines)', firstLines: 3000 },
  { name: 'argo-cd-pnpm-lock', dir: 'argo-cd', url: 'https://github.com/argoproj/argo-cd', license: 'Apache-2.0', files: /^ui\/pnpm-lock\.yaml$/, paths: 'ui/pnpm-lock.yaml (first 3,000 lines)', firstLines: 3000 },
  { name: 'stripe-node-package-lock', dir: 'stripe-node', url: 'https://github.com/stripe/stripe-node', license: 'MIT', files: /^examples\/snippets\/package-lock\.json$/, paths: 'examples/snippets/package-lock.json (first 3,000 lines)', firstLines: 3000 },
  // A fifth pass: source code that handles credentials and holds none (reads them from the
  // environment, declares their types, checks them), at most 1,500 lines per repository.
  ...(
    [
      ['openai-node', /^src\/.*\.ts$/, 'src/**/*.ts'],
      ['bolt-js', /^src\/.*\.ts$/, 'src/**/*.ts'],
      ['stripe-node', /^src\/.*\.ts$/, 'src/**/*.ts'],
      ['sops', /^(?!vendor\/).*\.go$/, '**/*.go outside vendor/'],
      ['age', /\.go$/, '**/*.go'],
      ['ggshield', /^ggshield\/.*\.py$/, 'ggshield/**/*.py'],
      ['external-secrets', /^providers\/.*\.go$/, 'providers/**/*.go'],
      ['gh-cli', /^pkg\/.*\.go$/, 'pkg/**/*.go'],
      // The sixth pass's code: drivers and a mail library handling logins, login tools and their tests.
      ['node-postgres', /^packages\/[^/]+\/(?:lib|test)\/.*\.[jt]s$/, 'packages/*/{lib,test}/**/*.{js,ts}'],
      ['node-mysql2', /^(?:lib|test)\/.*\.[jt]s$/, '{lib,test}/**/*.{js,ts}'],
      ['nodemailer', /^(?:lib|examples|test)\/.*\.js$/, '{lib,examples,test}/**/*.js'],
      ['octokit-js', /^(?:src|test)\/.*\.ts$/, '{src,test}/**/*.ts'],
      ['login-action', /^(?:src|__tests__)\/.*\.ts$/, '{src,__tests__}/**/*.ts'],
      ['typeorm', /^src\/driver\/.*\.ts$/, 'src/driver/**/*.ts'],
      // The seventh pass's code.
      ['requests', /^(?:src|tests)\/.*\.py$/, '{src,tests}/**/*.py'],
      ['boto3', /^(?:boto3|tests)\/.*\.py$/, '{boto3,tests}/**/*.py'],
      ['flask', /^(?:src|tests)\/.*\.py$/, '{src,tests}/**/*.py'],
      ['dotenv', /^(?:lib|tests)\/.*\.[jt]s$/, '{lib,tests}/**/*.{js,ts}'],
      ['httpx', /^(?:httpx|tests)\/.*\.py$/, '{httpx,tests}/**/*.py'],
      ['google-auth-node', /^(?:src|samples|test)\/.*\.[jt]s$/, '{src,samples,test}/**/*.{js,ts}'],
      // The eighth pass's code.
      ['alertmanager', /^(?:config|notify)\/.*\.go$/, '{config,notify}/**/*.go'],
      ['watchtower', /^pkg\/.*\.go$/, 'pkg/**/*.go'],
      ['external-dns', /^provider\/.*\.go$/, 'provider/**/*.go'],
      ['configure-aws-credentials', /^(?:src|test)\/.*\.ts$/, '{src,test}/**/*.ts'],
      // The ninth pass's code.
      ['goreleaser', /^internal\/.*\.go$/, 'internal/**/*.go'],
      ['semantic-release', /^(?:lib|test)\/.*\.js$/, '{lib,test}/**/*.js'],
      ['woodpecker', /^server\/.*\.go$/, 'server/**/*.go'],
    ] as const
  ).map(([dir, files, paths]) => ({ name: `${dir}-code`, dir, url: repoOf(dir).url, license: repoOf(dir).license, files, paths: `${paths} (first 1,500 lines picked)`, maxLines: 1500 })),
  { name: 'ggshield-cargo-lock', dir: 'ggshield', url: 'https://github.com/GitGuardian/ggshield', license: 'MIT', files: /^rust\/Cargo\.lock$/, paths: 'rust/Cargo.lock (first 3,000 lines)', firstLines: 3000 },
];

/** What a line must hold to be a sample: a credential word, or an id or a hash. */
const CREDENTIAL_WORD = /passw(?:or)?d|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential|\bauth/i;
const ID_OR_HASH = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b[0-9a-f]{7,}\b|sha(?:1|256|512)[:-]/i;

function readSource(source: Source, dir: string, benign: HeldoutBenign[], skipped: Record<string, number>): string {
  const commit = git(dir, 'rev-parse', 'HEAD').trim();
  const files = git(dir, 'ls-tree', '-r', '--name-only', commit).split('\n').filter((f) => source.files.test(f));
  const seen = new Set<string>();
  let kept = 0;
  for (const file of files) {
    if (kept >= (source.maxLines ?? Infinity)) break;
    for (const line of git(dir, 'show', `${commit}:${file}`).split('\n').slice(0, source.firstLines)) {
      const key = line.trim();
      if (key === '' || key.length > 300 || seen.has(key) || !(CREDENTIAL_WORD.test(line) || ID_OR_HASH.test(line))) continue;
      seen.add(key);
      kept += 1;
      if (kept > (source.maxLines ?? Infinity)) break;
      const label = `${source.name}:${file}`;
      if (benignByRule(line, 'v5')) benign.push({ source: label, text: line });
      else skipped[source.name] = (skipped[source.name] ?? 0) + 1;
    }
  }
  return commit;
}

function main(): void {
  const dirs = new Map(process.argv.slice(2).map((a) => a.split('=', 2) as [string, string]));
  const benign: HeldoutBenign[] = [];
  // Left out as possibly secrets (a credential-shaped token that is neither a placeholder nor an id,
  // rule v5), counted per source: the lines are in the snapshots, not repeated here.
  const skipped: Record<string, number> = {};
  const sources = [];
  for (const source of SOURCES) {
    const dir = dirs.get(source.dir ?? source.name);
    if (dir === undefined) throw new Error(`usage: extract-dev-docs.ts ${SOURCES.filter((s) => s.dir === undefined).map((s) => `${s.name}=<git dir>`).join(' ')}`);
    const commit = readSource(source, dir, benign, skipped);
    sources.push({ name: source.name, url: source.url, commit, license: source.license, paths: source.paths });
  }
  const data = { split: 'dev (every sample)', sources, skipped, benign };
  const out = fileURLToPath(new URL('./dev-docs.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  process.stdout.write(`${benign.length} benign samples, ${Object.values(skipped).reduce((a, b) => a + b, 0)} skipped -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();

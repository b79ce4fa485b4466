/**
 * `npx tsx bench/redact-identity.ts <commit> [random notes] [seed]`: whether redaction at <commit>
 * and in the working tree give identical output (text, counts by kind, total) on the tuning corpus
 * (several seeds), the held-out notes under every labelling rule, the bench's prose notes, and
 * random notes glued from their pieces, credential words, separators and random runs.
 *
 * For speed work on the engine and the rules, which must not change what is redacted: run it
 * against the commit the work started from (exit 1 and the first differences if any). Rule and
 * judgement changes are expected to differ; this is not a test of them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactSecrets } from '../src/lib/memory/redact.js';
import { mulberry32 } from '../test/support/prng.js';
import { benignCorpus, secretCorpus } from '../test/support/secret-corpus.js';
import { heldoutBenign, heldoutSecrets } from '../test/support/secret-heldout/notes.js';
import { ROOT } from './util.js';

type Redact = (text: string) => { text: string; counts: Record<string, number>; total: number };

const [commit, randomCount = '20000', seedArg = '5'] = process.argv.slice(2);
if (commit === undefined) {
  console.error('usage: npx tsx bench/redact-identity.ts <commit> [random notes] [seed]');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'gms-redact-identity-'));
try {
  const archive = spawnSync('sh', ['-c', `git archive ${commit} src/lib/memory/redact.ts src/lib/memory/secrets | tar -x -C "${dir}"`], { cwd: ROOT });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr.toString()}`);
  const before = ((await import(join(dir, 'src/lib/memory/redact.ts'))) as { redactSecrets: Redact }).redactSecrets;

  const notes: string[] = [];
  for (const seed of [12, 1, 2, 3, 77]) notes.push(...secretCorpus(seed).map((p) => p.note), ...benignCorpus(seed).map((b) => b.note));
  notes.push(...heldoutSecrets().map((p) => p.note));
  for (const rule of ['v1', 'v2', 'v3', 'v4', 'v5'] as const) notes.push(...heldoutBenign(rule).map((b) => b.note));
  const prose = benignCorpus().filter((b) => b.cls === 'ordinary-note' || b.cls === 'prose-about-secrets').map((b) => b.note);
  notes.push(...prose.map((_, i) => prose.slice(i, i + 40).join('\n\n')));

  // Random notes: pieces of the notes above, credential words and shapes, separators, random runs.
  const rng = mulberry32(Number(seedArg));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
  const pieces = notes.flatMap((n) => n.split(/(?<=[\s:=,|"'`])/)).filter((p) => p !== '');
  const words = ['password', 'Password', 'PASS', 'pwd', 'secret', 'Secret', 'token', 'API_KEY', 'apiKey', 'API Key', 'key', 'pat', 'PAT', 'dsn', 'credentials', 'login', 'access_id', 'SecretId', 'Bearer ', 'Authorization: ', 'curl -u ', 'mysql -p', '--token ', ' -password ', '- name: DB_PASSWORD\n  value: ', 'sk-', 'ghp_', 'AKIA', 'eyJ', ':', '=', ': ', ' = ', '"', "'", '`', '|', ',', '\n', '\r\n', '\u2028', ' ', '\t', '->', '${', '{{', '}}', 'ENC(', '://', '@', 'https://', '?key=', 'is ', 'was ', ' / ', '| token | value |\n|---|---|\n| ', 'User name,Password,Secret access key\n', 'host:5432:db:user:'];
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.~!@#$%^&*';
  const run = (): string => Array.from({ length: 4 + Math.floor(rng() * 60) }, () => pick([...alphabet])).join('');
  for (let i = 0; i < Number(randomCount); i += 1) {
    let s = '';
    for (let k = 1 + Math.floor(rng() * 25); k > 0; k -= 1) {
      const r = rng();
      s += r < 0.4 ? pick(pieces) : r < 0.75 ? pick(words) : r < 0.9 ? run() : ' ';
    }
    notes.push(s);
  }

  let differences = 0;
  for (const note of notes) {
    const a = before(note);
    const b = redactSecrets(note);
    if (a.text === b.text && a.total === b.total && JSON.stringify(a.counts) === JSON.stringify(b.counts)) continue;
    differences += 1;
    if (differences <= 5) console.log(`difference:\n  note:   ${JSON.stringify(note).slice(0, 400)}\n  before: ${JSON.stringify(a).slice(0, 400)}\n  now:    ${JSON.stringify(b).slice(0, 400)}`);
  }
  console.log(`${notes.length} notes, ${differences} with a different redaction than ${commit}`);
  process.exitCode = differences === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Builds `dev-extra.json`: MORE benign samples for the DEV half of the held-out set (issue 29), from
 * public sources nobody here wrote, read as data from repository snapshots (never their rules or
 * code):
 * - secretlint's (MIT) own "ok" fixtures, the inputs each of its rules must NOT report
 *   (packages/@secretlint/secretlint-rule-*\/test/snapshots/ok.*\/input*). Each non-empty line of
 *   a fixture is one sample, except a comment line made of words only (`# These should NOT be
 *   detected…`: the fixture's own caption).
 * - Nosey Parker's (Apache-2.0) `negative_examples`, the texts each of its rules is tested NOT to
 *   match (crates/noseyparker/data/default/builtin/rules/*.yml; only that list is read, never a
 *   pattern). Each example is one sample, as written (some span lines).
 * - whispers' (Apache-2.0) YAML fixtures, the lines of their `compliant:` blocks (what its tests
 *   expect it not to report; tests/fixtures/*.yml), one sample per non-empty line.
 * - ripsecrets' (MIT) `test/none`, the file its tests expect no secret in, one sample per line.
 * - the AWS CLI's (Apache-2.0) command examples (awscli/examples/**\/*.rst), vendor documentation:
 *   every distinct line that holds a credential word (password, secret, token, access key, API
 *   key), one sample per line; these are documentation, so their keys are the vendor's examples.
 * A sample is labelled by the
 * SAME rule as the original set (labelling rule v5, README.md, `benignByRule` in extract.ts): it
 * is benign when every credential-shaped token in it is a placeholder or an identifier; the rest
 * (a scanner's "ok" may be a real-looking key that only that rule rejects) is left out, counted in
 * `skipped`. Every sample here belongs to the dev half, whatever its name hashes to: the split of
 * the original set (notes.ts, `splitOf`) is unchanged, and the bench reports the original set and
 * this extension on separate rows so the before/after comparison stays like for like.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-extra.ts <secretlint git dir> <noseyparker git dir>
 * <whispers git dir> <ripsecrets git dir> <aws-cli git dir>` (the `fetch` tool's mirrors at the commits recorded in `dev-extra.json`).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as jsYamlModule from 'js-yaml';
import { benignByRule, type HeldoutBenign } from './extract.js';

const jsYaml = ((jsYamlModule as { default?: unknown }).default ?? jsYamlModule) as { safeLoad: (s: string) => unknown };

const git = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** A fixture's caption: a comment line of words, no value in it. */
const CAPTION = /^\s*(?:#|\/\/|<!--)[^:=]*$/;

function secretlintOk(dir: string, benign: HeldoutBenign[], skipped: string[]): void {
  const files = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'packages/@secretlint/')
    .split('\n')
    .filter((f) => /^packages\/@secretlint\/secretlint-rule-[^/]+\/test\/snapshots\/ok\.[^/]+\/(?:input[^/]*|\.env\.example|example\.env)$/.test(f) && !f.endsWith('.p12'));
  for (const file of files) {
    const rule = /secretlint-rule-([^/]+)\/test\/snapshots\/(ok\.[^/]+)\//.exec(file) as RegExpExecArray;
    const source = `secretlint-ok:${rule[1]}/${rule[2]}`;
    for (const line of git(dir, 'show', `HEAD:${file}`).split('\n')) {
      if (line.trim() === '' || CAPTION.test(line)) continue;
      label(benign, skipped, source, line);
    }
  }
}

function label(benign: HeldoutBenign[], skipped: string[], source: string, text: string): void {
  if (benignByRule(text, 'v5')) benign.push({ source, text });
  else skipped.push(`${source}: ambiguous (a credential-shaped token that is neither a placeholder nor an id, rule v5)`);
}

function noseyParkerNegatives(dir: string, benign: HeldoutBenign[], skipped: string[]): void {
  const files = git(dir, 'ls-tree', '--name-only', 'HEAD', 'crates/noseyparker/data/default/builtin/rules/').split('\n').filter((f) => /\.ya?ml$/.test(f));
  for (const file of files) {
    const doc = jsYaml.safeLoad(git(dir, 'show', `HEAD:${file}`)) as { rules?: { id?: string; negative_examples?: unknown[] }[] } | undefined;
    for (const rule of doc?.rules ?? []) {
      for (const example of rule.negative_examples ?? []) {
        if (typeof example !== 'string' || example.trim() === '') continue;
        label(benign, skipped, `noseyparker-negative:${rule.id ?? file}`, example.replace(/\n$/, ''));
      }
    }
  }
}

/** whispers: the lines under a top-level `compliant:` key, up to the next top-level key. */
function whispersCompliant(dir: string, benign: HeldoutBenign[], skipped: string[]): void {
  const files = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'tests/fixtures/').split('\n').filter((f) => /\.ya?ml$/.test(f));
  for (const file of files) {
    let inside = false;
    for (const line of git(dir, 'show', `HEAD:${file}`).split('\n')) {
      if (/^compliant:/.test(line)) { inside = true; continue; }
      if (/^[^\s#-]/.test(line)) inside = false;
      if (inside && line.trim() !== '' && !CAPTION.test(line)) label(benign, skipped, `whispers-compliant:${file.replace(/^tests\/fixtures\//, '')}`, line);
    }
  }
}

/** ripsecrets: every line of test/none (its tests expect no secret in that file). */
function ripsecretsNone(dir: string, benign: HeldoutBenign[], skipped: string[]): void {
  for (const line of git(dir, 'show', 'HEAD:test/none').split('\n')) {
    if (line.trim() !== '' && !CAPTION.test(line)) label(benign, skipped, 'ripsecrets-none:test/none', line);
  }
}

/** The AWS CLI's examples: distinct lines holding a credential word. */
function awsCliExamples(dir: string, benign: HeldoutBenign[], skipped: string[]): void {
  const commit = git(dir, 'rev-parse', 'HEAD').trim();
  const files = git(dir, 'ls-tree', '-r', '--name-only', commit, 'awscli/examples/').split('\n').filter((f) => f.endsWith('.rst'));
  const seen = new Set<string>();
  for (const file of files) {
    for (const line of git(dir, 'show', `${commit}:${file}`).split('\n')) {
      if (!/password|secret|token|access[_-]?key|api[_-]?key/i.test(line) || seen.has(line.trim())) continue;
      seen.add(line.trim());
      label(benign, skipped, `aws-cli-example:${file.split('/')[2] ?? file}`, line);
    }
  }
}

function main(): void {
  const [secretlintDir, noseyParkerDir, whispersDir, ripsecretsDir, awsCliDir] = process.argv.slice(2);
  if (secretlintDir === undefined || noseyParkerDir === undefined || whispersDir === undefined || ripsecretsDir === undefined || awsCliDir === undefined) {
    throw new Error('usage: extract-dev-extra.ts <secretlint git dir> <noseyparker git dir> <whispers git dir> <ripsecrets git dir> <aws-cli git dir>');
  }
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  secretlintOk(secretlintDir, benign, skipped);
  noseyParkerNegatives(noseyParkerDir, benign, skipped);
  whispersCompliant(whispersDir, benign, skipped);
  ripsecretsNone(ripsecretsDir, benign, skipped);
  awsCliExamples(awsCliDir, benign, skipped);
  const data = {
    split: 'dev (every sample; the original set keeps its split)',
    sources: [
      { name: 'noseyparker', url: 'https://github.com/praetorian-inc/noseyparker', commit: git(noseyParkerDir, 'rev-parse', 'HEAD').trim(), license: 'Apache-2.0', paths: 'crates/noseyparker/data/default/builtin/rules/*.yml (negative_examples only)' },
      { name: 'whispers', url: 'https://github.com/Skyscanner/whispers', commit: git(whispersDir, 'rev-parse', 'HEAD').trim(), license: 'Apache-2.0', paths: 'tests/fixtures/*.yml (lines of the compliant: blocks)' },
      { name: 'ripsecrets', url: 'https://github.com/sirwart/ripsecrets', commit: git(ripsecretsDir, 'rev-parse', 'HEAD').trim(), license: 'MIT', paths: 'test/none' },
      { name: 'aws-cli', url: 'https://github.com/aws/aws-cli', commit: git(awsCliDir, 'rev-parse', 'HEAD').trim(), license: 'Apache-2.0', paths: 'awscli/examples/**/*.rst (distinct lines holding a credential word)' },
      { name: 'secretlint', url: 'https://github.com/secretlint/secretlint', commit: git(secretlintDir, 'rev-parse', 'HEAD').trim(), license: 'MIT', paths: 'packages/@secretlint/secretlint-rule-*/test/snapshots/ok.*/input* (fixtures each rule must not report)' },
    ],
    skipped,
    benign,
  };
  const out = fileURLToPath(new URL('./dev-extra.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  process.stdout.write(`${benign.length} benign samples, ${skipped.length} skipped -> ${out}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();

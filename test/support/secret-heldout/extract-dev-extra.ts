/**
 * Builds `dev-extra.json`: MORE benign samples for the DEV half of the held-out set (issue 29), from
 * a public source nobody here wrote, read as data from a repository snapshot (never its rules or
 * code): secretlint's (MIT) own "ok" fixtures, the inputs each of its rules must NOT report
 * (packages/@secretlint/secretlint-rule-*\/test/snapshots/ok.*\/input*).
 *
 * Each non-empty line of a fixture is one sample, except a comment line made of words only
 * (`# These should NOT be detected…`: the fixture's own caption). A sample is labelled by the
 * SAME rule as the original set (labelling rule v5, README.md, `benignByRule` in extract.ts): it
 * is benign when every credential-shaped token in it is a placeholder or an identifier; the rest
 * (a scanner's "ok" may be a real-looking key that only that rule rejects) is left out, counted in
 * `skipped`. Every sample here belongs to the dev half, whatever its name hashes to: the split of
 * the original set (notes.ts, `splitOf`) is unchanged, and the bench reports the original set and
 * this extension on separate rows so the before/after comparison stays like for like.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-extra.ts <secretlint git dir>` (the `fetch`
 * tool's mirror at the commit recorded in `dev-extra.json`).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benignByRule, type HeldoutBenign } from './extract.js';

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
      if (benignByRule(line, 'v5')) benign.push({ source, text: line });
      else skipped.push(`${source}: ambiguous (a credential-shaped token that is neither a placeholder nor an id, rule v5)`);
    }
  }
}

function main(): void {
  const [secretlintDir] = process.argv.slice(2);
  if (secretlintDir === undefined) throw new Error('usage: extract-dev-extra.ts <secretlint git dir>');
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  secretlintOk(secretlintDir, benign, skipped);
  const data = {
    split: 'dev (every sample; the original set keeps its split)',
    sources: [
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

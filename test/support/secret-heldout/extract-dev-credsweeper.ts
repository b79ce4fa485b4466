/**
 * Builds `dev-credsweeper.json`: more DEV data for the held-out set (issue 40, fifth dev round), from a
 * public source nobody here had used, read as data from a repository snapshot (never a pattern or a
 * line of code): Samsung's CredSweeper (MIT, Samsung/CredSweeper), its test samples
 * (`tests/samples/*`, small files of credential-like lines, many written as people write notes:
 * `Password:…`, `ID/PW:master/…`, `ssh user@host (pw:…)`) and what its own tests expect it to report on
 * them (`tests/data/output.json`, its default run; `tests/data/doc.json`, its documentation mode, for the
 * `doc_*` files written for that mode).
 *
 * Each non-empty line of a text file is one sample (binary files, files that are not UTF-8 and lines
 * over 1,000 characters are left out, counted). A line is, in this order (written down before the
 * redaction was run on any of it, see README.md "fifth round"):
 * 1. in a NEGATIVE part when its file is named as negatives (a word `n`, `f`, `fp` or `false` of its
 *    name, split at `_`, `.`, `-`: `doc_credentials_n`, `wechat_f`, `password_FALSE`, `false_positive`)
 *    or it comes after a section marker (a line `FALSE`, `# FALSE`, `FALSE:` or `# FP:`; CredSweeper's
 *    authors put a sample's non-findings there). A negative line is never a secret: it goes to step 5;
 * 2. a SECRET, `reported`, when CredSweeper's expected output reports a value on it (output.json; for
 *    the `doc_*` files, written for its documentation mode, also doc.json) and that value is on the line
 *    as written, is not a documentation marker (`DOC_MARKER`), is not a fragment of the line (whitespace
 *    or a quote in it), is not a UUID that no credential key names (rule v5's reading), and the rule
 *    reporting it does not report identifiers (`UUID`, a name ending in `ID`, `Domain`, `Bucket`,
 *    `Salt`, `Nonce`: ids, hosts and public values stay by issue 29), nor is it read under a name that
 *    says it is an account, by a pair rule (`ID:master PW:…`: its pair rules report both halves; this check
 *    was added after the first measurement, see README.md). Of several values on a line, one inside
 *    another is kept (`master/IhqSb1Gg` -> `IhqSb1Gg`);
 * 3. in a `doc_*` file, a line before its marker is a positive its authors wrote (each such file is one
 *    credential written many ways, the non-findings after the marker): a SECRET, `same value`, when it
 *    holds as a whole word a value of step 2 of the same file that is password-shaped (6+ characters,
 *    a letter and a digit, so an account name reported beside it, `master`, is not spread):
 *    `Password Prl23Db#@` is the same password as `Password:Prl23Db#@`, which CredSweeper reports;
 *    otherwise LEFT OUT (a positive whose value the data does not give);
 * 4. in any other file, a line that holds such a value of its file but is not reported is LEFT OUT
 *    (its authors may have written it as a non-finding, `bypass = "cackle!"`, or CredSweeper misses it);
 * 5. otherwise labelled by rule v5 (`benignByRule`), as every other dev source: benign, or left out as
 *    possibly a secret (`skipped`). Rule v7 is applied to the benign ones at run time (notes.ts).
 * The same text is counted once (the first file in name order keeps it).
 *
 * The held-out TEST half stays unseen: a file whose name's vendor words hold a vendor of the test half,
 * and a line that CredSweeper reports under a rule whose name does, are dropped before anything is
 * written or printed (test-half-vendors.ts, the filter's one owner; only counts are printed). A file or
 * rule named for no vendor (`doc_passwd_pair`, `Password`) is kept: these are files of lines, not a
 * scanner's rules, and generic credentials in notes are what issue 40 is about (the dev docs and the
 * weak-password set are generic too); see README.md.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-credsweeper.ts <CredSweeper git dir>` (the
 * `fetch` tool's mirror at the commit recorded in `dev-credsweeper.json`).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benignByRule, CREDENTIAL_KEY_BEFORE, DOC_MARKER, UUID, type HeldoutBenign } from './extract.js';
import { testHalfFilter, vendorWords } from './test-half-vendors.js';

const gitBuffer = (dir: string, ...args: string[]): Buffer => execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 64 << 20 });
const git = (dir: string, ...args: string[]): string => gitBuffer(dir, ...args).toString('utf8');

/** A line CredSweeper's data makes a secret, and why (`reported` by its expected output, or the `same value` as a reported line of its file). */
export interface CredSweeperSecret {
  source: string;
  secret: string;
  line: string;
  basis: 'reported' | 'same value';
}

interface Finding {
  rule: string;
  line_data_list: { path: string; line_num: number; value: string | null; variable: string | null }[];
}

const MAX_LINE = 1000;

/** A file whose name says it holds negatives (CredSweeper's `_n`, `_f`, `_FALSE`, `_fp`, `false_positive`). */
const negativeFile = (name: string): boolean => name.toLowerCase().split(/[_.-]+/).some((w) => ['n', 'f', 'fp', 'false'].includes(w));
/** A section marker after which a sample file holds its non-findings. */
const NEGATIVE_SECTION = /^(?:#\s*)?(?:FALSE|FP):?$/i;
/** A rule that reports identifiers or public values, not credentials (issue 29: ids and hosts stay). */
const IDENTIFIER_RULE = /^UUID$|\bID$|\bDomain\b|\bBucket\b|\bSalt\b|\bNonce\b/i;

/** A value worth spreading to the other lines of a doc-mode sample: 6+ characters holding a letter and a digit. */
const passwordShaped = (v: string): boolean => v.length >= 6 && /[A-Za-z]/.test(v) && /\d/.test(v);

/** Of several values, those that hold no other (`master/IhqSb1Gg`, `IhqSb1Gg)` -> `IhqSb1Gg`). */
const innermost = (values: readonly string[]): string[] => values.filter((v) => !values.some((w) => w !== v && v.includes(w)));

/** Whether `value` is a whole word of `line` (no letter or digit right before or after it). */
function holdsWord(line: string, value: string): boolean {
  for (let at = line.indexOf(value); at >= 0; at = line.indexOf(value, at + 1)) {
    const before = line[at - 1] ?? '';
    const after = line[at + value.length] ?? '';
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true;
  }
  return false;
}

interface Reported { value: string; rule: string; variable: string }

/** The values CredSweeper's expected output reports, by file and line, with the reporting rule and the name it read the value under. */
function reports(dir: string, file: string): Map<string, Map<number, Reported[]>> {
  const out = new Map<string, Map<number, Reported[]>>();
  for (const f of JSON.parse(git(dir, 'show', `HEAD:tests/data/${file}`)) as Finding[]) {
    for (const l of f.line_data_list) {
      if (l.value === null) continue;
      const name = l.path.replace(/^\.\/tests\/samples\//, '');
      const byLine = out.get(name) ?? new Map<number, Reported[]>();
      byLine.set(l.line_num, [...(byLine.get(l.line_num) ?? []), { value: l.value, rule: f.rule, variable: l.variable ?? '' }]);
      out.set(name, byLine);
    }
  }
  return out;
}

/**
 * A name that says its value is an account, not a secret: CredSweeper's pair rules report both halves of
 * `ID:master PW:…`, the account under a name ending in `id` or `name` or holding `user`, `login`, `account` (Korean
 * 계정, 아이디): `ID`, `ANYid`, `userid`, `user_name`, `Login`.
 * A name that also holds a credential word (`user pw`) is the secret's.
 */
/** CredSweeper's rules that report both halves of a pair (`ID_PAIR_PASSWD_PAIR`, `IP_ID_PASSWORD_TRIPLE`); others name the secret (`SQL Password` under `CREATE USER … IDENTIFIED BY`). */
const PAIR_RULE = /PAIR|TRIPLE/;
const namesAccount = (variable: string): boolean =>
  /id$|name$|user|login|account|계정|아이디/i.test(variable) && !/pass|pw|secret|token|key|비번|암호|패스워드|비밀번호/i.test(variable);

/** Step 2's checks on a reported value (see the file's comment); undefined when it is kept. */
function valueProblem(line: string, { value, rule, variable }: Reported): string | undefined {
  if (IDENTIFIER_RULE.test(rule)) return 'the rule reports identifiers';
  if (PAIR_RULE.test(rule) && namesAccount(variable)) return 'the value is an account name';
  if (!line.includes(value)) return 'the value is not on the line as written';
  if (/[\s"']/.test(value)) return 'the value is a fragment of the line';
  if (DOC_MARKER.test(value)) return 'a documentation marker in the value';
  if (UUID.test(value) && !CREDENTIAL_KEY_BEFORE.test(line.slice(0, line.indexOf(value)))) return 'a UUID not named by a credential key';
  return undefined;
}

function main(): void {
  const [dir] = process.argv.slice(2);
  if (dir === undefined) throw new Error('usage: extract-dev-credsweeper.ts <CredSweeper git dir>');
  const drops = testHalfFilter({ keepGeneric: true });
  const output = reports(dir, 'output.json');
  const docReports = reports(dir, 'doc.json');
  const files = git(dir, 'ls-tree', '--name-only', 'HEAD', 'tests/samples/').split('\n').filter((f) => f !== '').sort();
  const secrets: CredSweeperSecret[] = [];
  const benign: HeldoutBenign[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  const counts = { files: files.length, binaryFiles: 0, droppedFiles: 0, droppedLines: 0, longLines: 0, duplicates: 0 };
  for (const path of files) {
    const name = path.replace(/^tests\/samples\//, '');
    const bytes = gitBuffer(dir, 'show', `HEAD:${path}`);
    let text: string;
    try {
      if (bytes.includes(0)) throw new Error('binary');
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      counts.binaryFiles += 1;
      continue;
    }
    if (drops(vendorWords(name))) { counts.droppedFiles += 1; continue; }
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const reported = (n: number): Reported[] => [...(output.get(name)?.get(n) ?? []), ...(name.startsWith('doc_') ? (docReports.get(name)?.get(n) ?? []) : [])];
    // Step 1: the negative part of the file.
    const markerAt = lines.findIndex((l) => NEGATIVE_SECTION.test(l.trim()));
    const negative = (i: number): boolean => negativeFile(name) || (markerAt >= 0 && i > markerAt);
    // Step 2, per line: the kept reported values (innermost), or undefined; lines reported under a test-half vendor's rule are dropped.
    const dropped = new Set<number>();
    const kept = new Map<number, string[]>();
    lines.forEach((line, i) => {
      const found = reported(i + 1);
      if (found.some((f) => drops(vendorWords(f.rule)))) { dropped.add(i); return; }
      if (negative(i)) return;
      const values = [...new Set(found.filter((f) => valueProblem(line, f) === undefined).map((f) => f.value))];
      const inner = innermost(values);
      if (inner.length > 0) kept.set(i, inner.sort((a, b) => line.indexOf(a) - line.indexOf(b)));
    });
    const fileValues = innermost([...new Set([...kept.values()].flat())].filter(passwordShaped));
    const docMode = name.startsWith('doc_');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      if (i === markerAt) return; // the section marker is a caption, not a sample
      if (dropped.has(i)) { counts.droppedLines += 1; return; }
      if (line.length > MAX_LINE) { counts.longLines += 1; return; }
      if (seen.has(line)) { counts.duplicates += 1; return; }
      seen.add(line);
      const source = `credsweeper:${name}#${i + 1}`;
      const own = kept.get(i);
      if (own !== undefined) { secrets.push({ source, secret: own[0] as string, line, basis: 'reported' }); return; }
      if (!negative(i)) {
        const same = fileValues.find((v) => holdsWord(line, v));
        if (docMode && same !== undefined) { secrets.push({ source, secret: same, line, basis: 'same value' }); return; }
        if (docMode) { skipped.push(`${source}: a positive of a doc-mode sample whose value the data does not give`); return; }
        if (same !== undefined) { skipped.push(`${source}: holds a value reported on another line of the file, not reported here`); return; }
      }
      if (benignByRule(line, 'v5')) benign.push({ source, text: line });
      else skipped.push(`${source}: ambiguous (a credential-shaped token that is neither a placeholder nor an id, rule v5)`);
    });
  }
  const commit = git(dir, 'rev-parse', 'HEAD').trim();
  const data = {
    split: 'dev (every sample; the original set keeps its split)',
    sources: [{ name: 'credsweeper', url: 'https://github.com/Samsung/CredSweeper', commit, license: 'MIT', paths: 'tests/samples/* (text files, each line), tests/data/output.json and doc.json (what its tests expect it to report)' }],
    counts,
    skipped,
    secrets,
    benign,
  };
  const out = fileURLToPath(new URL('./dev-credsweeper.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(data, null, 1)}\n`);
  const reportedN = secrets.filter((s) => s.basis === 'reported').length;
  const byRuleV5 = skipped.filter((s) => s.endsWith('rule v5)')).length;
  process.stdout.write(
    `${secrets.length} secrets (${reportedN} reported, ${secrets.length - reportedN} the same value), ${benign.length} benign, ` +
      `${skipped.length} left out (${byRuleV5} by rule v5, ${skipped.length - byRuleV5} positives or values without a report); ` +
      `${counts.files} files, ${counts.binaryFiles} binary or not UTF-8, ${counts.droppedFiles} files and ${counts.droppedLines} lines dropped (a test-half vendor), ` +
      `${counts.longLines} lines over ${MAX_LINE} characters, ${counts.duplicates} duplicates -> ${out}\n`,
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();

/**
 * Builds `dev-memory-notes.json`: benign-side DEV data that nobody here wrote, nearer still to what issue 40's
 * precision goal is about than the public agent notes (dev-public-notes.json): memory files people and their coding
 * agents keep in public repositories, notes written to be read back in a later session, as this tool's memory notes
 * are: a `MEMORY.md` (Claude Code's and OpenClaw's memory index), the dated notes of a `memory/` folder, Cline's
 * `memory-bank/*.md`, and the `CLAUDE.md` / `CLAUDE.local.md` beside them. Read as data from the `fetch` tool's
 * mirrors at their newest commit (recorded per source), never run or copied as code.
 *
 * Everything else is extract-dev-public-notes.ts's method, reused as it stands: the licence by its text (MIT,
 * Apache-2.0, BSD or ISC; anything else, or none, is excluded with its reason), samples as a memory note holds them
 * (`samplesOf`: paragraphs, list items, tables, fenced code, front matter; 20 to 1,200 characters; the same text once),
 * the credential-word row (`CREDENTIAL_WORD`, at most `PER_REPO` a repository, a seeded choice) and a control row,
 * labels by rule P1 (rule-public-notes.ts, committed before this data was built), whole repositories on one side
 * (`splitOfRepo`: `dev` is tuned on, `check` is counted only by dev-eval.ts `--check-memory` and by the bench), and
 * a candidate sample sharing a value-like word with the held-out test half dropped unseen (`testHalfNearCopy`).
 * Repositories of the public agent notes' candidate list are skipped (no source twice).
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-memory-notes.ts [mirror root, default /work/.mirror]`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../prng.js';
import { readRepoNotes, shuffled, type PublicRow, type PublicSplit } from './extract-dev-public-notes.js';
import { labelPublicNote, type PublicLabel } from './rule-public-notes.js';
import { testHalfNearCopy } from './test-half-vendors.js';

/** The kind of memory file a sample came from (the bench reports touched per kind). */
export type MemoryFileKind = 'MEMORY.md' | 'memory/' | 'memory-bank/' | 'CLAUDE.md';

export interface MemoryNoteSample {
  /** The pass that added its repository (the candidates file's `## pass N` sections): each later pass first met the rules the earlier ones taught. */
  pass: number;
  repo: string;
  path: string;
  kind: MemoryFileKind;
  split: PublicSplit;
  row: PublicRow;
  text: string;
  label: PublicLabel;
}

export interface MemoryNoteSource { pass: number; repo: string; commit: string; licence: string; licenceFile: string; split: PublicSplit; files: number; samples: number }

const PER_REPO = 40;
const CONTROL_PER_REPO = 6;
/** The control row's size, per pass. */
const CONTROL = 150;
const SEED = 40_2026_12_16;

/** The memory files, by path; vendored trees are not the author's. */
function kindOf(path: string): MemoryFileKind | undefined {
  if (/(?:^|\/)(?:node_modules|vendor|third_party)\//.test(path) || !/\.md$/i.test(path)) return undefined;
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'MEMORY.md') return 'MEMORY.md';
  if (/(?:^|\/)memory-bank\//.test(path)) return 'memory-bank/';
  if (/(?:^|\/)memory\//.test(path)) return 'memory/';
  if (base === 'CLAUDE.md' || base === 'CLAUDE.local.md') return 'CLAUDE.md';
  return undefined;
}

const listOf = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
/** The candidates by pass: lines before the first `## pass N` are pass 1. */
function passesOf(file: string): { pass: number; repo: string }[] {
  let pass = 1;
  const out: { pass: number; repo: string }[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const marker = /^## pass (\d+)/.exec(line);
    if (marker !== null) pass = Number(marker[1]);
    else if (line !== '' && !line.startsWith('#')) out.push({ pass, repo: line });
  }
  return out;
}

function main(): void {
  const root = process.argv[2] ?? '/work/.mirror';
  const here = (name: string): string => fileURLToPath(new URL(name, import.meta.url));
  const publicSources = new Set(listOf(here('./dev-public-notes-candidates.txt')));
  const candidates = passesOf(here('./dev-memory-notes-candidates.txt'));
  const nearCopy = testHalfNearCopy();
  const rng = mulberry32(SEED);
  const sources: MemoryNoteSource[] = [];
  const excluded: { repo: string; reason: string }[] = [];
  const seen = new Set<string>();
  const credential: MemoryNoteSample[] = [];
  // The control row is drawn per pass, when the pass ends, so a later pass leaves an earlier pass's samples as they were.
  const control: MemoryNoteSample[] = [];
  let rest: MemoryNoteSample[] = [];
  const endPass = (): void => {
    control.push(...shuffled(rest, rng).slice(0, CONTROL));
    rest = [];
  };
  let nearCopies = 0;

  for (const [i, { pass, repo }] of candidates.entries()) {
    if (i > 0 && candidates[i - 1]?.pass !== pass) endPass();
    if (publicSources.has(repo)) {
      excluded.push({ repo, reason: 'a source of the public agent notes' });
      continue;
    }
    const dir = `${root}/${repo.replace('/', '+')}/repo`;
    if (!existsSync(dir)) {
      excluded.push({ repo, reason: 'no snapshot to be had' });
      continue;
    }
    const read = readRepoNotes(dir, repo, (p) => kindOf(p) !== undefined, 'no memory file at its newest commit', seen, nearCopy);
    if ('excluded' in read) {
      excluded.push({ repo, reason: read.excluded });
      continue;
    }
    const { commit, licence, licenceFile, split, files } = read;
    nearCopies += read.nearCopies;
    const mine: MemoryNoteSample[] = read.samples.map(({ path, text, row }) => ({ pass, repo, path, kind: kindOf(path) as MemoryFileKind, split, row, text, label: { label: 'benign' } }));
    const cred = shuffled(mine.filter((s) => s.row === 'credential'), rng).slice(0, PER_REPO);
    credential.push(...cred);
    rest.push(...shuffled(mine.filter((s) => s.row === 'control'), rng).slice(0, CONTROL_PER_REPO));
    sources.push({ pass, repo, commit, licence, licenceFile, split, files: files.length, samples: cred.length });
  }
  endPass();
  const samples = [...credential, ...control].map((s) => ({ ...s, label: labelPublicNote(s.text) }));
  for (const src of sources) src.samples = samples.filter((s) => s.repo === src.repo).length;

  const count = (f: (s: MemoryNoteSample) => boolean): number => samples.filter(f).length;
  writeFileSync(
    here('./dev-memory-notes.json'),
    `${JSON.stringify({ built: 'extract-dev-memory-notes.ts', rule: 'P1 (rule-public-notes.ts)', seed: SEED, perRepo: PER_REPO, control: CONTROL, sources, excluded, nearCopiesDropped: nearCopies, samples }, null, 1)}\n`,
  );
  process.stdout.write(`sources ${sources.length} (dev ${sources.filter((s) => s.split === 'dev').length}, check ${sources.filter((s) => s.split === 'check').length}); excluded ${excluded.length}; near copies of test-half samples dropped ${nearCopies}\n`);
  for (const split of ['dev', 'check'] as const) {
    for (const row of ['credential', 'control'] as const) {
      const r = (s: MemoryNoteSample): boolean => s.split === split && s.row === row;
      process.stdout.write(`${split} ${row}: benign ${count((s) => r(s) && s.label.label === 'benign')}, secret ${count((s) => r(s) && s.label.label === 'secret')}, left out ${count((s) => r(s) && s.label.label === 'left out')}\n`);
    }
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();

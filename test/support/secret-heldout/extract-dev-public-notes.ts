/**
 * Builds `dev-public-notes.json`: benign-side DEV data that nobody here wrote, of the nature issue 40's
 * precision goal is about: text people write for Claude Code and similar agents in public repositories
 * (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`, `.cursorrules`, `.github/copilot-instructions.md`, and
 * `.claude/**\/*.md`: commands, agents, skills, memory). Read as data from the `fetch` tool's mirrors at
 * their newest commit (recorded per source), never run or copied as code.
 *
 * - **Sources**: the repositories of `dev-public-notes-candidates.txt` whose licence file is MIT,
 *   Apache-2.0, BSD or ISC by its text (anything else, or none, is excluded and counted with its reason).
 * - **Samples**: a paragraph, a list item, a table, a fenced code block or a front-matter block (what a
 *   memory note holds); headings are dropped; 20 to 1,200 characters; the same text seen twice is kept once.
 * - **Rows**: the samples that mention a credential word in any form (`CREDENTIAL_WORD`: password, pass,
 *   pwd, PIN, secret, token, key, credential, creds, auth, login, sign in, and the word in other scripts),
 *   at most `PER_REPO` per repository (a seeded choice), so that no repository dominates; and a control row
 *   of `CONTROL` samples without such a word (at most `CONTROL_PER_REPO` per repository), drawn by seed.
 * - **Labels** by rule P1 (rule-public-notes.ts, committed before the redaction ran on any sample):
 *   `secret` (a value given as a credential beside its word: the "values in public agent files" row),
 *   `left out` (with its reason), `benign`.
 * - **Split** by a hash of the repository: whole repositories on one side, `dev` (tuned on) or `check`
 *   (dev-eval.ts counts it only with `--check-public`, once at first contact and once at the end).
 * - The held-out TEST half stays unseen: a candidate sample with a word (12 characters or more between
 *   spaces, holding a digit or one of `=:/@_`, as values and code do) sharing a 12-character piece with a test-half sample is dropped before anything is written or
 *   printed (`testHalfNearCopy`, test-half-vendors.ts); only its count is printed. Words, not the whole
 *   text: whole paragraphs share everyday 12-character pieces of prose ("the API key ") with the test
 *   half's vendor documentation (and long plain words, "configuration", share pieces too), which would
 *   drop the very samples that talk about credentials, while a copied value or line holds such a word.
 *
 * Run: `npx tsx test/support/secret-heldout/extract-dev-public-notes.ts [mirror root, default /work/.mirror]`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../prng.js';
import { labelPublicNote, type PublicLabel } from './rule-public-notes.js';
import { testHalfNearCopy } from './test-half-vendors.js';

/** The kind of agent file a sample came from (the bench reports touched per kind). */
export type AgentFileKind = 'CLAUDE.md' | 'AGENTS.md' | 'GEMINI.md' | '.cursorrules' | 'copilot-instructions' | '.claude/';
export type PublicSplit = 'dev' | 'check';
export type PublicRow = 'credential' | 'control';

export interface PublicNoteSample {
  repo: string;
  path: string;
  kind: AgentFileKind;
  split: PublicSplit;
  row: PublicRow;
  text: string;
  label: PublicLabel;
}

export interface PublicNoteSource { repo: string; commit: string; licence: string; licenceFile: string; split: PublicSplit; files: number; samples: number }

/** Samples per repository in the credential row, and in the control row; the control row's size. */
const PER_REPO = 40;
const CONTROL_PER_REPO = 8;
const CONTROL = 300;
const SEED = 40_2026_12_07;
const MIN_CHARS = 20;
const MAX_CHARS = 1200;

/** A credential word in any form, in any script people write notes in. */
export const CREDENTIAL_WORD =
  /pass|pwd|\bpins?\b|secret|token|key|credential|creds|auth|log[- ]?in|sign[- ]?in|비밀번호|암호|パスワード|暗証|密码|密碼|口令|пароль|токен|ключ|κωδικ|كلمة السر|كلمة المرور|סיסמ|contraseña|senha|clave|passwort|kennwort|wachtwoord|hasło|mot de passe/i;

/** The agent files, by path (a nested CLAUDE.md or AGENTS.md is one too); vendored trees are not the author's. */
function kindOf(path: string): AgentFileKind | undefined {
  if (/(?:^|\/)(?:node_modules|vendor|third_party)\//.test(path)) return undefined;
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'CLAUDE.md') return 'CLAUDE.md';
  if (base === 'AGENTS.md') return 'AGENTS.md';
  if (base === 'GEMINI.md') return 'GEMINI.md';
  if (path === '.cursorrules') return '.cursorrules';
  if (path === '.github/copilot-instructions.md') return 'copilot-instructions';
  if (path.startsWith('.claude/') && path.endsWith('.md')) return '.claude/';
  return undefined;
}

/** The licence by its text (the name a file gives itself is not trusted). */
export function licenceOf(text: string): string | undefined {
  if (text.includes('Permission is hereby granted, free of charge')) return 'MIT';
  if (/Apache License,?\s+Version 2\.0/.test(text)) return 'Apache-2.0';
  if (text.includes('Redistribution and use in source and binary forms')) return 'BSD';
  if (text.includes('Permission to use, copy, modify, and/or distribute')) return 'ISC';
  return undefined;
}

/** A file's blocks as a memory note holds them: paragraphs, list items, tables, fenced code, front matter. */
export function samplesOf(text: string): string[] {
  const out: string[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let block: string[] = [];
  const flush = (): void => {
    if (block.length > 0) out.push(block.join('\n').trim());
    block = [];
  };
  let i = 0;
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) {
      out.push(lines.slice(0, end + 1).join('\n'));
      i = end + 1;
    }
  }
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence !== null) {
      flush();
      let j = i + 1;
      while (j < lines.length && !(lines[j] as string).trimStart().startsWith(fence[1] as string)) j++;
      out.push(lines.slice(i, j + 1).join('\n'));
      i = j;
      continue;
    }
    if (line.trim() === '' || /^\s*#{1,6}\s/.test(line)) {
      flush();
      continue;
    }
    const isTable = /^\s*\|/.test(line);
    const wasTable = block.length > 0 && /^\s*\|/.test(block[0] as string);
    // A list item starts a note of its own; a table is one note; a line of another kind ends the block.
    if (/^\s*(?:[-*+]|\d+[.)])\s/.test(line) || isTable !== wasTable) flush();
    block.push(line);
  }
  flush();
  return out.filter((s) => s.length >= MIN_CHARS && s.length <= MAX_CHARS);
}

const gitIn = (dir: string, ...args: string[]): string => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
const hashOf = (s: string): string => createHash('sha256').update(s).digest('hex');
/** Whole repositories on one side: the first byte of the name's hash, even for dev. */
export const splitOfRepo = (repo: string): PublicSplit => (parseInt(hashOf(repo).slice(0, 2), 16) % 2 === 0 ? 'dev' : 'check');

export function shuffled<T>(xs: readonly T[], rng: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

/** What one repository's snapshot gives: its reason to be left out, or its licence, files and new samples. */
export type RepoNotes =
  | { excluded: string }
  | { commit: string; licence: string; licenceFile: string; split: PublicSplit; files: string[]; samples: Array<{ path: string; text: string; row: PublicRow }>; nearCopies: number };

/**
 * Reads one repository's snapshot (a `fetch` mirror's git folder) at its newest commit, as this extractor and
 * extract-dev-memory-notes.ts both do: the licence by its text, the files `isKind` takes, and each sample
 * (`samplesOf`) not in `seen` (which it adds to) and not sharing a value-like word with the held-out test half
 * (`nearCopy`: dropped unseen, counted). `noFiles` is the reason given when no file is of the kind.
 */
export function readRepoNotes(dir: string, repo: string, isKind: (path: string) => boolean, noFiles: string, seen: Set<string>, nearCopy: (word: string) => boolean): RepoNotes {
  const commit = gitIn(dir, 'rev-parse', 'HEAD').trim();
  const top = gitIn(dir, 'ls-tree', '--name-only', commit).split('\n');
  const licenceFile = top.find((f) => /^(?:LICEN[CS]E|COPYING)(?:[.-](?:md|txt|MIT))?$/i.test(f));
  const licence = licenceFile === undefined ? undefined : licenceOf(gitIn(dir, 'show', `${commit}:${licenceFile}`));
  if (licenceFile === undefined || licence === undefined) return { excluded: licenceFile === undefined ? 'no licence file' : `licence not MIT, Apache-2.0, BSD or ISC (${licenceFile})` };
  const files = gitIn(dir, 'ls-tree', '-r', '--name-only', commit).split('\n').filter(isKind);
  if (files.length === 0) return { excluded: noFiles };
  const samples: Array<{ path: string; text: string; row: PublicRow }> = [];
  let nearCopies = 0;
  for (const path of files) {
    let text: string;
    try {
      text = gitIn(dir, 'show', `${commit}:${path}`);
    } catch {
      continue; // a file the snapshot lacks (over 4 MiB, or LFS)
    }
    for (const s of samplesOf(text)) {
      if (seen.has(s)) continue;
      seen.add(s);
      if (s.split(/\s+/).some((word) => word.length >= 12 && /[\d=:/@_]/.test(word) && nearCopy(word))) {
        nearCopies++;
        continue;
      }
      samples.push({ path, text: s, row: CREDENTIAL_WORD.test(s) ? 'credential' : 'control' });
    }
  }
  return { commit, licence, licenceFile, split: splitOfRepo(repo), files, samples, nearCopies };
}

function main(): void {
  const root = process.argv[2] ?? '/work/.mirror';
  const here = (name: string): string => fileURLToPath(new URL(name, import.meta.url));
  const candidates = readFileSync(here('./dev-public-notes-candidates.txt'), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const nearCopy = testHalfNearCopy();
  const rng = mulberry32(SEED);
  const sources: PublicNoteSource[] = [];
  const excluded: { repo: string; reason: string }[] = [];
  const seen = new Set<string>();
  const credential: PublicNoteSample[] = [];
  const rest: PublicNoteSample[] = [];
  let nearCopies = 0;

  for (const repo of candidates) {
    const dir = `${root}/${repo.replace('/', '+')}/repo`;
    if (!existsSync(dir)) {
      excluded.push({ repo, reason: 'no mirror' });
      continue;
    }
    const read = readRepoNotes(dir, repo, (p) => kindOf(p) !== undefined, 'no agent file at its newest commit', seen, nearCopy);
    if ('excluded' in read) {
      excluded.push({ repo, reason: read.excluded });
      continue;
    }
    const { commit, licence, licenceFile, split, files } = read;
    nearCopies += read.nearCopies;
    const mine: PublicNoteSample[] = read.samples.map(({ path, text, row }) => ({ repo, path, kind: kindOf(path) as AgentFileKind, split, row, text, label: { label: 'benign' } }));
    const cred = shuffled(mine.filter((s) => s.row === 'credential'), rng).slice(0, PER_REPO);
    credential.push(...cred);
    rest.push(...shuffled(mine.filter((s) => s.row === 'control'), rng).slice(0, CONTROL_PER_REPO));
    sources.push({ repo, commit, licence, licenceFile, split, files: files.length, samples: cred.length });
  }
  const control = shuffled(rest, rng).slice(0, CONTROL);
  const samples = [...credential, ...control].map((s) => ({ ...s, label: labelPublicNote(s.text) }));
  for (const src of sources) src.samples = samples.filter((s) => s.repo === src.repo).length;

  const count = (f: (s: PublicNoteSample) => boolean): number => samples.filter(f).length;
  writeFileSync(
    here('./dev-public-notes.json'),
    `${JSON.stringify({ built: 'extract-dev-public-notes.ts', rule: 'P1 (rule-public-notes.ts)', seed: SEED, perRepo: PER_REPO, control: CONTROL, sources, excluded, nearCopiesDropped: nearCopies, samples }, null, 1)}\n`,
  );
  const authors = new Set(sources.map((s) => s.repo.split('/')[0]));
  process.stdout.write(`sources ${sources.length} (${authors.size} owners; dev ${sources.filter((s) => s.split === 'dev').length}, check ${sources.filter((s) => s.split === 'check').length}); excluded ${excluded.length}; near copies of test-half samples dropped ${nearCopies}\n`);
  for (const split of ['dev', 'check'] as const) {
    for (const row of ['credential', 'control'] as const) {
      const r = (s: PublicNoteSample): boolean => s.split === split && s.row === row;
      process.stdout.write(`${split} ${row}: benign ${count((s) => r(s) && s.label.label === 'benign')}, secret ${count((s) => r(s) && s.label.label === 'secret')}, left out ${count((s) => r(s) && s.label.label === 'left out')}\n`);
    }
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();

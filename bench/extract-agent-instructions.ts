/**
 * Builds bench/data/agent-instructions.json: lines of public agent-instruction files (CLAUDE.md,
 * AGENTS.md, GEMINI.md, .cursorrules, .github/copilot-instructions.md) that nobody here wrote, read
 * as data from repository snapshots (the `fetch` tool's mirrors) at the commits the file records.
 * With `--set rules-files` it builds the second set, bench/data/agent-rules-files.json (qa-orders-10):
 * the same selection, cleaning, split and label definitions over the file kinds the first set did not
 * read (`.windsurfrules`, `.clinerules` and `.clinerules/*.md`, `.github/instructions/*.instructions.md`,
 * `.github/prompts/*.prompt.md`, aider's `CONVENTIONS.md`, `.cursor/rules/*.mdc`, `.roo/rules*`/,
 * `.kiro/steering/`), from repositories the first set does not hold, at most one a GitHub owner, so
 * that it measures how the rules generalise to writers and file kinds nobody tuned on.
 *
 * These files are orders written to an agent, mixed with facts about the project. Arriving through a
 * shared graph, a line that tells the agent what to do or not to do is an ORDER from someone else;
 * a line that states a fact about the project is KNOWLEDGE that must reach the session. The labels
 * are given by reading (a person's judgement, the definitions in `about`), never by the rules under
 * test; lines that cannot be called either way are left out with the reason.
 *
 * Selection, mechanical and the same for every repository:
 * - only repositories whose root licence file is MIT, Apache-2.0, BSD or ISC (read from the file);
 * - the instruction files at the snapshot's HEAD at the root, in `.claude/` or `.github/` (nested
 *   package files left out: one voice per repository);
 * - candidate lines: list items and paragraphs (a wrapped item joined back into one line) outside
 *   code fences, front matter, HTML comments, headings, quotes and tables; a line ending in ':' introduces a list and is left out; Markdown emphasis,
 *   links and list markers off (backticks kept: notes keep them); 20 to 240 characters; a line
 *   already taken from the repository's other file, or from another repository, is not taken twice;
 * - at most PER_REPO lines a repository, spread evenly over its candidates (every k-th);
 * - dev or check half by a hash of the repository (sha256, first byte even: dev), so one author's
 *   style never sits in both halves.
 *
 * The repositories tried (bench/data/agent-instructions-repos.txt, 166; `skipped` says why each left
 * out was left out): slices of the index's listing of each file name (owners from 0… and Create…),
 * code-search hits for instruction files in Spanish, French, German and Japanese, and well-known
 * open-source projects with such files. Most non-English hits had no licence file and are out.
 *
 *     npx tsx bench/extract-agent-instructions.ts <mirror root> bench/data/agent-instructions-repos.txt
 *
 * (the mirror root holds `<owner>+<name>/repo` git dirs; the list holds `owner/name` words). Labels
 * already in the data file are carried over by repository and text, so the same snapshots give the
 * same file and a re-run keeps the reading.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './util.js';

const FIRST_OUT = join(ROOT, 'bench', 'data', 'agent-instructions.json');

/** One set: which files it reads, where it is written, how many lines a repository gives it. */
interface SetKind {
  out: string;
  files: RegExp;
  perRepo: number;
  what: string;
}

const SETS: Record<'first' | 'rules-files', SetKind> = {
  /** Where the agents read their instructions (root, `.claude/`, `.github/`). */
  first: {
    out: FIRST_OUT,
    files: /^(\.claude\/)?(CLAUDE|AGENTS|GEMINI)\.md$|^\.cursorrules$|^\.github\/copilot-instructions\.md$/,
    perRepo: 8,
    what: "Lines of public agent-instruction files (CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, .github/copilot-instructions.md) nobody here wrote, read as data from the snapshots in `sources` by bench/extract-agent-instructions.ts (selection rules in its header). Dev or check half by a hash of the repository; the check half is counted, never printed. Labelled by reading and committed before any rule under src/lib/context was read or run on it.",
  },
  /** The other tools' rule files (Windsurf, Cline, Copilot's scoped instructions and prompts, aider, Cursor's rule folder, Roo, Kiro). */
  'rules-files': {
    out: join(ROOT, 'bench', 'data', 'agent-rules-files.json'),
    files: /^\.windsurfrules$|^\.clinerules$|^\.clinerules\/.+\.md$|^\.github\/instructions\/[^/]+\.instructions\.md$|^\.github\/prompts\/[^/]+\.prompt\.md$|^CONVENTIONS\.md$|^\.cursor\/rules\/.+\.mdc$|^\.roo\/rules(-[\w-]+)?\/.+\.md$|^\.kiro\/steering\/.+\.md$/,
    perRepo: 6,
    what: "Lines of public rule files of other coding agents (.windsurfrules, .clinerules, .github/instructions/*.instructions.md, .github/prompts/*.prompt.md, aider's CONVENTIONS.md, .cursor/rules/*.mdc, .roo/rules, .kiro/steering) nobody here wrote, from repositories bench/data/agent-instructions.json does not hold (one a GitHub owner), read as data from the snapshots in `sources` by bench/extract-agent-instructions.ts --set rules-files (selection rules in its header; at most 6 lines a repository). Dev or check half by the same hash of the repository; the check half is counted, never printed. Labelled by reading under the same definitions as agent-instructions.json, and committed before any rule under src/lib/context was run on it (qa-orders-10).",
  },
};
const LICENCE_FILE = /^(licen[cs]e|copying)([-.](md|txt|mit|apache))?$/i;

export type Label = 'order' | 'knowledge' | 'unclear';

export interface InstructionLine {
  repo: string;
  path: string;
  text: string;
  half: 'dev' | 'check';
  label?: Label;
  /** Why an `unclear` line is left out. */
  reason?: string;
}

interface Source {
  repo: string;
  commit: string;
  license: string;
  paths: string[];
}

const git = (gitDir: string, args: string[]): string => execFileSync('git', ['-C', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

function licenceOf(gitDir: string): string | undefined {
  const names = git(gitDir, ['ls-tree', '--name-only', 'HEAD']).split('\n').filter((n) => LICENCE_FILE.test(n));
  const text = names.map((n) => git(gitDir, ['show', `HEAD:${n}`]).slice(0, 3000)).join(' ');
  if (/Apache License/.test(text)) return 'Apache-2.0';
  if (/Permission is hereby granted, free of charge/.test(text)) return 'MIT';
  if (/Permission to use, copy, modify, and\/or distribute/.test(text)) return 'ISC';
  if (/Redistribution and use in source and binary forms/.test(text)) return 'BSD';
  return undefined;
}

/** Markdown furniture off, so the line reads as a note would hold it. */
export function clean(line: string): string {
  return line
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/^\[[ xX]\]\s+/, '')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(/(^|\s)\*([^*\s][^*]*)\*(?=\s|$|[.,;:])/g, '$1$2')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[\p{Extended_Pictographic}\u{FE0F}\s]+/u, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** List items and paragraphs, a wrapped item joined back into one line (files wrap at 80 or 100 columns). */
function candidates(text: string): string[] {
  const out: string[] = [];
  const blocks: string[] = [];
  let current: string[] = [];
  const close = () => {
    if (current.length > 0) blocks.push(current.join(' '));
    current = [];
  };
  let fence = false;
  let comment = false;
  const lines = text.split('\n');
  let start = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, n) => n > 0 && l.trim() === '---');
    if (end > 0) start = end + 1;
  }
  for (const raw of lines.slice(start)) {
    const t = raw.trim();
    if (/^(```|~~~)/.test(t)) {
      close();
      fence = !fence;
      continue;
    }
    if (fence) continue;
    if (comment) {
      if (t.includes('-->')) comment = false;
      continue;
    }
    if (t.startsWith('<!--')) {
      close();
      comment = !t.includes('-->');
      continue;
    }
    if (t === '' || t.startsWith('#') || t.startsWith('|') || t.startsWith('>') || t.startsWith('<') || /^[-*_=]{3,}$/.test(t)) {
      close();
      continue;
    }
    if (/^(?:[-*+]|\d+[.)])\s+/.test(t) || current.length === 0) {
      close();
      current.push(t);
    } else current.push(t);
  }
  close();
  for (const block of blocks) {
    const line = clean(block);
    if (line.length < 20 || line.length > 240 || line.endsWith(':') || !/\p{L}{3}/u.test(line)) continue;
    out.push(line);
  }
  return out;
}

const halfOf = (repo: string): 'dev' | 'check' => ((createHash('sha256').update(repo).digest()[0] as number) % 2 === 0 ? 'dev' : 'check');

function main(): void {
  const args = process.argv.slice(2);
  const setAt = args.indexOf('--set');
  const setName = setAt >= 0 ? args.splice(setAt, 2)[1] : 'first';
  if (setName !== 'first' && setName !== 'rules-files') throw new Error(`--set takes first or rules-files, not ${setName}`);
  const kind = SETS[setName];
  const OUT = kind.out;
  const PER_REPO = kind.perRepo;
  const [mirrorRoot, listFile] = args;
  if (!mirrorRoot || !listFile) throw new Error('usage: npx tsx bench/extract-agent-instructions.ts [--set rules-files] <mirror root> <repo list file> (the fetch mirrors; owner/name words)');
  const old = existsSync(OUT) ? (JSON.parse(readFileSync(OUT, 'utf8')) as { lines: InstructionLine[] }).lines : [];
  /** The second set holds writers the first does not: no repository of the first set, at most one a GitHub owner. */
  const firstRepos = setName === 'first' || !existsSync(FIRST_OUT) ? new Set<string>() : new Set((JSON.parse(readFileSync(FIRST_OUT, 'utf8')) as { sources: Source[] }).sources.map((s) => s.repo));
  const owners = new Set<string>();
  const labelOf = new Map(old.map((l) => [`${l.repo}\n${l.text}`, l]));
  const repos = [...new Set(readFileSync(listFile, 'utf8').split(/\s+/).filter(Boolean))];
  const sources: Source[] = [];
  const lines: InstructionLine[] = [];
  /** A line another repository already gave (forks, one author's twin repositories) is not taken twice. */
  const taken = new Set<string>(setName === 'first' || !existsSync(FIRST_OUT) ? [] : (JSON.parse(readFileSync(FIRST_OUT, 'utf8')) as { lines: InstructionLine[] }).lines.map((l) => l.text.toLowerCase()));
  const skipped: Array<{ repo: string; why: string }> = [];
  for (const repo of repos) {
    const dir = join(mirrorRoot, repo.replace('/', '+'), 'repo');
    if (firstRepos.has(repo)) {
      skipped.push({ repo, why: 'already in agent-instructions.json' });
      continue;
    }
    const owner = repo.split('/')[0] as string;
    if (setName !== 'first' && owners.has(owner)) {
      skipped.push({ repo, why: 'another repository of this owner is in the set' });
      continue;
    }
    if (!existsSync(dir)) {
      skipped.push({ repo, why: 'no snapshot' });
      continue;
    }
    const license = licenceOf(dir);
    if (!license) {
      skipped.push({ repo, why: 'no MIT, Apache-2.0, BSD or ISC licence file at the root' });
      continue;
    }
    const paths = git(dir, ['ls-tree', '-r', '--name-only', 'HEAD']).split('\n').filter((p) => kind.files.test(p)).sort();
    const seen = new Set<string>();
    const mine: Array<{ path: string; text: string }> = [];
    for (const path of paths) {
      for (const text of candidates(git(dir, ['show', `HEAD:${path}`]))) {
        if (seen.has(text.toLowerCase()) || taken.has(text.toLowerCase())) continue;
        seen.add(text.toLowerCase());
        mine.push({ path, text });
      }
    }
    if (mine.length === 0) {
      skipped.push({ repo, why: paths.length === 0 ? 'no instruction file at HEAD' : 'no candidate line' });
      continue;
    }
    if (setName !== 'first') owners.add(owner);
    sources.push({ repo, commit: git(dir, ['rev-parse', 'HEAD']).trim(), license, paths });
    const stride = Math.max(1, Math.floor(mine.length / PER_REPO));
    for (const c of mine.filter((_, n) => n % stride === 0).slice(0, PER_REPO)) {
      taken.add(c.text.toLowerCase());
      const before = labelOf.get(`${repo}\n${c.text}`);
      lines.push({ repo, path: c.path, text: c.text, half: halfOf(repo), ...(before?.label ? { label: before.label } : {}), ...(before?.reason ? { reason: before.reason } : {}) });
    }
  }
  const about = {
    what: kind.what,
    order: "ORDER: the line tells the agent what to do or not to do, or how it must behave: an imperative ('Use pnpm', 'Never edit generated files', 'Run `npm test` before committing'), a prohibition ('Do not …', 'No …' when it forbids an act), an obligation on the agent or on whoever edits ('You must …', 'Always …', 'All commits must …'), a conditional instruction ('If tests fail, fix them'), in any language. Arriving through a shared graph, such a line is someone else's order to this session.",
    knowledge: "KNOWLEDGE: the line states a fact about the project, its code, tools or environment ('The API lives in src/api', 'Tests use vitest', 'Node 20 is required', 'CI runs on every push'), including a bare description of a command ('`pnpm test` runs the unit tests') or a layout entry ('src/lib: shared helpers'). It must reach the session.",
    unclear: "Left out (label `unclear`, with the reason): a line a careful reader cannot call either way, e.g. a label or fragment with no verb ('Strict TypeScript'), a style noun phrase that reads as either a fact or a rule ('Functional components with hooks'), a line cut from its list, or a line in a language the reader cannot judge.",
  };
  writeFileSync(OUT, `${JSON.stringify({ about, sources, skipped, lines }, null, 1)}\n`);
  console.log(`${sources.length} repositories, ${lines.length} lines (${lines.filter((l) => l.half === 'dev').length} dev, ${lines.filter((l) => l.half === 'check').length} check); ${skipped.length} skipped; ${lines.filter((l) => !l.label).length} unlabelled`);
}

main();

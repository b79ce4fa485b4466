/**
 * Builds bench/data/changelog-knowledge.json: knowledge nobody here wrote, in the shapes people's
 * notes hold besides prose (changelog lines, commit subjects, release-note headings, README feature
 * lists), read as data from repository snapshots (the `fetch` tool's mirrors) at the commits the
 * file records. Many of these lines open with a bare verb ("Fix …", "Add support for …", "Cancel
 * requests"): they describe a change or a feature, and must reach the session as knowledge.
 *
 * Labelling: every line is knowledge unless it addresses the reader (a second person, "please",
 * "make sure", "we recommend"; "should" is not a cue: "`require(json)` should return the content" states behaviour); those are left out of the set and listed in `excluded`
 * with the cue that left them out, so the labelling can be checked by hand. Lines that are only a
 * dependency and its version ("deps: qs@6.10.3") carry no words and are skipped (they would flatter
 * the kept share). Each source is sampled evenly (every k-th line, at most PER_SOURCE) and split
 * alternately into a dev half (rules may be written on it) and a check half (counts only).
 *
 *     npx tsx bench/extract-changelog-knowledge.ts <express> <prettier> <vite> <axios>
 *
 * (each the git dir of the `fetch` tool's mirror; the same commits give the same file).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './util.js';

const PER_SOURCE = 120;

interface Source {
  id: string;
  repo: string;
  license: string;
  /** What is read, for the record. */
  what: string;
  lines: (gitDir: string) => string[];
}

const git = (gitDir: string, args: string[]): string => execFileSync('git', ['-C', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const show = (gitDir: string, path: string): string => git(gitDir, ['show', `HEAD:${path}`]);
const bullets = (text: string, indented: boolean): string[] =>
  text
    .split('\n')
    .filter((l) => (indented ? /^\s*[-*] /.test(l) : /^[-*] /.test(l)))
    .map((l) => l.replace(/^\s*[-*] /, ''));

const SOURCES: Source[] = [
  { id: 'express-history', repo: 'expressjs/express', license: 'MIT', what: 'History.md, every bullet line (nested ones too)', lines: (d) => bullets(show(d, 'History.md'), true) },
  { id: 'express-commits', repo: 'expressjs/express', license: 'MIT', what: 'commit subjects (git log --no-merges)', lines: (d) => git(d, ['log', '--no-merges', '--format=%s']).split('\n') },
  { id: 'prettier-changelog', repo: 'prettier/prettier', license: 'MIT', what: "CHANGELOG.md, the '#### ' entry headings", lines: (d) => show(d, 'CHANGELOG.md').split('\n').filter((l) => l.startsWith('#### ')).map((l) => l.slice(5)) },
  { id: 'vite-changelog', repo: 'vitejs/vite', license: 'MIT', what: 'packages/vite/CHANGELOG.md, top-level bullets', lines: (d) => bullets(show(d, 'packages/vite/CHANGELOG.md'), false) },
  { id: 'vite-commits', repo: 'vitejs/vite', license: 'MIT', what: 'commit subjects (git log --no-merges)', lines: (d) => git(d, ['log', '--no-merges', '--format=%s']).split('\n') },
  {
    id: 'axios',
    repo: 'axios/axios',
    license: 'MIT',
    what: "CHANGELOG.md top-level '* ' bullets and README.md's Features list",
    lines: (d) => [...bullets(show(d, 'README.md').split('\n## Features\n')[1]?.split('\n## ')[0] ?? '', false), ...show(d, 'CHANGELOG.md').split('\n').filter((l) => l.startsWith('* ')).map((l) => l.slice(2))],
  },
  { id: 'vite-readme', repo: 'vitejs/vite', license: 'MIT', what: "README.md's feature bullets", lines: (d) => bullets(show(d, 'README.md'), false) },
];

/** Markdown and changelog furniture off, so the line reads as a note would hold it. */
export function clean(line: string): string {
  return line
    .replace(/<img[^>]*>/g, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\(\[#\d+\]\([^)]*\)(, \[#\d+\]\([^)]*\))*( by [^)]*)?\)/g, '') // prettier: ([#1](…) by [@x](…))
    .replace(/\(\[[0-9a-f]{7,40}\]\([^)]*\)\)/g, '') // ([abc1234](…commit…))
    .replace(/,? closes (\[#\d+\]\([^)]*\)\s*)+/g, '')
    .replace(/\s+-\s+by \[?@?[\w-]+\]?(\([^)]*\))?( in \[#\d+\]\([^)]*\))?/g, '')
    .replace(/\(fix \[#\d+\]\([^)]*\)\)/g, '')
    .replace(/\(\[#\d+\]\([^)]*\)\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*([^*]+):\*\*/g, '$1:')
    .replace(/\s*\(#\d+\)/g, '')
    .replace(/\s*\(\[#\d+\]\(.*$/, '') // prettier: ([#1](…), [#2](…) by …)
    .replace(/[🆕💡⚡️🛠️📦🔩🔑]/gu, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s;]+\)?$/, '')
    .trim();
}

/** A line that speaks to the reader is not a declarative line: left out, with the cue. */
const ADDRESSES_READER = /\b(you|your|yours|yourself|please|make sure|be sure|we recommend)\b/i;
const ONLY_A_DEPENDENCY = /^(deps|build\(deps(-dev)?\)|chore\(deps(-dev)?\)):\s*(bump )?`?[\w@/.-]+(@[\w.^~-]+)?`?( from [\w.-]+ to [\w.-]+)?$/i;
const NO_PROSE = /^(release:\s*\S+|\d+\.\d+(\.\d+)?\S*|v?\d+(\.\d+)+.*release.*|Release \S+|Merge .*|\S+)$/i;

function main(): void {
  const dirs = process.argv.slice(2);
  if (dirs.length !== 4) throw new Error('usage: npx tsx bench/extract-changelog-knowledge.ts <express> <prettier> <vite> <axios> (git dirs of the fetch mirrors)');
  const dirOf: Record<string, string> = { 'expressjs/express': dirs[0] as string, 'prettier/prettier': dirs[1] as string, 'vitejs/vite': dirs[2] as string, 'axios/axios': dirs[3] as string };
  const seen = new Set<string>();
  const sources: Array<Omit<Source, 'lines'> & { commit: string }> = [];
  const lines: Array<{ source: string; text: string; half: 'dev' | 'check' }> = [];
  const excluded: Array<{ source: string; text: string; cue: string }> = [];
  for (const source of SOURCES) {
    const dir = dirOf[source.repo] as string;
    const commit = git(dir, ['rev-parse', 'HEAD']).trim();
    sources.push({ id: source.id, repo: source.repo, license: source.license, what: source.what, commit });
    const candidates: string[] = [];
    for (const raw of source.lines(dir)) {
      const text = clean(raw);
      if (text.length < 12 || text.length > 240 || !/[a-z]{3}/i.test(text)) continue;
      if (ONLY_A_DEPENDENCY.test(text) || NO_PROSE.test(text) || text.includes('```')) continue;
      if (seen.has(text.toLowerCase())) continue;
      seen.add(text.toLowerCase());
      const cue = ADDRESSES_READER.exec(text);
      if (cue) excluded.push({ source: source.id, text, cue: cue[0] });
      else candidates.push(text);
    }
    const stride = Math.max(1, Math.floor(candidates.length / PER_SOURCE));
    const picked = candidates.filter((_, n) => n % stride === 0).slice(0, PER_SOURCE);
    picked.forEach((text, n) => lines.push({ source: source.id, text, half: n % 2 === 0 ? 'dev' : 'check' }));
  }
  const about =
    "Knowledge nobody here wrote, in the shapes people's notes hold besides prose: changelog lines, commit subjects, release-note headings and README feature lists, many opening with a bare verb ('Fix …', 'Add support for …', 'Cancel requests'). Built by bench/extract-changelog-knowledge.ts from the snapshots in `sources`, read as data. A line is knowledge unless it addresses the reader (a second person, 'please', 'make sure', 'we recommend'; 'should' about a thing states behaviour, so it is no cue): those are in `excluded` with their cue. Each source sampled evenly and split alternately: `dev` (rules may be written on it) and `check` (counts only, never printed). Committed before it was run through the rules.";
  writeFileSync(join(ROOT, 'bench', 'data', 'changelog-knowledge.json'), `${JSON.stringify({ about, sources, lines, excluded }, null, 1)}\n`);
  for (const s of sources) console.log(s.id, lines.filter((l) => l.source === s.id).length, 'lines,', excluded.filter((l) => l.source === s.id).length, 'excluded');
}

main();

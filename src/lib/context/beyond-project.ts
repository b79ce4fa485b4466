/**
 * The user's and the team's knowledge that belongs to no one project (qa-context-team-knowledge):
 * team memory stores and declared shared sources (provenance.ts `isSharedKnowledge`), and the
 * user's own notes kept outside any Claude Code project (PAI, extra sync paths: no `project`).
 * Conventions, decisions, people and preferences live there, and they seldom carry the project's
 * name, which leads the context's other searches: without a search of their own they reached a
 * team project's block 9 times in 180 on the fake's search (bench/context-team-bench.ts, dev half),
 * and never on the real Graphiti 0.31.2 (test/real-graphiti/team-knowledge.test.ts).
 *
 * Two rules, each owned here:
 * - BEYOND_PROJECT_QUERIES: the newest such notes are searched for, one note a query, facts only:
 *   its title (the episode name our state holds) and its opening words, read from the file in the
 *   worker (`noteQuery`). Graphiti derives a note's facts from its words, so they find them on a
 *   term search and on an embedding alike; a title alone seldom shares a word with them ("Editor
 *   setup" / "Sam works in Neovim …"). One query of many notes would give each a small share of the
 *   search's answer.
 * - RELEVANCE_CLASS: how near a fact is to this session, ranked before its tier (rank.ts): this
 *   project's own (rests on its notes, or names it), then knowledge beyond projects (rests on such
 *   a note), then the rest of the group (other projects, other writers). So the team's knowledge
 *   never pushes the project's own facts out of the budget, and other projects' decisions never
 *   push out the team's. The order filter and the trust setting still judge every line as before.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Fact } from '../graphiti/graphiti.js';
import { partSuffix } from '../memory/episode.js';
import { frontmatterUnclosed, parseMemoryFile } from '../memory/parse.js';
import { redactSecrets, stripPrivateBlocks } from '../memory/redact.js';
import type { OurEpisode } from '../state/our-episodes.js';
import { isSharedKnowledge } from './provenance.js';

/** One episode of ours as the state holds it: its source, origin, project, title, group, note time and path. */
export type OurEpisodeNote = OurEpisode;

/** A note beyond projects to search for: its title, and where its file is. */
export interface BeyondProjectNote {
  title: string;
  source: string;
  relPath?: string;
}

/**
 * Notes searched for (BEYOND_PROJECT_QUERIES) at the smallest budgets (NOTES_BY_BUDGET raises it for
 * larger ones): each is one more search per refresh (sequential, in the worker). Chosen on the bench's two shapes (bench/context-team-bench.ts:
 * a small team, and a busy one with more notes than searches), dev halves only: 3, 6, 10 and 20
 * notes at 3, 5, 8 facts each; 10 found all of the small team's notes (6 left 27 of 144 team facts
 * out) and three fifths of the busy one's, and changed nothing at a budget of 1,500 characters,
 * where the budget, not the search, decides.
 */
export const MAX_BEYOND_PROJECT_QUERIES = 10;
/**
 * NOTES_BY_BUDGET (qa-context-budget): a larger block can show more notes' facts, so more notes are
 * searched for: MAX_BEYOND_PROJECT_QUERIES up to 4,000 characters, then one per CHARS_PER_NOTE of
 * budget (a note's few facts at about 80 characters a line), up to MOST_BEYOND_PROJECT_QUERIES (the
 * largest count qa-context-team-knowledge tried). At the default 8,000 the busy team's block left
 * 119 of its 336 team facts out while a fifth of its lines were other projects'
 * (bench/context-team-bench.ts): the searches, not the budget, decided; 20 finds all of its 20 notes
 * (504/504; chosen looking at that shape, so it is not a check of the constant). At 1,500 the
 * budget decides and nothing changes. The price: up to 28 searches per refresh, in the worker
 * (sequential, under its five-minute limit).
 */
export const MOST_BEYOND_PROJECT_QUERIES = 20;
export const CHARS_PER_NOTE = 400;
export function notesForBudget(budget: number): number {
  return Math.max(MAX_BEYOND_PROJECT_QUERIES, Math.min(MOST_BEYOND_PROJECT_QUERIES, Math.floor(budget / CHARS_PER_NOTE)));
}

/** Facts asked for per note: a few, so one note cannot fill the block; not fewer, as a real note gives several facts (the bench's notes give one or two). */
export const FACTS_PER_TITLE = 5;

/**
 * Whether an episode of ours is knowledge beyond any one project: shared or team memory, or the
 * user's own notes outside projects. A moved auto-memory folder (`projectFolders`: the
 * autoMemoryFolders' source names, config/claude-memory.ts) holds a project's notes though its
 * records name no project (the folder is the memory itself): another project's are that
 * project's, and this project's own are already its own (provenance.ts thisProjectsEpisodes).
 */
export function isBeyondProject(e: Pick<OurEpisodeNote, 'source' | 'origin' | 'project'>, sharedSources: Readonly<Record<string, string>>, projectFolders: ReadonlySet<string> = new Set()): boolean {
  return isSharedKnowledge(e.source, e.origin, sharedSources) || e.project === undefined && e.source !== '' && !projectFolders.has(e.source);
}

/** Our episodes that are knowledge beyond projects (RELEVANCE_CLASS's middle class). */
export function beyondProjectEpisodes(episodes: Iterable<OurEpisodeNote>, sharedSources: Readonly<Record<string, string>>, projectFolders: ReadonlySet<string> = new Set()): Set<string> {
  const out = new Set<string>();
  for (const e of episodes) if (isBeyondProject(e, sharedSources, projectFolders)) out.add(e.uuid);
  return out;
}

/** BEYOND_PROJECT_QUERIES: the newest notes beyond projects in the searched groups, each title once. */
export function beyondProjectNotes(episodes: Iterable<OurEpisodeNote>, sharedSources: Readonly<Record<string, string>>, groupIds: readonly string[], max = MAX_BEYOND_PROJECT_QUERIES, projectFolders: ReadonlySet<string> = new Set()): BeyondProjectNote[] {
  const groups = new Set(groupIds);
  const notes = [...episodes].filter((e) => e.name !== undefined && e.name.trim() !== '' && (e.groupId === undefined || groups.has(e.groupId)) && isBeyondProject(e, sharedSources, projectFolders));
  notes.sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
  const out: BeyondProjectNote[] = [];
  // One search a note, not a part: a long note's parts (`Runbook (part 2/12)`) share its file, so its opening
  // words, and would each take a search of the few there are.
  const files = new Set<string>();
  for (const e of notes) {
    const file = e.relPath === undefined ? undefined : `${e.source}\0${e.relPath}`;
    if (file !== undefined && files.has(file)) continue;
    const suffix = partSuffix(e.part ?? 1, e.parts ?? 1);
    const name = suffix !== '' && (e.name as string).endsWith(suffix) ? (e.name as string).slice(0, -suffix.length) : (e.name as string);
    const title = name.replace(/\s+/g, ' ').trim();
    if (title === '' || out.some((n) => n.title.toLowerCase() === title.toLowerCase())) continue;
    if (file !== undefined) files.add(file);
    out.push({ title, source: e.source, ...(e.relPath === undefined ? {} : { relPath: e.relPath }) });
    if (out.length === max) break;
  }
  return out;
}

/** Longest query made of a note (its title and opening words). */
export const MAX_NOTE_QUERY_CHARS = 200;

/** Bytes of a note read for its opening words. */
const OPENING_BYTES = 2048;

/**
 * A note's opening words, as they may leave the machine in a search: its first 2 KB with
 * `<private>` blocks removed and secrets redacted, as its episode was (memory/episode.ts), a line
 * cut by the read's end dropped (half a key is not recognised as one), then without frontmatter,
 * headings, code blocks, markup or list marks. '' when unreadable.
 *
 * The file is read as it is now, which may be after its last sync: a note the user has since
 * marked `private: true` or `sync: false` (its episode not yet retracted: a server down, the
 * sync's lock held) gives nothing, as the sync would send nothing; so does a frontmatter block
 * the read ends inside (whether it opts out is past the read), and anything but a regular file
 * (opened without blocking and without following a link: a FIFO would hang the worker, a link
 * may point anywhere).
 */
export function noteOpening(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
    if (!fstatSync(fd).isFile()) return '';
    const buf = Buffer.alloc(OPENING_BYTES);
    const read = readSync(fd, buf, 0, buf.length, 0);
    let head = buf.subarray(0, read).toString('utf8');
    if (read === OPENING_BYTES) head = head.slice(0, Math.max(0, head.lastIndexOf('\n')));
    if (frontmatterUnclosed(head)) return '';
    // The memory parser's own reading (frontmatter, the opt-out flags, text that is not a note's): one owner.
    const parsed = parseMemoryFile(Buffer.from(head, 'utf8'), path);
    if (!parsed.ok || parsed.data.optOut !== undefined) return '';
    const text = redactSecrets(stripPrivateBlocks(parsed.data.body).text).text;
    let fenced = false;
    return text
      .split(/\r?\n/)
      .filter((line) => {
        // Code is not what the note is about in words: fenced blocks, headings, comments and tables are skipped.
        if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
        else if (!fenced && !/^\s*(#|<!--|\|)/.test(line)) return true;
        return false;
      })
      .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/[*_`]/g, ''))
      .join(' ');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The query for one note: its title, then its opening words, cut at a word within MAX_NOTE_QUERY_CHARS. */
export function noteQuery(title: string, opening: string): string {
  const text = `${title} ${opening}`.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_NOTE_QUERY_CHARS) return text;
  const cut = text.slice(0, MAX_NOTE_QUERY_CHARS);
  const space = cut.lastIndexOf(' ');
  return space > title.length ? cut.slice(0, space) : cut;
}

/** A text as a regular expression matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * COMMON_WORD_NAME: folder names that are also the trade's common words, each naming one part of a
 * system (`~/src/app`, `~/work/api`, `docs`). A fact of another project saying "the app" or "the
 * api" names no project: with such a name, every such fact in the group would rank as this
 * project's (RELEVANCE_CLASS) and pass every note's search (answersNoteSearch), crowding out the
 * project's own facts and the team's, the opposite of what the class is for. A name of several words
 * (`payments-api`) or one word of its own (`graphiti`) still names the project; so do this
 * project's notes, by their episodes, whatever its name.
 */
const COMMON_WORD_NAMES: ReadonlySet<string> = new Set([
  'api', 'app', 'apps', 'web', 'www', 'site', 'website', 'docs', 'doc', 'documentation', 'server', 'client', 'frontend', 'backend',
  'front', 'back', 'core', 'lib', 'libs', 'common', 'shared', 'src', 'source', 'code', 'main', 'test', 'tests', 'demo', 'example',
  'examples', 'sample', 'mobile', 'ui', 'cli', 'service', 'services', 'infra', 'deploy', 'scripts', 'tools', 'utils', 'config',
  'data', 'db', 'database', 'notes', 'blog', 'admin', 'dashboard', 'platform', 'project', 'projects', 'repo', 'workspace',
  'sandbox', 'playground', 'tmp', 'temp', 'work', 'dev', 'home', 'backup', 'old', 'new',
]);

/** Whether a text names the project: its name's words in order, joined by any of `- _ .` or a space (never a name that is one common word: COMMON_WORD_NAMES). */
export function namesProject(text: string, projectName: string): boolean {
  const words = projectName.split(/[-_.\s]+/).filter((w) => w !== '');
  if (words.length === 0) return false;
  if (words.length === 1 && ((words[0] as string).length < 3 || COMMON_WORD_NAMES.has((words[0] as string).toLowerCase()))) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.map(escapeRegExp).join('[-_.\\s]?')}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/**
 * What a note's search keeps (BEYOND_PROJECT_QUERIES): the facts of notes beyond projects and this
 * project's own. Anything else it finds shares only a word with the note (another project's
 * "Postgres"), and the project's own searches found whatever of the rest is about this project.
 */
export function answersNoteSearch(fact: Pick<Fact, 'fact' | 'episodes'>, input: Parameters<typeof relevanceClass>[1]): boolean {
  return relevanceClass(fact, input) < 2;
}

/** Where a fact stands for this session (RELEVANCE_CLASS): 0 this project's, 1 beyond projects, 2 the rest. */
export function relevanceClass(fact: Pick<Fact, 'fact' | 'episodes'>, input: { projectName: string; thisProject: ReadonlySet<string>; beyondProject: ReadonlySet<string> }): 0 | 1 | 2 {
  const episodes = fact.episodes ?? [];
  if (episodes.some((e) => input.thisProject.has(e)) || namesProject(fact.fact, input.projectName)) return 0;
  if (episodes.some((e) => input.beyondProject.has(e))) return 1;
  return 2;
}

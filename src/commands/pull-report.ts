/** What `pull` prints (issue 42): what came back, what went beside a local note, what was held, what was refused. */
import { shellQuote } from '../lib/install/hook-entries.js';
import type { PullReport } from '../lib/pull/pull.js';
import { setAsideText } from '../lib/state/set-aside.js';
import type { CloneHint } from '../lib/pull/projects.js';
import { cli } from '../lib/util/install-route.js';

/** What brings held notes in (status says it too). */
export const HELD_STEP = 'held notes come in when their project is opened here (a session in its checkout), or now with `pull --to DIR`. If one is a repository renamed on its host and your checkout here has only its new URL, run `git -C <checkout> config --add graphiti-memory-sync.previousUrl <its old URL>` (then sync and pull).';

/** The command that makes a checkout go by the URL it had before its host renamed the repository (state/checkout-ids.ts). */
export function previousUrlCommand(root: string, url: string): string {
  return `git -C ${shellQuote(root)} config --add graphiti-memory-sync.previousUrl https://${url}`;
}

/** The step for notes held under the URL a checkout here was cloned from (pull/projects.ts `clonedFromHere`): the person decides, rename or fork. */
export function clonedHereStep(hint: CloneHint): string {
  return `${hint.root} was cloned from https://${hint.url}, the project your other machines' held notes go by, and its remote is another now. If it is that repository renamed on its host (not a fork of it), run \`${previousUrlCommand(hint.root, hint.url)}\`, then sync and pull: the notes come in, and its own go to your other machines. If it is a fork, run \`${forkOfCommand(hint.root, hint.url)}\`: they stay held, and this is not asked again.`;
}

/** The command that says a checkout is a fork of the repository it was cloned from (util/git-identity.ts `forkedFrom`). */
export function forkOfCommand(root: string, url: string): string {
  return `git -C ${shellQuote(root)} config --add graphiti-memory-sync.forkOf https://${url}`;
}

/** How many of a project's held notes the report names; the rest are counted. */
const HELD_PATHS_SHOWN = 3;

/** The held notes that are only waiting for their project (not written out, not a rename's), by project, in the order first reported. */
function heldByProject(held: PullReport['held']): Map<string, PullReport['held']> {
  const out = new Map<string, PullReport['held']>();
  for (const h of held) {
    if (h.written !== undefined || h.renamedHere !== undefined) continue;
    const group = out.get(h.project);
    if (group === undefined) out.set(h.project, [h]);
    else group.push(h);
  }
  return out;
}

export function formatPullReport(r: PullReport): string {
  if (!r.linked) return `This machine is not linked: no note key. Run \`${cli()} link\` (first machine) or \`${cli()} link --import\` (with the key from a linked machine).\n`;
  const lines: string[] = [];
  for (const w of r.written) lines.push(`pulled   ${w.file} (from ${w.origin})${w.redacted ? ' — came back REDACTED: secrets in it are [REDACTED:…]' : ''}`);
  const what = { redacted: 'a redacted version', private: 'the version (it cannot hold this note\'s <private> blocks or secrets, which never left this machine)', 'both-changed': 'the version' } as const;
  for (const c of r.copies) {
    if (c.why === 'same-name-here') lines.push(`copy     ${c.file}: ${c.origin} has two notes whose names differ only in case (or accents' form), which this disk takes for one name; the other one is written as ${c.copy}. Next: rename one of them on ${c.origin} so the names differ in more than case`);
    else lines.push(`conflict ${c.file}: ${what[c.why]} from ${c.origin} is beside it as ${c.copy}`);
  }
  const asideFiles = new Set(r.setAside.map((n) => n.file));
  for (const f of r.removed) if (!asideFiles.has(f)) lines.push(`removed  ${f} (deleted on another machine, unchanged here)`);
  // SET_ASIDE_WHEN_GROUP_EMPTY: a removal that may be a wipe's, with where its text is and both steps.
  for (const n of r.setAside) lines.push(`removed  ${setAsideText(n)}.`);
  for (const f of r.respelt) lines.push(`renamed  ${f.from} → ${f.to} (renamed by case or Unicode form on another machine; one file on this disk)`);
  for (const f of r.keptDeletedElsewhere) lines.push(`kept     ${f} (deleted on another machine, but changed here)`);
  if (r.absent.length > 0) lines.push(`waiting  ${r.absent.length} note(s) here with no version in the graph right now: kept (an edit on another machine may still be in the server's queue); taken for deleted there if still missing once the server's queue has been quiet for its usual delay (at most 30 minutes by default)`);
  if (r.notDeleted.length > 0) lines.push(`missing  ${r.notDeleted.length} note(s) here, all of their project's at once: taken for a lost folder, not deleted elsewhere (bring them back: pull --all)`);
  for (const c of r.checkouts) {
    lines.push(
      c.change === 'renamed'
        ? `renamed  ${c.root}: its remote is now ${c.remote ?? 'another URL'}, the same repository (same first commit): its notes keep going to and coming from your machines that know it by its old URL`
        : `changed  ${c.root}: another repository is checked out there now${c.remote === undefined ? '' : ` (${c.remote})`}: its notes from now on belong to that one, and the old project's notes are not written into it`,
    );
  }
  for (const h of r.held) {
    if (h.written !== undefined) lines.push(`written  ${h.written} (project ${h.project} is not opened on this machine)`);
    else if (h.renamedHere !== undefined) lines.push(`held     ${h.path}: from a machine whose clone of ${h.renamedHere.root} knows it only by its new URL. Next: on that machine run \`git -C <its checkout> config --add graphiti-memory-sync.previousUrl https://${h.renamedHere.previousUrl}\`, then its next sync sends its notes again under the old URL and they come here`);
  }
  // Held for a project not opened here: one line per project, not per note (every pull reports them all again).
  for (const [project, group] of heldByProject(r.held)) {
    const clone = group[0]?.clonedHere;
    const of = clone !== undefined ? `of https://${clone.url}, which ${clone.root} was cloned from (its remote is another now)` : `of project ${project} (not opened on this machine yet)`;
    const paths = group.map((h) => h.path).sort();
    const shown = paths.length <= HELD_PATHS_SHOWN ? paths.join(', ') : `${paths.slice(0, HELD_PATHS_SHOWN).join(', ')} and ${paths.length - HELD_PATHS_SHOWN} more`;
    lines.push(paths.length === 1 ? `held     ${shown} ${of}` : `held     ${paths.length} notes ${of}: ${shown}`);
  }
  const hints = new Map(r.held.flatMap((h) => (h.written === undefined && h.renamedHere === undefined && h.clonedHere !== undefined ? [[h.project, h.clonedHere] as const] : [])));
  for (const hint of hints.values()) lines.push(`Next: ${clonedHereStep(hint)}`);
  if (r.held.some((h) => h.written === undefined && h.renamedHere === undefined && h.clonedHere === undefined)) lines.push(`Next: ${HELD_STEP}`);
  if (r.deletedInGraph > 0) lines.push(`deleted  ${r.deletedInGraph} episode(s) of notes deleted here, so the other machines remove their untouched copies`);
  if (r.unverified > 0) lines.push(`refused  ${r.unverified} tagged episode(s) not signed with your key (another person's, or altered): never written`);
  // Nothing verified at all: the usual cause is this machine holding a key of its own (`link` or `pull --init` run here instead of `link --import`).
  if (r.unverified > 0 && r.fromOthers === 0) lines.push(`Next: if they are your own notes, this machine has a different key from your other machines: run \`${cli()} link --export\` on one of them and \`${cli()} link --import --replace\` here (paste the line).`);
  const redacted = r.written.filter((w) => w.redacted).length;
  lines.push(`${r.written.length} pulled${redacted > 0 ? ` (${redacted} redacted)` : ''}, ${r.copies.length} new conflict(s), ${r.conflicts.length} open, ${r.removed.length} removed, ${r.held.length} held.`);
  if (r.conflicts.length > 0) lines.push('Next: merge each `.from-<machine>.md` copy into its note, then delete the copy (`status` lists them).');
  if (!r.complete) lines.push('The listing was capped: no deletion was judged this time.');
  return `${lines.join('\n')}\n`;
}

/**
 * The project id each checkout on this machine goes by (issue 42): the id its notes are signed with
 * (sync/note-signing.ts) and pulled by (pull/projects.ts). Usually the checkout's identity
 * (util/git-identity.ts: its normalised remote, else its root commit), except across a rename on the
 * host:
 *
 * - **Renamed on the host, the remote changed here only** (`git remote set-url`, after GitHub renamed
 *   or moved the repository; the other machines keep the old URL, which GitHub redirects): the
 *   checkout keeps the id it had. What it was is recorded (`CheckoutRecord`, in `pulled.json`, by
 *   each pull); a remote that changed while the root commit stayed the same is the same repository
 *   renamed. So the machines that still know it by the old URL and this one keep one project: its
 *   notes neither stop flowing nor arrive twice under two ids.
 * - **Another repository now at this path** (the root commit differs, or was not known): the new
 *   identity. Its notes never go to the old project's machines.
 * - **Declared**: `git config --add graphiti-memory-sync.previousUrl <old URL>` in a checkout that
 *   has only the new URL (a fresh clone after the rename) makes it go by the old URL's id, as the
 *   machines that had the repository before do. Nothing can tell a fresh clone this otherwise: the
 *   ids are hashes, and the host's redirect is not something a file read can see.
 * - Another checkout here with the same remote as one recorded under a kept id (a second clone made
 *   after the rename) goes by that id too: the same remote URL is the same repository.
 *
 * A checkout that declares an old URL has its notes sent under another id before sent again once
 * under the declared one (sync/note-signing.ts `unsigned`), so the other machines find them. Another
 * repository at the path does not: the notes already in the graph stay with the project they were
 * sent for (a version edited from now on goes to the new one).
 */
import { previousRemotes, projectIdentity, rootCommit } from '../util/git-identity.js';

export interface CheckoutRecord {
  /** The id the checkout goes by. */
  id: string;
  /** The identity its git config gave when last resolved. */
  seen: string;
  /** Its root commit when first recorded (a renamed repository keeps it). */
  rootCommit?: string;
  /** The normalised remote of the id it goes by (the old URL after a rename; this machine only: named in messages, never sent). */
  remote?: string;
}

export interface Checkout {
  root: string;
  /** The id it goes by. */
  id: string;
  /** What its git config says now. */
  current: string;
  remote?: string;
  /** What to record for it. */
  record: CheckoutRecord;
  /** Its remote changed since recorded: the same repository renamed (id kept), or another one (new id). */
  change?: 'renamed' | 'replaced';
  /** It goes by an old URL its git config declares (`graphiti-memory-sync.previousUrl`). */
  declared?: true;
}

/**
 * The checkouts at `roots` (main checkout roots) with the ids they go by. `recording`: new records
 * get the root commit (a `git` call each; only `pull`, which keeps them, asks; the sync reads).
 */
export function resolveCheckouts(roots: Iterable<string>, records: Readonly<Record<string, CheckoutRecord>>, recording = false): Map<string, Checkout> {
  const out = new Map<string, Checkout>();
  const fresh: Checkout[] = [];
  for (const root of roots) {
    const identity = projectIdentity(root);
    if (identity === undefined) continue;
    const remote = identity.remote === undefined ? {} : { remote: identity.remote };
    const declared = previousRemotes(root)[0];
    const rec = records[root];
    let checkout: Checkout;
    if (declared !== undefined) {
      checkout = { root, id: declared.id, current: identity.id, ...remote, declared: true, record: { id: declared.id, seen: identity.id, ...(rec?.rootCommit === undefined ? {} : { rootCommit: rec.rootCommit }), remote: declared.remote } };
    } else if (rec === undefined) {
      const commit = recording ? rootCommit(root) : undefined;
      checkout = { root, id: identity.id, current: identity.id, ...remote, record: { id: identity.id, seen: identity.id, ...(commit === undefined ? {} : { rootCommit: commit }), ...remote } };
      fresh.push(checkout);
    } else if (rec.seen === identity.id) {
      // Recorded before its first commit (a session opened right after `git init`): the commit once there is one.
      const commit = recording && rec.rootCommit === undefined ? rootCommit(root) : undefined;
      checkout = { root, id: rec.id, current: identity.id, ...remote, record: commit === undefined ? rec : { ...rec, rootCommit: commit } };
    } else {
      // The remote changed. Kept only from one remote to another (a rename on the host); a remote
      // added to a local-only repository is the id its clones elsewhere have, not a rename.
      const commit = rootCommit(root);
      const renamed = rec.remote !== undefined && identity.remote !== undefined && rec.rootCommit !== undefined && commit === rec.rootCommit;
      checkout = renamed
        ? { root, id: rec.id, current: identity.id, ...remote, record: { ...rec, seen: identity.id }, change: 'renamed' }
        : { root, id: identity.id, current: identity.id, ...remote, record: { id: identity.id, seen: identity.id, ...(commit === undefined ? {} : { rootCommit: commit }), ...remote }, change: 'replaced' };
    }
    out.set(root, checkout);
  }
  // A checkout first seen here with the remote a renamed one has now: the same repository.
  for (const c of fresh) {
    const kept = [...out.values()].find((o) => o !== c && o.current === c.current && o.id !== c.current);
    if (kept !== undefined) {
      c.id = kept.id;
      c.record = { ...c.record, id: kept.id, ...(kept.record.remote === undefined ? {} : { remote: kept.record.remote }) };
    }
  }
  return out;
}

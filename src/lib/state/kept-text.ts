/**
 * The text of our own versions as they were sent (redacted), kept beside the state in
 * `<state dir>/kept/` (0700; one 0600 file per part, named by a hash of its marker) so that a
 * note is never left with no version in the graph (sync/restore.ts): where an edit deletes the
 * old version BEFORE the new one is in (break-before-make, graphiti-core 0.29.3 / 0.31.1) and the
 * new one is then dropped for good, the old text is sent again. The state itself stays small.
 *
 * A hint, like the pace: a lost or torn file only means that fallback is not there. Files of parts
 * the state no longer knows are removed at the end of a run (`pruneKeptText`).
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EpisodeDraft } from '../memory/episode.js';

const KEPT_DIR = 'kept';

function keptPath(stateDir: string, marker: string): string {
  return join(stateDir, KEPT_DIR, `${createHash('sha256').update(marker).digest('hex').slice(0, 32)}.json`);
}

/** Keeps each draft's text (written before it is sent; an existing one is rewritten, same content). */
export async function keepText(stateDir: string, drafts: Iterable<EpisodeDraft>): Promise<void> {
  let made = false;
  for (const draft of drafts) {
    if (!made) await mkdir(join(stateDir, KEPT_DIR), { recursive: true, mode: 0o700 });
    made = true;
    await writeFile(keptPath(stateDir, draft.marker), JSON.stringify(draft), { mode: 0o600 });
  }
}

/** The kept draft of the part with this marker, if there is one. */
export async function readKeptText(stateDir: string, marker: string): Promise<EpisodeDraft | undefined> {
  try {
    const draft = JSON.parse(await readFile(keptPath(stateDir, marker), 'utf8')) as EpisodeDraft;
    return draft.marker === marker && typeof draft.body === 'string' ? draft : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the kept text of every part not among `markers`. */
export async function pruneKeptText(stateDir: string, markers: Iterable<string>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(join(stateDir, KEPT_DIR));
  } catch {
    return;
  }
  const keep = new Set([...markers].map((m) => keptPath(stateDir, m)));
  for (const name of names) {
    const path = join(stateDir, KEPT_DIR, name);
    if (!keep.has(path)) await rm(path, { force: true });
  }
}

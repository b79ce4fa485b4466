/**
 * One injection per session start, however many copies of our SessionStart hook Claude Code
 * runs: a user with both the settings hooks (`install`) and the plugin gets both hooks run in
 * parallel, and the block reached the model twice (issue 13).
 *
 * The first copy creates `<stateDir>/sessions/<session>-<source>` exclusively (O_EXCL) and
 * injects; a copy that finds a claim younger than CLAIM_WINDOW_MS leaves the injection to it.
 * An older claim is a later event of the same session (a compaction keeps the session id), so
 * it is renewed. Without a session id there is nothing to share: every copy injects.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Parallel copies start within milliseconds of each other; a compaction comes much later. */
export const CLAIM_WINDOW_MS = 30_000;
const PRUNE_AFTER_MS = 24 * 60 * 60_000;

export type ClaimResult = { claimed: true } | { claimed: false; by: string };

function safe(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
}

/** Claims the injection for this session start; `who` (e.g. "plugin", "settings") is recorded for the other copy's log. */
export function claimInjection(stateDir: string, sessionId: string | undefined, source: string, who: string, now = Date.now()): ClaimResult {
  if (sessionId === undefined || sessionId === '') return { claimed: true };
  const dir = join(stateDir, 'sessions');
  const file = join(dir, `${safe(sessionId)}-${safe(source)}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return { claimed: true };
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, who, { flag: 'wx', mode: 0o600 });
      if (attempt === 0) prune(dir, now);
      return { claimed: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return { claimed: true };
    }
    try {
      const st = statSync(file);
      if (now - st.mtimeMs < CLAIM_WINDOW_MS) {
        let by = 'another copy of this hook';
        try {
          by = readFileSync(file, 'utf8').slice(0, 40) || by;
        } catch {
          // keep the default
        }
        return { claimed: false, by };
      }
      unlinkSync(file); // an earlier event of this session: claim it afresh
    } catch {
      // vanished meanwhile: try again
    }
  }
  return { claimed: true };
}

function prune(dir: string, now: number): void {
  try {
    const names = readdirSync(dir);
    if (names.length < 100) return;
    for (const n of names) {
      const p = join(dir, n);
      if (now - statSync(p).mtimeMs > PRUNE_AFTER_MS) unlinkSync(p);
    }
  } catch {
    // pruning is housekeeping only
  }
}

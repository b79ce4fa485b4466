/**
 * Signing the notes a linked machine sends (issue 42): for an auto-memory note of a project this
 * machine can name (its folder key → a project Claude Code knows → that checkout's identity,
 * util/git-identity.ts), each episode gets the note tag (memory/note-tag.ts) with the person's key
 * (state/note-key.ts). Without a key (not linked), for team memory, a moved memory folder, a shared
 * source or a project whose checkout is unknown, nothing is tagged and the episode is as before.
 *
 * The tag sits in the source description, not in the marker or the content hash: linking a machine
 * changes no marker and re-sends nothing. Notes already in the graph get a tag with their next
 * edit (docs/pull.md says so).
 *
 * The version is max(the file's mtime, the version last pulled here + 1), so an edit made on top
 * of a pulled copy always counts as newer than it, even on a machine whose clock is behind.
 */
import type { Config } from '../config/config.js';
import { knownProjects } from '../config/claude-memory.js';
import { resolveProjectKey } from '../util/claude-project-key.js';
import { processEnv } from '../config/process-env.js';
import type { EpisodeInput } from '../memory/episode.js';
import { formatNoteTag, taggablePath } from '../memory/note-tag.js';
import { teamMemoryOf } from '../memory/sources.js';
import type { MemorySource } from '../memory/types.js';
import { NoteKeyError, readNoteKey } from '../state/note-key.js';
import { noteId, readPulled, type PulledLedger } from '../state/pulled.js';
import { gitMainRoot, projectIdentity } from '../util/git-identity.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { FileFacts } from './prepare.js';

/** What a run signs with: undefined when this machine has no key. */
export interface NoteSigner {
  /** The tag callback for one file's drafts, or undefined when the file is not tagged. */
  tagFor(source: Pick<MemorySource, 'name' | 'kind' | 'layout' | 'shared'> | undefined, file: FileFacts): EpisodeInput['noteTag'];
  /** The pulled-copy ledger this run read (plan.ts: an untouched pulled copy is not sent). */
  pulled: PulledLedger;
}

export interface SignerLoad {
  signer: NoteSigner | undefined;
  /** Why nothing is signed although a key file is there (an unsafe key file). */
  problem?: string;
  pulled: PulledLedger;
}

/** Project folder key → identity id, from the projects Claude Code knows (computed once per run, lazily). */
export function projectIdsByKey(config: Pick<Config, 'claudeConfigDir' | 'knownProjectDirs'>, env: Record<string, string | undefined> = processEnv()): (key: string) => string | undefined {
  let byKey: Map<string, string> | undefined;
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return (key) => {
    if (byKey === undefined) {
      byKey = new Map();
      const projectsDir = join(config.claudeConfigDir, 'projects');
      const roots = new Set((config.knownProjectDirs ?? knownProjects(env, config.claudeConfigDir, home)).map(gitMainRoot));
      for (const root of roots) {
        // No CLAUDE_CODE_PROJECT_DIR_NAME here: it names one session's folder, not every project's.
        const k = resolveProjectKey(root, projectsDir, {});
        if (byKey.has(k)) continue;
        const identity = projectIdentity(root);
        if (identity !== undefined) byKey.set(k, identity.id);
      }
    }
    return byKey.get(key);
  };
}

/** The signer of a run, reading the key and the pulled ledger once. */
export async function loadNoteSigner(config: Pick<Config, 'stateDir' | 'claudeConfigDir' | 'knownProjectDirs'>): Promise<SignerLoad> {
  const pulled = await readPulled(config.stateDir);
  let key: Uint8Array | undefined;
  try {
    key = readNoteKey(config.stateDir);
  } catch (error) {
    if (error instanceof NoteKeyError) return { signer: undefined, problem: error.message, pulled };
    throw error;
  }
  if (key === undefined) return { signer: undefined, pulled };
  const idOf = projectIdsByKey(config);
  const signingKey = key;
  const signer: NoteSigner = {
    pulled,
    tagFor(source, file) {
      if (source === undefined || source.kind !== 'auto-memory' || source.layout !== 'projects' || source.shared || source.name !== 'auto-memory') return undefined;
      if (file.project === undefined || teamMemoryOf(source, file.relPath) !== undefined) return undefined;
      const prefix = `${file.project}/memory/`;
      if (!file.relPath.startsWith(prefix)) return undefined;
      const path = file.relPath.slice(prefix.length);
      if (!taggablePath(path)) return undefined;
      const project = idOf(file.project);
      if (project === undefined) return undefined;
      const parent = pulled.notes[noteId(project, path)]?.version ?? 0;
      const version = Math.max(Math.floor(file.mtimeMs), parent + 1);
      return ({ name, body, part, parts, origin }) => (origin === undefined ? undefined : formatNoteTag(signingKey, { project, version, parent, path, origin, part, parts, name, body }));
    },
  };
  return { signer, pulled };
}

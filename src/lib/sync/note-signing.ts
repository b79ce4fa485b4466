/**
 * Signing the notes a linked machine sends (issue 42): for an auto-memory note of a project this
 * machine can name (its folder key → a project Claude Code knows → that checkout's identity,
 * util/git-identity.ts), each episode gets the note tag (memory/note-tag.ts) with the person's key
 * (state/note-key.ts). Without a key (not linked), for team memory, a moved memory folder, a shared
 * source or a project whose checkout is unknown, nothing is tagged and the episode is as before.
 *
 * The tag sits in the source description, not in the marker or the content hash. A note sent before
 * the current key was in place (before `link`, or under an earlier key) carries no tag that verifies:
 * no machine would pull it and `pull --all` could not restore it. Linking asks for it to travel, so
 * the next sync re-sends each such note once, signed (`unsigned` below; plan.ts makes it a new
 * version of the same content, which replaces the old episode through the usual edit path). A part
 * sent after the key file was written was signed with it: never re-sent for this.
 *
 * The version is max(the file's mtime, the version last pulled here + 1, the version this machine
 * last sent of it + 1), so an edit made on top of a pulled copy, or of this machine's own last
 * version, always counts as newer than it, even on a machine whose clock is behind. The
 * parent (what the edit builds on) is state/pulled.ts `parentVersion`: never the version of a
 * conflict copy still open beside the note.
 */
import type { Config } from '../config/config.js';
import { knownProjects } from '../config/claude-memory.js';
import { resolveProjectKey } from '../util/claude-project-key.js';
import { processEnv } from '../config/process-env.js';
import type { EpisodeInput } from '../memory/episode.js';
import { formatNoteTag, taggablePath } from '../memory/note-tag.js';
import { resolveSources, teamMemoryOf } from '../memory/sources.js';
import type { FileFacts, MemorySource } from '../memory/types.js';
import { NoteKeyError, noteKeyWrittenAt, readNoteKey } from '../state/note-key.js';
import type { FileRecord, SyncState } from '../state/state.js';
import { parentVersion, readPulled, type PulledLedger } from '../state/pulled.js';
import { resolveCheckouts, type Checkout, type CheckoutRecord } from '../state/checkout-ids.js';
import { gitMainRoot } from '../util/git-identity.js';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The tag callback for one version's drafts, with the version and parent it names. */
export type NoteTagger = NonNullable<EpisodeInput['noteTag']> & {
  readonly version: number;
  readonly parent: number;
  readonly project: string;
  /** The project id is an old URL's, declared in the checkout's git config (state/checkout-ids.ts). */
  readonly declared: boolean;
};

/** What a run signs with: undefined when this machine has no key. */
export interface NoteSigner {
  /**
   * The tag of one version of a file's note, or undefined when the file is not tagged. `sent`: the
   * version and parent this machine's current parts of it carry (FileRecord.noteTag); `again`: the
   * parts are that version sent again, so they carry the same.
   */
  tagFor(source: Pick<MemorySource, 'name' | 'kind' | 'layout' | 'shared' | 'root'> | undefined, file: FileFacts, sent?: FileRecord['noteTag'], again?: boolean): NoteTagger | undefined;
  /**
   * True when the file is signed now but its stored version was sent before the current key was in
   * place (so without a tag that verifies): it is re-sent once, signed. Only a version confirmed in
   * the graph whose every part (current and retired) has a known uuid: the new parts carry the same
   * markers, and the old ones, retired with the `unsigned` flag (plan.ts), are told from them by
   * uuid (reconcile.ts).
   */
  unsigned(source: Pick<MemorySource, 'name' | 'kind' | 'layout' | 'shared' | 'root'> | undefined, file: FileFacts, record: FileRecord): boolean;
  /** The pulled-copy ledger this run read (plan.ts: an untouched pulled copy is not sent). */
  pulled: PulledLedger;
}

export interface SignerLoad {
  signer: NoteSigner | undefined;
  /** Why nothing is signed although a key file is there (an unsafe key file). */
  problem?: string;
  pulled: PulledLedger;
}

/**
 * Project folder key → the id its checkout goes by (state/checkout-ids.ts: its identity, kept across
 * a rename on the host as the last pull recorded it), from the projects Claude Code knows (computed
 * once per run, lazily).
 */
export function projectIdsByKey(config: Pick<Config, 'claudeConfigDir' | 'knownProjectDirs'>, records: Readonly<Record<string, CheckoutRecord>> = {}, env: Record<string, string | undefined> = processEnv()): (key: string) => Checkout | undefined {
  let byKey: Map<string, Checkout> | undefined;
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return (key) => {
    if (byKey === undefined) {
      byKey = new Map();
      const projectsDir = join(config.claudeConfigDir, 'projects');
      const roots = new Set((config.knownProjectDirs ?? knownProjects(env, config.claudeConfigDir, home)).map(gitMainRoot));
      for (const [root, checkout] of resolveCheckouts(roots, records)) {
        // No CLAUDE_CODE_PROJECT_DIR_NAME here: it names one session's folder, not every project's.
        const k = resolveProjectKey(root, projectsDir, undefined);
        if (!byKey.has(k)) byKey.set(k, checkout);
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
  const idOf = projectIdsByKey(config, pulled.checkouts);
  const signingKey = key;
  const keySince = Math.floor(noteKeyWrittenAt(config.stateDir) ?? 0);
  const signer: NoteSigner = {
    pulled,
    unsigned(source, file, record) {
      if (record.status !== 'confirmed' || record.episodes.length === 0) return false;
      if (![...record.episodes, ...record.superseded].every((e) => e.uuid !== undefined)) return false;
      const tag = signer.tagFor(source, file);
      if (tag === undefined) return false;
      // Sent before the key was in place, or under another project id than the old URL its checkout
      // now declares (state/checkout-ids.ts): the machines that know the project by it would not find it.
      return record.episodes.some((e) => e.sentAt !== undefined && Date.parse(e.sentAt) < keySince) || (tag.declared && record.noteTag?.project !== undefined && record.noteTag.project !== tag.project);
    },
    tagFor(source, file, sent, again = false) {
      if (source === undefined || source.kind !== 'auto-memory' || source.layout !== 'projects' || source.shared || source.name !== 'auto-memory') return undefined;
      if (file.project === undefined || teamMemoryOf(source, file.relPath) !== undefined) return undefined;
      const prefix = `${file.project}/memory/`;
      if (!file.relPath.startsWith(prefix)) return undefined;
      const path = file.relPath.slice(prefix.length);
      if (!taggablePath(path)) return undefined;
      const checkout = idOf(file.project);
      if (checkout === undefined) return undefined;
      const project = checkout.id;
      const pinned = again && sent !== undefined;
      const parent = pinned ? sent.parent : parentVersion(pulled, join(source.root, file.relPath));
      // Above the version this machine sent last, too: on a clock behind, edits made in a row on top
      // of a pulled note would all be `parent + 1`, one number for several texts (the other machines
      // keep the first, and take an edit built on it for one built on the last).
      const version = pinned ? sent.version : Math.max(Math.floor(file.mtimeMs), parent + 1, (sent?.version ?? 0) + 1);
      const tag: NonNullable<EpisodeInput['noteTag']> = ({ name, body, part, parts, origin }) => (origin === undefined ? undefined : formatNoteTag(signingKey, { project, version, parent, path, origin, part, parts, name, body }));
      return Object.assign(tag, { version, parent, project, declared: checkout.declared === true });
    },
  };
  return { signer, pulled };
}

/**
 * How many of the state's notes the next sync re-sends once, signed (`unsigned`): what `link` and
 * `status` announce. 0 when this machine has no usable key.
 */
export async function countUnsigned(config: Config, state: Pick<SyncState, 'files'>): Promise<number> {
  const { signer } = await loadNoteSigner(config);
  if (signer === undefined) return 0;
  const sources = resolveSources(config);
  return Object.values(state.files).filter((r) => signer.unsigned(sources.find((s) => s.name === r.source), r, r)).length;
}

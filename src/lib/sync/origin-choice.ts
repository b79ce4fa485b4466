/**
 * What the user says a machine with another machine's origin or state is (sync/copy-hold.ts):
 * - `keep`: the same memory (a synced Claude config folder, or a home moved here from a machine no
 *   longer used). The origin file records it for this machine, the state folder becomes this
 *   machine's, and every part held as another machine's is released: the next sync deletes what
 *   this machine's edits and deletions retired.
 * - `split`: another memory (the old machine stays in use with its own notes, or only origin.json
 *   was shared). This machine gets an origin of its own (recorded in the origin file for this
 *   machine only: a synced or shared file leaves the others as they are), and the state copied
 *   from the other machine is put aside: the next sync sends this machine's notes under the new
 *   origin and touches nothing of the other's (their markers are another origin's now).
 * Both run under the state lock, so no sync runs in between.
 */
import type { Config } from '../config/config.js';
import { withLock } from '../state/lock.js';
import { readMachineStamp, writeMachineStamp } from '../state/machine-stamp.js';
import { createEmptyState, loadState, saveState, setStateAside, type SyncState } from '../state/state.js';
import { recordMachineChoice } from '../util/origin.js';
import { namedCommand, runningCopy, type RunningCopy } from '../util/install-route.js';
import { keepAsOurs, partsHeldAsCopy, sentHereSinceTakeUp, watchedParts } from './copy-hold.js';
import { sharedOriginsIn } from './shared.js';

/** Why a choice cannot be made here; the message names the next step. */
export class OriginChoiceError extends Error {
  override name = 'OriginChoiceError';
}

/** Where this machine stands: its origin, where the origin file and the state folder were made, and what is held. */
export interface OriginStanding {
  origin: string;
  originFile: 'here' | 'elsewhere' | 'unknown' | 'setting' | 'derived';
  /** The state folder's stamp: this machine's, another's, or none yet. */
  stateFolder: 'here' | 'elsewhere' | 'none';
  /** Retired parts held as another machine's (copy-hold.ts). */
  held: number;
  /**
   * The question is open: something is held. Only then is it asked (status, sync, the session):
   * a synced folder, whose origin file comes from the other machine, holds nothing and is asked nothing.
   */
  undecided: boolean;
  /** The origin file or the state folder was made on another machine, and this machine's user has not said what it is. */
  fromElsewhere: boolean;
  /** This machine took its state up from another machine (copy-hold.ts `takenUpAt`): a split has something of its own to retire. */
  takenUp: boolean;
  /** Parts of notes unchanged here that rest on the other machine's episodes: sent again if that machine deletes them (copy-hold.ts COPY_WATCH). */
  watched: number;
  /** Notes still here whose episodes a look found deleted on purpose elsewhere, and left so (copy-hold.ts DELETED_ON_PURPOSE): a cleared group reads so, and so does one the other machine emptied. */
  leftDeleted: number;
}

export async function originStanding(config: Config, loaded?: SyncState): Promise<OriginStanding> {
  const state = loaded ?? (await loadState(config.stateDir, { readOnly: true })).state;
  const stamp = readMachineStamp(config.stateDir);
  const stateFolder = stamp === undefined ? 'none' : stamp === config.machineKey ? 'here' : 'elsewhere';
  const originFile = config.originDerived === true ? 'derived' : config.originPlace === undefined ? 'setting' : config.originPlace;
  const held = partsHeldAsCopy(state).length;
  const fromElsewhere = config.machineKey !== undefined && (originFile === 'elsewhere' || stateFolder === 'elsewhere');
  const watched = watchedParts(state, sharedOriginsIn(config, state), true).length;
  const leftDeleted = Object.values(state.files).filter((r) => r.status !== 'failed' && r.status !== 'skipped' && r.episodes.some((ref) => ref.deletedElsewhere !== undefined)).length;
  return { origin: config.origin, originFile, stateFolder, held, undecided: held > 0, fromElsewhere, takenUp: state.takenUpAt !== undefined, watched, leftDeleted };
}

/** Refuses a choice this machine cannot record, with the next step. Keep needs only a machine key (the state's marks are this machine's to clear); split needs an origin file to record it in. */
function choosable(config: Config, choice: 'keep' | 'split'): string {
  if (config.machineKey === undefined) throw new OriginChoiceError('this machine has no machine id, so no copy is ever detected here and there is nothing to decide; to tell it from another machine, set MADEINOZ_KNOWLEDGE_MACHINE_ID to a stable value of your own');
  if (choice === 'keep') return config.machineKey;
  if (config.originPlace === undefined) throw new OriginChoiceError('MADEINOZ_KNOWLEDGE_ORIGIN names this machine\'s origin: to split, set it to a value no other machine uses, then run `origin --keep` here so the state folder is this machine\'s');
  if (config.originDerived === true) throw new OriginChoiceError(`there is no origin file in ${config.claudeConfigDir} (the origin is derived for this machine): there is nothing to split from`);
  return config.machineKey;
}

/** `origin --keep`. Returns how many held parts were released. */
export async function keepOrigin(config: Config, now: () => Date = () => new Date()): Promise<number> {
  const key = choosable(config, 'keep');
  return withLock(
    config.stateDir,
    async () => {
      const { state, fresh } = await loadState(config.stateDir);
      const released = keepAsOurs(state);
      if (!fresh && released > 0) await saveState(config.stateDir, state);
      // Only an origin file made elsewhere needs the choice recorded (a setting, or a file made here, has nothing to keep).
      if (config.originPlace === 'elsewhere' && config.originDerived !== true) recordMachineChoice(config.claudeConfigDir, key, 'keep', now);
      writeMachineStamp(config.stateDir, key, now());
      return released;
    },
    { timeoutMs: 10 * 60_000, label: 'origin --keep' },
  );
}

/** `origin --split`. Returns the new origin and where the state was put aside. */
export async function splitOrigin(config: Config, now: () => Date = () => new Date()): Promise<{ origin: string; stateAside: string | undefined; retired: number; handOver: number }> {
  const key = choosable(config, 'split');
  // On the machine that made both, a split would give the original memory a new origin and send all of it again: it belongs on the copy.
  const standing = await originStanding(config);
  if (!standing.undecided && !standing.fromElsewhere && !standing.takenUp) throw new OriginChoiceError('the origin file and the state folder were made on this machine: nothing here is a copy. Run `origin --split` on the machine that got the copy');
  return withLock(
    config.stateDir,
    async () => {
      const { state } = await loadState(config.stateDir);
      const sentHere = sentHereSinceTakeUp(state);
      const choice = recordMachineChoice(config.claudeConfigDir, key, 'split', now);
      const stateAside = await setStateAside(config.stateDir, 'before-split');
      // What this machine sent under the shared origin goes once its notes are out under the new one (an orphan's delete waits for nothing else).
      if (sentHere.length > 0) {
        const next = createEmptyState(now().toISOString());
        next.orphans = sentHere.map((ref) => ({ ...ref }));
        await saveState(config.stateDir, next);
      }
      writeMachineStamp(config.stateDir, key, now());
      return { origin: choice.choice === 'split' ? choice.origin : config.origin, stateAside, retired: sentHere.length, handOver: sentHere.filter((ref) => ref.handOver === true).length };
    },
    { timeoutMs: 10 * 60_000, label: 'origin --split' },
  );
}

/**
 * The question, with both next steps, for `status`, `origin` and the session's one-time note.
 * Undefined when there is none.
 */
export function originQuestion(standing: OriginStanding, copy: RunningCopy = runningCopy()): string | undefined {
  if (!standing.undecided) return undefined;
  // The origin file first: once a run has taken the state folder up, the folder is stamped as this machine's.
  const came = standing.originFile === 'elsewhere' ? 'this machine\'s origin (graphiti-memory-sync/origin.json in the Claude config folder) was made on another machine' : 'the state folder this machine uses was made on another machine';
  const held = standing.held === 0 ? 'Nothing is held yet' : `${standing.held} deletion(s) of episodes this machine did not send are held, not done`;
  return `${came}, so its episodes may be that machine's. ${held}: this machine deletes and replaces only what it sent itself until you say which it is. The same memory (a synced Claude config folder, or the other machine is no longer used): ${namedCommand('origin --keep', copy)}. Another memory (both machines in use with their own notes): ${namedCommand('origin --split', copy)}. See docs/troubleshooting.md "Two machines with one origin".`;
}

/**
 * For `pull`: an origin or state from another machine, not settled. pull takes that machine's notes
 * at this machine's paths (the same checkout path on both) for this machine's own, and brings none of
 * them. Undefined when it does not apply.
 */
export function sharedOriginPullHint(standing: OriginStanding, copy: RunningCopy = runningCopy()): string | undefined {
  if (!standing.fromElsewhere && !standing.undecided) return undefined;
  return `this machine's origin or state was made on another machine, so pull does not bring that machine's notes at this machine's paths (they count as this machine's own). Another memory (both machines in use with their own notes): ${namedCommand('origin --split', copy)}; the same memory: ${namedCommand('origin --keep', copy)}.`;
}

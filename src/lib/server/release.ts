/**
 * RELEASE_MOVE: which Graphiti release the local server runs (stopped: last ran) against the one
 * this install would run, and the command that moves it there. A new release can arrive while the
 * old server runs, or while it is stopped half-way through an upgrade (killed after its stop), and
 * nothing else would say so: the server keeps running the old one, correctly, until told.
 *
 * - PINNED_OTHER: GMS_SERVER_GENERATION names another release than the recorded one. A running
 *   server moves with `server restart`; a stopped one runs the setting's at its next `server start`.
 * - NEWER_PINNED: no release set, and this install's newest (pins.ts, after a package update) is not
 *   the recorded one: `server upgrade` (it keeps the graph; a running server is started again on it).
 * - OTHER_PACKAGES: the same release, but this install pins other packages for it (environment.ts
 *   names the environment by the pins and requirements), while a running server still runs on the
 *   ones it started with: `server restart` builds and moves to them. A stopped one takes them at its start.
 *
 * `server status` names the move as its next step, `server start` says it of a server already
 * running, `server upgrade` of one already on the newest release.
 */
import type { ServerRuntime } from '../config/server-runtime.js';
import { environmentKey } from './environment.js';
import { generation, GENERATIONS } from './pins.js';
import { newestGeneration, serverEnvSettings } from './user-settings.js';
import { cli } from '../util/install-route.js';

export interface ReleaseMove {
  rule: 'PINNED_OTHER' | 'NEWER_PINNED' | 'OTHER_PACKAGES';
  /** The release recorded (running, or last run). */
  from: string;
  /** The release the command moves it to. */
  to: string;
  /** The command that does it: for a stopped server NEWER_PINNED is `upgrade`, then `start`. */
  command: 'restart' | 'upgrade' | 'start';
}

const known = (id: string): boolean => GENERATIONS.some((g) => g.id === id);

/** The move the recorded server needs, if any; `running`: its supervisor is ours and it starts or runs. */
export function releaseMove(runtime: ServerRuntime | undefined, running: boolean, env: Record<string, string | undefined>): ReleaseMove | undefined {
  if (runtime === undefined) return undefined;
  const from = runtime.generation;
  let pinned: string | undefined;
  try {
    pinned = serverEnvSettings(env).GMS_SERVER_GENERATION;
  } catch {
    // A setting that cannot be read is said by the command that needs it; nothing to advise here.
    return undefined;
  }
  if (pinned !== undefined) {
    if (pinned === from || !known(pinned)) return undefined;
    return { rule: 'PINNED_OTHER', from, to: pinned, command: running ? 'restart' : 'start' };
  }
  const newest = newestGeneration().id;
  // A release this install no longer pins is started as the newest anyway (user-settings.ts chooseGeneration).
  if (from !== newest) return known(from) || running ? { rule: 'NEWER_PINNED', from, to: newest, command: 'upgrade' } : undefined;
  if (running && runtime.environment !== undefined && runtime.environment !== environmentKey(generation(from))) return { rule: 'OTHER_PACKAGES', from, to: from, command: 'restart' };
  return undefined;
}

/** The move as a next step, naming the command, the releases and why. */
export function releaseStep(move: ReleaseMove, running: boolean): string {
  switch (move.rule) {
    case 'PINNED_OTHER':
      return running
        ? `${cli()} server restart (it runs Graphiti ${move.from}; GMS_SERVER_GENERATION=${move.to} is run from its next start)`
        : `${cli()} server start (it runs Graphiti ${move.to}, as GMS_SERVER_GENERATION says; ${move.from} ran last)`;
    case 'NEWER_PINNED':
      return running
        ? `${cli()} server upgrade (it runs Graphiti ${move.from}; this install's newest is ${move.to}; the graph is kept)`
        : `${cli()} server upgrade, then ${cli()} server start (Graphiti ${move.from} ran last; this install's newest is ${move.to}; the graph is kept)`;
    case 'OTHER_PACKAGES':
      return `${cli()} server restart (it runs Graphiti ${move.from} on the packages an earlier install pinned; this install pins others for it)`;
  }
}

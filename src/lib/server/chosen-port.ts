/**
 * Starting a listener of ours on a loopback port we choose, or on the one we were given.
 */
import { freePort } from './proc.js';

/**
 * CHOSEN_PORT_RETRIED: a port we chose (`freePort`) was free a moment before our process binds it,
 * and another program can take it in between (a second CI lane's servers, anything on the machine):
 * the start is tried again on a newly chosen port, at most CHOSEN_PORT_TRIES times in all, when
 * `taken` says that was the failure. A port we were given (a setting, the port a restart keeps) is
 * tried once: what it is taken by is the caller's to say (PortTakenError). The one owner of the
 * rule for FalkorDB's start (falkordb.ts) and Graphiti's (graphiti-process.ts): Graphiti's took
 * its chosen port once, and a lane that lost the race failed its whole file, or worse, took the
 * winner's server for its own (graphiti-process.ts HEALTH_FROM_OUR_CHILD).
 */
export const CHOSEN_PORT_TRIES = 3;

export async function startOnPort<T>(given: number | undefined, start: (port: number) => Promise<T>, taken: (error: unknown) => boolean): Promise<T> {
  if (given !== undefined) return start(given);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= CHOSEN_PORT_TRIES || !taken(error)) throw error;
    }
  }
}

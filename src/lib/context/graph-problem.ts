/**
 * Why the knowledge block may be stale or empty, told to Claude once instead of never.
 *
 * The background worker records what it found wrong with the graph (the server could not be
 * reached; every context search failed inside it) and clears it once a context refresh works.
 * The SessionStart hook adds one line about a recorded problem to the context of the first session
 * after it appeared, then marks it told: a server that stays down is not announced at every start.
 * On the hook's path: node:fs, node:path and util/fs-atomic.ts only.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/fs-atomic.js';

export type GraphProblemKind = 'unreachable' | 'searches-failing';

export interface GraphProblem {
  kind: GraphProblemKind;
  /** The error as the worker saw it (first line, no secrets: URLs are not in these messages). */
  detail: string;
  /** When this problem was first seen (ISO). */
  since: string;
  /** Whether a session has been told. */
  told: boolean;
}

const FILE = 'graph-problem.json';

export function readGraphProblem(stateDir: string): GraphProblem | undefined {
  try {
    const value = JSON.parse(readFileSync(join(stateDir, FILE), 'utf8')) as Partial<GraphProblem>;
    if ((value.kind === 'unreachable' || value.kind === 'searches-failing') && typeof value.since === 'string') {
      return { kind: value.kind, detail: typeof value.detail === 'string' ? value.detail : '', since: value.since, told: value.told === true };
    }
  } catch {
    // none, or unreadable: nothing to tell
  }
  return undefined;
}

function write(stateDir: string, problem: GraphProblem): void {
  writeFileAtomicSync(join(stateDir, FILE), `${JSON.stringify(problem)}\n`);
}

/** The worker saw this problem now; the same kind again keeps its first time and whether it was told. */
export function recordGraphProblem(stateDir: string, kind: GraphProblemKind, detail: string, now: Date = new Date()): void {
  const previous = readGraphProblem(stateDir);
  const same = previous?.kind === kind;
  write(stateDir, { kind, detail: detail.split('\n')[0]?.slice(0, 300) ?? '', since: same ? previous.since : now.toISOString(), told: same ? previous.told : false });
}

/** The graph answered a context refresh: nothing to tell any more. */
export function clearGraphProblem(stateDir: string): void {
  try {
    unlinkSync(join(stateDir, FILE));
  } catch {
    // already clear
  }
}

/** The line for the first session after a problem appeared, marking it told; undefined otherwise. */
export function takeGraphProblemNote(stateDir: string): string | undefined {
  const problem = readGraphProblem(stateDir);
  if (problem === undefined || problem.told) return undefined;
  try {
    write(stateDir, { ...problem, told: true });
  } catch {
    return undefined; // told only if we can remember it was
  }
  const since = problem.since.slice(0, 16).replace('T', ' ');
  return problem.kind === 'unreachable'
    ? `Note: the knowledge graph (Graphiti) could not be reached since ${since} UTC, so the knowledge below may be out of date and new memory files wait to be synced. \`graphiti-memory-sync health\` names the cause.`
    : `Note: the knowledge graph (Graphiti) answers, but its searches fail (${problem.detail}), so no knowledge could be read from it since ${since} UTC. \`graphiti-memory-sync health\` names the cause and the fix.`;
}

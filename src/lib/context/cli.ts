/**
 * The CLI's `context` command: what the SessionStart hook would inject for a project.
 *
 * Default: the cached block, exactly what the next session start injects (no network).
 * `refresh: true`: build it now from Graphiti (and update the cache), as the worker does.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { contextCachePath, readContextCache, type ContextFormatUsed } from './cache.js';
import { contextFrozen } from './frozen.js';
import { isOrderReason, MAX_OMISSIONS, refreshProjectContext, type ContextSearcher, type Omission } from './context.js';
import type { Logger } from '../util/log.js';
import { detectProject, type ProjectInfo } from './project.js';
import { cli } from '../util/install-route.js';

export interface CliContextOptions {
  cwd: string;
  /** Build from Graphiti now (and update the cache) instead of reading the cache. */
  refresh?: boolean;
  logger?: Logger;
  signal?: AbortSignal;
  /** A ready client (tests); otherwise one is created and closed. */
  graphiti?: ContextSearcher;
  /** Our deleted or replaced episodes, whose facts are left out (given by the caller, which reads the state). */
  retiredEpisodes?: ReadonlySet<string>;
  /** Our episodes with source and origin (state/our-episodes.ts): which lines are own or shared. */
  ourEpisodes?: Iterable<{ uuid: string; source: string; origin: string | undefined }>;
}

export interface CliContextResult {
  project: ProjectInfo;
  /**
   * False when the folder is no project to speak of: not inside a git repository and
   * unknown to Claude Code (no `projects/<key>` folder). Then nothing is built or read.
   */
  known: boolean;
  /** 'cache': what the next session start injects; 'live': freshly built (and cached). */
  source: 'cache' | 'live';
  text: string;
  format: ContextFormatUsed;
  facts: number;
  nodes: number;
  builtAt: string | undefined;
  measured: { lines: number; toon: number } | undefined;
  /** What the block left out and why, and how many lines did not fit the budget (undefined: a cache from before). */
  omitted: Omission[] | undefined;
  overBudget: number | undefined;
  cachePath: string;
  /** `--refresh` kept the last good block: this many of the project's notes are between their old and new version. */
  keptBetweenVersions?: number;
}

/** The structured result (for `--json` or tests). Network errors propagate with `refresh`. */
export async function contextForCli(config: Config, options: CliContextOptions): Promise<CliContextResult> {
  const project = detectProject(options.cwd, config);
  const cachePath = contextCachePath(config.stateDir, project.key);
  if (!isKnownProject(project, config)) {
    return { project, known: false, source: 'cache', text: '', format: 'none', facts: 0, nodes: 0, builtAt: undefined, measured: undefined, omitted: undefined, overBudget: undefined, cachePath };
  }
  // Notes of this project between versions (context/frozen.ts): the last good block stays, as the worker keeps it.
  const frozen = options.refresh === true && readContextCache(config.stateDir, project.key) !== undefined ? await contextFrozen(config, project) : 0;
  if (options.refresh === true && frozen === 0) {
    const { entry } = await refreshProjectContext(config, project, {
      ...(options.graphiti === undefined ? {} : { graphiti: options.graphiti }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.retiredEpisodes === undefined ? {} : { retiredEpisodes: options.retiredEpisodes }),
      ...(options.ourEpisodes === undefined ? {} : { ourEpisodes: options.ourEpisodes }),
    });
    return { project, known: true, source: 'live', text: entry.text, format: entry.format, facts: entry.facts, nodes: entry.nodes, builtAt: entry.builtAt, measured: entry.measured, omitted: entry.omitted, overBudget: entry.overBudget, cachePath };
  }
  const entry = readContextCache(config.stateDir, project.key);
  return {
    project,
    known: true,
    source: 'cache',
    ...(frozen > 0 ? { keptBetweenVersions: frozen } : {}),
    text: entry?.text ?? '',
    format: entry?.format ?? 'none',
    facts: entry?.facts ?? 0,
    nodes: entry?.nodes ?? 0,
    builtAt: entry?.builtAt,
    measured: entry?.measured,
    omitted: entry?.omitted,
    overBudget: entry?.overBudget,
    cachePath,
  };
}

/** Why an own note's order was left out (issue 45: only this project's own notes are shown whatever their shape). */
export const OWN_ELSEWHERE = " (a note of another project or a global note: only this project's own notes are shown whatever their shape; word it as a statement to carry it here)";

/** `context --omitted`: one line per left-out fact or entity with its provenance and reason, then the budget's share. */
export function formatOmitted(result: Pick<CliContextResult, 'omitted' | 'overBudget'>): string {
  if (result.omitted === undefined) return `Left out: not recorded by the cache this block came from; run \`${cli()} context --refresh --omitted\`.\n`;
  const lines = [`Left out (${result.omitted.length}${result.omitted.length >= MAX_OMISSIONS ? '+' : ''}):`];
  for (const o of result.omitted) lines.push(`- ${o.kind} [${o.from}] ${JSON.stringify(o.text)}: ${o.reason}${o.from === 'own' && isOrderReason(o.reason) ? OWN_ELSEWHERE : ''}`);
  if (result.omitted.length === 0) lines[0] = 'Left out: nothing.';
  if ((result.overBudget ?? 0) > 0) lines.push(`${result.overBudget} more lines did not fit the budget (MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET).`);
  return `${lines.join('\n')}\n`;
}

/** A git repository, or a folder Claude Code has sessions for. */
export function isKnownProject(project: ProjectInfo, config: Pick<Config, 'claudeConfigDir'>): boolean {
  return project.isGit || existsSync(join(config.claudeConfigDir, 'projects', project.key));
}

/** The one line `context` prints on stderr for a folder that is no project. */
export function noProjectMessage(project: ProjectInfo): string {
  return `No project at ${project.cwd}: it is not inside a git repository and Claude Code has no sessions there; name one with --cwd <project folder>.`;
}

/** The block text only ('' when nothing would be injected). */
export async function renderContextForCli(config: Config, options: CliContextOptions): Promise<string> {
  return (await contextForCli(config, options)).text;
}

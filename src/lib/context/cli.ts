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
import { refreshProjectContext, type ContextSearcher } from './context.js';
import type { Logger } from '../util/log.js';
import { detectProject, type ProjectInfo } from './project.js';

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
  cachePath: string;
}

/** The structured result (for `--json` or tests). Network errors propagate with `refresh`. */
export async function contextForCli(config: Config, options: CliContextOptions): Promise<CliContextResult> {
  const project = detectProject(options.cwd, config);
  const cachePath = contextCachePath(config.stateDir, project.key);
  if (!isKnownProject(project, config)) {
    return { project, known: false, source: 'cache', text: '', format: 'none', facts: 0, nodes: 0, builtAt: undefined, measured: undefined, cachePath };
  }
  if (options.refresh === true) {
    const { entry } = await refreshProjectContext(config, project, {
      ...(options.graphiti === undefined ? {} : { graphiti: options.graphiti }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.retiredEpisodes === undefined ? {} : { retiredEpisodes: options.retiredEpisodes }),
    });
    return { project, known: true, source: 'live', text: entry.text, format: entry.format, facts: entry.facts, nodes: entry.nodes, builtAt: entry.builtAt, measured: entry.measured, cachePath };
  }
  const entry = readContextCache(config.stateDir, project.key);
  return {
    project,
    known: true,
    source: 'cache',
    text: entry?.text ?? '',
    format: entry?.format ?? 'none',
    facts: entry?.facts ?? 0,
    nodes: entry?.nodes ?? 0,
    builtAt: entry?.builtAt,
    measured: entry?.measured,
    cachePath,
  };
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

/** The shapes, names and errors every part of `install` shares. */
import type { Config } from '../config/config.js';
import { isRecord } from '../util/json.js';

export type InstallScope = 'user' | 'project' | 'local';

export type Env = Record<string, string | undefined>;
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const MARKER = 'graphiti-memory-sync';
export const MARKER_ARG = '--graphiti-memory-sync';
export const MCP_SERVER_NAME = 'graphiti';
/**
 * Fresh context where the conversation has none of it: a new session, after /clear, after
 * compaction. A resumed or forked transcript already holds the block, so by default the hook is
 * not even registered for them; with MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME=true install
 * registers it there too (the hook itself also checks the setting).
 */
export const SESSION_START_MATCHER = 'startup|clear|compact';
export const SESSION_START_MATCHER_WITH_RESUME = 'startup|resume|clear|compact|fork';
export const SESSION_START_TIMEOUT_S = 10;
/**
 * Stop is registered WITHOUT `async`: under `claude -p` Claude Code cancels an async hook (SIGTERM)
 * before it loads, and any async hook delays the exit by ~1.4 s. Ours only marks work and spawns
 * a detached worker, so running in the foreground costs ~0.1 s and always reaches the worker.
 */
export const STOP_TIMEOUT_S = 10;

export const HOOK_SCRIPTS: Record<'SessionStart' | 'Stop', string> = { SessionStart: 'session-start', Stop: 'stop' };

export interface InstallOptions {
  scope: InstallScope;
  dryRun?: boolean;
  withMcp?: boolean;
  /** Project folder for project/local scope (default process.cwd()). */
  cwd?: string;
  /** Home folder (default $HOME / os.homedir()). */
  home?: string;
  /** Root of this package; hooks point at `<packageRoot>/dist/hooks/*.js`. */
  packageRoot?: string;
  /** Environment (CLAUDE_CONFIG_DIR); default process.env. */
  env?: Env;
  /** Graphiti MCP URL for `withMcp`; default config.mcpUrl, else http://localhost:8000/mcp. */
  mcpUrl?: string;
  /** The loaded configuration (its mcpUrl is used when mcpUrl is not given). */
  config?: Pick<Config, 'mcpUrl'> & Partial<Pick<Config, 'contextOnResume' | 'mcpUrlSource'>>;
  /** Clock for backup names (tests). */
  now?: Date;
  /** Called right before a file is written, after it was read (tests inject a concurrent edit here). */
  beforeWrite?: (file: string) => void;
  /** Where backups and pre-install records go (default config.stateDir, else ~/.local/state/graphiti-memory-sync). */
  stateDir?: string;
}

export interface FileResult {
  /** The settings file as Claude Code names it. */
  file: string;
  /** When `file` is a symlink: the file behind it, which is what gets written (the link stays). */
  target?: string;
  /**
   * Not written because the file (or the target of its link) must not be: the Nix store, a
   * read-only file or file system, another user's file. The user adds (or removes) the entries
   * in their own configuration instead.
   */
  refused?: { reason: string; action: 'add' | 'remove'; json: string; nix: string };
  kind: 'settings' | 'mcp';
  existed: boolean;
  /** The content differs from what was there. */
  changed: boolean;
  /** Actually written (changed and not a dry run). */
  written: boolean;
  backup: string | undefined;
  /** Uninstall put back the exact pre-install state (bytes, or no file). */
  restored?: boolean;
  /** What was added/updated/removed, e.g. "SessionStart: added". */
  entries: string[];
  warnings: string[];
  /** A small line diff of before → after ('' when unchanged). */
  diff: string;
  before: string;
  after: string;
}

export interface InstallResult {
  action: 'install' | 'uninstall';
  scope: InstallScope;
  dryRun: boolean;
  files: FileResult[];
  warnings: string[];
}

/** A settings file install or uninstall will not touch: what is wrong, and the step (fix it by hand, run the command again). */
export function refusedFile(file: string, problem: string): string {
  return `Refusing to modify ${file}: ${problem}. Fix the file by hand, then run the command again; nothing was written.`;
}

export class InstallError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'InstallError';
  }
}

export interface HookHandler {
  type: 'command';
  command: string;
  timeout: number;
  statusMessage?: string;
  async?: boolean;
}

export interface MatcherGroup {
  matcher?: string;
  hooks: HookHandler[];
}


export function isObject(v: unknown): v is JsonObject {
  return isRecord(v);
}

/** Equal as JSON (our values are parsed JSON: key order as written). */
export function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

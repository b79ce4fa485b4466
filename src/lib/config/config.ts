/**
 * All settings, validated in one place.
 *
 * Settings come from, highest precedence first:
 *   1. the process environment (an empty variable counts as unset),
 *   2. our own `.env` file (see `findEnvFile`),
 *   3. the madeinoz Knowledge system's `.env` (see `findPaiEnvFile`), so people coming
 *      from its sync hook keep their settings without copying them.
 * Every setting is described in SETTINGS below; `config/.env.example` and the
 * README's configuration table are checked against it by a test so they cannot drift.
 *
 * We import `zod/v3` (shipped inside zod 4) rather than zod 4 "classic": it costs
 * ~13 ms of import time instead of ~50 ms, and this module is on the hook path.
 *
 * Size (one file on purpose): the SETTINGS table is the single source for validation, the
 * `.env` example and docs/configuration.md (both generated from it), so it stays in one place.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod/v3';
import { checkStateDir, ConfigError, defaultStateDir, envFileCandidates, expandHome, findEnvFile, findPaiEnvFile, home, paiEnvFileCandidates } from './env-file.js';
import { isLocalFrontUrl, liveServer, recordedServerUrl } from './server-runtime.js';
import { machineFacts, machineKey, ORIGIN_NAME, OriginFileError, originIdentity, originPlace, type OriginPlace } from '../util/origin.js';
import { closest } from '../util/closest.js';
import { isLoopbackHost } from '../util/loopback.js';
import { displayUrl, hasCredentials } from '../util/display-url.js';
import { gitMainRoot } from '../util/git-identity.js';
import { autoMemoryFolders, knownProjects, MANAGED_SETTINGS_DIR, SettingsFiles, unsyncedProjectMemory, type AutoMemoryFolder, type UnsyncedMemoryFolder } from './claude-memory.js';

/** The default endpoint, which is also the placeholder `config/.env.example` shows. */
export const DEFAULT_MCP_URL = 'http://localhost:8000/mcp';

export type DbKind = 'neo4j' | 'falkordb';
export type TransportMode = 'auto' | 'streamable-http' | 'sse';
export type ContextFormat = 'auto' | 'lines' | 'toon';
export const SERVER_RULES_SETTINGS = ['auto', 'no-probe', '0.28.2', '0.29.3', '0.31.1', '0.31.2'] as const;
export type ServerRulesSetting = (typeof SERVER_RULES_SETTINGS)[number];
export type { LogLevel } from '../util/log.js';
import type { LogLevel } from '../util/log.js';
import type { SettingsFile } from './dotenv-file.js';

export interface ExtraSource {
  /** Name used in state identities, `--source` and per-source group overrides. */
  name: string;
  path: string;
}

export interface Config {
  mcpUrl: string;
  /** Where mcpUrl came from: a setting, the running local server (`server start`), or the default. */
  mcpUrlSource: 'setting' | 'local-server' | 'default';
  sseUrl: string | undefined;
  transport: TransportMode;
  db: DbKind;
  groupId: string;
  /** Per-source group overrides: source name → group id, or `{project}` for a per-project group. */
  sourceGroups: Record<string, string>;
  timeoutMs: number;
  retries: number;
  retryDeadlineMs: number;
  authToken: string | undefined;
  headers: Record<string, string>;
  stateDir: string;
  paiDir: string;
  /**
   * Where the madeinoz memory-sync hook (the tool this one replaces) kept its state: under the
   * home folder, where it wrote it, and under PAI_DIR. Read by the first sync (sync/adopt-prior.ts).
   */
  priorHookStates: string[];
  claudeConfigDir: string;
  syncPai: boolean;
  syncAutoMemory: boolean;
  /** Where Claude Code keeps auto memory (config/claude-memory.ts): its settings and variables; none when it has auto memory off. */
  autoMemoryFolders: AutoMemoryFolder[];
  /** Memory folders a project's checked-in settings name, which are not synced (status says how to sync them). */
  unsyncedMemoryFolders: UnsyncedMemoryFolder[];
  /** The project folders Claude Code knows (its global config's `projects`): where `pull` and note signing find a project's checkout (issue 42). */
  knownProjectDirs?: string[];
  extraSources: ExtraSource[];
  /** Who this memory's episodes are from, named in every marker (util/origin.ts: kept beside the Claude config folder). */
  origin: string;
  /** Earlier origins of the same memory (before the origin was kept): their episodes are ours too. */
  previousOrigins: string[];
  /**
   * The origin is derived (util/origin.ts): no Claude config folder kept one when the config was
   * built. A process that outlives that moment asks again (`withCurrentOrigin`).
   */
  originDerived?: boolean;
  /**
   * This machine's key (util/origin.ts `machineKey`: a hash of its machine id, or of
   * MADEINOZ_KNOWLEDGE_MACHINE_ID): what tells a state folder or origin file made on another
   * machine (sync/copy-hold.ts). Undefined without a machine id: nothing is then taken for a copy.
   */
  machineKey?: string;
  /** Where the kept origin file was made (util/origin.ts `originPlace`); `here` for MADEINOZ_KNOWLEDGE_ORIGIN. */
  originPlace?: OriginPlace;
  /** MADEINOZ_KNOWLEDGE_MACHINE_ID as set (asked again by `withCurrentOrigin`). */
  machineIdSetting?: string;
  /** Sources declared shared: source name → the shared origin all its owners declare. */
  sharedSources: Record<string, string>;
  exclude: string[];
  deleteRemoved: boolean;
  maxFileBytes: number;
  maxEpisodeChars: number;
  concurrency: number;
  confirmMaxAgeMs: number;
  maxResends: number;
  contextBudget: number;
  contextOnResume: boolean;
  contextFormat: ContextFormat;
  /** Widest provenance the context block includes (context/provenance.ts): own < shared < group. */
  contextTrust: 'own' | 'shared' | 'group';
  /**
   * Which delete rules the engine follows (graphiti/semantics.ts, learnt by graphiti/server-rules.ts): `auto` learns them from the
   * server (its tools, the local server's release, else a bounded probe); `no-probe` never probes
   * (the cautious rules where the tools do not tell); a generation pins that generation's rules.
   */
  serverRules: ServerRulesSetting;
  watchDebounceMs: number;
  logLevel: LogLevel;
  /** Warnings produced while reading the settings (deprecated spellings, ...). */
  warnings: string[];
  /** Our own `.env` file that was read, if any. */
  envFile: string | undefined;
  /** The madeinoz/PAI `.env` file that was read (lowest precedence), if any. */
  paiEnvFile: string | undefined;
}

export { ConfigError, findEnvFile } from './env-file.js';

/** Where the MCP URL came from, as `health` and `status` show it beside the URL. */
export function mcpUrlOrigin(source: Config['mcpUrlSource']): string {
  if (source === 'setting') return 'from MADEINOZ_KNOWLEDGE_MCP_URL';
  if (source === 'local-server') return 'the local server started by `server start`';
  return 'the default: set MADEINOZ_KNOWLEDGE_MCP_URL, or run `server start`';
}

/**
 * Who reads a setting: the tool itself (sync, hooks, watch, context: the default), the local
 * server (`server` command, config/server-settings.ts), or tests and operators (config/switches.ts,
 * read from the environment only).
 */
export type SettingGroup = 'tool' | 'server' | 'developer';

export interface SettingDoc {
  name: string;
  default: string;
  description: string;
  /** Default 'tool'. */
  group?: SettingGroup;
  /** Read from the environment only, never from a `.env` file. */
  envOnly?: boolean;
}

/** Every setting we read, its default as written in docs, and one line on what it does. */
export const SETTINGS: readonly SettingDoc[] = [
  { name: 'MADEINOZ_KNOWLEDGE_MCP_URL', default: DEFAULT_MCP_URL, description: 'Graphiti MCP endpoint (Streamable HTTP). Use /mcp, not /mcp/. A user and password in it (percent-encoded) are sent as Basic authorization and never shown.' },
  { name: 'MADEINOZ_KNOWLEDGE_SSE_URL', default: '(derived: <origin>/sse)', description: 'Legacy HTTP+SSE endpoint tried when Streamable HTTP is refused with 400/404/405.' },
  { name: 'MADEINOZ_KNOWLEDGE_TRANSPORT', default: 'auto', description: 'auto (Streamable HTTP, legacy SSE fallback), streamable-http, or sse.' },
  { name: 'MADEINOZ_KNOWLEDGE_DB', default: 'neo4j', description: 'Graph database behind Graphiti: neo4j or falkordb (legacy spelling falkorodb accepted). Chooses group-id and search escaping.' },
  { name: 'MADEINOZ_KNOWLEDGE_DATABASE_TYPE', default: '(none)', description: "The madeinoz Knowledge system's name for the database setting (neo4j or falkordb); used only when MADEINOZ_KNOWLEDGE_DB is unset." },
  { name: 'MADEINOZ_KNOWLEDGE_GROUP_ID', default: 'main', description: 'Graphiti group that episodes go to and searches read.' },
  { name: 'MADEINOZ_KNOWLEDGE_SOURCE_GROUPS', default: '(none)', description: 'Per-source group overrides, e.g. "auto-memory={project},pai=learning". {project} = one group per project.' },
  { name: 'MADEINOZ_KNOWLEDGE_TIMEOUT', default: '30000', description: 'Deadline per MCP request in milliseconds, including reading the whole reply.' },
  { name: 'MADEINOZ_KNOWLEDGE_RETRIES', default: '3', description: 'Retries after a transient failure (network, timeout, 408/425/429/5xx), with exponential backoff and jitter.' },
  { name: 'MADEINOZ_KNOWLEDGE_RETRY_DEADLINE', default: '60000', description: 'Overall time budget in milliseconds for one call including all its retries.' },
  { name: 'MADEINOZ_KNOWLEDGE_AUTH_TOKEN', default: '(none)', description: 'Bearer token sent as Authorization for servers behind auth (the token alone; a leading "Bearer " is dropped). Latin-1 text without line breaks, as HTTP headers carry. Never logged.' },
  { name: 'MADEINOZ_KNOWLEDGE_HEADERS', default: '(none)', description: 'Extra HTTP headers as a JSON object, e.g. {"X-Api-Key":"..."}. Values are never logged.' },
  { name: 'MADEINOZ_KNOWLEDGE_STATE_DIR', default: '$XDG_STATE_HOME/graphiti-memory-sync (~/.local/state/graphiti-memory-sync)', description: 'Where the state file, lock, logs and context cache live. Outside any plugin folder on purpose.' },
  { name: 'MADEINOZ_KNOWLEDGE_ENV_FILE', default: '(see docs/configuration.md)', description: 'Explicit .env file to read settings from (environment variables still win).' },
  { name: 'PAI_DIR', default: '~/.claude', description: 'PAI root; its MEMORY folder (LEARNING/..., RESEARCH/...) is a source.' },
  { name: 'CLAUDE_CONFIG_DIR', default: '~/.claude', description: 'Claude Code config root; projects/*/memory/*.md (auto memory) is a source.' },
  { name: 'MADEINOZ_KNOWLEDGE_SYNC_PAI', default: 'true', description: 'Sync the PAI memory folder.' },
  { name: 'MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY', default: 'true', description: "Sync Claude Code's auto memory topic files, team memory (memory/team/<store>/…, one episode per team file for the whole team) included, wherever Claude Code keeps them: autoMemoryDirectory in the managed settings (managed-settings.json and managed-settings.d/ in /etc/claude-code, on macOS /Library/Application Support/ClaudeCode, on Windows C:\\Program Files\\ClaudeCode), the local or the user settings (not the checked-in project settings, not --settings: only that session's command line names it), CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, CLAUDE_CODE_REMOTE_MEMORY_DIR; nothing new while Claude Code has auto memory off (CLAUDE_CODE_DISABLE_AUTO_MEMORY, in the environment or a settings file's env, or autoMemoryEnabled false; off in one project's local settings, that project's folder alone is left out, a repository's folder only when it is off in every worktree and subfolder Claude Code ran in, and status says so): the notes already synced stay in the graph." },
  { name: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY', default: '(unset)', description: "Claude Code's switch: when true, no auto memory is synced or read for the session context." },
  { name: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE', default: '(unset)', description: "Claude Code's variable: the folder auto memory is kept in instead (read as is, no ~ expansion)." },
  { name: 'CLAUDE_CODE_REMOTE_MEMORY_DIR', default: '(unset)', description: "Claude Code's variable: auto memory under <this>/projects/<project>/memory instead of the Claude config folder." },
  { name: 'CLAUDE_CODE_PROJECT_DIR_NAME', default: '(unset)', description: "Claude Code's variable: the project's folder name under projects/ (its memory in projects/<this>/memory), as Claude Code takes it: only with CLAUDE_CONFIG_DIR set, and only a plain name of letters, digits, _ and - (at most 64); any other value is ignored." },
  { name: 'MADEINOZ_KNOWLEDGE_ORIGIN', default: '(kept beside the memory)', description: 'Who this memory\'s episodes are from, named in their markers: a sync never deletes, replaces or adopts an episode of another origin. Default: an id created once in <CLAUDE_CONFIG_DIR>/graphiti-memory-sync/origin.json, so two homes or Claude config folders differ, and a reinstall, a lost state folder or a container rebuild that keeps ~/.claude keep it (episodes of the id earlier versions derived are taken over without a re-send). Lower-case letters, digits and hyphens.' },
  { name: 'MADEINOZ_KNOWLEDGE_MACHINE_ID', default: '(/etc/machine-id; IOPlatformUUID on macOS)', description: 'What tells this machine from another, so that a copied home (origin.json or the state folder made on another machine) is held and asked about instead of replacing and deleting the other machine\'s episodes (docs/troubleshooting.md "Two machines with one origin"). Set a stable value of your own where there is no machine id (many containers: without one, nothing is taken for a copy) or where cloned machines share one; "none" turns the check off. Only a hash of it is stored.' },
  { name: 'MADEINOZ_KNOWLEDGE_SHARED_SOURCES', default: '(none)', description: 'Sources shared by several people or machines, as comma-separated source=origin pairs (e.g. "team=team-notes"): everyone who declares the same origin for the same folder acts as one owner, so each file has one episode, and an edit by any of them replaces it.' },
  { name: 'MADEINOZ_KNOWLEDGE_SYNC_PATHS', default: '(none)', description: 'Extra folders to sync, separated by ":" (";" on Windows); "name=path" names a source.' },
  { name: 'MADEINOZ_KNOWLEDGE_EXCLUDE', default: '(none)', description: 'Comma-separated globs (relative to each source root) of files never synced, e.g. "**/drafts/**,*.tmp.md".' },
  { name: 'MADEINOZ_KNOWLEDGE_DELETE_REMOVED', default: 'true', description: 'Delete the episode of a memory file that was deleted from disk.' },
  { name: 'MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES', default: '1048576', description: 'Files larger than this are skipped with the reason "too-large" (never truncated).' },
  { name: 'MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS', default: '8000', description: 'Bodies longer than this are split at headings/paragraphs into numbered parts.' },
  { name: 'MADEINOZ_KNOWLEDGE_CONCURRENCY', default: '4', description: 'How many episodes are sent at once.' },
  { name: 'MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE', default: '1800000', description: 'The longest a queued episode is waited for while its group shows no movement (no episode of anyone started, none of ours appeared) before it is re-sent: Graphiti drops failures silently. Once a group has been seen moving, the wait is several times its observed pace (at least 10 s), never more than this.' },
  { name: 'MADEINOZ_KNOWLEDGE_MAX_RESENDS', default: '3', description: 'How often a silently dropped episode is re-sent before the file is marked failed.' },
  { name: 'MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET', default: '8000', description: 'Maximum characters of knowledge injected at session start (hard cap 10000).' },
  { name: 'MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME', default: 'false', description: 'Inject context again on a resumed session (the transcript already has it).' },
  { name: 'MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT', default: 'auto', description: 'Context block format: lines, toon, or auto (whichever is shorter for the same facts).' },
  { name: 'MADEINOZ_KNOWLEDGE_CONTEXT_TRUST', default: 'group', description: 'Whose knowledge the session context may include: own (your notes), shared (also declared shared sources and team memory), or group (also everyone else writing to the group, such as Claude\'s own add_memory calls and teammates). Every line is labelled with its provenance, and text shaped like orders to the assistant is left out unless it comes from this project\'s own notes.' },
  { name: 'MADEINOZ_KNOWLEDGE_SERVER_RULES', default: 'auto', description: "What the Graphiti server's delete_episode removes, which decides the order of an edit (docs/semantics.md): auto (from the server's tools, the local server's release, else a small probe, run only by a sync that deletes or replaces a note or for the session context's entity summaries: at most 3 that cannot tell a month, 8 that answer a day), no-probe (never probe: the cautious rules where the tools do not tell), or a generation to pin its rules: 0.28.2, 0.29.3, 0.31.1 or 0.31.2. Pin only a release you know the server runs." },
  { name: 'MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE', default: '150', description: 'Watch mode: milliseconds of quiet before a burst of changes becomes one sync pass (a file is also read only once it has kept its size for 150 ms).' },
  { name: 'MADEINOZ_KNOWLEDGE_LOG_LEVEL', default: 'info', description: 'Log file verbosity: debug, info, warn, error or silent.' },
  // The local Graphiti server (`graphiti-memory-sync server`): config/server-settings.ts reads these.
  { group: 'server', name: 'OPENAI_API_KEY', default: '(none)', description: 'The OpenAI API key the local server extracts facts and embeddings with. Not needed for an OpenAI-compatible endpoint that takes no key (Ollama, LM Studio). Never logged.' },
  { group: 'server', name: 'OPENAI_BASE_URL', default: 'https://api.openai.com/v1', description: 'An OpenAI-compatible endpoint the local server uses instead of OpenAI, e.g. http://localhost:11434/v1 (Ollama); set GMS_SERVER_MODEL with it.' },
  { group: 'server', name: 'OPENAI_API_URL', default: '(none)', description: 'Another name for OPENAI_BASE_URL, used when that is unset.' },
  { group: 'server', name: 'GMS_SERVER_MODEL', default: "(the server's default)", description: 'The LLM model name the local server extracts with; needed for an endpoint other than OpenAI.' },
  { group: 'server', name: 'GMS_SERVER_EMBEDDER_MODEL', default: "(the server's default)", description: 'The embedding model name the local server uses.' },
  { group: 'server', name: 'GMS_SERVER_PORT', default: '(the last one if free, else any free port)', description: 'Port of the local Graphiti MCP server on 127.0.0.1.' },
  { group: 'server', name: 'GMS_SERVER_DB_PORT', default: '(none: a private Unix socket)', description: "Set it to have the local server's FalkorDB listen on this port of 127.0.0.1 (password required; for your own tools) besides its Unix socket in the 0700 run folder, which no other user can connect to and which Graphiti and the tool keep using." },
  { group: 'server', name: 'GMS_SERVER_GENERATION', default: '(the one installed last, else the newest pinned)', description: 'The pinned Graphiti release the local server runs (server upgrade moves to the newest).' },
  { group: 'server', name: 'GMS_SERVER_DATA_DIR', default: '$XDG_DATA_HOME/graphiti-memory-sync/falkordb (~/.local/share/graphiti-memory-sync/falkordb)', description: "Where the local server's FalkorDB keeps the graph." },
  { group: 'server', envOnly: true, name: 'GMS_PYTHON', default: 'python3', description: "The Python (3.10 or newer, with venv and pip) that builds the local server's environment." },
  { group: 'server', envOnly: true, name: 'GMS_GRAPHITI_CACHE', default: '$XDG_CACHE_HOME/graphiti-memory-sync (~/.cache/graphiti-memory-sync)', description: "Where the local server's Python environments are built, one per pinned release." },
  // Tests and operators: config/switches.ts reads these on the hooks' path.
  { group: 'developer', envOnly: true, name: 'GMS_WORKER_DISABLED', default: '(unset)', description: '1 = the hooks never start the background worker (no sync, no context refresh); tests that must see no network.' },
  { group: 'developer', envOnly: true, name: 'GMS_WORKER_SCRIPT', default: '(ours)', description: 'A worker script to run instead of ours (a .ts file runs under tsx); tests use a fake worker.' },
  { group: 'developer', envOnly: true, name: 'GMS_WORKER_TIMEOUT_MS', default: '300000', description: "A shorter time limit for the background worker than its own 5 minutes (tests of hung servers); a longer one is ignored." },
  // Tests: every server process carries these (config/process-env.ts runTag, handed on by server/managed-process.ts).
  { group: 'developer', envOnly: true, name: 'GMS_TEST_RUN', default: '(unset)', description: "The name of the test run that started this process: the local server's Graphiti and FalkorDB processes carry it too, so the run finds and ends any it left running." },
  { group: 'developer', envOnly: true, name: 'GMS_TEST_FILE', default: '(unset)', description: 'The test file that started this process, handed on with GMS_TEST_RUN (the run names it when it finds the process left running).' },
];

/** The settings `loadConfig` reads (from the environment and both `.env` files). */
const KNOWN = new Set(SETTINGS.filter((s) => (s.group ?? 'tool') === 'tool').map((s) => s.name));

type Env = Record<string, string | undefined>;

const bool = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const s = v.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(s)) return true;
      if (['0', 'false', 'no', 'off'].includes(s)) return false;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use true or false` });
      return z.NEVER;
    });

const int = (name: string, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const n = Number(v.trim());
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const oneOf = <T extends string>(name: string, values: readonly T[], aliases: Record<string, T> = {}) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const s = v.trim().toLowerCase();
      if ((values as readonly string[]).includes(s)) return { value: s as T, alias: false };
      const aliased = aliases[s];
      if (aliased !== undefined) return { value: aliased, alias: true };
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use one of ${values.join(', ')}` });
      return z.NEVER;
    });

const httpUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      try {
        const u = new URL(v.trim());
        if (u.protocol === 'http:' || u.protocol === 'https:') return u.toString();
      } catch {
        // fall through to the issue below
      }
      // Said without its user and password (util/display-url.ts): a password with an unencoded
      // `#`, `/`, `?` or `@` is what breaks most such URLs, and the message must not show it.
      const hint = hasCredentials(v) ? ' (a user or password in it must be percent-encoded: # as %23, / as %2F, ? as %3F, @ as %40)' : '';
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${name}="${displayUrl(v)}" is not allowed: use an http:// or https:// URL${hint}` });
      return z.NEVER;
    });

const rawSchema = z.object({
  MADEINOZ_KNOWLEDGE_MCP_URL: httpUrl('MADEINOZ_KNOWLEDGE_MCP_URL'),
  MADEINOZ_KNOWLEDGE_SSE_URL: httpUrl('MADEINOZ_KNOWLEDGE_SSE_URL'),
  MADEINOZ_KNOWLEDGE_TRANSPORT: oneOf('MADEINOZ_KNOWLEDGE_TRANSPORT', ['auto', 'streamable-http', 'sse'] as const, { http: 'streamable-http' }),
  MADEINOZ_KNOWLEDGE_DB: oneOf('MADEINOZ_KNOWLEDGE_DB', ['neo4j', 'falkordb'] as const, { falkorodb: 'falkordb' }),
  MADEINOZ_KNOWLEDGE_DATABASE_TYPE: oneOf('MADEINOZ_KNOWLEDGE_DATABASE_TYPE', ['neo4j', 'falkordb'] as const, { falkorodb: 'falkordb' }),
  MADEINOZ_KNOWLEDGE_GROUP_ID: z.string().optional(),
  MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: z.string().optional(),
  MADEINOZ_KNOWLEDGE_TIMEOUT: int('MADEINOZ_KNOWLEDGE_TIMEOUT', 100, 3_600_000),
  MADEINOZ_KNOWLEDGE_RETRIES: int('MADEINOZ_KNOWLEDGE_RETRIES', 0, 20),
  MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: int('MADEINOZ_KNOWLEDGE_RETRY_DEADLINE', 100, 86_400_000),
  MADEINOZ_KNOWLEDGE_AUTH_TOKEN: z.string().optional(),
  MADEINOZ_KNOWLEDGE_HEADERS: z.string().optional(),
  MADEINOZ_KNOWLEDGE_STATE_DIR: z.string().optional(),
  PAI_DIR: z.string().optional(),
  CLAUDE_CONFIG_DIR: z.string().optional(),
  MADEINOZ_KNOWLEDGE_SYNC_PAI: bool('MADEINOZ_KNOWLEDGE_SYNC_PAI'),
  MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY: bool('MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY'),
  MADEINOZ_KNOWLEDGE_SYNC_PATHS: z.string().optional(),
  MADEINOZ_KNOWLEDGE_ORIGIN: z.string().optional(),
  MADEINOZ_KNOWLEDGE_MACHINE_ID: z.string().optional(),
  MADEINOZ_KNOWLEDGE_SHARED_SOURCES: z.string().optional(),
  MADEINOZ_KNOWLEDGE_EXCLUDE: z.string().optional(),
  MADEINOZ_KNOWLEDGE_DELETE_REMOVED: bool('MADEINOZ_KNOWLEDGE_DELETE_REMOVED'),
  MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES: int('MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES', 1, 1024 * 1024 * 1024),
  MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS: int('MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS', 500, 1_000_000),
  MADEINOZ_KNOWLEDGE_CONCURRENCY: int('MADEINOZ_KNOWLEDGE_CONCURRENCY', 1, 64),
  MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: int('MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE', 0, 30 * 86_400_000),
  MADEINOZ_KNOWLEDGE_MAX_RESENDS: int('MADEINOZ_KNOWLEDGE_MAX_RESENDS', 0, 100),
  MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET: int('MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET', 0, 10_000),
  MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME: bool('MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME'),
  MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT: oneOf('MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT', ['auto', 'lines', 'toon'] as const),
  MADEINOZ_KNOWLEDGE_CONTEXT_TRUST: oneOf('MADEINOZ_KNOWLEDGE_CONTEXT_TRUST', ['own', 'shared', 'group'] as const),
  MADEINOZ_KNOWLEDGE_SERVER_RULES: oneOf('MADEINOZ_KNOWLEDGE_SERVER_RULES', SERVER_RULES_SETTINGS),
  MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE: int('MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE', 0, 600_000),
  MADEINOZ_KNOWLEDGE_LOG_LEVEL: oneOf('MADEINOZ_KNOWLEDGE_LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const),
});

export interface LoadConfigOptions {
  env?: Env;
  /** Read a .env file at all (tests turn this off). Default true. */
  readEnvFile?: boolean;
}

/** Reads our keys from a .env file (dotenv-file.ts; dotenv is loaded only when there is a file), and what dotenv reads there otherwise than written. */
async function readEnvFile(file: string): Promise<SettingsFile> {
  const { readSettingsFile } = await import('./dotenv-file.js');
  return readSettingsFile(file, (name) => KNOWN.has(name));
}

function parseHeaders(raw: string | undefined): Record<string, string> {
  if (raw === undefined || raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError('MADEINOZ_KNOWLEDGE_HEADERS is not allowed: use a JSON object of header names to string values, e.g. {"X-Api-Key":"..."} (value not shown: it may hold a secret)', 'MADEINOZ_KNOWLEDGE_HEADERS');
  }
  const result = z.record(z.string()).safeParse(value);
  if (!result.success || Array.isArray(value)) {
    throw new ConfigError('MADEINOZ_KNOWLEDGE_HEADERS is not allowed: use a JSON object whose values are strings (value not shown: it may hold a secret)', 'MADEINOZ_KNOWLEDGE_HEADERS');
  }
  for (const [name, headerValue] of Object.entries(result.data)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_HEADERS is not allowed: "${name}" is not a valid HTTP header name`, 'MADEINOZ_KNOWLEDGE_HEADERS');
    }
    checkHeaderValue(headerValue, 'MADEINOZ_KNOWLEDGE_HEADERS', `the value of "${name}"`);
  }
  return result.data;
}

/**
 * HEADER_VALUE: what an HTTP header value can carry, as Node's http checks it before sending (tab,
 * printable ASCII, and the bytes 0x80-0xFF read as Latin-1). Anything else (a line break pasted
 * with a token, `€`, an emoji, a CJK letter) made every request fail inside Node with
 * ERR_INVALID_CHAR, which reads as a network error: the sync said "nothing answers at <url>; start
 * the Graphiti server there" and the session was told the graph could not be reached. Checked when
 * the settings are read, so the message names the setting. The value is never shown (a secret):
 * only where the character is and what kind it is.
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function checkHeaderValue(value: string, variable: string, what: string): void {
  if (HEADER_VALUE.test(value)) return;
  const chars = [...value];
  const at = chars.findIndex((ch) => !HEADER_VALUE.test(ch));
  throw new ConfigError(
    `${variable} is not allowed: ${what} holds ${characterKind(chars[at] ?? '')} at character ${at + 1}, which an HTTP header cannot carry (value not shown: it may hold a secret); set it again from the original, without line breaks or characters copied from a formatted document`,
    variable,
  );
}

/** What a character a header cannot carry is, said without the character itself. */
function characterKind(ch: string): string {
  if (ch === '\r' || ch === '\n') return 'a line break';
  if ((ch.codePointAt(0) ?? 0) < 0x20 || ch === '\x7f') return 'a control character';
  return 'a character outside Latin-1';
}

/**
 * BEARER_PREFIX: MADEINOZ_KNOWLEDGE_AUTH_TOKEN is the token alone (the client sends "Bearer <token>");
 * a value copied whole from a curl line or a server's docs ("Bearer abc…") is taken without its
 * scheme, instead of being sent as "Bearer Bearer abc…" and refused with a 401.
 */
function parseAuthToken(raw: string | undefined): string | undefined {
  const token = raw?.trim().replace(/^Bearer\s+/i, '').trim();
  if (token === undefined || token === '') return undefined;
  checkHeaderValue(token, 'MADEINOZ_KNOWLEDGE_AUTH_TOKEN', 'the token');
  return token;
}

function parseList(raw: string | undefined, sep: RegExp): string[] {
  if (raw === undefined) return [];
  return raw
    .split(sep)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function parseExtraSources(raw: string | undefined, env: Env): ExtraSource[] {
  const sep = process.platform === 'win32' ? /;/ : /:/;
  const used = new Set<string>();
  return parseList(raw, sep).map((entry, index) => {
    const eq = entry.indexOf('=');
    let name = eq > 0 ? entry.slice(0, eq).trim() : `extra${index + 1}`;
    const path = resolve(expandHome(eq > 0 ? entry.slice(eq + 1).trim() : entry, env));
    if (!/^[A-Za-z0-9_-]+$/.test(name) || name === 'pai' || name === 'auto-memory') {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SYNC_PATHS="${raw}" is not allowed: source name "${name}" must match [A-Za-z0-9_-]+ and not be "pai" or "auto-memory"`, 'MADEINOZ_KNOWLEDGE_SYNC_PATHS');
    }
    if (used.has(name)) name = `${name}${index + 1}`;
    used.add(name);
    return { name, path };
  });
}

function parseOrigin(raw: string | undefined, variable: string): string | undefined {
  if (raw === undefined) return undefined;
  const origin = raw.trim();
  if (!ORIGIN_NAME.test(origin)) throw new ConfigError(`${variable}="${raw}" is not allowed: an origin is 1-40 lower-case letters, digits and hyphens, starting with a letter or digit`, variable);
  return origin;
}

/** MADEINOZ_KNOWLEDGE_ORIGIN when set, else the origin kept beside the Claude config folder (util/origin.ts). */
function ownOrigin(setting: string | undefined, claudeConfigDir: string, machineIdSetting: string | undefined): { origin: string; previousOrigins: string[]; originDerived: boolean; machineKey?: string; originPlace: OriginPlace } {
  const facts = machineFacts(process.env);
  // `none`: the user turns the copy check off (util/origin.ts `machineKey` has nothing to hash).
  const idSetting = machineIdSetting?.trim();
  const key = idSetting === 'none' ? undefined : machineKey(idSetting || facts.machineId);
  const machine = key === undefined ? {} : { machineKey: key };
  if (setting !== undefined) return { origin: setting, previousOrigins: [], originDerived: false, ...machine, originPlace: 'here' };
  try {
    const identity = originIdentity(claudeConfigDir, facts, undefined, key);
    return { origin: identity.origin, previousOrigins: identity.previous, originDerived: identity.file === undefined, ...machine, originPlace: identity.file === undefined ? 'here' : originPlace(claudeConfigDir, facts, key) };
  } catch (error) {
    if (error instanceof OriginFileError) throw new ConfigError(error.message, 'MADEINOZ_KNOWLEDGE_ORIGIN');
    throw error;
  }
}

/**
 * The config with our origin as it stands now, for a process that outlives the moment its config
 * was built (watch mode's passes). A derived origin (no Claude config folder yet: a new machine
 * where the watch started before Claude Code first ran) gives way to the one kept there once the
 * folder exists; the first sync after that keeps it, and takes over the derived origin's episodes.
 * Without this, the watch went on under the derived origin and took every marker of the kept one
 * for someone else's: a note planned meanwhile stayed pending for good, an edit sent a second copy.
 * A kept origin and MADEINOZ_KNOWLEDGE_ORIGIN never change while the process runs.
 */
export function withCurrentOrigin(config: Config): Config {
  if (config.originDerived !== true) return config;
  const now = ownOrigin(undefined, config.claudeConfigDir, config.machineIdSetting);
  return now.originDerived ? config : { ...config, ...now };
}

function parseSharedSources(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of parseList(raw, /,/)) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SHARED_SOURCES="${raw}" is not allowed: use comma-separated source=origin pairs, e.g. "team=team-notes"`, 'MADEINOZ_KNOWLEDGE_SHARED_SOURCES');
    }
    out[pair.slice(0, eq).trim()] = parseOrigin(pair.slice(eq + 1), 'MADEINOZ_KNOWLEDGE_SHARED_SOURCES') as string;
  }
  return out;
}

function parseSourceGroups(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of parseList(raw, /,/)) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SOURCE_GROUPS="${raw}" is not allowed: use comma-separated source=group pairs, e.g. "auto-memory={project}"`, 'MADEINOZ_KNOWLEDGE_SOURCE_GROUPS');
    }
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

/**
 * The files the settings are read from, existing or not (a `.env` may be created later): our
 * `.env` candidates, the madeinoz `.env` candidates (PAI_DIR and CLAUDE_CONFIG_DIR as the settings
 * now give them: either may come from our file) and Claude Code's user settings (where auto memory
 * is kept). Watch mode watches them and takes up a change at its next pass (watch/watch.ts).
 * Claude Code's `.claude.json` is left out: it is written all the time, and what it gives (the
 * known project folders) is read again at every pass anyway.
 *
 * PROJECT_SWITCH_WATCHED: also the files that say per project whether Claude Code keeps auto memory
 * and where (claude-memory.ts ON_IN_ONE_PROJECT, MEMORY_OFF_LEFT_OUT, a project's autoMemoryDirectory):
 * each known project's `.claude/settings.local.json` and the managed settings. Unwatched, a project's
 * auto memory turned on while the watch ran left its folder out of the watch's filter, and the notes
 * Claude Code wrote there went unsynced until some other change owed a pass.
 */
export function settingsFilesOf(config: Pick<Config, 'paiDir' | 'claudeConfigDir'> & Partial<Pick<Config, 'knownProjectDirs'>>, env: Env = process.env): string[] {
  const withDirs: Env = { ...env, PAI_DIR: config.paiDir, CLAUDE_CONFIG_DIR: config.claudeConfigDir };
  // A session reads its main repository root's local settings too (claude-memory.ts LOCAL_SETTINGS_OF_A_SESSION).
  const perProject = (config.knownProjectDirs ?? []).flatMap((project) => [...new Set([gitMainRoot(project), project])].map((dir) => join(dir, '.claude', 'settings.local.json')));
  return [...new Set([...envFileCandidates(env), ...paiEnvFileCandidates(withDirs), join(config.claudeConfigDir, 'settings.json'), join(MANAGED_SETTINGS_DIR, 'managed-settings.json'), ...perProject])];
}

/** Builds and validates the configuration. Throws ConfigError naming the variable, the value and what is allowed. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<Config> {
  const processEnv: Env = options.env ?? process.env;
  let envFile: string | undefined;
  let paiEnvFile: string | undefined;
  const env: Env = {};
  const layer = (values: Env) => {
    for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== '') env[k] = v;
  };
  // What dotenv reads otherwise than written (dotenv-file.ts DOTENV_SURPRISES), said only for the
  // file whose value is the one used: ours wins over the madeinoz file, the environment over both.
  let notes: SettingsFile['notes'] = [];
  const typos: string[] = [];
  if (options.readEnvFile !== false) {
    envFile = findEnvFile(processEnv);
    // PAI_DIR / CLAUDE_CONFIG_DIR may themselves come from our file.
    const ours: SettingsFile = envFile === undefined ? { values: {}, names: [], notes: [] } : await readEnvFile(envFile);
    typos.push(...misspelledSettings(ours.names, `set in ${envFile}`, 'rename it there'));
    paiEnvFile = findPaiEnvFile({ ...ours.values, ...definedOnly(processEnv) });
    if (paiEnvFile !== undefined && paiEnvFile !== envFile) {
      const pai = await readEnvFile(paiEnvFile);
      layer(pai.values);
      notes = pai.notes.filter((note) => ours.values[note.name] === undefined);
    } else paiEnvFile = undefined;
    layer(ours.values);
    notes.push(...ours.notes);
  }
  // Explicit environment variables win over both files; an empty variable counts as unset.
  layer(processEnv);
  typos.push(...misspelledSettings(Object.keys(definedOnly(processEnv)).filter((name) => /^MADEINOZ_/i.test(name)), 'set in the environment', 'export it under that name instead'));
  const config = buildConfig(env, envFile);
  const used = notes.filter((note) => definedOnly(processEnv)[note.name] === undefined).map((note) => note.text);
  return { ...config, warnings: [...config.warnings, ...typos, ...used], paiEnvFile };
}

/**
 * MISSPELLED_SETTING: a name that is none of our settings but nearly one (a typo, lower case, a
 * word left out: MADEINOZ_KNOWLEDGE_MCP_ULR, madeinoz_knowledge_mcp_url) is ignored like any
 * other name, and the commands then said "no Graphiti server is configured" of a server the user
 * did configure. Said with the name meant (util/closest.ts, the rule "did you mean" has for
 * commands). Only names of our families, from our own file (MADEINOZ_, GMS_) and the environment
 * (MADEINOZ_: scripts and test runners set other GMS_ names there); the madeinoz file is left out,
 * its system has names of its own (MADEINOZ_KNOWLEDGE_HOST, _PORT, near none of ours).
 */
const ALL_SETTING_NAMES: readonly string[] = SETTINGS.map((s) => s.name);

function misspelledSettings(names: readonly string[], where: string, fix: string): string[] {
  const out: string[] = [];
  for (const name of names) {
    if (!/^(?:MADEINOZ_|GMS_)/i.test(name) || ALL_SETTING_NAMES.includes(name)) continue;
    const meant = closest(name, ALL_SETTING_NAMES);
    if (meant !== undefined) out.push(`${name} (${where}) is not a setting of graphiti-memory-sync, so it is ignored: did you mean ${meant}? ${fix[0]?.toUpperCase()}${fix.slice(1)}.`);
  }
  return out;
}

/**
 * The live server's port on this machine (util/loopback.ts LOOPBACK_HOST: localhost, [::1], any
 * 127.x.y.z), spelt otherwise than its front (the caller checks LOCAL_FRONT_URL first): told so,
 * since only the front's own spelling gets the token.
 */
function sameLocalPort(url: string, liveUrl: string): boolean {
  try {
    const a = new URL(url);
    return isLoopbackHost(a.hostname) && a.port === new URL(liveUrl).port;
  } catch {
    return false;
  }
}

function definedOnly(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
}

/** Synchronous core of loadConfig over an already-merged environment. */
export function buildConfig(env: Env, envFile?: string): Config {
  const parsed = rawSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path[0] === undefined ? undefined : String(issue.path[0]);
    throw new ConfigError(issue?.message ?? 'Invalid configuration', variable);
  }
  const raw = parsed.data;
  const warnings: string[] = [];
  if (raw.MADEINOZ_KNOWLEDGE_DB?.alias) {
    warnings.push(`MADEINOZ_KNOWLEDGE_DB="${env.MADEINOZ_KNOWLEDGE_DB}" is a legacy misspelling; use "falkordb".`);
  }
  // MADEINOZ_KNOWLEDGE_DATABASE_TYPE is the madeinoz system's own name for the same setting.
  const dbSetting: DbKind | undefined = raw.MADEINOZ_KNOWLEDGE_DB?.value ?? raw.MADEINOZ_KNOWLEDGE_DATABASE_TYPE?.value;
  const groupId = (raw.MADEINOZ_KNOWLEDGE_GROUP_ID ?? '').trim() || 'main';
  if (groupId.length > 128) {
    throw new ConfigError(`MADEINOZ_KNOWLEDGE_GROUP_ID="${groupId.slice(0, 40)}…" is not allowed: at most 128 characters`, 'MADEINOZ_KNOWLEDGE_GROUP_ID');
  }
  const dirSetting = (value: string | undefined, fallback: string, name: string): string => {
    const p = value === undefined || value.trim() === '' ? fallback : expandHome(value.trim(), env);
    if (!isAbsolute(p)) throw new ConfigError(`${name}="${value}" is not allowed: use an absolute path (or one starting with ~/)`, name);
    return p;
  };
  const contextBudget = raw.MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET ?? 8000;
  const claudeConfigDir = dirSetting(raw.CLAUDE_CONFIG_DIR, join(home(env), '.claude'), 'CLAUDE_CONFIG_DIR');
  const claudeSettings = new SettingsFiles();
  const stateDir = dirSetting(raw.MADEINOZ_KNOWLEDGE_STATE_DIR, defaultStateDir(env), 'MADEINOZ_KNOWLEDGE_STATE_DIR');
  // OWN_STATE_DIR (env-file.ts): before anything in it (the runtime record just below) is trusted.
  checkStateDir(stateDir);
  // An explicit URL wins; else the server `graphiti-memory-sync server start` runs, if it is up.
  // Never silently: a setting that hides a running local server is said (cli.ts prints warnings).
  // The example's placeholder (the default URL, uncommented from .env.example) is no choice of a
  // server: a running local server wins over it, and over the example's database with it.
  // The same server spelled another way (localhost or [::1] for 127.0.0.1) gets no token: those
  // may resolve to ::1, where the front does not listen (server-runtime.ts, isLocalFrontUrl).
  //
  // LOCAL_SERVER_KEPT: with no URL set, once `server start` has run here (its runtime is recorded)
  // the local server is the one in use, running or not. Falling back to the default URL when it was
  // stopped, or killed, or before it is back after a reboot, sent the notes to whatever listens on
  // localhost:8000, another user's Graphiti on a shared machine included. Its recorded address gets
  // nothing until its front proves itself (server-runtime.ts ONLY_PROVEN_LOCAL), and the next step
  // is "server start"; a URL set (the example's placeholder too) still wins.
  const local = liveServer(stateDir);
  const liveUrl = local?.url;
  const placeholder = raw.MADEINOZ_KNOWLEDGE_MCP_URL === DEFAULT_MCP_URL;
  const localUrl = raw.MADEINOZ_KNOWLEDGE_MCP_URL === undefined ? (liveUrl ?? recordedServerUrl(stateDir)) : placeholder ? liveUrl : undefined;
  if (placeholder && localUrl !== undefined) {
    warnings.push(`MADEINOZ_KNOWLEDGE_MCP_URL=${DEFAULT_MCP_URL} is the example's placeholder and the local server ("server start") is running: using it (${localUrl})${dbSetting === 'neo4j' ? ' on FalkorDB (MADEINOZ_KNOWLEDGE_DB=neo4j does not apply to it)' : ''}. Remove that line, or set your server's URL, to silence this.`);
  } else if (raw.MADEINOZ_KNOWLEDGE_MCP_URL !== undefined && liveUrl !== undefined && !isLocalFrontUrl(raw.MADEINOZ_KNOWLEDGE_MCP_URL, local) && sameLocalPort(raw.MADEINOZ_KNOWLEDGE_MCP_URL, liveUrl)) {
    warnings.push(`MADEINOZ_KNOWLEDGE_MCP_URL=${displayUrl(raw.MADEINOZ_KNOWLEDGE_MCP_URL)} names the local server's port another way: its token goes to ${liveUrl} only (localhost and [::1] may reach another listener). Set ${liveUrl}, or unset it.`);
  } else if (raw.MADEINOZ_KNOWLEDGE_MCP_URL !== undefined && liveUrl !== undefined && !isLocalFrontUrl(raw.MADEINOZ_KNOWLEDGE_MCP_URL, local)) {
    warnings.push(`MADEINOZ_KNOWLEDGE_MCP_URL=${displayUrl(raw.MADEINOZ_KNOWLEDGE_MCP_URL)} is used, not the local server running at ${liveUrl} (server start); unset it to use the local server.`);
  }
  // The local server runs on FalkorDB, so its escaping is the default when it is the one in use.
  const db: DbKind = localUrl !== undefined && placeholder ? 'falkordb' : (dbSetting ?? (localUrl !== undefined ? 'falkordb' : 'neo4j'));
  const mcpUrl = localUrl ?? raw.MADEINOZ_KNOWLEDGE_MCP_URL ?? DEFAULT_MCP_URL;

  return {
    mcpUrl,
    mcpUrlSource: localUrl !== undefined ? 'local-server' : raw.MADEINOZ_KNOWLEDGE_MCP_URL !== undefined ? 'setting' : 'default',
    sseUrl: raw.MADEINOZ_KNOWLEDGE_SSE_URL,
    transport: raw.MADEINOZ_KNOWLEDGE_TRANSPORT?.value ?? 'auto',
    db,
    groupId,
    sourceGroups: parseSourceGroups(raw.MADEINOZ_KNOWLEDGE_SOURCE_GROUPS),
    timeoutMs: raw.MADEINOZ_KNOWLEDGE_TIMEOUT ?? 30_000,
    retries: raw.MADEINOZ_KNOWLEDGE_RETRIES ?? 3,
    retryDeadlineMs: raw.MADEINOZ_KNOWLEDGE_RETRY_DEADLINE ?? 60_000,
    // Only a token set by the user is part of the settings. The local server's token is never
    // stored here: it is read and sent per request, only to its proven front (graphiti.ts asks
    // localServerAuthorization in config/server-runtime.ts).
    authToken: parseAuthToken(raw.MADEINOZ_KNOWLEDGE_AUTH_TOKEN),
    headers: parseHeaders(raw.MADEINOZ_KNOWLEDGE_HEADERS),
    stateDir,
    paiDir: dirSetting(raw.PAI_DIR, join(home(env), '.claude'), 'PAI_DIR'),
    priorHookStates: [...new Set([join(home(env), '.claude'), dirSetting(raw.PAI_DIR, join(home(env), '.claude'), 'PAI_DIR')].map((root) => resolve(root, 'MEMORY', 'STATE', 'knowledge-sync', 'sync-state.json')))],
    claudeConfigDir,
    syncPai: raw.MADEINOZ_KNOWLEDGE_SYNC_PAI ?? true,
    syncAutoMemory: raw.MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY ?? true,
    // One look at Claude Code's settings for the three (claude-memory.ts SETTINGS_READ_ONCE): each file read once per build.
    autoMemoryFolders: autoMemoryFolders(env, claudeConfigDir, home(env), MANAGED_SETTINGS_DIR, claudeSettings),
    unsyncedMemoryFolders: unsyncedProjectMemory(env, claudeConfigDir, home(env), MANAGED_SETTINGS_DIR, claudeSettings),
    knownProjectDirs: knownProjects(env, claudeConfigDir, home(env), claudeSettings),
    extraSources: parseExtraSources(raw.MADEINOZ_KNOWLEDGE_SYNC_PATHS, env),
    ...ownOrigin(parseOrigin(raw.MADEINOZ_KNOWLEDGE_ORIGIN, 'MADEINOZ_KNOWLEDGE_ORIGIN'), claudeConfigDir, raw.MADEINOZ_KNOWLEDGE_MACHINE_ID),
    ...(raw.MADEINOZ_KNOWLEDGE_MACHINE_ID === undefined ? {} : { machineIdSetting: raw.MADEINOZ_KNOWLEDGE_MACHINE_ID }),
    sharedSources: parseSharedSources(raw.MADEINOZ_KNOWLEDGE_SHARED_SOURCES),
    exclude: parseList(raw.MADEINOZ_KNOWLEDGE_EXCLUDE, /,/),
    deleteRemoved: raw.MADEINOZ_KNOWLEDGE_DELETE_REMOVED ?? true,
    maxFileBytes: raw.MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES ?? 1024 * 1024,
    maxEpisodeChars: raw.MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS ?? 8000,
    concurrency: raw.MADEINOZ_KNOWLEDGE_CONCURRENCY ?? 4,
    confirmMaxAgeMs: raw.MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE ?? 30 * 60_000,
    maxResends: raw.MADEINOZ_KNOWLEDGE_MAX_RESENDS ?? 3,
    contextBudget: Math.min(contextBudget, 10_000),
    contextOnResume: raw.MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME ?? false,
    contextFormat: raw.MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT?.value ?? 'auto',
    contextTrust: raw.MADEINOZ_KNOWLEDGE_CONTEXT_TRUST?.value ?? 'group',
    serverRules: raw.MADEINOZ_KNOWLEDGE_SERVER_RULES?.value ?? 'auto',
    watchDebounceMs: raw.MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE ?? 150,
    logLevel: raw.MADEINOZ_KNOWLEDGE_LOG_LEVEL?.value ?? 'info',
    warnings,
    envFile,
    paiEnvFile: undefined,
  };
}

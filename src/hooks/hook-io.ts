/**
 * Shared stdin/stdout handling for our Claude Code hooks.
 *
 * Rules (Claude Code hooks reference: https://docs.claude.com/en/docs/claude-code/hooks):
 * - stdout of a SessionStart hook becomes Claude's context, so NOTHING but the one JSON
 *   object below is ever written there (no console.log anywhere on the hook path);
 * - hook output strings are capped at 10,000 characters, so additionalContext is cut at a
 *   line boundary to 9,000 and the whole JSON line is kept below 10,000;
 * - a hook must never fail a session: every error is logged to the file log and the
 *   process exits 0.
 *
 * Reading stdin: Claude Code always writes the payload and closes stdin. We read at most
 * 1 MB and give up after ~1 s (a manual run from a terminal, or a test without stdin, must
 * not hang); an empty or malformed payload is tolerated (cwd falls back to process.cwd()).
 *
 * Size: the hooks' whole contract with Claude Code (stdin limits, the one JSON line, the 10,000-
 * character cap, the misconfiguration note) is kept in this one file so it is read and reviewed together.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { configErrorVariable } from '../lib/config/env-file.js';
import { sha256Hex } from '../lib/util/ids.js';
import { MAX_CONTEXT_CHARS } from '../lib/context/cache.js';

export const MAX_STDIN_BYTES = 1024 * 1024;
export const STDIN_TIMEOUT_MS = 1000;
/** The whole stdout JSON line stays strictly below this. */
export const MAX_OUTPUT_CHARS = 10_000;

/**
 * The payload fields we read. Checked by hand rather than with zod: this module is on the hook
 * hot path, where loading zod cost more than the rest of the hook (see config-snapshot.ts), and
 * the rule is only "keep a field when it has the documented type".
 */
export interface HookInput {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  hook_event_name?: string;
  source?: string;
  model?: string;
  agent_type?: string;
  permission_mode?: string;
  stop_hook_active?: boolean;
  last_assistant_message?: string;
  [key: string]: unknown;
}

const STRING_FIELDS = ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'source', 'model', 'agent_type', 'permission_mode', 'last_assistant_message'] as const;

/** Keeps unknown fields, and known fields only with their documented type; names the dropped ones. */
function pickHookFields(value: Record<string, unknown>): { input: HookInput; dropped: string[] } {
  const input: HookInput = {};
  const dropped: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const known = (STRING_FIELDS as readonly string[]).includes(k) ? 'string' : k === 'stop_hook_active' ? 'boolean' : undefined;
    if (known === undefined || v === undefined || typeof v === known) input[k] = v;
    else dropped.push(k);
  }
  return { input, dropped };
}

export interface ParsedHookInput {
  input: HookInput;
  /** cwd from the payload, else process.cwd(). */
  cwd: string;
  /** SessionStart source, 'startup' when absent. */
  source: string;
  /** Why the payload could not be used as given (empty, not JSON, wrong shape), if so. */
  problem: string | undefined;
}

/** Parses a hook payload leniently: every field optional, unknown fields kept, bad fields ignored. */
export function parseHookInput(raw: string, fallbackCwd: string = process.cwd()): ParsedHookInput {
  let problem: string | undefined;
  let input: HookInput = {};
  const text = raw.replace(/^\uFEFF/, '').trim();
  if (text === '') {
    problem = 'empty stdin';
  } else {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      problem = `stdin is not JSON: ${(error as Error).message}`;
    }
    if (problem === undefined) {
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        // Keep the well-typed fields of an object with some odd ones.
        const picked = pickHookFields(value as Record<string, unknown>);
        input = picked.input;
        if (picked.dropped.length > 0) problem = `unexpected field types: ${picked.dropped.join(', ')}`;
      } else {
        problem = 'stdin JSON is not an object';
      }
    }
  }
  const cwd = typeof input.cwd === 'string' && input.cwd.trim() !== '' ? input.cwd : fallbackCwd;
  const source = typeof input.source === 'string' && input.source.trim() !== '' ? input.source.trim() : 'startup';
  return { input, cwd, source, problem };
}

/**
 * Reads stdin to the end, at most `maxBytes` (the rest is ignored) and at most `timeoutMs`
 * (whatever arrived by then is used). A TTY or a closed stdin gives ''. Never throws, and
 * leaves no handle that would keep the process alive.
 */
export function readStdin(options: { maxBytes?: number; timeoutMs?: number; stream?: NodeJS.ReadStream } = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? MAX_STDIN_BYTES;
  const timeoutMs = options.timeoutMs ?? STDIN_TIMEOUT_MS;
  const stream = options.stream ?? process.stdin;
  return new Promise((resolve) => {
    if (stream.isTTY === true) {
      resolve('');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', finish);
      stream.off('error', finish);
      stream.off('close', finish);
      try {
        stream.pause();
        stream.destroy();
      } catch {
        // already closed
      }
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const room = maxBytes - size;
      if (room > 0) {
        const part = buf.length > room ? buf.subarray(0, room) : buf;
        chunks.push(part);
        size += part.length;
      }
      if (size >= maxBytes) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    stream.on('data', onData);
    stream.once('end', finish);
    stream.once('error', finish);
    stream.once('close', finish);
    try {
      stream.resume();
    } catch {
      finish();
    }
  });
}

/** Cuts text at a line boundary so that it has at most `max` characters (whole lines only). */
export function truncateAtLine(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const nl = cut.lastIndexOf('\n');
  return nl <= 0 ? '' : text.slice(0, nl).trimEnd();
}

/**
 * The exact stdout for a SessionStart injection, or '' when there is nothing to inject.
 * additionalContext ≤ min(maxChars, 9,000) characters and the JSON line < 10,000 characters,
 * both cut at line boundaries.
 */
export function sessionStartOutput(additionalContext: string, maxChars: number = MAX_CONTEXT_CHARS, eventName = 'SessionStart'): string {
  let context = truncateAtLine(additionalContext.trim(), Math.min(maxChars, MAX_CONTEXT_CHARS));
  for (;;) {
    if (context === '') return '';
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: context } });
    if (json.length < MAX_OUTPUT_CHARS) return json;
    // JSON escaping grew it (quotes, newlines, control characters): drop the last line.
    const nl = context.lastIndexOf('\n');
    context = nl <= 0 ? '' : context.slice(0, nl).trimEnd();
  }
}

/** Writes the one JSON object (if any) to stdout and resolves once it is flushed. */
export function writeStdout(text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  return new Promise((resolve) => {
    try {
      process.stdout.write(text, () => resolve());
    } catch {
      resolve();
    }
  });
}

export interface GuardLogger {
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Runs a hook body with every failure contained: uncaught exceptions and rejections are
 * logged (if a logger exists yet) and the process still exits 0. A safety timer ends a
 * process that something unexpected keeps alive (it is unref'd: a clean exit is not delayed).
 */
export async function runHook(name: string, body: () => Promise<void>, getLogger: () => GuardLogger | undefined, options: { maxRuntimeMs?: number } = {}): Promise<void> {
  const onFatal = (error: unknown) => {
    try {
      getLogger()?.error('hook crashed', { hook: name, error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
    } catch {
      // logging must not throw
    }
    process.exitCode = 0;
    process.exit(0);
  };
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
  // EPIPE on a closed stdout (Claude gone) must not become a crash message.
  process.stdout.on('error', () => undefined);
  const safety = setTimeout(() => process.exit(0), options.maxRuntimeMs ?? 8000);
  safety.unref();
  try {
    await body();
  } catch (error) {
    try {
      getLogger()?.error('hook failed', { hook: name, error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
    } catch {
      // ignore
    }
  }
  process.exitCode = 0;
}

type Env = Record<string, string | undefined>;

const CONFIG_ERROR_MARKER = 'config-error.notified';

/** Whether a SessionStart with this `source` gets the context block. */
export function shouldInject(source: string, contextOnResume: boolean): boolean {
  if (source === 'resume' || source === 'fork') return contextOnResume;
  return true; // startup, clear, compact, and any future source
}

function usableDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The state dir when the configuration cannot be loaded: the configured/XDG/default one if
 * it can be worked out and created, else a per-user folder under os.tmpdir().
 */
export function fallbackStateDir(env: Env = process.env): string {
  const candidates: string[] = [];
  let home: string | undefined = env.HOME && env.HOME !== '' ? env.HOME : undefined;
  if (home === undefined) {
    try {
      home = homedir();
    } catch {
      home = undefined;
    }
  }
  const explicit = env.MADEINOZ_KNOWLEDGE_STATE_DIR?.trim();
  if (explicit !== undefined && explicit !== '') {
    const p = explicit.startsWith('~/') && home !== undefined ? join(home, explicit.slice(2)) : explicit;
    if (isAbsolute(p)) candidates.push(p);
  }
  {
    const xdg = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : home === undefined ? undefined : join(home, '.local', 'state');
    if (xdg !== undefined) candidates.push(join(xdg, 'graphiti-memory-sync'));
  }
  let user = 'user';
  try {
    user = String(process.getuid?.() ?? env.USERNAME ?? 'user');
  } catch {
    // keep the default
  }
  candidates.push(join(tmpdir(), `graphiti-memory-sync-${user}`));
  for (const dir of candidates) if (usableDir(dir)) return dir;
  return candidates[candidates.length - 1] as string;
}

/** The one-line note injected (once per distinct error) when the configuration is invalid. */
export function misconfiguredNote(error: unknown): string {
  const name = configErrorVariable(error);
  const variable = name !== undefined ? ` (setting ${name})` : '';
  return (
    `graphiti-memory-sync is misconfigured${variable}, so memory files are currently not synced to the Graphiti knowledge graph ` +
    'and no graph context was loaded. `graphiti-memory-sync health` (in a checkout: `node dist/cli.js health`) shows the reason.'
  );
}

function fingerprint(text: string): string {
  return sha256Hex(text).slice(0, 16);
}

/** True the first time a given error message is seen (remembered in the state dir). */
export function firstTimeForConfigError(stateDir: string, message: string): boolean {
  const file = join(stateDir, CONFIG_ERROR_MARKER);
  const key = fingerprint(message);
  try {
    if (readFileSync(file, 'utf8').trim() === key) return false;
  } catch {
    // no marker yet
  }
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
  } catch {
    // cannot remember: still inject (better twice than never)
  }
  return true;
}

/** Forgets an earlier configuration error (so the same error, if it comes back, is reported again). */
export function clearConfigErrorNote(stateDir: string): boolean {
  try {
    unlinkSync(join(stateDir, CONFIG_ERROR_MARKER));
    return true;
  } catch {
    return false;
  }
}

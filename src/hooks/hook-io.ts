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
 * Under Claude Code, stdin and stdout are used through their file descriptors (see readStdin).
 *
 * Size: the hooks' whole contract with Claude Code (stdin limits, the one JSON line, the 10,000-
 * character cap, the misconfiguration note) is kept in this one file so it is read and reviewed together.
 */
import { chmodSync, fstatSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { configErrorVariable, defaultStateDir, stateDirFromEnvironment, stateDirProblem } from '../lib/config/env-file.js';
import { sha256Hex } from '../lib/util/ids.js';
import { namedCommand, runningCopy, type RunningCopy } from '../lib/util/install-route.js';
import { logFilePath } from '../lib/util/log.js';
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
 * (whatever arrived by then is used). A terminal (or /dev/null) gives ''. Never throws, and
 * leaves no handle that would keep the process alive.
 *
 * Under Claude Code (CLAUDE_PROJECT_DIR is set for every hook) the payload is read from fd 0
 * synchronously, until end of file or until what arrived parses as a JSON object: on a pipe,
 * process.stdin builds a net.Socket, and loading net and the stream modules costs about 6 ms, a
 * fifth of a bare node start, on every hook run. A synchronous read cannot time out, so it is
 * used only where the writer is Claude Code, which always writes the payload. Anywhere else (a
 * manual run, a harness that never closes stdin), and on a non-blocking stdin (EAGAIN), the
 * stream with its timeout reads it. (An asynchronous fs.read would not do: a read left pending
 * on a libuv worker thread keeps even process.exit from returning.)
 */
export function readStdin(options: { maxBytes?: number; timeoutMs?: number; stream?: NodeJS.ReadStream; fd?: number; env?: Env } = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? MAX_STDIN_BYTES;
  const timeoutMs = options.timeoutMs ?? STDIN_TIMEOUT_MS;
  if (options.stream !== undefined) return readStream(options.stream, maxBytes, timeoutMs);
  const env = options.env ?? process.env;
  if (env.CLAUDE_PROJECT_DIR === undefined) return readStream(process.stdin, maxBytes, timeoutMs);
  const fd = options.fd ?? 0;
  try {
    if (fstatSync(fd).isCharacterDevice()) return Promise.resolve(''); // a terminal or /dev/null
  } catch {
    return Promise.resolve(''); // no stdin at all
  }
  const read = readPayloadSync(fd, maxBytes);
  if (read.complete) return Promise.resolve(read.bytes.toString('utf8'));
  return readStream(process.stdin, maxBytes - read.bytes.length, timeoutMs).then((rest) => read.bytes.toString('utf8') + rest);
}

/**
 * Reads fd 0 until end of file, `maxBytes`, or a complete JSON object (a prefix of an object is
 * never valid JSON, so a payload that arrives in pieces is read whole). `complete: false` when the
 * descriptor is non-blocking and had nothing more yet (EAGAIN): the stream reads the rest.
 */
function readPayloadSync(fd: number, maxBytes: number): { bytes: Buffer; complete: boolean } {
  const chunks: Buffer[] = [];
  let size = 0;
  const bytes = () => Buffer.concat(chunks, size);
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes - size));
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') return { bytes: bytes(), complete: false };
      return { bytes: bytes(), complete: true }; // EOF on Windows, or unreadable: what arrived
    }
    if (n === 0) return { bytes: bytes(), complete: true };
    chunks.push(chunk.subarray(0, n));
    size += n;
    if (size >= maxBytes || parsesAsObject(bytes())) return { bytes: bytes(), complete: true };
  }
}

function parsesAsObject(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** readStdin over a stream; leaves no handle that would keep the process alive. */
function readStream(stream: NodeJS.ReadStream, maxBytes: number, timeoutMs: number): Promise<string> {
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

/**
 * Writes the one JSON object (if any) to stdout and resolves once it is written. fs.writeSync on
 * fd 1, for the reason readStdin reads fd 0 (no net.Socket for a piped stdout); a non-blocking
 * stdout that is full (EAGAIN) gets the rest through process.stdout. A closed stdout (EPIPE:
 * Claude Code gone) is ignored.
 */
export function writeStdout(text: string, fd = 1): Promise<void> {
  if (text === '') return Promise.resolve();
  const data = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < data.length) written += writeSync(fd, data, written);
    return Promise.resolve();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return Promise.resolve();
  }
  return new Promise((resolve) => {
    try {
      process.stdout.on('error', () => resolve());
      process.stdout.write(data.subarray(written), () => resolve());
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
 * it can be worked out and created, else a per-user folder of ours under os.tmpdir() (OWN_TEMP_FALLBACK).
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
  try {
    const explicit = stateDirFromEnvironment(home === undefined ? env : { ...env, HOME: home });
    if (explicit !== undefined) candidates.push(explicit);
  } catch {
    // `~/` with no home folder: not a candidate
  }
  try {
    // The usual default (config/env-file.ts owns it); a relative XDG_STATE_HOME does not count.
    const usual = defaultStateDir(home === undefined ? env : { ...env, HOME: home });
    if (isAbsolute(usual)) candidates.push(usual);
  } catch {
    // no home folder to be found: only the temp folder is left
  }
  let user = 'user';
  try {
    user = String(process.getuid?.() ?? env.USERNAME ?? 'user');
  } catch {
    // keep the default
  }
  // OWN_STATE_DIR: a configured or usual folder someone else owns or may write to is passed over too.
  for (const dir of candidates) if (usableDir(dir) && stateDirProblem(dir) === undefined) return dir;
  return ownTempDir(join(tmpdir(), `graphiti-memory-sync-${user}`));
}

/**
 * OWN_TEMP_FALLBACK: the temporary folder is every local user's, and the fallback's name in it is
 * known in advance: another user may have made it first, open to all or as a link to a folder of
 * theirs, to read our log (the configuration error) or to have our hook append to a file they
 * chose through a planted `logs` link. It is used only when it is a real folder of ours that no
 * one else can write to (OWN_STATE_DIR; then tightened to 0700); otherwise a new private one is made beside it (mkdtemp: 0700, a name no
 * one can guess).
 */
function ownTempDir(dir: string): string {
  if (usableDir(dir) && ownRealDir(dir)) return dir;
  return earlierOwnTempDir(dir) ?? mkdtempSync(`${dir}-`);
}

/** A real folder (not a link: none of ours is one here) of ours that no one else can write to (OWN_STATE_DIR's rule), tightened to 0700. */
function ownRealDir(dir: string): boolean {
  try {
    if (!lstatSync(dir).isDirectory() || stateDirProblem(dir) !== undefined) return false;
    chmodSync(dir, 0o700);
    return true;
  } catch {
    return false; // gone meanwhile
  }
}

/**
 * OWN_TEMP_REUSED: with the fallback's name taken, the private folder an earlier hook run made
 * beside it (`<name>-XXXXXX`, mkdtemp's six characters) is used again, when it is still a real
 * folder of ours. A hook runs at every session start and stop, and the configuration stays broken
 * until the person fixes it: a new folder each run piled up in the temp folder, and the note's
 * marker, kept in that folder, was never found again, so every session repeated the
 * misconfiguration note. One someone else planted under such a name is not ours (`ownRealDir`).
 */
function earlierOwnTempDir(dir: string): string | undefined {
  const prefix = `${basename(dir)}-`;
  let names: string[];
  try {
    names = readdirSync(dirname(dir));
  } catch {
    return undefined;
  }
  for (const name of names.filter((n) => n.startsWith(prefix) && n.length === prefix.length + 6).sort()) {
    const candidate = join(dirname(dir), name);
    if (ownRealDir(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The one-line note injected (once per distinct error) when the configuration is invalid. It names
 * the `health` command as this copy runs it (util/install-route.ts); the plugin has none, so its
 * note names the log the error was written to (`stateDir`'s) first.
 */
export function misconfiguredNote(error: unknown, stateDir: string, copy: RunningCopy = runningCopy()): string {
  const name = configErrorVariable(error);
  const variable = name !== undefined ? ` (setting ${name})` : '';
  const health = copy.cli === undefined ? `The log ${logFilePath(stateDir)} has the error; ${namedCommand('health', copy)}` : namedCommand('health', copy);
  return `graphiti-memory-sync is misconfigured${variable}, so memory files are currently not synced to the Graphiti knowledge graph and no graph context was loaded. ${health} shows the reason.`;
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

/**
 * Reading a settings file: dotenv's parser (quotes, `export`, comments, multi-line values), our
 * names only, and a file that cannot be read is a ConfigError naming it. The tool's settings
 * (config.ts) and the local server's (server-settings.ts) both read their files through here.
 *
 * dotenv decides what a line means; this module only says where dotenv reads a line otherwise than
 * the person who wrote it most likely meant (DOTENV_SURPRISES), since a setting read differently
 * from what is written fails later, far from here (a password cut at `#` is a 401 from the server).
 */
import { closeSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { parse } from 'dotenv';
import { ConfigError } from './env-file.js';
import { writableByOthers } from '../util/safe-ancestors.js';

export interface SettingsFile {
  /** The non-empty values of the names wanted. */
  values: Record<string, string>;
  /** Every name the file sets, wanted or not (config.ts MISSPELLED_SETTING looks for a near miss). */
  names: string[];
  /** Where dotenv reads a wanted setting otherwise than written, with the fix (never the value). */
  notes: { name: string; text: string }[];
}

/**
 * The text of a settings file. UTF-16 (with its byte order mark) is decoded: Windows PowerShell 5's
 * `echo … > .env` and Notepad's "Unicode" save it so, and read as UTF-8 every name in it was
 * garbled, so every setting in it was silently ignored. Without a mark, NUL bytes are not text.
 */
function decode(bytes: Buffer, file: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.includes(0)) throw new ConfigError(`Cannot read settings file ${file}: it is not text (it holds NUL bytes); save it as UTF-8 text, one NAME=value a line`);
  return bytes.toString('utf8');
}

/**
 * OWN_SETTINGS_FILE: a settings file names the server the notes go to, the token sent with them and
 * the LLM key: one another local user may write to (or made first, in a shared XDG_CONFIG_HOME) would
 * send them all of it. Read only when it belongs to the user or to root (a package installed
 * system-wide) and others cannot write it: neither every user nor a group that is not the user's
 * own private group (util/safe-ancestors.ts USER_PRIVATE_GROUP, the one judge of whose a group is:
 * umask 002 with a group of one's own makes the user's files group-writable, and those are theirs;
 * a shared group such as `users` is other people). Judged on the open file, so a swap after the
 * check is not read. Windows has no such modes: not judged there.
 */
function settingsFileProblem(st: Stats): string | undefined {
  if (process.platform === 'win32') return undefined;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid && st.uid !== 0) return `belongs to another user (uid ${st.uid})`;
  // A device (/dev/null, set to mean "no file") keeps nothing anyone wrote to it.
  if (st.isCharacterDevice()) return undefined;
  if ((st.mode & 0o002) !== 0) return `can be written by every user (mode ${(st.mode & 0o777).toString(8)})`;
  if (writableByOthers(st)) return `can be written by the members of group ${st.gid}, which is not yours alone (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** The non-empty values in `file` of the names `wanted` accepts, and what dotenv reads otherwise than written. */
export function readSettingsFile(file: string, wanted: (name: string) => boolean): SettingsFile {
  let bytes: Buffer;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const problem = settingsFileProblem(fstatSync(fd));
    if (problem !== undefined) throw new ConfigError(`Settings file ${file} ${problem}: its settings say where your notes and keys go, so only a file of yours (or root's) that no other user can write is read. chmod 600 it if it is yours, else remove it, or set MADEINOZ_KNOWLEDGE_ENV_FILE to a file of your own`);
    bytes = readFileSync(fd);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Cannot read settings file ${file}: ${(error as Error).message}; make it a file you can read (chmod 600 ${file}), or set MADEINOZ_KNOWLEDGE_ENV_FILE to another one`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const text = decode(bytes, file);
  const parsed = parse(text);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) if (value !== '' && wanted(name)) values[name] = value;
  return { values, names: Object.keys(parsed), notes: surprises(text, file, wanted) };
}

/**
 * DOTENV_SURPRISES: lines dotenv reads otherwise than a shell (the way most people write `.env`
 * files), each with the quoting that says what was meant. Both change a secret silently:
 * - HASH_IN_VALUE: an unquoted value ends at its first `#`, even inside a word (`pa#ss` is read as
 *   `pa`); a shell starts a comment only at a `#` that begins a word, so `NAME=value # note` is
 *   left alone.
 * - ESCAPE_IN_QUOTES: inside double quotes dotenv expands only `\n` and `\r`; `\"` and `\\` stay
 *   as written, backslash included.
 * Only single-line `NAME=value` lines of wanted names are looked at; the value is never quoted back.
 */
const DOTENV_SURPRISES: readonly { rule: string; test: (value: string) => boolean; say: (name: string) => string }[] = [
  {
    rule: 'HASH_IN_VALUE',
    test: (value) => !/^["'`]/.test(value) && /(?:^|[^\s])#/.test(value),
    say: (name) => `dotenv ends an unquoted value at its first "#", so only the part before it is used; if the "#" belongs to the value, put the value in single quotes: ${name}='…'`,
  },
  {
    rule: 'ESCAPE_IN_QUOTES',
    test: (value) => /^"/.test(value) && /\\["\\]/.test(value),
    say: (name) => `inside double quotes dotenv keeps a backslash before " or \\ as part of the value; write the value in single quotes without backslashes (${name}='…'), or in backquotes if it holds a single quote`,
  },
];

const LINE = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/;

function surprises(text: string, file: string, wanted: (name: string) => boolean): SettingsFile['notes'] {
  const notes: SettingsFile['notes'] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const match = LINE.exec(line);
    if (match === null || !wanted(match[1] as string)) return;
    const [, name, value] = match as unknown as [string, string, string];
    for (const surprise of DOTENV_SURPRISES) {
      if (surprise.test(value)) notes.push({ name, text: `${name} in ${file} (line ${index + 1}): ${surprise.say(name)}` });
    }
  });
  return notes;
}

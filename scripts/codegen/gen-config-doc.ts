/**
 * Writes docs/configuration.md from the settings code, so the page cannot drift from what the
 * tool reads (test/docs.test.ts checks the file is current):
 * - the table rows come from SETTINGS in src/lib/config/config.ts (name, default, description);
 * - the "accepted values" column is what the validator itself says when it rejects a value: each
 *   setting is probed with an invalid value through its reader (buildConfig for the tool's own,
 *   config/server-settings.ts for the local server's, config/switches.ts for the worker's) and the "use …" part of the
 *   ConfigError is shown (settings the loader does not check show "—");
 * - the .env lookup order is the doc comment of findEnvFile in src/lib/config/env-file.ts.
 *
 *   npx tsx scripts/codegen/gen-config-doc.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildConfig, ConfigError, SETTINGS, type SettingDoc, type SettingGroup } from '../../src/lib/config/config.js';
import { readServerSettings } from '../../src/lib/config/server-settings.js';
import { workerTimeoutMs } from '../../src/lib/config/switches.js';

/** A value no validator accepts: not a number, boolean, enum member, URL, absolute path, JSON or pair list. */
const PROBE = '?';

/** Text segments shown as code: JSON objects, quoted strings, {placeholders}, <placeholders>, $VAR/~ paths, globs. */
const CODE_TOKEN = /\{"[^}\n]*\}|"[^"\n]+"|\{[A-Za-z]+\}|<[^<>\n]+>[^\s),]*|[$~][^\s(),]*|[^\s(),"]*\*[^\s(),"]*/g;

function escapeText(text: string): string {
  return text.replace(/[\\`*_<>|[\]]/g, (ch) => `\\${ch}`);
}

function code(text: string): string {
  // GFM tables split on `|` even inside code spans.
  return `\`${text.replace(/\|/g, '\\|')}\``;
}

/** Plain prose → markdown: code-like segments become code spans, everything else is escaped. */
export function formatText(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(CODE_TOKEN)) {
    const index = match.index ?? 0;
    const token = match[0];
    if (token === '') continue;
    out += escapeText(text.slice(last, index));
    out += code(token.startsWith('"') && token.endsWith('"') ? token.slice(1, -1) : token);
    last = index + token.length;
  }
  return out + escapeText(text.slice(last));
}

function formatDefault(value: string): string {
  return /^[^\s(]+$/.test(value) ? code(value) : formatText(value);
}

/** What the loader accepts for `name`, in its own words, or undefined when it does not check the value. */
export function acceptedValues(name: string): string | undefined {
  const group = SETTINGS.find((s) => s.name === name)?.group ?? 'tool';
  // No .env file for the probe: an explicit, empty one.
  const env = { HOME: '/home/user', MADEINOZ_KNOWLEDGE_ENV_FILE: '/dev/null', [name]: PROBE };
  try {
    if (group === 'tool') buildConfig(env);
    else if (group === 'server') readServerSettings(env);
    else workerTimeoutMs(env);
  } catch (error) {
    if (!(error instanceof ConfigError) || error.variable !== name) return undefined;
    const m = /is not [^:]*: use (.*)$/s.exec(error.message);
    if (m === null || m[1] === undefined) return undefined;
    return m[1].replace(/\s*\(value not shown: it may hold a secret\)$/, '').trim();
  }
  return undefined;
}

/** The doc comment of findEnvFile, as markdown (first line as a sentence, numbered lines as a list). */
export function envFileLookupDoc(source: string = readFileSync(new URL('../../src/lib/config/env-file.ts', import.meta.url), 'utf8'), fn = 'findEnvFile'): string {
  const m = new RegExp(`/\\*\\*\\n((?:[ \\t]*\\*.*\\n)+?)[ \\t]*\\*/\\nexport function ${fn}\\b`).exec(source);
  if (m === null || m[1] === undefined) throw new Error(`src/lib/config/env-file.ts: no doc comment found above \`export function ${fn}\``);
  const lines = m[1]
    .split('\n')
    .map((l) => l.replace(/^[ \t]*\* ?/, '').trimEnd())
    .filter((l) => l.trim() !== '');
  const out: string[] = [];
  for (const line of lines) {
    const item = /^\s*(\d+)\.\s+(<[^>]+>\S*?|\S+?)[,.]?(\s.*?)?[,.]?$/.exec(line);
    if (item !== null) out.push(`${item[1]}. ${code(item[2] ?? '')}${formatText(item[3] ?? '')}`);
    else out.push(formatText(line.trim()));
  }
  // A blank line between the lead sentence and the list.
  const firstItem = out.findIndex((l) => /^\d+\. /.test(l));
  if (firstItem > 0) out.splice(firstItem, 0, '');
  return out.join('\n');
}

function table(group: SettingGroup): string[] {
  const inGroup = (s: SettingDoc) => (s.group ?? 'tool') === group;
  const rows = SETTINGS.filter(inGroup).map((s) => {
    const accepted = acceptedValues(s.name);
    const where = s.envOnly === true ? ' Environment only.' : '';
    return `| ${code(s.name)} | ${formatDefault(s.default)} | ${formatText(s.description + where)} | ${accepted === undefined ? '—' : formatText(accepted)} |`;
  });
  return ['| Setting | Default | What it does | Accepted values |', '|---|---|---|---|', ...rows];
}

export function renderConfigurationDoc(): string {
  return [
    '# Configuration',
    '',
    '<!-- Generated from src/lib/config/config.ts by scripts/codegen/gen-config-doc.ts (npx tsx scripts/codegen/gen-config-doc.ts).',
    '     Do not edit by hand: test/docs.test.ts fails when this file is not what the script renders. -->',
    '',
    'Every setting is an environment variable. The same names can be put in one `.env` file;',
    '[`config/.env.example`](../config/.env.example) lists them all, commented out, with their defaults.',
    '',
    '## Where settings are read from',
    '',
    envFileLookupDoc(),
    '',
    envFileLookupDoc(undefined, 'findPaiEnvFile'),
    '',
    'Rules:',
    '',
    '- Precedence, highest first: the environment, then our own `.env` file, then the madeinoz/PAI `.env` file, then the defaults.',
    '- Of our own files only one is read: the first that exists. A `MADEINOZ_KNOWLEDGE_ENV_FILE` that does not exist is an error, not a fall-through. Of the madeinoz/PAI files, too, only the first that exists is read (as the madeinoz sync hook did); `PAI_DIR` and `CLAUDE_CONFIG_DIR` may come from the environment or from our own file.',
    '- A variable set in the environment wins over the same name in either file. A variable set to the empty string counts as unset (the file value, else the default, applies).',
    '- `MADEINOZ_KNOWLEDGE_DATABASE_TYPE` (the madeinoz system\'s name) sets the database only when `MADEINOZ_KNOWLEDGE_DB` is not set anywhere.',
    '- From the files, only the names in the tables below are taken; any other line is ignored. A name that is nearly one of ours (a typo, lower case: `MADEINOZ_KNOWLEDGE_MCP_ULR`), in our own file or the environment, is said by every command with the name meant.',
    '- The local server\'s settings (`OPENAI_*`, `GMS_SERVER_*`) come from the environment and our own `.env` file, never from the madeinoz/PAI one: an `OPENAI_API_KEY` there belongs to the madeinoz system\'s own server. Settings marked "Environment only" are not read from any file.',
    '- The file is parsed with dotenv: `KEY=value`, quotes, `export KEY=value`, `#` comments and multi-line quoted values work. UTF-8 or UTF-16 with its byte order mark (what Windows PowerShell 5 and Notepad\'s "Unicode" save).',
    '- dotenv is not a shell, and two of its rules change a secret silently, so a command says where a line of ours meets them, with the fix (never the value): an unquoted value ends at its first `#` even inside a word (`TOKEN=ab#cd` is read as `ab`; write `TOKEN=\'ab#cd\'`), and inside double quotes a backslash before `"` or `\\` is kept (write the value in single quotes, without backslashes). A `#` after a space starts a comment, as in a shell. `$` is never expanded.',
    '- `HOME`, `XDG_CONFIG_HOME` and `XDG_STATE_HOME` are read from the environment only, to locate the defaults above and below.',
    '- `<package root>` is the folder holding this package\'s `package.json` (your checkout). The plugin\'s hooks live in `<package root>/plugin/hooks/`: installed from a directory marketplace (a checkout) Claude Code runs them in place, so that checkout\'s `config/.env` is found first; installed from a git marketplace they run from a copy under `~/.claude/plugins/cache/`, replaced on every update, with no `config/.env`: keep plugin settings in `~/.config/graphiti-memory-sync/.env`.',
    '',
    '## Settings',
    '',
    '"Accepted values" is what the loader checks when it starts, in its own words; "—" means the value is not checked then (group ids, for example, are checked per file when it is sent, see below).',
    '',
    ...table('tool'),
    '',
    '## Local server',
    '',
    'Read by `graphiti-memory-sync server` (start, run, status, upgrade), which runs a real Graphiti MCP server and FalkorDB as plain processes; sync, the hooks and watch find the running server through its runtime file, with no setting. The Graphiti server needs an LLM: `OPENAI_API_KEY`, or `OPENAI_BASE_URL` with `GMS_SERVER_MODEL`.',
    '',
    ...table('server'),
    '',
    '## Test and development switches',
    '',
    'Read by the hooks and the background worker; meant for tests and for diagnosing a machine.',
    '',
    ...table('developer'),
    '',
    '## Value rules',
    '',
    '- Booleans: `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off` (any case).',
    '- Numbers: whole numbers in the range shown. Durations are in milliseconds.',
    '- Paths: absolute, or starting with `~/`.',
    '- `MADEINOZ_KNOWLEDGE_TRANSPORT` also accepts `http` for `streamable-http`; `MADEINOZ_KNOWLEDGE_DB` accepts the legacy misspelling `falkorodb` with a warning.',
    '- `MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET` is further capped at 9,000 characters by the hook, so that the JSON line Claude Code receives stays under its 10,000-character limit.',
    '- Group ids (`MADEINOZ_KNOWLEDGE_GROUP_ID`, the groups in `MADEINOZ_KNOWLEDGE_SOURCE_GROUPS`, a file\'s own `group_id` frontmatter): at most 128 characters.',
    '  - `neo4j`: must match `^[A-Za-z0-9_-]+$`; it is checked, never rewritten. A file whose group does not match fails with the reason `group-id`.',
    '  - `falkordb`: every character outside `[A-Za-z0-9_]` becomes `_` (`my-project` is sent as `my_project`), because a hyphen breaks FalkorDB\'s fulltext filter inside Graphiti. An id with no letter or digit left (such as `_`) is refused.',
    '  - `{project}` (in `MADEINOZ_KNOWLEDGE_SOURCE_GROUPS`) derives one group per Claude Code project from its folder name: lower case, runs of other characters become `-` (neo4j) or `_` (falkordb), at most 64 characters.',
    '- An invalid value stops every command with exit code 2 and a message that names the variable, the value (never for `MADEINOZ_KNOWLEDGE_HEADERS` or `MADEINOZ_KNOWLEDGE_AUTH_TOKEN`, which hold secrets; a URL without its user and password) and what is allowed, for example:',
    '',
    '  ```text',
    '  Configuration error: MADEINOZ_KNOWLEDGE_TIMEOUT="soon" is not allowed: use a whole number from 100 to 3600000',
    '  ```',
    '',
    '  The hooks cannot print errors; they log them and, once per distinct error, add a one-line note to the session (see [troubleshooting](troubleshooting.md#misconfiguration)).',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('../../docs/configuration.md', import.meta.url), renderConfigurationDoc());
}

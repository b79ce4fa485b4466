/**
 * Reading a settings file: dotenv's parser (quotes, `export`, comments, multi-line values), our
 * names only, and a file that cannot be read is a ConfigError naming it. The tool's settings
 * (config.ts) and the local server's (server-settings.ts) both read their files through here.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { ConfigError } from './env-file.js';

/** The non-empty values in `file` of the names `wanted` accepts. */
export function readSettingsFile(file: string, wanted: (name: string) => boolean): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read settings file ${file}: ${(error as Error).message}; make it a file you can read (chmod 600 ${file}), or set MADEINOZ_KNOWLEDGE_ENV_FILE to another one`);
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parse(text))) if (value !== '' && wanted(name)) out[name] = value;
  return out;
}

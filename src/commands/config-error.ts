/**
 * A configuration error names the variable (config.ts does) AND where its value came from: the
 * environment, our settings file or the madeinoz `.env` below it, in the order loadConfig reads
 * them (the environment wins), so the user knows which line to edit.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { findEnvFile, findPaiEnvFile } from '../lib/config/env-file.js';

type Env = Record<string, string | undefined>;

function definesIn(file: string | undefined, variable: string): boolean {
  if (file === undefined) return false;
  try {
    const value = parse(readFileSync(file, 'utf8'))[variable];
    return value !== undefined && value !== '';
  } catch {
    return false;
  }
}

function safely(find: () => string | undefined): string | undefined {
  try {
    return find();
  } catch {
    return undefined;
  }
}

/** Where `variable` is set, as loadConfig would take it: "the environment" or a file path; undefined when unknown. */
export function whereSet(variable: string, env: Env): string | undefined {
  const fromEnv = env[variable];
  if (fromEnv !== undefined && fromEnv !== '') return 'the environment';
  const ours = safely(() => findEnvFile(env));
  if (definesIn(ours, variable)) return ours;
  const pai = safely(() => findPaiEnvFile(env));
  if (definesIn(pai, variable)) return pai;
  return undefined;
}

/** The CLI's line for a ConfigError: the message (variable, value, what is allowed) and where to fix it. */
export function configErrorMessage(message: string, variable: string | undefined, env: Env): string {
  const where = variable === undefined ? undefined : whereSet(variable, env);
  if (where === undefined) return `Configuration error: ${message}`;
  const fix = where === 'the environment' ? `${variable} is set in the environment: change or unset it (export ${variable}=…)` : `${variable} is set in ${where}: edit that line`;
  return `Configuration error: ${message}\n  ${fix}`;
}

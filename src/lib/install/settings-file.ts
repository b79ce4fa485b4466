/**
 * Reading and writing a settings file as the user left it: refuse what is not a JSON object
 * (nothing is written), keep a byte-order mark and the trailing newline, show a change as a diff.
 */
import { readFileSync, statSync } from 'node:fs';
import { InstallError, isObject, refusedFile, type JsonObject } from './types.js';

export interface ParsedFile {
  existed: boolean;
  text: string;
  value: JsonObject;
  bom: boolean;
  mode: number | undefined;
}

export function readJsonObject(file: string): ParsedFile {
  let text: string;
  let mode: number | undefined;
  try {
    text = readFileSync(file, 'utf8');
    mode = statSync(file).mode & 0o777;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { existed: false, text: '', value: {}, bom: false, mode: undefined };
    throw new InstallError(`Cannot read ${file}: ${(error as Error).message}`, file);
  }
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  if (body.trim() === '') return { existed: true, text, value: {}, bom, mode };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new InstallError(
      refusedFile(file, `it is not valid JSON (${(error as Error).message}); comments and trailing commas are not JSON`),
      file,
    );
  }
  if (!isObject(value)) throw new InstallError(refusedFile(file, 'the top level is not a JSON object'), file);
  return { existed: true, text, value, bom, mode };
}

export function serialize(value: JsonObject, original: ParsedFile): string {
  const trailingNewline = !original.existed || original.text.trim() === '' || /\n\s*$/.test(original.text);
  const json = JSON.stringify(value, null, 2);
  return `${original.bom ? '\uFEFF' : ''}${json}${trailingNewline ? '\n' : ''}`;
}

/** A compact line diff (common prefix/suffix trimmed; the middle shown as -/+). */
export function lineDiff(before: string, after: string): string {
  if (before === after) return '';
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  const out = [`@@ line ${start + 1} @@`];
  for (const l of a.slice(Math.max(0, start - 2), start)) out.push(`  ${l}`);
  for (const l of a.slice(start, endA + 1)) out.push(`- ${l}`);
  for (const l of b.slice(start, endB + 1)) out.push(`+ ${l}`);
  for (const l of a.slice(endA + 1, endA + 3)) out.push(`  ${l}`);
  return out.join('\n');
}

/** The JSON object a remembered text holds ('' is {}), or undefined when it is not one. */
export function parseRemembered(text: string): JsonObject | undefined {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Claude Code's memory index (`MEMORY.md` in the memory folder): one line per topic file,
 * `- [Title](file.md) — one-line hook`, loaded into every session (the topic files themselves only
 * when the model reads them: ../shared/reference/claude-code-hooks.md). A pulled note gets its
 * line there, so a session on this machine knows it exists; a note pull removes loses its line.
 * Lines the user or Claude Code wrote are never changed: a note already listed is left as listed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/fs-atomic.js';

export const INDEX_FILE = 'MEMORY.md';

function linkTarget(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

function lists(line: string, path: string): boolean {
  return line.includes(`](${path})`) || line.includes(`](${linkTarget(path)})`) || line.includes(`](./${path})`);
}

async function readIndex(memoryDir: string): Promise<string> {
  try {
    return await readFile(join(memoryDir, INDEX_FILE), 'utf8');
  } catch {
    return '';
  }
}

/** Adds `- [title](path) — description` unless the index lists the path already. */
export async function indexNote(memoryDir: string, path: string, title: string, description: string | undefined): Promise<boolean> {
  const text = await readIndex(memoryDir);
  if (text.split('\n').some((l) => lists(l, path))) return false;
  const hook = description === undefined || description.trim() === '' ? '' : ` — ${oneLine(description, 120)}`;
  const line = `- [${oneLine(title, 80)}](${linkTarget(path)})${hook}`;
  const next = text === '' ? `${line}\n` : `${text.replace(/\n*$/, '\n')}${line}\n`;
  await writeFileAtomic(join(memoryDir, INDEX_FILE), next, { mode: 0o600, mkdirMode: 0o700 });
  return true;
}

/** Removes the lines that list `path` (a note pull removed). */
export async function unindexNote(memoryDir: string, path: string): Promise<boolean> {
  const text = await readIndex(memoryDir);
  const lines = text.split('\n');
  const kept = lines.filter((l) => !lists(l, path));
  if (kept.length === lines.length) return false;
  await writeFileAtomic(join(memoryDir, INDEX_FILE), kept.join('\n'), { mode: 0o600 });
  return true;
}

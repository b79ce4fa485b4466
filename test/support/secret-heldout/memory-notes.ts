/**
 * The public memory notes (dev-memory-notes.json, built by extract-dev-memory-notes.ts, labelled by rule P1): memory
 * files people and their coding agents keep in public repositories, each sample one memory note. Both halves are dev
 * data; the check half is counted only when asked (dev-eval.ts `--check-memory`, the bench), never shown line by line.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PublicRow, PublicSplit } from './extract-dev-public-notes.js';
import type { MemoryFileKind, MemoryNoteSample } from './extract-dev-memory-notes.js';

interface MemoryNotesData { samples: MemoryNoteSample[] }

let cached: MemoryNoteSample[] | undefined;
const all = (): MemoryNoteSample[] =>
  (cached ??= (JSON.parse(readFileSync(fileURLToPath(new URL('./dev-memory-notes.json', import.meta.url)), 'utf8')) as MemoryNotesData).samples);

/** A benign memory note: its text is the note, `row` says whether it mentions a credential word (or is the control row). */
export interface MemoryBenignNote { note: string; repo: string; kind: MemoryFileKind; row: PublicRow }
/** A memory note rule P1 makes a secret: every value must be gone after redaction. */
export interface MemorySecretNote { note: string; repo: string; kind: MemoryFileKind; secrets: string[] }

export function memoryBenignNotes(split: PublicSplit): MemoryBenignNote[] {
  return all()
    .filter((s) => s.split === split && s.label.label === 'benign')
    .map((s) => ({ note: s.text, repo: s.repo, kind: s.kind, row: s.row }));
}

export function memorySecretNotes(split: PublicSplit): MemorySecretNote[] {
  return all()
    .filter((s) => s.split === split && s.label.label === 'secret')
    .map((s) => ({ note: s.text, repo: s.repo, kind: s.kind, secrets: s.label.label === 'secret' ? s.label.values : [] }));
}

/** The memory-file kinds, in the order the bench and dev-eval.ts print them. */
export const MEMORY_FILE_KINDS: readonly MemoryFileKind[] = ['MEMORY.md', 'memory/', 'memory-bank/', 'CLAUDE.md'];

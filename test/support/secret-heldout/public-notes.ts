/**
 * The public agent notes (dev-public-notes.json, built by extract-dev-public-notes.ts, labelled by rule P1):
 * text people wrote for coding agents in public repositories, each sample one memory note. Both halves
 * are dev data; the check half is counted only when asked (dev-eval.ts `--check-public`, the bench), never
 * shown line by line.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentFileKind, PublicNoteSample, PublicRow, PublicSplit } from './extract-dev-public-notes.js';

interface PublicNotesData { samples: PublicNoteSample[] }

let cached: PublicNoteSample[] | undefined;
const all = (): PublicNoteSample[] =>
  (cached ??= (JSON.parse(readFileSync(fileURLToPath(new URL('./dev-public-notes.json', import.meta.url)), 'utf8')) as PublicNotesData).samples);

/** A benign public note: its text is the note, `row` says whether it mentions a credential word (or is the control row). */
export interface PublicBenignNote { note: string; repo: string; kind: AgentFileKind; row: PublicRow }
/** A public note rule P1 makes a secret: every value must be gone after redaction. */
export interface PublicSecretNote { note: string; repo: string; kind: AgentFileKind; secrets: string[] }

export function publicBenignNotes(split: PublicSplit): PublicBenignNote[] {
  return all()
    .filter((s) => s.split === split && s.label.label === 'benign')
    .map((s) => ({ note: s.text, repo: s.repo, kind: s.kind, row: s.row }));
}

export function publicSecretNotes(split: PublicSplit): PublicSecretNote[] {
  return all()
    .filter((s) => s.split === split && s.label.label === 'secret')
    .map((s) => ({ note: s.text, repo: s.repo, kind: s.kind, secrets: s.label.label === 'secret' ? s.label.values : [] }));
}

/** The agent-file kinds, in the order the bench and dev-eval.ts print them. */
export const AGENT_FILE_KINDS: readonly AgentFileKind[] = ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', '.cursorrules', 'copilot-instructions', '.claude/'];

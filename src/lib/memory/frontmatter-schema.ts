/**
 * The frontmatter fields we understand, and how loosely we read them.
 *
 * Memory files are written by several tools and by hand, so every known field is
 * validated on its own: a wrong type drops that field with a warning naming it and
 * why, and never the whole file. Values written as text where a number or boolean is
 * expected (`rating: "7.5"`, `sync: "false"`) are accepted, because hand-edited YAML
 * quotes things. Unknown keys are kept as they are (see `extra`).
 *
 * zod/v3 is used (not zod 4 classic) for its much cheaper import on the hook path.
 */
import { z } from 'zod/v3';

export type AutoMemoryType = 'user' | 'feedback' | 'project' | 'reference';

/** Typed known fields. Text fields are trimmed; empty text counts as absent. */
export interface MemoryFrontmatter {
  // generic
  title?: string;
  date?: string;
  created?: string;
  group_id?: string;
  sync?: boolean;
  private?: boolean;
  tags?: string[];
  // Claude Code auto memory
  name?: string;
  description?: string;
  /** Usually one of AutoMemoryType; other words are kept as written. */
  type?: string;
  metadata?: { type?: string; pinned?: boolean };
  pinned?: boolean;
  modified?: string;
  // PAI
  capture_type?: string;
  /** As written (e.g. `2026-01-04 10:30:00 PST`); the parsed time is `MemoryDocument.time`. */
  timestamp?: string;
  rating?: number;
  source?: 'explicit' | 'implicit';
  auto_captured?: boolean;
  session_id?: string;
  executor?: string;
  agent_completion?: string;
}

/** Renders a YAML scalar as text: dates as ISO (date-only when at midnight UTC). */
export function scalarText(value: string | number | boolean | Date): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
  }
  return String(value);
}

const scalar = z.union([z.string(), z.number().finite(), z.boolean(), z.date()]);

/** Any scalar, as trimmed text. */
const text = scalar.transform((v) => scalarText(v).trim());

const numericText = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:\s*\/\s*10)?$/;
const rating = z.union([
  z.number().finite(),
  z
    .string()
    .trim()
    .regex(numericText, 'expected a number such as 7 or "7.5"')
    .transform((s) => Number(s.replace(/\s*\/\s*10$/, ''))),
]);

const BOOL_WORDS: Record<string, boolean> = { true: true, yes: true, on: true, '1': true, false: false, no: false, off: false, '0': false };
const bool = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((s) => s in BOOL_WORDS, 'expected true or false')
    .transform((s) => BOOL_WORDS[s] === true),
  z
    .number()
    .refine((n) => n === 0 || n === 1, 'expected true or false')
    .transform((n) => n === 1),
]);

const source = z
  .string()
  .trim()
  .toLowerCase()
  .refine((s): s is 'explicit' | 'implicit' => s === 'explicit' || s === 'implicit', 'expected explicit or implicit')
  .transform((s) => s as 'explicit' | 'implicit');

/** A time as written: text or a YAML date; parsing to ISO happens separately (with its own warnings). */
const timeText = z.union([z.string(), z.date(), z.number().finite()]).transform((v) => scalarText(v).trim());

/** How each known top-level key is read, and what to say when it cannot be. */
export const FIELD_SCHEMAS = {
  title: { schema: text, expected: 'text' },
  date: { schema: timeText, expected: 'a date' },
  created: { schema: timeText, expected: 'a date' },
  group_id: { schema: text, expected: 'text' },
  sync: { schema: bool, expected: 'true or false' },
  private: { schema: bool, expected: 'true or false' },
  name: { schema: text, expected: 'text' },
  description: { schema: text, expected: 'text' },
  type: { schema: text, expected: 'text' },
  pinned: { schema: bool, expected: 'true or false' },
  modified: { schema: timeText, expected: 'a date' },
  capture_type: { schema: text, expected: 'text' },
  timestamp: { schema: timeText, expected: 'a date/time' },
  rating: { schema: rating, expected: 'a number' },
  source: { schema: source, expected: 'explicit or implicit' },
  auto_captured: { schema: bool, expected: 'true or false' },
  session_id: { schema: text, expected: 'text' },
  executor: { schema: text, expected: 'text' },
  agent_completion: { schema: text, expected: 'text' },
} as const;

export type ScalarField = keyof typeof FIELD_SCHEMAS;

export const METADATA_SCHEMAS = {
  type: { schema: text, expected: 'text' },
  pinned: { schema: bool, expected: 'true or false' },
} as const;

/** Short description of a value's type for warnings (never the value itself: it may be a secret). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'text';
  return `a ${typeof value}`;
}

export interface FieldResult<T> {
  ok: boolean;
  value?: T;
  /** Why the value was rejected (no value content, only its type or the rule). */
  problem?: string;
}

/** Validates one field; the problem names the expectation and what was found. */
export function readField(schema: z.ZodTypeAny, expected: string, value: unknown): FieldResult<unknown> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data as unknown };
  // For text input that failed a rule, the rule's message is the useful part.
  const custom = result.error.issues.flatMap((i) => (i.code === 'invalid_union' ? i.unionErrors.flatMap((e) => e.issues) : [i])).find((i) => i.code === 'custom' || i.code === 'invalid_string');
  return { ok: false, problem: custom !== undefined && typeof value === 'string' ? custom.message : `expected ${expected}, got ${describeType(value)}` };
}

/**
 * Tags: a flow or block list (`[a, b]` / `- a`), or one text with commas (`a, b`).
 * Items are trimmed, a leading `#` removed, duplicates and empties dropped; items that
 * are not scalars are dropped with a problem note.
 */
export function readTags(value: unknown): { tags: string[]; problems: string[] } {
  const problems: string[] = [];
  let items: unknown[];
  if (typeof value === 'string') items = value.split(',');
  else if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) {
    // Probably a single tag written without a list (`tags: 2026`): kept, but flagged.
    items = [value];
    problems.push(`expected a list or comma-separated text, got ${describeType(value)}; read as one tag`);
  }
  else if (Array.isArray(value)) items = value;
  else return { tags: [], problems: [`expected a list or comma-separated text, got ${describeType(value)}`] };
  const tags: string[] = [];
  let dropped = 0;
  for (const item of items) {
    const parsed = scalar.safeParse(item);
    if (!parsed.success) {
      dropped += 1;
      continue;
    }
    const t = scalarText(parsed.data).trim().replace(/^#+/, '').trim();
    if (t !== '' && !tags.includes(t)) tags.push(t);
  }
  if (dropped > 0) problems.push(`${dropped} item(s) that are not text were left out`);
  return { tags, problems };
}

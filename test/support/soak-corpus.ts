/**
 * The memory corpus of the soak and crash-loop runs, and its model.
 *
 * Files look like the real thing: PAI captures under MEMORY/LEARNING/<kind>/YYYY-MM/ and
 * MEMORY/RESEARCH/, FAILURES' `<ts>_<desc>/CONTEXT.md`, and Claude Code auto-memory topic
 * files under projects/<key>/memory/ (with the MEMORY.md index, which is never synced).
 * Sizes range from a few hundred bytes to ~20 KB, so with a small
 * MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS some files split into several parts. Some files
 * carry planted secrets (AWS key id, GitHub token, a postgres URL with a password) in the
 * body, the description or the title; some are opt-out (`private: true`) or empty.
 *
 * Every version of every file carries a unique check line at its start and its end
 * (`Soak-check: SOAK-<n>-v<version>-<random>`), so the verifier can tell the current version
 * from any earlier one on the server without trusting the engine's own episode builder.
 *
 * Everything is deterministic from the seed (mulberry32, ./prng.ts), except file mtimes.
 *
 * Over 300 lines: the file generator and its model of what each file must produce are one
 * thing; apart, every change of one would have to be mirrored in the other.
 */
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mulberry32 } from './prng.js';

export type SoakSource = 'pai' | 'auto-memory';
export type FileKind = 'normal' | 'private' | 'empty';

export interface SoakFile {
  /** Number of the file (stable across edits and renames). */
  n: number;
  source: SoakSource;
  /** Relative to the source root (MEMORY/ for pai, projects/ for auto-memory). */
  relPath: string;
  /** Auto memory: the project key (folder name). */
  project?: string;
  version: number;
  kind: FileKind;
  live: boolean;
  /** The check token of the current version ('' for empty files). */
  token: string;
  /** Tokens of every version ever written (the current one included). */
  tokens: string[];
  /** Paths this file had before renames (relPath, same source). */
  formerRelPaths: string[];
  /** Planted secrets of the current version. */
  secrets: string[];
  /** Current content as written. */
  content: string;
}

export interface CorpusOptions {
  root: string;
  seed: number;
  /** Files with a given share of auto-memory (default 0.4). */
  autoShare?: number;
  /** Share of files with planted secrets (default 0.12). */
  secretShare?: number;
  /** Number of auto-memory projects (default 6). */
  projects?: number;
}

const WORDS = (
  'graph episode memory capture learning research failure node edge fact session hook worker lock state journal ' +
  'snapshot queue server client retry backoff deadline timeout socket stream event marker confirm adopt drop resend ' +
  'postgres fastify redis docker compose deploy staging production review refactor migration schema index cache ' +
  'latency throughput budget token context project decision feedback reference user preference workflow pipeline'
).split(' ');

const PAI_KINDS = ['SYSTEM', 'ALGORITHM', 'DEBUGGING', 'PATTERNS'];
const AUTO_TYPES = ['feedback', 'project', 'user', 'reference'];

export class SoakCorpus {
  readonly files: SoakFile[] = [];
  /** Every secret ever planted (also in versions since edited away: they must never reach the server either). */
  readonly allSecrets = new Set<string>();
  readonly rng: () => number;
  private readonly autoShare: number;
  private readonly secretShare: number;
  private readonly projectKeys: string[];
  private next = 0;
  private mtimeBump = 0;

  constructor(private readonly options: CorpusOptions) {
    this.rng = mulberry32(options.seed);
    this.autoShare = options.autoShare ?? 0.4;
    this.secretShare = options.secretShare ?? 0.12;
    this.projectKeys = Array.from({ length: options.projects ?? 6 }, (_, i) => `-home-soak-code-project-${String.fromCharCode(97 + i)}${i}`);
  }

  get paiRoot(): string {
    return join(this.options.root, 'pai', 'MEMORY');
  }

  get autoRoot(): string {
    return join(this.options.root, 'claude', 'projects');
  }

  abs(file: Pick<SoakFile, 'source' | 'relPath'>): string {
    return join(file.source === 'pai' ? this.paiRoot : this.autoRoot, file.relPath);
  }

  live(): SoakFile[] {
    return this.files.filter((f) => f.live);
  }

  deleted(): SoakFile[] {
    return this.files.filter((f) => !f.live);
  }

  // ---------------------------------------------------------------- random helpers

  int(min: number, max: number): number {
    return min + Math.floor(this.rng() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rng() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.rng() < p;
  }

  private hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(this.rng() * 16)];
    return s;
  }

  private alnum(n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.rng() * alphabet.length)];
    return s;
  }

  private words(n: number): string {
    return Array.from({ length: n }, () => this.pick(WORDS)).join(' ');
  }

  private sentence(): string {
    const s = this.words(this.int(6, 16));
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  }

  private paragraph(): string {
    return Array.from({ length: this.int(2, 6) }, () => this.sentence()).join(' ');
  }

  /** A target body size in bytes: mostly small, some medium, a few large (split into parts). */
  private bodySize(): number {
    const r = this.rng();
    if (r < 0.65) return this.int(250, 2000);
    if (r < 0.88) return this.int(2000, 6000);
    return this.int(6000, 20_000);
  }

  // ---------------------------------------------------------------- secrets

  /** `secret`: what must never leave the machine; `inline`: the secret in a form that says what it is (a bare password does not); `line`: a sentence around it. */
  private newSecrets(count: number): Array<{ secret: string; inline: string; line: string }> {
    const out: Array<{ secret: string; inline: string; line: string }> = [];
    for (let i = 0; i < count; i++) {
      const kind = this.int(0, 2);
      if (kind === 0) {
        const key = `AKIA${this.alnum(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`;
        out.push({ secret: key, inline: key, line: `The staging deploy used AWS access key ${key} until we rotated it.` });
      } else if (kind === 1) {
        const token = `ghp_${this.alnum(36)}`;
        out.push({ secret: token, inline: token, line: `export GITHUB_TOKEN=${token}` });
      } else {
        const password = `Pw${this.alnum(18)}9`;
        const url = `postgres://app_user:${password}@db.internal.example:5432/app_db`;
        out.push({ secret: password, inline: url, line: `Connect with ${url} for the replica.` });
      }
    }
    for (const s of out) this.allSecrets.add(s.secret);
    return out;
  }

  // ---------------------------------------------------------------- content

  private render(file: SoakFile, size: number): { content: string; token: string; secrets: string[] } {
    if (file.kind === 'empty') return { content: '', token: '', secrets: [] };
    const token = `SOAK-${file.n}-v${file.version}-${this.hex(8)}`;
    const planted = this.chance(this.secretShare) ? this.newSecrets(this.int(1, 3)) : [];
    const secretLines = planted.map((p) => p.line);
    // One secret may go into the description or the title instead of the body.
    let descriptionSecret = '';
    let titleSecret = '';
    if (secretLines.length > 0 && this.chance(0.3)) descriptionSecret = ` (${secretLines.shift() as string})`;
    else if (secretLines.length > 0 && this.chance(0.2)) titleSecret = ` ${planted[0]?.inline ?? ''}`;
    if (titleSecret !== '') secretLines.shift();

    const paragraphs: string[] = [];
    let length = 0;
    let section = 1;
    while (length < size) {
      if (paragraphs.length > 0 && this.chance(0.25)) paragraphs.push(`## Section ${section++}: ${this.words(3)}`);
      const p = this.paragraph();
      paragraphs.push(p);
      length += p.length + 2;
    }
    for (const line of secretLines) paragraphs.splice(this.int(0, paragraphs.length), 0, line);
    const body = [`Soak-check: ${token}`, '', ...paragraphs.flatMap((p) => [p, '']), `Soak-check-end: ${token}`].join('\n');
    const title = `Soak note ${file.n} ${this.words(3)}${titleSecret}`;
    let frontmatter: string;
    if (file.source === 'pai') {
      frontmatter = [
        '---',
        'capture_type: LEARNING',
        `timestamp: 2026-01-${String(1 + (file.n % 28)).padStart(2, '0')} 10:${String(file.n % 60).padStart(2, '0')}:00 PST`,
        `tags: [soak, ${this.pick(WORDS)}]`,
        ...(descriptionSecret === '' ? [] : [`description: "Notes on ${this.words(4)}${descriptionSecret.replace(/"/g, '')}"`]),
        ...(file.kind === 'private' ? ['private: true'] : []),
        '---',
      ].join('\n');
    } else {
      frontmatter = [
        '---',
        `name: soak-note-${file.n}`,
        `description: "Soak memory ${file.n} about ${this.words(4)}${descriptionSecret.replace(/"/g, '')}"`,
        `type: ${this.pick(AUTO_TYPES)}`,
        ...(file.kind === 'private' ? ['private: true'] : []),
        '---',
      ].join('\n');
    }
    return { content: `${frontmatter}\n# ${title}\n\n${body}\n`, token, secrets: planted.map((p) => p.secret) };
  }

  private pathFor(n: number, source: SoakSource, project?: string): string {
    if (source === 'auto-memory') return `${project}/memory/${this.pick(AUTO_TYPES)}_soak_${n}_${this.hex(4)}.md`;
    const r = this.rng();
    if (r < 0.1) return `LEARNING/FAILURES/2026-01-${String(1 + (n % 28)).padStart(2, '0')}-101500_soak-failure-${n}/CONTEXT.md`;
    if (r < 0.3) return `RESEARCH/2026-01/soak-research-${n}-${this.hex(4)}.md`;
    return `LEARNING/${this.pick(PAI_KINDS)}/2026-01/soak-${n}-${this.hex(4)}.md`;
  }

  // ---------------------------------------------------------------- writing

  /** Writes a file (atomically via a dot-named temp + rename, or in place) with a fresh, distinct mtime. */
  private write(path: string, content: string, atomic: boolean): void {
    mkdirSync(dirname(path), { recursive: true });
    if (atomic) {
      const tmp = join(dirname(path), `.soak-${this.hex(6)}.tmp`);
      writeFileSync(tmp, content);
      renameSync(tmp, path);
    } else {
      writeFileSync(path, content);
    }
    // Distinct mtimes even within one clock tick, so the mtime+size shortcut sees every edit.
    const t = Date.now() / 1000 + ++this.mtimeBump / 1000;
    try {
      utimesSync(path, t, t);
    } catch {
      // raced with a delete: fine
    }
  }

  /** Creates a new file; `kind` defaults to mostly normal, ~2% private, ~1% empty. */
  create(options: { kind?: FileKind; source?: SoakSource; atomic?: boolean } = {}): SoakFile {
    const n = this.next++;
    const source: SoakSource = options.source ?? (this.chance(this.autoShare) ? 'auto-memory' : 'pai');
    const project = source === 'auto-memory' ? this.pick(this.projectKeys) : undefined;
    const r = this.rng();
    const kind: FileKind = options.kind ?? (r < 0.02 ? 'private' : r < 0.03 ? 'empty' : 'normal');
    const file: SoakFile = {
      n,
      source,
      relPath: this.pathFor(n, source, project),
      ...(project === undefined ? {} : { project }),
      version: 1,
      kind,
      live: true,
      token: '',
      tokens: [],
      formerRelPaths: [],
      secrets: [],
      content: '',
    };
    const rendered = this.render(file, this.bodySize());
    Object.assign(file, { content: rendered.content, token: rendered.token, secrets: rendered.secrets });
    if (rendered.token !== '') file.tokens.push(rendered.token);
    this.write(this.abs(file), file.content, options.atomic ?? this.chance(0.5));
    this.files.push(file);
    if (source === 'auto-memory') this.writeIndex(project as string);
    return file;
  }

  /** A new version (new token, maybe a different size; sometimes switched to or from private). */
  edit(file: SoakFile, options: { kind?: FileKind; atomic?: boolean } = {}): void {
    if (!file.live) throw new Error(`edit of deleted file ${file.n}`);
    file.version++;
    if (options.kind !== undefined) file.kind = options.kind;
    else if (file.kind === 'normal' && this.chance(0.04)) file.kind = 'private';
    else if (file.kind !== 'normal' && this.chance(0.5)) file.kind = 'normal';
    const rendered = this.render(file, this.bodySize());
    Object.assign(file, { content: rendered.content, token: rendered.token, secrets: rendered.secrets });
    if (rendered.token !== '') file.tokens.push(rendered.token);
    this.write(this.abs(file), file.content, options.atomic ?? this.chance(0.5));
  }

  /** Same content, new mtime. */
  touch(file: SoakFile): void {
    const t = Date.now() / 1000 + ++this.mtimeBump / 1000;
    utimesSync(this.abs(file), t, t);
  }

  remove(file: SoakFile): void {
    rmSync(this.abs(file), { force: true });
    file.live = false;
  }

  /** Moves the file to a new name in the same folder (content unchanged). */
  rename(file: SoakFile): void {
    const from = this.abs(file);
    const slash = file.relPath.lastIndexOf('/');
    const base = file.relPath.endsWith('/CONTEXT.md') ? file.relPath.slice(0, file.relPath.lastIndexOf('/', slash - 1) + 1) : file.relPath.slice(0, slash + 1);
    const to = file.relPath.endsWith('/CONTEXT.md') ? `${base}2026-01-02-101500_soak-renamed-${file.n}-${this.hex(4)}/CONTEXT.md` : `${base}renamed_${file.n}_${this.hex(4)}.md`;
    file.formerRelPaths.push(file.relPath);
    file.relPath = to;
    mkdirSync(dirname(this.abs(file)), { recursive: true });
    renameSync(from, this.abs(file));
  }

  /** The index Claude Code keeps next to topic files (never synced: a realistic bystander). */
  private writeIndex(project: string): void {
    const lines = this.files
      .filter((f) => f.live && f.project === project)
      .map((f) => `- [Soak ${f.n}](${f.relPath.split('/').pop() ?? ''}) — soak note`)
      .slice(0, 200);
    const path = join(this.autoRoot, project, 'memory', 'MEMORY.md');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${lines.join('\n')}\n`);
  }

  /** One random mutation for the chaos phase; returns what was done. */
  mutate(): string {
    const live = this.live();
    const r = this.rng();
    if (live.length === 0 || r < 0.12) {
      const f = this.create();
      return `create ${f.n}`;
    }
    const file = this.pick(live);
    if (r < 0.62) {
      this.edit(file);
      // Sometimes a second save right after the first (editor autosave).
      if (this.chance(0.15)) this.edit(file, { atomic: false });
      return `edit ${file.n}`;
    }
    if (r < 0.77) {
      this.remove(file);
      return `delete ${file.n}`;
    }
    if (r < 0.87) {
      this.rename(file);
      return `rename ${file.n}`;
    }
    this.touch(file);
    return `touch ${file.n}`;
  }

  /** Size of the current version on disk (for reporting). */
  size(file: SoakFile): number {
    try {
      return statSync(this.abs(file)).size;
    } catch {
      return 0;
    }
  }
}

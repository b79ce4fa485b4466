/**
 * The dependency order of src/lib, as docs/architecture.md's "Folders" table writes it down:
 * every import (type-only imports included) from one folder into another must be allowed by the
 * importing folder's row. A new folder must get a row; no module lives directly in src/lib.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LIB = join(REPO, 'src', 'lib');

/** Folder → the folders it may import, from the table in docs/architecture.md. */
function allowedImports(): Map<string, Set<string>> {
  const doc = readFileSync(join(REPO, 'docs', 'architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Folders'), doc.indexOf('## ', doc.indexOf('## Folders') + 3));
  const rows = new Map<string, Set<string>>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`([a-z-]+)\/`$/.exec(cells[1] ?? '')?.[1];
    if (folder === undefined) continue;
    rows.set(folder, new Set([...(cells[3] ?? '').matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1] as string)));
  }
  return rows;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative specifiers of every import, export-from and dynamic import() in a file. */
function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const specs = [...src.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]/g), ...src.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)];
  return specs.map((m) => m[1] as string);
}

const folderOf = (file: string): string | undefined => {
  const rel = relative(LIB, file);
  return rel.startsWith('..') || !rel.includes('/') ? undefined : rel.split('/')[0];
};

describe('dependency order of src/lib (docs/architecture.md, "Folders")', () => {
  const allowed = allowedImports();

  it('the table names every folder, and only folders hold modules', () => {
    const folders = readdirSync(LIB).filter((n) => statSync(join(LIB, n)).isDirectory()).sort();
    expect([...allowed.keys()].sort()).toEqual(folders);
    expect(readdirSync(LIB).filter((n) => n.endsWith('.ts'))).toEqual([]);
    for (const targets of allowed.values()) for (const t of targets) expect(folders).toContain(t);
  });

  it('every import between folders is allowed by the importing folder\'s row', () => {
    const violations: string[] = [];
    for (const file of tsFiles(LIB)) {
      const from = folderOf(file) as string;
      for (const spec of importsOf(file)) {
        const to = folderOf(resolve(dirname(file), spec));
        if (to === undefined) {
          violations.push(`${relative(REPO, file)} imports ${spec}, outside src/lib`);
        } else if (to !== from && !allowed.get(from)?.has(to)) {
          violations.push(`${relative(REPO, file)} (${from}/) imports ${spec} (${to}/)`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('the order has no cycle', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycle: string[] = [];
    const visit = (folder: string, path: string[]) => {
      if (done.has(folder)) return;
      if (visiting.has(folder)) {
        cycle.push([...path, folder].join(' → '));
        return;
      }
      visiting.add(folder);
      for (const next of allowed.get(folder) ?? []) visit(next, [...path, folder]);
      visiting.delete(folder);
      done.add(folder);
    };
    for (const folder of allowed.keys()) visit(folder, []);
    expect(cycle).toEqual([]);
  });

  it('catches a forbidden import (the check itself can fail)', () => {
    // memory/ may not import sync/: a line like this in memory/ would be reported.
    expect(allowed.get('memory')?.has('sync')).toBe(false);
    expect(importsOf(join(LIB, 'sync', 'sync.ts')).some((s) => folderOf(resolve(join(LIB, 'sync'), s)) === 'memory')).toBe(true);
  });
});

/**
 * One owner per rule (issue 25): each rule below is written once, in its owner; a second copy
 * anywhere else in src/ fails here. The patterns match the code shapes the copies had
 * (temp-then-rename, kill(pid, 0), a random jitter or a growing delay, the XDG state folder).
 * Comments are ignored; strings are not (a default written in a docs string is not code, so the
 * patterns are chosen not to match prose).
 */
const SRC = join(REPO, 'src');

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

interface OwnedRule {
  rule: string;
  owner: string[];
  pattern: RegExp;
  /** A line that breaks the rule, to prove the pattern can fail. */
  sample: string;
}

export const OWNED_RULES: OwnedRule[] = [
  {
    rule: 'atomic file write (temp file, then rename over the target)',
    owner: ['src/lib/util/fs-atomic.ts'],
    pattern: /\brename(?:Sync)?\(\s*[^,()]*(?:tmp|temp)/i,
    sample: "renameSync(`${file}.tmp`, file);",
  },
  {
    rule: 'whether a process is alive (kill(pid, 0), zombies excluded)',
    owner: ['src/lib/util/process-alive.ts'],
    pattern: /\bkill\(\s*[^,()]+,\s*0\s*\)/,
    sample: 'process.kill(pid, 0);',
  },
  {
    rule: 'backoff formula (growing delay, random jitter)',
    owner: ['src/lib/util/backoff.ts', 'src/lib/util/ids.ts'],
    // Jitter, a delay grown in place, a delay grown under a cap, an exponent of the attempt.
    pattern: /Math\.random\(\)|\b\w*(?:delay|Delay|backoff|Backoff|interval|Interval)\w*\s*\*=|Math\.min\([^;]*\b\w*(?:delay|Delay|backoff|Backoff|poll|Poll|interval|Interval)\w*\)?\s*\*\s*[\d.]+|\*\*\s*\(?\s*(?:attempt|retry|round|tries)/,
    sample: 'delay = Math.min(delay * 2, 2000);',
  },
  {
    rule: "the state folder's default ($XDG_STATE_HOME or ~/.local/state)",
    owner: ['src/lib/config/env-file.ts'],
    pattern: /env\??\.XDG_STATE_HOME|\[\s*['"]XDG_STATE_HOME['"]\s*\]|['"]\.local['"]\s*,\s*['"]state['"]|['"]\.local\/state/,
    sample: "join(home(env), '.local', 'state')",
  },
  {
    // config/ reads and checks every setting (SETTINGS in config.ts lists them); elsewhere a
    // setting arrives as a typed value.
    rule: 'reading a setting (MADEINOZ_*, GMS_*, OPENAI_*, PAI_DIR, CLAUDE_CONFIG_DIR) from the environment',
    owner: ['src/lib/config/'],
    pattern: /\benv\??\.(?:MADEINOZ_|GMS_|OPENAI_|PAI_DIR\b|CLAUDE_CONFIG_DIR\b)|\benv\[\s*['"](?:MADEINOZ_|GMS_|OPENAI_|PAI_DIR|CLAUDE_CONFIG_DIR)/,
    sample: 'if (env.GMS_WORKER_DISABLED === "1") return;',
  },
  {
    // issue 43: it was written inline four times (listing, reconcile twice, schedule).
    rule: 'when a part was queued (its reply, else when it went out) and when it was sent',
    owner: ['src/lib/state/state.ts'],
    // A part's fields (ref.queuedAt ?? ref.sentAt); pace.ts's own Sighting default is not this rule.
    pattern: /\b\w+\.queuedAt\s*\?\?\s*\w+\.sentAt\b|\b\w+\.sentAt\s*\?\?\s*\w+\.queuedAt\b/,
    sample: "const since = Date.parse(ref.queuedAt ?? ref.sentAt ?? '');",
  },
  {
    // issue 43: three helpers listed every part (allRefs, everyPart, allParts); two the retired ones.
    rule: "every part of the state, or every retired one (a list that ends with the orphans)",
    owner: ['src/lib/state/state.ts'],
    pattern: /\.\.\.\s*\w+\.orphans\s*\]/,
    sample: 'return [...Object.values(state.files).flatMap((r) => r.superseded), ...state.orphans];',
  },
];

function srcFiles(): string[] {
  return tsFiles(SRC).map((f) => relative(REPO, f));
}

describe('one owner per rule (src/)', () => {
  for (const { rule, owner, pattern, sample } of OWNED_RULES) {
    it(`${rule}: only in ${owner.join(', ')}`, () => {
      expect(pattern.test(sample)).toBe(true); // the check itself can fail
      const copies: string[] = [];
      for (const file of srcFiles()) {
        if (owner.some((o) => (o.endsWith('/') ? file.startsWith(o) : file === o))) continue;
        withoutComments(readFileSync(join(REPO, file), 'utf8'))
          .split('\n')
          .forEach((line, i) => {
            if (pattern.test(line)) copies.push(`${file}:${i + 1}: ${line.trim()}`);
          });
      }
      expect(copies).toEqual([]);
    });
  }

  it('atomic file write, second look: no file but the owner both writes a file and renames one', () => {
    // A whole folder built aside and renamed into place is another rule (one finished build wins).
    const folderMoves = new Set(['src/lib/server/environment.ts']);
    const writesAndRenames = (text: string) => /\b(?:writeFile|writeFileSync|writeSync)\(/.test(text) && /\brename(?:Sync)?\(/.test(text);
    expect(writesAndRenames("writeFileSync(tmp, data); renameSync(tmp, path);")).toBe(true);
    const files = srcFiles().filter((file) => file !== 'src/lib/util/fs-atomic.ts' && !folderMoves.has(file) && writesAndRenames(withoutComments(readFileSync(join(REPO, file), 'utf8'))));
    expect(files).toEqual([]);
  });

  it('process.env is read only by the entry points (src/cli.ts and the command line it runs, src/cli-main.ts; src/hooks/) and config/', () => {
    // Everything else gets the environment from config/: a setting through the SETTINGS table, or
    // the environment itself (to hand to a child process, or as an env parameter's default) through
    // config/process-env.ts, which says which module uses it for what.
    const readers = srcFiles().filter((file) => /\bprocess\.env\b/.test(withoutComments(readFileSync(join(REPO, file), 'utf8'))));
    const unexpected = readers.filter((file) => !(file === 'src/cli.ts' || file === 'src/cli-main.ts' || file.startsWith('src/hooks/') || file.startsWith('src/lib/config/')));
    expect(unexpected).toEqual([]);
  });

  it('every setting a reader in config/ names is in the SETTINGS table (so in the docs and .env.example)', async () => {
    const { SETTINGS } = await import('../src/lib/config/config.js');
    const listed = new Set(SETTINGS.map((s) => s.name));
    const named = new Set<string>();
    for (const file of tsFiles(join(LIB, 'config'))) {
      for (const m of withoutComments(readFileSync(file, 'utf8')).matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)|['"]((?:MADEINOZ_|GMS_|OPENAI_)[A-Z0-9_]+)['"]/g)) named.add((m[1] ?? m[2]) as string);
    }
    // Where the platform says where things are: not settings of ours.
    for (const platform of ['HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME']) named.delete(platform);
    expect([...named].filter((n) => !listed.has(n)).sort()).toEqual([]);
  });
});

describe('generated files are marked generated (.gitattributes)', () => {
  it('the hook bundles (linguist-generated, -diff), the settings doc, the example settings and the pins (linguist-generated)', async () => {
    const picomatch = (await import('picomatch')).default;
    const rules = readFileSync(join(REPO, '.gitattributes'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
      .map((line) => {
        const [pattern, ...attributes] = line.trim().split(/\s+/);
        return { matches: picomatch(pattern as string), attributes };
      });
    const attributesOf = (file: string) => rules.filter((r) => r.matches(file)).flatMap((r) => r.attributes);
    const bundles = readdirSync(join(REPO, 'plugin', 'hooks')).filter((n) => n.endsWith('.cjs'));
    expect(bundles.length).toBeGreaterThan(0);
    for (const bundle of bundles) expect(attributesOf(`plugin/hooks/${bundle}`)).toEqual(expect.arrayContaining(['linguist-generated', '-diff']));
    const pins = readdirSync(join(REPO, 'python')).map((n) => `python/${n}`);
    for (const file of ['docs/configuration.md', 'config/.env.example', ...pins]) expect(attributesOf(file)).toContain('linguist-generated');
    expect(attributesOf('src/cli.ts')).toEqual([]);
  });
});

/**
 * test/support is the development harness that bench/ and the demo use as well as the tests;
 * what only vitest tests use lives in test/helpers. The harness imports neither vitest nor
 * test/helpers, and bench/ and scripts/ import nothing from test/helpers.
 */
describe('the development harness (test/support) stands without vitest', () => {
  const codeFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? codeFiles(path) : /\.(ts|mjs)$/.test(name) ? [path] : [];
    });
  const specifiers = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => (m[1] ?? m[2]) as string);
  const helpers = join(REPO, 'test', 'helpers');
  const intoHelpers = (file: string, spec: string) => spec.startsWith('.') && resolve(dirname(file), spec).startsWith(`${helpers}/`);

  it('test/support imports neither vitest nor test/helpers', () => {
    const offenders = codeFiles(join(REPO, 'test', 'support')).flatMap((file) => specifiers(file).filter((spec) => spec === 'vitest' || spec.startsWith('vitest/') || intoHelpers(file, spec)).map((spec) => `${relative(REPO, file)} imports ${spec}`));
    expect(offenders).toEqual([]);
  });

  it('bench/ and scripts/ import nothing from test/helpers', () => {
    const offenders = [...codeFiles(join(REPO, 'bench')), ...codeFiles(join(REPO, 'scripts'))].flatMap((file) => specifiers(file).filter((spec) => intoHelpers(file, spec)).map((spec) => `${relative(REPO, file)} imports ${spec}`));
    expect(offenders).toEqual([]);
  });
});

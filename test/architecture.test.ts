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

/**
 * The user documentation cannot drift from the code:
 * - docs/configuration.md is exactly what scripts/codegen/gen-config-doc.ts renders from SETTINGS;
 * - every setting is in config/.env.example;
 * - the Docker Compose files parse and keep the MCP port on loopback;
 * - relative links in README.md and docs/*.md point at files that exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/lib/config/config.js';
import { acceptedValues, envFileLookupDoc, formatText, renderConfigurationDoc } from '../scripts/codegen/gen-config-doc.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');

// The js-yaml copy gray-matter uses (as src/lib/memory/yaml.ts resolves it): no extra dependency.
const requireHere = createRequire(import.meta.url);
const jsYaml = createRequire(requireHere.resolve('gray-matter'))('js-yaml') as { safeLoad?: (s: string) => unknown; load: (s: string) => unknown };
const loadYaml = (text: string): unknown => (jsYaml.safeLoad ?? jsYaml.load)(text);

describe('docs/configuration.md', () => {
  it('is what scripts/codegen/gen-config-doc.ts renders (run: npx tsx scripts/codegen/gen-config-doc.ts)', () => {
    expect(read('docs/configuration.md')).toBe(renderConfigurationDoc());
  });

  it('has one table row per setting', () => {
    const doc = read('docs/configuration.md');
    for (const s of SETTINGS) expect(doc).toContain(`| \`${s.name}\` |`);
  });

  it('shows the validator\'s own words for checked settings', () => {
    expect(acceptedValues('MADEINOZ_KNOWLEDGE_TIMEOUT')).toBe('a whole number from 100 to 3600000');
    expect(acceptedValues('MADEINOZ_KNOWLEDGE_SYNC_PAI')).toBe('true or false');
    expect(acceptedValues('MADEINOZ_KNOWLEDGE_DB')).toBe('one of neo4j, falkordb');
    expect(acceptedValues('MADEINOZ_KNOWLEDGE_HEADERS')).not.toMatch(/value not shown/);
    expect(acceptedValues('MADEINOZ_KNOWLEDGE_AUTH_TOKEN')).toBeUndefined();
  });

  it('lists the .env lookup order from findEnvFile', () => {
    const doc = envFileLookupDoc();
    expect(doc).toMatch(/^1\. `MADEINOZ_KNOWLEDGE_ENV_FILE`/m);
    expect(doc).toMatch(/^2\. `<package root>\/config\/\.env`/m);
    expect(doc).toMatch(/^3\. `\$XDG_CONFIG_HOME\/graphiti-memory-sync\/\.env`/m);
  });

  it('keeps markdown specials from breaking the table', () => {
    expect(formatText('globs, e.g. "**/drafts/**,*.tmp.md".')).toBe('globs, e.g. `**/drafts/**,*.tmp.md`.');
    expect(formatText('a | b')).toBe('a \\| b');
    expect(formatText('e.g. {"X":"y|z"}')).toBe('e.g. `{"X":"y\\|z"}`');
  });
});

describe('config/.env.example', () => {
  it('names every setting', () => {
    const example = read('config/.env.example');
    for (const s of SETTINGS) expect(example).toContain(s.name);
  });
});

describe('Docker Compose files', () => {
  for (const [file, db, dbImage] of [
    ['config/docker-compose.neo4j.yml', 'neo4j', /^neo4j:/],
    ['config/docker-compose.falkordb.yml', 'falkordb', /^falkordb\/falkordb:/],
  ] as const) {
    it(`${file} parses, publishes on loopback only and serves MCP on 8000`, () => {
      const compose = loadYaml(read(file)) as { services: Record<string, { image: string; ports?: string[]; healthcheck?: { test: string[] }; environment?: string[] }> };
      const mcp = compose.services['graphiti-mcp'];
      const database = compose.services[db];
      expect(mcp?.image).toMatch(/zepai\/knowledge-graph-mcp:/);
      expect(database?.image).toMatch(dbImage);
      expect(mcp?.ports).toEqual(['127.0.0.1:8000:8000']);
      for (const service of Object.values(compose.services)) {
        for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
        expect(service.healthcheck?.test.length).toBeGreaterThan(0);
      }
      expect(mcp?.environment?.some((e) => e.startsWith('OPENAI_API_KEY=${OPENAI_API_KEY:?'))).toBe(true);
      expect(mcp?.environment?.some((e) => e.startsWith(`CONFIG_PATH=/app/mcp/config/config-docker-${db}.yaml`))).toBe(true);
    });
  }
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = (m[1] ?? '').toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let unique = slug;
    for (let n = 1; anchors.has(unique); n++) unique = `${slug}-${n}`;
    anchors.add(unique);
  }
  return anchors;
}

describe('links in README.md and docs/', () => {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  for (const file of files) {
    it(`${file}: relative links point at existing files`, () => {
      const text = read(file).replace(/```[\s\S]*?```/g, '');
      const broken: string[] = [];
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1] ?? '';
        if (/^[a-z]+:/i.test(target)) continue;
        const [relPath = '', anchor] = target.split('#');
        const path = relPath === '' ? join(root, file) : resolve(dirname(join(root, file)), decodeURIComponent(relPath));
        if (!existsSync(path)) broken.push(target);
        else if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(readFileSync(path, 'utf8')).has(anchor)) broken.push(target);
      }
      expect(broken).toEqual([]);
    });
  }
});

/**
 * `npm run demo`, the first thing a newcomer runs (issue 30): plain text in a pipe, and a context
 * block of facts a person recognises (the demo's extraction: subject, relation, object).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoExtraction, proseSentences, tripleOf } from '../../scripts/demo/demo-extraction.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run demo', () => {
  it('runs to the end in a pipe with no escape codes, and its context block shows recognisable facts', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'demo', 'demo.ts')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '' }, timeout: 120_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('\x1b');
    const block = r.stdout.slice(r.stdout.indexOf('Knowledge graph facts for webapp'));
    expect(block).toMatch(/^- (\[own\] )?The API runs on Fastify 5 with Postgres 16; background jobs use pg-boss\./m);
    expect(block).toMatch(/^- (\[own\] )?The user is a backend engineer who prefers terse answers with code first\./m);
    // No metadata lines dressed up as facts, no entity without content.
    expect(block).not.toMatch(/Description:|Type:|is mentioned in the episode/);
  }, 130_000);
});

describe('the demo extraction', () => {
  it('leaves metadata, headings and captions out, joins wrapped lines, drops "Decided:" labels', () => {
    const content = 'Type: LEARNING\nTags: a, b\n\n# Architecture decisions\n\n- Decided: the API runs on Fastify 5 with Postgres 16.\n\nIntegration tests must talk to a real\nserver, not to mocks.\n\n*Auto-captured by a hook*\n';
    expect(proseSentences(content)).toEqual(['The API runs on Fastify 5 with Postgres 16.', 'Integration tests must talk to a real server, not to mocks.']);
  });

  it('reads subject, relation and object out of a sentence', () => {
    expect(tripleOf('The API runs on Fastify 5 with Postgres 16.')).toEqual({ subject: 'API', relation: 'RUNS_ON', object: 'Fastify 5' });
    expect(tripleOf('The user is a backend engineer who prefers terse answers.')).toEqual({ subject: 'User', relation: 'IS', object: 'backend engineer' });
    expect(tripleOf('Write the state file first.')).toBeUndefined();
  });

  it('every fact joins two entities that exist, each with a summary', () => {
    const x = demoExtraction({ name: 'Architecture decisions', content: '- Decided: the API runs on Fastify 5.\n- Write it down first.\n', sourceDescription: 'auto-memory project -home-demo-code-webapp [gms:x]' });
    const names = new Set(x.entities.map((e) => e.name));
    for (const f of x.facts) {
      expect(names.has(f.source) && names.has(f.target)).toBe(true);
      expect(f.about).toContain('webapp');
      expect(f.about).not.toContain('gms:');
    }
    expect(x.entities.every((e) => e.summary.length > 0)).toBe(true);
  });
});

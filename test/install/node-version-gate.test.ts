/**
 * The Node.js version we need, in one place (node-guard.ts NODE_REQUIRED, held to package.json's
 * engines), the comparison the gates make, their words, and that the gates can run where they
 * must: on a node too old for everything else. The gates themselves under real old nodes:
 * test/old-node (npm run test:old-node).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { NODE_MISSING_MESSAGE, NODE_REQUIRED, NODE_TOO_OLD_SECTION, nodeTooOld, nodeTooOldCliMessage, nodeTooOldMessage, nodeTooOldOutput } from '../../src/lib/install/node-guard.js';
import { REPO_ROOT as REPO } from '../support/paths.js';

describe('NODE_REQUIRED', () => {
  it("is package.json's engines.node, and what the message without node asks for", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${NODE_REQUIRED}`);
    expect(NODE_MISSING_MESSAGE).toContain(`Node.js >= ${NODE_REQUIRED}`);
  });

  it('nodeTooOld compares major, then minor, as numbers', () => {
    const tooOld = ['12.22.12', '18.19.1', '18.20.8', '20.9.0', '20.18.3', '20.18.99'];
    const enough = ['20.19.0', '20.19.5', '20.20.2', '20.100.0', '21.0.0', '22.23.3', '24.1.0'];
    expect(tooOld.filter((v) => !nodeTooOld(v))).toEqual([]);
    expect(enough.filter((v) => nodeTooOld(v))).toEqual([]);
    expect(nodeTooOld(process.versions.node)).toBe(false);
  });
});

describe('what a node too old is told', () => {
  const found = '18.19.1';
  const where = '/usr/bin/node';

  it('SessionStart: one JSON object within the 10,000-character cap: which node, its version, what is needed, the next step, the troubleshooting section', () => {
    const out = nodeTooOldOutput(found, where);
    expect(out.length).toBeLessThan(10_000);
    expect(JSON.parse(out)).toEqual({ systemMessage: nodeTooOldMessage(found, where) });
    for (const part of [where, `Node.js ${found}`, `Node.js >= ${NODE_REQUIRED}`, 'then start a new session', NODE_TOO_OLD_SECTION]) expect(nodeTooOldMessage(found, where)).toContain(part);
  });

  it('the command line: its version, what is needed, that nothing ran, the next step, the section', () => {
    for (const part of [where, `Node.js ${found}`, `Node.js >= ${NODE_REQUIRED}`, 'nothing was run', 'run the command again', NODE_TOO_OLD_SECTION]) expect(nodeTooOldCliMessage(found, where)).toContain(part);
  });

  it('names a troubleshooting section that exists', () => {
    expect(readFileSync(join(REPO, 'docs', 'troubleshooting.md'), 'utf8')).toContain(`\n## ${NODE_TOO_OLD_SECTION}\n`);
  });
});

describe('the gates parse and run on an old node', () => {
  // Ubuntu 22.04's apt node is 12.22: the first thing any of our entry points does there must
  // parse, or the user gets a SyntaxError where the message should be. The hooks' gate is bundled
  // for Node 12 (scripts/build/bundle-hooks.mjs: esbuild lowers it, or fails the build); the
  // command line's gate is tsc's copy of src/cli.ts and node-guard.ts, so those must already be
  // Node 12.20 syntax as written: esbuild, asked to lower them for it, has nothing to change.
  // And this repository's own development hooks (.claude/settings.json), which any node on the
  // hooks' PATH parses before it can be judged.
  for (const file of ['src/cli.ts', 'src/lib/install/node-guard.ts', 'src/hooks/node-gate.ts', 'hooks/run.mjs']) {
    it(`${file} holds no syntax newer than Node 12.20`, () => {
      const source = readFileSync(join(REPO, file), 'utf8');
      const as = (target: string) => transformSync(source, { loader: 'ts', format: 'esm', target }).code;
      expect(as('node12.20')).toBe(as('esnext'));
    });
  }

  it('the check proves something: `??` in a gate would be caught', () => {
    const as = (target: string) => transformSync('export const v = process.argv[2] ?? "";', { loader: 'ts', format: 'esm', target }).code;
    expect(as('node12.20')).not.toBe(as('esnext'));
  });

  it('the command line gate imports nothing but node-guard.ts before it knows the node is new enough', () => {
    const source = readFileSync(join(REPO, 'src', 'cli.ts'), 'utf8');
    expect([...source.matchAll(/^import\s.*from\s+'([^']+)'/gm)].map((m) => m[1])).toEqual(['./lib/install/node-guard.js']);
  });
});

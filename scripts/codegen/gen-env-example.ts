/**
 * Writes config/.env.example from the SETTINGS table in src/lib/config/config.ts, so the example
 * cannot drift from what the code reads (test/config/config.test.ts checks the file is current).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTINGS, type SettingDoc } from '../../src/lib/config/config.js';

export function renderEnvExample(): string {
  const out = [
    '# graphiti-memory-sync settings. Copy to config/.env (or ~/.config/graphiti-memory-sync/.env)',
    '# and uncomment what you change. An environment variable always wins over this file.',
    '# Generated from src/lib/config/config.ts (npm run gen:env) — edit the SETTINGS table there.',
    '',
  ];
  const sections: Array<[string, (s: SettingDoc) => boolean]> = [
    ['', (s) => (s.group ?? 'tool') === 'tool'],
    ['# ---- The local Graphiti server (graphiti-memory-sync server start) ----', (s) => s.group === 'server' && s.envOnly !== true],
    ['# ---- Read from the environment only: setting these in this file has no effect ----', (s) => s.envOnly === true],
  ];
  for (const [header, inSection] of sections) {
    if (header !== '') out.push(header, '');
    for (const s of SETTINGS.filter(inSection)) {
      out.push(`# ${s.description}`);
      out.push(`# Default: ${s.default}`);
      const example = s.default.startsWith('(') || s.default.includes(' ') ? '' : s.default;
      out.push(`# ${s.name}=${example}`);
      out.push('');
    }
  }
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('../../config/.env.example', import.meta.url), renderEnvExample());
}

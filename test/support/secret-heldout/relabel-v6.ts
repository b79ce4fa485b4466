/**
 * Applies labelling rule v6 (README.md) to data.json's benign samples, every one alike: a sample
 * benign under v5 stays benign under v6 unless it holds a value given as a password next to its
 * word (rule-v6.ts); then it is not benign under v6 and its values are kept as `v6Secrets`.
 * Prints how many labels changed in each half. Idempotent (run again: nothing changes).
 *
 *     npx tsx test/support/secret-heldout/relabel-v6.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HeldoutBenign } from './extract.js';
import { splitOf } from './notes.js';
import { passwordValuesV6 } from './rule-v6.js';

const BEFORE_V6 = ['v1', 'v2', 'v3', 'v4', 'v5'] as const;
const file = fileURLToPath(new URL('./data.json', import.meta.url));
const data = JSON.parse(readFileSync(file, 'utf8')) as { benign: HeldoutBenign[] };
const moved = { dev: 0, test: 0 };
const kept = { dev: 0, test: 0 };
for (const b of data.benign) {
  if (b.rules !== undefined && !b.rules.includes('v5')) continue;
  const values = passwordValuesV6(b.text);
  const split = splitOf(b.source);
  if (values.length === 0) {
    if (b.rules !== undefined && !b.rules.includes('v6')) b.rules.push('v6');
    kept[split] += 1;
    continue;
  }
  b.rules = (b.rules ?? [...BEFORE_V6]).filter((r) => r !== 'v6');
  b.v6Secrets = values;
  moved[split] += 1;
}
writeFileSync(file, `${JSON.stringify(data, null, 1)}\n`);
process.stdout.write(`data.json: benign under v5 and v6: dev ${kept.dev}, test ${kept.test}; moved to secrets by v6: dev ${moved.dev}, test ${moved.test}\n`);

/**
 * "redacted N secret(s) before sending" counts what this run sent (REDACTIONS_SENT, send.ts): a
 * note with a secret found already in the graph (adopted: a lost state rebuilt) is not sent, and
 * its secrets were not redacted "before sending" by this run.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSyncSummary } from '../../src/commands/reports.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const adds = () => server.calls.filter((c) => c.tool === 'add_memory').length;
const KEY = ['AKIA', 'Q7ZP3XK2M5WB8RTY'].join(''); // not AWS's documentation key, which is not a secret

describe('redactions counted for what was sent (REDACTIONS_SENT)', () => {
  it('a note with a secret sent: counted; the same note found in the graph after the state was lost (adopted, not sent): not counted', async () => {
    box.pai('LEARNING/SYSTEM/secret.md', learning('Cloud setup', `Use key ${KEY} for the uploads.`));
    const config = box.config();
    const first = await runSync(config, { waitMs: 5_000 });
    expect(first).toMatchObject({ added: 1, confirmed: 1, redactionsByKind: { 'aws-access-key-id': 1 } });
    expect(formatSyncSummary(first)).toContain('redacted 1 secret(s) before sending');
    rmSync(config.stateDir, { recursive: true, force: true });
    const again = await runSync(config, { waitMs: 5_000 });
    expect(again).toMatchObject({ adopted: 1, confirmed: 1, redactions: 0 });
    expect(again.redactionsByKind).toEqual({});
    expect(formatSyncSummary(again)).not.toContain('redacted');
    expect(adds()).toBe(1);
  });
});

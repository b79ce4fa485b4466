/**
 * `status` with a sync holding the state lock (commands/lock-holders.ts WHO_HOLDS_IT): the person
 * whose sync says "waiting for another sync" sees who holds it, how it stands and what to do, in
 * `status` and `status --json`, without the lock's token. The holder is a real process taking the lock as `sync` does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collectStatus, formatStatus } from '../../src/commands/reports.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { startChild, type Child } from '../helpers/child-process.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import type { Sandbox } from '../support/sandbox.js';
import { srcUrl } from '../support/paths.js';

let box: Sandbox;
useServerAndSandbox((_server, b) => {
  box = b;
});

const children: Child[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.proc.kill('SIGKILL');
    await child.exited;
  }
});

describe('status while another sync holds the state lock', () => {
  it('names its pid, kind, since when and this machine, says what to do, and shows no token', async () => {
    const config = box.config();
    const script = `
      import { acquireLock } from ${JSON.stringify(srcUrl('src/lib/state/lock.ts'))};
      const lock = await acquireLock(process.argv[2], { label: 'hook worker' });
      console.log(lock.owner.token);
      setInterval(() => {}, 1000);
    `;
    const child = await startChild(box.root, 'holder', script, [config.stateDir]);
    children.push(child);
    const token = await child.nextLine();
    const status = await collectStatus(config, nullLogger);
    const text = formatStatus(status);
    expect(text).toMatch(new RegExp(`^State lock: a hook worker \\(pid ${child.proc.pid}, this machine, since \\d{4}-[^)]*\\) is at work: .*nothing to do`, 'm'));
    expect(status.holders).toEqual([expect.objectContaining({ what: 'state lock', pid: child.proc.pid, kind: 'hook worker', standing: 'running' })]);
    expect(text).not.toContain(token);
    expect(JSON.stringify(status)).not.toContain(token);
  });
});

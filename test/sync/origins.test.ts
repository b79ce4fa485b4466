/**
 * Origins follow the memory they own (issue 24 item 4), end to end over loopback against the test
 * server: two homes on one machine keep their own notes; a container rebuild (new host name, no
 * machine id, `~/.claude` kept, state lost) sends nothing again and leaves no orphan, also for the
 * episodes an earlier version sent under the origin it derived from the machine.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { earlierDerivedOrigin, originIdentity, type MachineFacts } from '../../src/lib/util/origin.js';
import type { Config } from '../../src/lib/config/config.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
const extraBoxes: Sandbox[] = [];
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});
afterEach(() => {
  for (const b of extraBoxes.splice(0)) b.cleanup();
});

const topic = (what: string) => `---\nname: Build\ndescription: how the build works\nmetadata:\n  type: project\n---\n${what}\n`;
const adds = () => server.calls.filter((c) => c.tool === 'add_memory').length;
const deletes = () => server.calls.filter((c) => c.tool === 'delete_episode').map((c) => c.args.uuid as string);

async function settle(config: Config) {
  const summary = await runSync(config, { waitMs: 5000 });
  await server.whenIdle();
  return summary;
}

describe('origins follow the memory they own', () => {
  it('two homes of one user on one machine (no origin set): each keeps its own note at the same path, and edits replace only their own', async () => {
    const other = makeSandbox(server.url);
    extraBoxes.push(other);
    box.auto('-work-app', 'build.md', topic('In the CI home the build uses Bun.'));
    other.auto('-work-app', 'build.md', topic('In the sandbox home the build uses Docker.'));
    await settle(box.config());
    await settle(other.config()); // a fresh state: the sandbox home rebuilds from the group
    expect(box.config().origin).not.toBe(other.config().origin);
    box.auto('-work-app', 'build.md', topic('In the CI home the build uses Bun 2.'));
    await settle(box.config());
    await settle(box.config());
    expect(server.episodes('main').map((e) => e.content).sort()).toEqual([expect.stringContaining('uses Bun 2'), expect.stringContaining('uses Docker')]);
    expect(new Set(server.episodes('main').map((e) => parseMarker(e.source_description)?.origin)).size).toBe(2);
  });

  it('an upgrade takes over the episodes of the derived origin without a re-send; a container rebuild with ~/.claude kept then sends nothing and orphans nothing', async () => {
    const image: MachineFacts = { machineId: undefined, hostname: 'c0ffee000001', user: 'root' };
    // Today's version: the origin derived from the host name (no machine id in the container).
    const legacy = { ...box.config(), origin: earlierDerivedOrigin(image), previousOrigins: [] };
    box.auto('-work-app', 'build.md', topic('The build uses Bun.'));
    box.auto('-work-app', 'deploy.md', topic('Deploys go through Argo CD.'));
    await settle(legacy);
    box.auto('-work-app', 'build.md', topic('The build uses Bun 2.'));
    await settle(legacy);
    await settle(legacy);
    const sent = adds();
    expect(server.episodes('main')).toHaveLength(2);

    // The upgrade: the origin is now kept beside ~/.claude, remembering the derived one.
    const kept = originIdentity(box.path('claude'), image);
    expect(kept.origin).not.toBe(legacy.origin);
    expect(kept.previous).toContain(legacy.origin);
    const upgraded = (machine: MachineFacts) => {
      const id = originIdentity(box.path('claude'), machine);
      return { ...box.config(), origin: id.origin, previousOrigins: id.previous };
    };
    await settle(upgraded(image));
    expect(adds()).toBe(sent);
    expect(deletes()).toHaveLength(1); // only the first version of build.md, before the upgrade

    // The rebuild: a new host name, still no machine id, ~/.claude kept, the state folder lost.
    rmSync(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, { recursive: true, force: true });
    const rebuilt = upgraded({ machineId: undefined, hostname: 'c0ffee000002', user: 'root' });
    expect(rebuilt.origin).toBe(kept.origin);
    const summary = await settle(rebuilt);
    expect(summary).toMatchObject({ added: 0, adopted: 2 });
    expect(adds()).toBe(sent);
    expect(deletes()).toHaveLength(1);
    const { state } = await loadState(rebuilt.stateDir);
    expect(state.orphans).toEqual([]);
    expect(Object.values(state.files).every((r) => r.status === 'confirmed' && r.superseded.length === 0)).toBe(true);

    // And the next edit replaces the episode the earlier origin sent: still one per note.
    box.auto('-work-app', 'deploy.md', topic('Deploys go through Flux.'));
    await settle(rebuilt);
    await settle(rebuilt);
    expect(server.episodes('main').map((e) => e.content).sort()).toEqual([expect.stringContaining('Flux'), expect.stringContaining('Bun 2')]);
  });
});

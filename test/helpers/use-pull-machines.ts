/**
 * The pull tests' machines (test/pull/homes.ts) on one fresh test server per test: `make` adds a
 * machine, `pair` two linked ones (a laptop, and a desktop with the checkout at another path); the
 * server is closed and every home removed after each test.
 */
import { afterEach, beforeEach } from 'vitest';
import { startGraphitiServer, type GraphitiServerOptions, type GraphitiTestServer } from '../support/graphiti-server.js';
import { link, machine, type Machine } from '../pull/homes.js';

export interface PullMachines {
  /** This test's server (started before it). */
  readonly server: GraphitiTestServer;
  /** A machine at `place` (its checkout's remote, its settings besides the sandbox's as `machine` takes them). */
  make(place: string, remote?: string, extraEnv?: Record<string, string>): Machine;
  pair(): Promise<[Machine, Machine]>;
  /** Replaces this test's server with one started with `options` (before any machine is made). */
  restartWith(options: GraphitiServerOptions): Promise<void>;
}

export function usePullMachines(): PullMachines {
  let current: GraphitiTestServer | undefined;
  const machines: Machine[] = [];
  const start = async (options: GraphitiServerOptions = {}) => {
    current = await startGraphitiServer({ processingDelayMs: 0, ...options });
  };
  beforeEach(() => start());
  afterEach(async () => {
    await current?.close();
    current = undefined;
    for (const m of machines.splice(0)) m.box.cleanup();
  });
  const self: PullMachines = {
    get server(): GraphitiTestServer {
      if (current === undefined) throw new Error('usePullMachines: no server outside a test');
      return current;
    },
    make(place, remote, extraEnv) {
      const m = machine(self.server, place, remote, extraEnv);
      machines.push(m);
      return m;
    },
    async pair() {
      const a = self.make('laptop');
      const b = self.make('desktop/src');
      await link(a, b);
      return [a, b];
    },
    async restartWith(options) {
      await current?.close();
      await start(options);
    },
  };
  return self;
}

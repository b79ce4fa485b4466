import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from './test/setup/shared-config.js';

export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      include: ['test/**/*.test.ts'],
      // The real-peer suites run on their own: npm run test:graphiti (vitest.graphiti.config.ts),
      // npm run test:claude (vitest.claude.config.ts), npm run test:package (vitest.package.config.ts)
      // and npm run test:old-node (vitest.old-node.config.ts). REAL_PIP_IN_LANE: test/server/install-path.test.ts
      // (three venvs and real pip installs, the fast suite's slowest file) runs with the real Graphiti suite.
      exclude: [...configDefaults.exclude, 'test/real-graphiti/**', 'test/claude/**', 'test/package/**/*.slow.test.ts', 'test/old-node/**', 'test/server/install-path.test.ts'],
      // Integration tests spawn servers and child processes; the machine has 2 cores.
      maxWorkers: 2,
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // Property tests draw from a fixed seed (GMS_FC_SEED=random to explore): test/setup/fast-check-seed.ts.
      setupFiles: ['test/setup/fast-check-seed.ts'],
    },
  }),
);

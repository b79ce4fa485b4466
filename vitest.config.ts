import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-peer suites run on their own: npm run test:graphiti (vitest.graphiti.config.ts),
    // npm run test:claude (vitest.claude.config.ts) and npm run test:package (vitest.package.config.ts).
    exclude: [...configDefaults.exclude, 'test/real-graphiti/**', 'test/claude/**', 'test/package/**/*.slow.test.ts'],
    // Integration tests spawn servers and child processes; the machine has 2 cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests must never read the developer's real ~/.claude or .env.
    env: { GMS_TEST: '1' },
    // Property tests draw from a fixed seed (GMS_FC_SEED=random to explore): test/setup/fast-check-seed.ts.
    // Each file names itself to the processes it starts (test/setup/test-file-env.ts).
    setupFiles: ['test/setup/fast-check-seed.ts', 'test/setup/test-file-env.ts'],
    // No process a test starts outlives the run: the teardown kills and reports any (test/setup/stray-processes.ts).
    globalSetup: ['test/setup/stray-processes.ts'],
  },
});

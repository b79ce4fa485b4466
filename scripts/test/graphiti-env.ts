/**
 * Builds (or finds) the pinned Python environment of each Graphiti generation in the cache folder,
 * before the real-server tests start, and says how long each took. A missing Python, venv or pip,
 * or a failed install, is one line on stderr and exit 2.
 *
 *   tsx scripts/test/graphiti-env.ts [generation ...]   (default: every pinned generation)
 */
import { ensureEnvironment, environmentDir } from '../../src/lib/server/environment.js';
import { ServerSetupError } from '../../src/lib/server/errors.js';
import { generation, GENERATIONS } from '../../src/lib/server/pins.js';

const wanted = process.argv.slice(2);
const gens = wanted.length > 0 ? wanted.map(generation) : [...GENERATIONS];
try {
  for (const gen of gens) {
    const started = Date.now();
    const env = await ensureEnvironment(gen, { progress: (line) => process.stderr.write(`  ${line}\n`) });
    process.stdout.write(`graphiti ${gen.id} (server ${gen.serverVersion}, mcp ${gen.mcp}): ${((Date.now() - started) / 1000).toFixed(1)} s, ${env.dir === environmentDir(gen) ? env.dir : ''}\n`);
  }
} catch (error) {
  if (!(error instanceof ServerSetupError)) throw error;
  process.stderr.write(`graphiti-memory-sync: ${error.message}\n`);
  process.exit(2);
}

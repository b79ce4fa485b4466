/**
 * The scenario of SERVER_OF_RECORD (state/server-of-record.ts), shared by the fast case
 * (test/pull/another-server.test.ts) and the real one (test/real-graphiti/another-server.test.ts):
 * a laptop linked with a desktop sends three notes home, is pointed at another server where it
 * edits one, writes a new one and edits its PAI note (synced and pulled there), then comes back
 * home, syncs, pulls and syncs; the desktop pulls last.
 */
import { existsSync } from 'node:fs';
import { runPull, type PullReport } from '../../src/lib/pull/pull.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { topic, type Machine } from './homes.js';

/** The texts the scenario writes: each note's last line, as it should end in the home graph. */
export const AWAY = {
  alpha: ['Basalt deploys through staging.', 'Basalt deploys through canary.'],
  beta: 'Aurora stores sessions in Redis.',
  gamma: 'Quartz caches builds in S3.',
  pai: ['The CI runs on Node 20.', 'The CI runs on Node 22.'],
} as const;

export interface AwayAndBack {
  files: { alpha: string; beta: string; gamma: string };
  /** The pull on the other server, the first one back home, and the desktop's afterwards. */
  there: PullReport;
  back: PullReport;
  onDesktop: PullReport;
  /** Whether the untouched note was still on the laptop after the pull on the other server. */
  betaKeptThere: boolean;
}

export async function awayAndBack(laptop: Machine, desktop: Machine, otherUrl: string, waitMs: number): Promise<AwayAndBack> {
  const alpha = laptop.write('alpha.md', topic('Alpha', AWAY.alpha[0]));
  const beta = laptop.write('beta.md', topic('Beta', AWAY.beta));
  laptop.box.pai('LEARNING/p.md', `# Pai\n\n${AWAY.pai[0]}\n`);
  await laptop.sync();
  await laptop.pull();
  await desktop.pull();

  const wrong = { MADEINOZ_KNOWLEDGE_MCP_URL: otherUrl };
  laptop.write('alpha.md', topic('Alpha', AWAY.alpha[1]));
  const gamma = laptop.write('gamma.md', topic('Gamma', AWAY.gamma));
  laptop.box.pai('LEARNING/p.md', `# Pai\n\n${AWAY.pai[1]}\n`);
  const sent = await runSync(laptop.box.config(wrong), { waitMs });
  if (sent.failed > 0 || sent.pending > 0) throw new Error(`the sync on the other server did not settle: ${JSON.stringify(sent)}`);
  const there = await runPull(laptop.box.config(wrong), { env: { ...laptop.box.env, ...wrong } });
  const betaKeptThere = existsSync(beta);

  await laptop.sync();
  const back = await laptop.pull();
  await laptop.sync();
  const onDesktop = await desktop.pull();
  return { files: { alpha, beta, gamma }, there, back, onDesktop, betaKeptThere };
}

/**
 * `npm run bench`: every benchmark, printed as tables with ratios against a baseline
 * measured in the same run. Select sections with BENCH_ONLY=client,sync,shared,migration,hook,claude,watch,schedule,graphiti,redact,context,server,keepalive,flood,frontcost
 * (server needs Python >= 3.10; BENCH_SERVER_COLD=0 skips its install timing).
 */
import { benchClaude } from './claude-bench.js';
import { benchClient } from './client-bench.js';
import { benchContext } from './context-bench.js';
import { benchFrontCost } from './front-cost-bench.js';
import { benchFrontFlood } from './front-flood-bench.js';
import { benchHook } from './hook-bench.js';
import { benchKeepAlive } from './keep-alive-bench.js';
import { benchMigration } from './migration-bench.js';
import { benchRealGraphiti } from './real-graphiti-bench.js';
import { benchRedact } from './redact-bench.js';
import { benchSchedule } from './schedule-bench.js';
import { benchServer } from './server-bench.js';
import { benchSharedGroup } from './shared-group-bench.js';
import { benchSync } from './sync-bench.js';
import { benchWatch } from './watch-bench.js';
import { printTable, type Row } from './util.js';

const sections: Array<[string, string, () => Promise<Row[]>]> = [
  ['client', 'MCP client: import cost and round trip (ours vs official SDK)', benchClient],
  ['sync', 'Sync engine: scan and initial sync', benchSync],
  ['shared', 'Shared group: confirming one changed file among 20 of ours in a group of other clients\' episodes (per sync run)', benchSharedGroup],
  ['migration', 'Coming from the madeinoz hook: first sync of a memory it already sent (1,000 notes, 5 % edited since)', benchMigration],
  ['hook', 'Hook wall time vs bare node (same run)', benchHook],
  ['claude', 'Real Claude Code CLI (fake Anthropic API): claude -p with and without our hooks', benchClaude],
  ['watch', 'Watch mode: save-to-add_memory latency and memory', benchWatch],
  ['schedule', 'Listing schedule, simulated (no server): first batches in a busy group, pace unknown, time to confirm over the floor and looks (test/support/busy-queue.ts)', benchSchedule],
  ['graphiti', 'Real Graphiti MCP server (FalkorDB, stand-in LLM): initial sync and no-change run', benchRealGraphiti],
  ['redact', 'Secret redaction: recall and false positives on the held-out set (public scanners\' samples) and the tuning corpus, throughput (before = the previous engine, same run)', benchRedact],
  ['context', 'Session context: orders kept out (published and held-apart injection collections placed in facts), the user\'s knowledge kept in (639 benign facts, noun-opening ones, own notes)', benchContext],
  ['server', 'server start (real Graphiti + FalkorDB, needs Python): first (install) and warm', benchServer],
  ['keepalive', 'Kept-alive connections (util/keep-alive.ts IDLE_REUSE): what a request after a pause of 1 s or more costs on a new connection', benchKeepAlive],
  ['flood', "Local server's front: the owner's sync while another program holds 1,000 idle connections (real server, stand-in LLM)", benchFrontFlood],
  ['frontcost', "Local server's front: what proving it on the request's own connection costs (PROOF_ON_THE_CONNECTION, with PROVEN_REUSE) against a proof per request and against the previous client's cached proof and kept-alive connection (front + test Graphiti)", benchFrontCost],
];

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
process.stdout.write(`node ${process.version}, ${new Date().toISOString()}\n`);
for (const [key, title, fn] of sections) {
  if (only !== undefined && !only.includes(key)) continue;
  try {
    printTable(title, await fn());
  } catch (error) {
    process.stdout.write(`\n${title}\n  FAILED: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  }
}

/**
 * Machines for the pull tests (issue 42): each a sandbox home (its own ~/.claude, state, origin)
 * with a checkout of the same repository at its own path, known to Claude Code (its .claude.json),
 * on one shared test server; linked with one key, or with a key of their own.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../src/lib/config/config.js';
import { claudeProjectKey } from '../../src/lib/util/claude-project-key.js';
import { ensureNoteKey, formatNoteKey, importNoteKey } from '../../src/lib/state/note-key.js';
import { runPull, type PullOptions, type PullReport } from '../../src/lib/pull/pull.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';

export interface Machine {
  box: Sandbox;
  /** The checkout's folder on this machine. */
  repo: string;
  /** Its memory folder. */
  memoryDir: string;
  config(): Config;
  write(rel: string, content: string): string;
  sync(): Promise<void>;
  pull(options?: PullOptions): Promise<PullReport>;
}

export const topic = (name: string, body: string, description = `about ${name}`) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n${body}\n`;

/** The server the machines share: the loopback test server, or a real Graphiti (no whenIdle: the sync waits for confirmation). */
export interface SharedServer {
  url: string;
  whenIdle?: () => Promise<void>;
}

/** A machine with `remote` cloned at `<home>/<place>/app`. */
export function machine(server: SharedServer | GraphitiTestServer, place: string, remote = 'git@github.com:me/app.git', extraEnv: Record<string, string> = {}, waitMs = 5000): Machine {
  const box = makeSandbox(server.url, extraEnv);
  const repo = join(box.root, place, 'app');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['-C', repo, 'init', '-q']);
  execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', remote]);
  const claude = box.path('claude');
  mkdirSync(claude, { recursive: true });
  writeFileSync(join(claude, '.claude.json'), JSON.stringify({ projects: { [repo]: {} } }));
  const key = claudeProjectKey(repo);
  const memoryDir = join(claude, 'projects', key, 'memory');
  const m: Machine = {
    box,
    repo,
    memoryDir,
    config: () => box.config(),
    write: (rel, content) => box.auto(key, rel, content),
    async sync() {
      // Until every note is confirmed and every retired version deleted (a loaded machine may need more than one wait).
      for (let round = 0; round < 6; round++) {
        const summary = await runSync(box.config(), { waitMs });
        await server.whenIdle?.();
        if (round > 0 && summary.queued === 0 && summary.pending === 0 && summary.failed === 0) return;
      }
      throw new Error('the sync did not settle');
    },
    pull: (options = {}) => runPull(box.config(), { env: box.env, ...options }),
  };
  return m;
}

/** Gives every machine the first one's key (made if needed). */
export async function link(first: Machine, ...others: Machine[]): Promise<void> {
  const { key } = ensureNoteKey(first.config().stateDir);
  for (const o of others) await importNoteKey(o.config().stateDir, formatNoteKey(key), { replace: true });
}

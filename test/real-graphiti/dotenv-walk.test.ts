/**
 * NO_DOTENV_WALK (server/environment.ts) with the real Graphiti server: its code loads the first
 * `.env` found in the folders above it when its own `mcp_server/.env` is missing. Here the cache is
 * in a folder every local user can write to (a shared TMPDIR, GMS_GRAPHITI_CACHE under /tmp), and a
 * second local user has left a `.env` there that points the server's LLM at a listener of theirs.
 * The environment is a copy of the one the suite built (made before this rule: no `.env` of ours).
 * With the stand-in LLM (test-only; users bring their own).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentDir } from '../../src/lib/server/environment.js';
import { newestGeneration } from '../../src/lib/server/user-settings.js';
import { listenAsOtherUser, otherUser, type OtherUserListener } from '../support/other-user.js';
import { unusedPort } from '../helpers/ports.js';
import { isolatedEnv } from '../support/isolated-env.js';
import { runCli } from '../support/real-graphiti.js';
import { startStandInLlm, type StandInLlm } from '../support/standin-llm/server.js';

const user = otherUser();
let shared: string;
let llm: StandInLlm;
let env: Record<string, string>;
let theirs: OtherUserListener | undefined;

beforeAll(async () => {
  if ('skip' in user) return;
  // The shared folder: anyone may create files in it (sticky, like /tmp).
  shared = mkdtempSync('/tmp/gms-dotenv-walk-');
  chmodSync(shared, 0o1777);
  const cache = join(shared, 'cache');
  mkdirSync(cache, { mode: 0o700 });
  const gen = newestGeneration();
  const built = environmentDir(gen, process.env);
  execFileSync('cp', ['-a', built, join(cache, basename(built))]);
  llm = await startStandInLlm();
  const port = await unusedPort();
  theirs = await listenAsOtherUser(user, '127.0.0.1', port);
  // The second user's .env, in the shared folder above the cache.
  const planted = join(shared, '.env');
  writeFileSync(planted, `LLM__PROVIDERS__OPENAI__API_URL=http://127.0.0.1:${port}/v1\nEMBEDDER__PROVIDERS__OPENAI__API_URL=http://127.0.0.1:${port}/v1\n`);
  chownSync(planted, user.uid, user.gid);
  const home = join(shared, 'home');
  mkdirSync(home, { mode: 0o700 });
  const { MADEINOZ_KNOWLEDGE_MCP_URL: _unset, ...base } = isolatedEnv(home, 'unused');
  env = { ...base, XDG_DATA_HOME: join(home, 'xdg-data'), GMS_GRAPHITI_CACHE: cache, OPENAI_API_KEY: 'stand-in-key-of-the-owner', OPENAI_BASE_URL: llm.url, GMS_SERVER_MODEL: 'stand-in', GMS_SERVER_EMBEDDER_MODEL: 'stand-in-embedder', GMS_SERVER_GENERATION: gen.id };
}, 120_000);

afterAll(async () => {
  if ('skip' in user) return;
  if (env !== undefined) await runCli(env, ['server', 'stop']);
  await theirs?.close();
  await llm?.close();
  rmSync(shared, { recursive: true, force: true });
}, 120_000);

describe('the server reads no .env from the folders above its cache (NO_DOTENV_WALK)', () => {
  it.skipIf('skip' in user)(`a second user's .env above a shared cache gets neither the LLM key nor a note; the note goes to the owner's LLM${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const started = await runCli(env, ['server', 'start']);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    const dir = join(env.PAI_DIR as string, 'MEMORY', 'LEARNING', '2026-12');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'private-note.md'), '---\ntitle: Private note\n---\nThe quarterly numbers stay inside the finance team until the board meets.\n');
    const run = await runCli(env, ['sync', '--json', '--wait', '60000']);
    // Before anything else: what the second user's listener received (the LLM key, the note).
    expect((theirs as OtherUserListener).requests()).toEqual([]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ added: 1, confirmed: 1, failed: 0 });
  }, 240_000);
});

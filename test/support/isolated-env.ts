/**
 * The environment every test and benchmark process runs with: home, Claude Code and PAI folders,
 * XDG dirs and the state dir all inside `root`, and an empty settings file so that neither the
 * developer's ~/.config/graphiti-memory-sync/.env nor a config/.env in this checkout leaks in.
 * Free of vitest, so benchmarks can use it too.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testRunMarker } from './test-run.js';

export function isolatedEnv(root: string, serverUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  mkdirSync(root, { recursive: true });
  const envFile = join(root, 'empty.env');
  writeFileSync(envFile, '');
  return {
    HOME: root,
    PATH: process.env.PATH ?? '',
    PAI_DIR: join(root, 'pai'),
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
    XDG_CONFIG_HOME: join(root, 'xdg-config'),
    XDG_STATE_HOME: join(root, 'xdg-state'),
    MADEINOZ_KNOWLEDGE_ENV_FILE: envFile,
    MADEINOZ_KNOWLEDGE_STATE_DIR: join(root, 'state'),
    MADEINOZ_KNOWLEDGE_MCP_URL: serverUrl,
    MADEINOZ_KNOWLEDGE_GROUP_ID: 'main',
    ...testRunMarker(),
    ...extra,
  };
}

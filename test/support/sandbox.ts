/**
 * A throwaway home for integration tests: PAI memory, Claude Code auto memory and state
 * all live in a temp folder, so no test ever reads the developer's real ~/.claude or .env.
 * No vitest here: the benches use it too (useServerAndSandbox is the vitest wrapper).
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildConfig, type Config } from '../../src/lib/config/config.js';
import { isolatedEnv } from './isolated-env.js';
import { makeTempDirSync } from './temp-dir.js';

export interface Sandbox {
  root: string;
  env: Record<string, string>;
  config(extra?: Record<string, string>): Config;
  /** Writes a file under the PAI memory folder (relative to MEMORY/). */
  pai(rel: string, content: string | Buffer): string;
  /** Writes an auto-memory topic file for a project key. */
  auto(project: string, rel: string, content: string | Buffer): string;
  path(...parts: string[]): string;
  cleanup(): void;
}

let bump = 0;

export function makeSandbox(serverUrl: string, extraEnv: Record<string, string> = {}): Sandbox {
  const { dir: root, cleanup } = makeTempDirSync('gms-sandbox-');
  const env = isolatedEnv(root, serverUrl, {
    MADEINOZ_KNOWLEDGE_RETRIES: '1',
    MADEINOZ_KNOWLEDGE_TIMEOUT: '5000',
    MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '5000',
    ...extraEnv,
  });
  const write = (file: string, content: string | Buffer) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    // Distinct mtimes even within one clock tick, so the mtime+size shortcut sees every edit.
    const t = Date.now() / 1000 + ++bump / 1000;
    utimesSync(file, t, t);
    return file;
  };
  return {
    root,
    env,
    config: (extra = {}) => buildConfig({ ...env, ...extra }),
    pai: (rel, content) => write(join(root, 'pai', 'MEMORY', rel), content),
    auto: (project, rel, content) => write(join(root, 'claude', 'projects', project, 'memory', rel), content),
    path: (...parts) => join(root, ...parts),
    cleanup,
  };
}

export function learning(title: string, body: string, extra = ''): string {
  return `---\ncapture_type: LEARNING\ntimestamp: 2026-01-04 10:30:00 PST\ntags: [test]\n${extra}---\n# ${title}\n\n${body}\n`;
}

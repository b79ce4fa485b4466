/**
 * `watch` as a service: the text of a systemd user unit and of a launchd agent that run
 * `node <package>/dist/cli.js watch` directly (one process: the supervisor's SIGTERM reaches the
 * watcher itself, which stops cleanly; `npm run` or `tsx` in between left a child behind).
 *
 *   graphiti-memory-sync service --systemd > ~/.config/systemd/user/graphiti-memory-sync.service
 *   graphiti-memory-sync service --launchd > ~/Library/LaunchAgents/com.graphiti-memory-sync.watch.plist
 *
 * Settings: the service gets MADEINOZ_KNOWLEDGE_ENV_FILE pointing at the .env file in use when the
 * unit was generated (our .env syntax is dotenv's, not systemd's EnvironmentFile= syntax).
 */
import { launchdAgent as agent, systemdUserUnit as userUnit, type UserService } from '../util/service-units.js';

export interface ServiceSpec {
  /** Absolute path of the node binary. */
  node: string;
  /** Absolute path of dist/cli.js. */
  cli: string;
  /** The settings file the service should read, if any. */
  envFile?: string;
  /** PATH for the service (launchd starts with a minimal one). */
  path?: string;
  /** Log file for launchd's stdout/stderr (systemd uses the journal). */
  logFile?: string;
}

export const LAUNCHD_LABEL = 'com.graphiti-memory-sync.watch';

function watchService(spec: ServiceSpec): UserService {
  const env: Array<[string, string]> = [];
  if (spec.path !== undefined) env.push(['PATH', spec.path]);
  if (spec.envFile !== undefined) env.push(['MADEINOZ_KNOWLEDGE_ENV_FILE', spec.envFile]);
  return {
    description: 'graphiti-memory-sync watch: keep Claude Code memory files in Graphiti',
    launchdLabel: LAUNCHD_LABEL,
    argv: [spec.node, spec.cli, 'watch'],
    env,
    restartSec: 10,
    // watch stops its pass and saves state on SIGTERM; give it time before SIGKILL.
    stopTimeoutSec: 20,
    ...(spec.logFile === undefined ? {} : { logFile: spec.logFile }),
  };
}

/** systemd's environment for watch: the settings file only (systemd gives services a sane PATH). */
export function systemdUserUnit(spec: ServiceSpec): string {
  return userUnit({ ...watchService(spec), env: watchService({ ...spec, path: undefined }).env });
}

export function launchdAgent(spec: ServiceSpec): string {
  return agent(watchService(spec));
}

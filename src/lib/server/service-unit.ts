/**
 * The local server as a user service, started at login and restarted on failure: the text of a
 * systemd user unit (Linux) and of a launchd agent (macOS), both running `server run` in the
 * foreground, the same way the watch mode runs. The user installs the text; we print it and say how.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { launchdAgent as agent, systemdUserUnit, type UserService } from '../util/service-units.js';

export const SERVICE_NAME = 'graphiti-memory-sync-server';
export const LAUNCHD_LABEL = 'dev.graphiti-memory-sync.server';

export interface ServiceTarget {
  /** The node binary and the CLI script: ExecStart is `<node> <cli> server run`. */
  node: string;
  cli: string;
  /** PATH for the service, so it finds python3 for a first install. */
  path: string;
  home?: string;
}

function serverService(target: ServiceTarget): UserService {
  return {
    description: 'Graphiti MCP server with FalkorDB for graphiti-memory-sync',
    launchdLabel: LAUNCHD_LABEL,
    argv: [target.node, target.cli, 'server', 'run'],
    env: [['PATH', target.path]],
    restartSec: 5,
    // SIGTERM to the supervisor stops the MCP server and FalkorDB cleanly before it exits.
    stopTimeoutSec: 30,
    killMode: 'mixed',
    logFile: join(target.home ?? homedir(), 'Library', 'Logs', `${SERVICE_NAME}.log`),
  };
}

export function systemdUnit(target: ServiceTarget): string {
  return systemdUserUnit(serverService(target));
}

export function launchdAgent(target: ServiceTarget): string {
  return agent(serverService(target));
}

/** Where the unit goes and the commands that turn it on. */
export function serviceInstructions(platform: NodeJS.Platform, home: string): { file: string; enable: string[] } {
  if (platform === 'darwin') {
    const file = join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
    return { file, enable: [`launchctl bootstrap gui/$(id -u) ${file}`] };
  }
  return { file: join(home, '.config', 'systemd', 'user', `${SERVICE_NAME}.service`), enable: ['systemctl --user daemon-reload', `systemctl --user enable --now ${SERVICE_NAME}`] };
}

/** The command that stops, starts or restarts the user service (its manager stops `server run` with SIGTERM, a clean stop). */
export function serviceCommand(platform: NodeJS.Platform, action: 'stop' | 'start' | 'restart'): string {
  if (platform === 'darwin') {
    const target = `gui/$(id -u)/${LAUNCHD_LABEL}`;
    return action === 'stop' ? `launchctl kill SIGTERM ${target}` : `launchctl kickstart${action === 'restart' ? ' -k' : ''} ${target}`;
  }
  return `systemctl --user ${action} ${SERVICE_NAME}`;
}

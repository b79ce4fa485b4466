/**
 * The local server as a user service, started at login and restarted on failure: the text of a
 * systemd user unit (Linux) and of a launchd agent (macOS), both running `server run` in the
 * foreground, the same way the watch mode runs. The user installs the text; we print it and say how.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

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

/** systemd's own quoting: double quotes, with backslash, quote and % escaped. */
function systemdQuote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function systemdUnit(target: ServiceTarget): string {
  return `[Unit]
Description=Graphiti MCP server with FalkorDB for graphiti-memory-sync
After=network.target

[Service]
Type=simple
ExecStart=${[target.node, target.cli, 'server', 'run'].map(systemdQuote).join(' ')}
Environment=${systemdQuote(`PATH=${target.path}`)}
Restart=on-failure
RestartSec=5
# SIGTERM to the supervisor stops the MCP server and FalkorDB cleanly before it exits.
KillMode=mixed
TimeoutStopSec=30

[Install]
WantedBy=default.target
`;
}

export function launchdAgent(target: ServiceTarget): string {
  const home = target.home ?? homedir();
  const log = join(home, 'Library', 'Logs', `${SERVICE_NAME}.log`);
  const args = [target.node, target.cli, 'server', 'run'].map((a) => `    <string>${xmlEscape(a)}</string>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${args}
  </array>
  <key>EnvironmentVariables</key>
  <dict>
    <key>PATH</key>
    <string>${xmlEscape(target.path)}</string>
  </dict>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>StandardOutPath</key>
  <string>${xmlEscape(log)}</string>
  <key>StandardErrorPath</key>
  <string>${xmlEscape(log)}</string>
</dict>
</plist>
`;
}

/** Where the unit goes and the commands that turn it on. */
export function serviceInstructions(platform: NodeJS.Platform, home: string): { file: string; enable: string[] } {
  if (platform === 'darwin') {
    const file = join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
    return { file, enable: [`launchctl bootstrap gui/$(id -u) ${file}`] };
  }
  return { file: join(home, '.config', 'systemd', 'user', `${SERVICE_NAME}.service`), enable: ['systemctl --user daemon-reload', `systemctl --user enable --now ${SERVICE_NAME}`] };
}

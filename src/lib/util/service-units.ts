/**
 * The text of a user service: a systemd user unit (Linux) or a launchd agent (macOS) that runs one
 * of our commands in the foreground, restarted after a crash but not after a clean stop. `watch`
 * (install/service-units.ts) and the local Graphiti server (server/service-unit.ts) each describe
 * theirs with a `UserService`; the quoting and layout rules live only here.
 */
export interface UserService {
  /** For the unit's Description=. */
  description: string;
  /** launchd's Label. */
  launchdLabel: string;
  /** The full command: node binary, CLI script, arguments. */
  argv: string[];
  /** Environment for the service (PATH, settings file). */
  env: Array<[string, string]>;
  /** Seconds between a crash and the restart. */
  restartSec: number;
  /** Seconds the command gets to stop after SIGTERM before SIGKILL. */
  stopTimeoutSec: number;
  /** systemd KillMode=, when the service has children it stops itself. */
  killMode?: 'mixed';
  /** launchd's stdout/stderr file (systemd uses the journal). */
  logFile?: string;
}

/** One systemd argument: double-quoted, with systemd's escapes (`\\`, `"`, and `%` specifiers). */
function systemdQuote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function systemdUserUnit(s: UserService): string {
  return [
    '[Unit]',
    `Description=${s.description}`,
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${s.argv.map(systemdQuote).join(' ')}`,
    ...s.env.map(([k, v]) => `Environment=${systemdQuote(`${k}=${v}`)}`),
    'KillSignal=SIGTERM',
    ...(s.killMode === undefined ? [] : [`KillMode=${s.killMode}`]),
    `TimeoutStopSec=${s.stopTimeoutSec}`,
    'Restart=on-failure',
    `RestartSec=${s.restartSec}`,
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

export function launchdAgent(s: UserService): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${s.launchdLabel}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...s.argv.map((a) => `    <string>${xml(a)}</string>`),
    '  </array>',
    ...(s.env.length > 0 ? ['  <key>EnvironmentVariables</key>', '  <dict>', ...s.env.flatMap(([k, v]) => [`    <key>${k}</key>`, `    <string>${xml(v)}</string>`]), '  </dict>'] : []),
    '  <key>RunAtLoad</key>',
    '  <true/>',
    // Restart after a crash, not after a clean stop (launchctl bootout / SIGTERM).
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key>',
    `  <integer>${s.restartSec}</integer>`,
    '  <key>ExitTimeOut</key>',
    `  <integer>${s.stopTimeoutSec}</integer>`,
    ...(s.logFile !== undefined ? ['  <key>StandardOutPath</key>', `  <string>${xml(s.logFile)}</string>`, '  <key>StandardErrorPath</key>', `  <string>${xml(s.logFile)}</string>`] : []),
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

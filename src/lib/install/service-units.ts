/**
 * `watch` as a service: the text of a systemd user unit and of a launchd agent that run
 * `node <package>/dist/cli.js watch` directly (one process: the supervisor's SIGTERM reaches the
 * watcher itself, which stops cleanly; `npm run` or `tsx` in between left a child behind).
 *
 *   graphiti-memory-sync service systemd > ~/.config/systemd/user/graphiti-memory-sync.service
 *   graphiti-memory-sync service launchd > ~/Library/LaunchAgents/com.graphiti-memory-sync.watch.plist
 *
 * Settings: the service gets MADEINOZ_KNOWLEDGE_ENV_FILE pointing at the .env file in use when the
 * unit was generated (our .env syntax is dotenv's, not systemd's EnvironmentFile= syntax).
 */
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

/** One ExecStart argument: double-quoted, with systemd's escapes (`\\`, `"`, and `%` specifiers). */
function systemdArg(arg: string): string {
  return `"${arg.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

/** A `KEY=value` for Environment=, quoted the same way. */
function systemdEnv(key: string, value: string): string {
  return systemdArg(`${key}=${value}`);
}

export function systemdUserUnit(spec: ServiceSpec): string {
  const lines = [
    '[Unit]',
    'Description=graphiti-memory-sync watch: keep Claude Code memory files in Graphiti',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${[spec.node, spec.cli, 'watch'].map(systemdArg).join(' ')}`,
    ...(spec.envFile !== undefined ? [`Environment=${systemdEnv('MADEINOZ_KNOWLEDGE_ENV_FILE', spec.envFile)}`] : []),
    // watch stops its pass and saves state on SIGTERM; give it time before SIGKILL.
    'KillSignal=SIGTERM',
    'TimeoutStopSec=20',
    'Restart=on-failure',
    'RestartSec=10',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ];
  return lines.join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function launchdAgent(spec: ServiceSpec): string {
  const env: Array<[string, string]> = [];
  if (spec.path !== undefined) env.push(['PATH', spec.path]);
  if (spec.envFile !== undefined) env.push(['MADEINOZ_KNOWLEDGE_ENV_FILE', spec.envFile]);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${LAUNCHD_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...[spec.node, spec.cli, 'watch'].map((a) => `    <string>${xml(a)}</string>`),
    '  </array>',
    ...(env.length > 0 ? ['  <key>EnvironmentVariables</key>', '  <dict>', ...env.flatMap(([k, v]) => [`    <key>${k}</key>`, `    <string>${xml(v)}</string>`]), '  </dict>'] : []),
    '  <key>RunAtLoad</key>',
    '  <true/>',
    // Restart after a crash, not after a clean stop (launchctl bootout / SIGTERM).
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key>',
    '  <integer>10</integer>',
    '  <key>ExitTimeOut</key>',
    '  <integer>20</integer>',
    ...(spec.logFile !== undefined ? ['  <key>StandardOutPath</key>', `  <string>${xml(spec.logFile)}</string>`, '  <key>StandardErrorPath</key>', `  <string>${xml(spec.logFile)}</string>`] : []),
    '</dict>',
    '</plist>',
    '',
  ];
  return lines.join('\n');
}

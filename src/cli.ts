#!/usr/bin/env node
/**
 * graphiti-memory-sync command line.
 *
 *   sync [--dry-run] [--json] [--force] [--source NAME] [--max N] [--wait MS] [--replace-prior]
 *   status [--json]
 *   health [--json] [--deep] [--timeout MS]   (alias: doctor)
 *   context [--cwd DIR] [--refresh] [--omitted]
 *   install [--scope user|project|local] [--dry-run] [--with-mcp]
 *   uninstall [--scope user|project|local] [--dry-run]
 *   watch [--poll] [--json]
 *   server start|stop|status|logs|upgrade|run|service  (src/lib/server/server-command.ts)
 *
 * Exit codes: 0 success; 1 something failed or is still unsent (or the server is
 * unhealthy); 2 usage or configuration error; 3 `context` outside any project. Results go to stdout, progress and
 * diagnostics to stderr. Each command's modules are imported lazily so that a quick
 * `status` does not pay for the sync engine.
 *
 * Size: argument parsing (node:util parseArgs), the usage text and one small handler per command;
 * each handler imports its module lazily, so a command loads only what it runs.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from './lib/config/config.js';
import { createLogger, logFilePath, type Logger } from './lib/util/log.js';

const USAGE = `Usage: graphiti-memory-sync <command> [options]

Commands:
  sync       Send new and changed memory files to Graphiti, delete removed ones
             --dry-run  show what would happen, change nothing
             --json     print one JSON object with the counts
             --force    re-read every file, retry failed files
             --source NAME  only this source (pai, auto-memory, or an extra source)
             --max N    send at most N files this run
             --wait MS  wait up to MS for queued episodes to be confirmed
             --replace-prior  send ours for notes the madeinoz hook sent, even
                        unchanged ones, and delete its episodes once ours are in
  status     Counts by status, oldest pending, failures, server health [--json]
  health     Check the Graphiti server: get_status, its database against
             MADEINOZ_KNOWLEDGE_DB, a one-word search per configured group;
             names the likely cause and the fix of each failure [--json]
             --deep     also send one test episode, wait for it to be stored, delete it
             --timeout MS  how long --deep waits (default 90000)
  doctor     Same as health
  context    Print what the SessionStart hook would inject [--cwd DIR] [--refresh]
             --omitted  also list on stderr what the block left out and why
             outside a git repository or Claude Code project: one line on
             stderr, exit 3 (name the project with --cwd DIR)
  install    Add the hooks to Claude Code settings [--scope user|project|local] [--dry-run] [--with-mcp]
  uninstall  Remove our hooks from Claude Code settings [--scope ...] [--dry-run]
  watch      Keep the memory folders in sync while you work [--poll] [--json]
  service    Print a service definition that runs watch: --systemd (user unit) or --launchd (agent)
  server     Run a local Graphiti server without Docker: start|stop|status|logs|upgrade|service

Exit codes: 0 ok, 1 failed or unsent work remains (or the server is unhealthy),
2 usage or configuration error, 3 context: no project at this folder.
Settings: see config/.env.example.`;

/** `context` run where there is no project to speak of (documented in USAGE and the README). */
export const EXIT_NO_PROJECT = 3;

export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

const COMMAND_ALIASES: Record<string, string> = { doctor: 'health' };

const COMMAND_OPTIONS: Record<string, Options> = {
  sync: {
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    force: { type: 'boolean' },
    source: { type: 'string' },
    max: { type: 'string' },
    wait: { type: 'string' },
    'replace-prior': { type: 'boolean' },
  },
  status: { json: { type: 'boolean' } },
  health: { json: { type: 'boolean' }, deep: { type: 'boolean' }, timeout: { type: 'string' } },
  context: { cwd: { type: 'string' }, refresh: { type: 'boolean' }, omitted: { type: 'boolean' } },
  install: { scope: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'with-mcp': { type: 'boolean' } },
  uninstall: { scope: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'with-mcp': { type: 'boolean' } },
  watch: { poll: { type: 'boolean' }, json: { type: 'boolean' } },
  service: { systemd: { type: 'boolean' }, launchd: { type: 'boolean' } },
};

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  isTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
}

const defaultIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  isTTY: process.stderr.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
};

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number, got "${value}"`);
  return Number(value);
}

export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const [given, ...rest] = argv;
  const command = given === undefined ? undefined : (COMMAND_ALIASES[given] ?? given);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === 'server') {
    const { runServerCommand } = await import('./lib/server/server-command.js');
    return runServerCommand(rest, io);
  }
  const spec = COMMAND_OPTIONS[command];
  if (spec === undefined) {
    io.stderr(`Unknown command "${command}".\n\n${USAGE}\n`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({ args: rest, options: { ...spec, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
    values = parsed.values as Record<string, string | boolean | undefined>;
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  let config: Config;
  try {
    config = await loadConfig({ env: io.env });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`Configuration error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  for (const warning of config.warnings) io.stderr(`warning: ${warning}\n`);
  const logger = createLogger({ file: logFilePath(config.stateDir), level: config.logLevel, base: { cmd: command } });
  try {
    switch (command) {
      case 'sync':
        return await commandSync(config, values, io, logger);
      case 'status':
        return await commandStatus(config, values, io, logger);
      case 'health':
        return await commandHealth(config, values, io, logger);
      case 'context':
        return await commandContext(config, values, io, logger);
      case 'install':
      case 'uninstall':
        return await commandInstall(command, config, values, io);
      case 'watch':
        return await commandWatch(config, values, io, logger);
      case 'service':
        return await commandService(config, values, io);
      default:
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError || (error as Error).name === 'UnknownSourceError' || error instanceof ConfigError) {
      io.stderr(`${(error as Error).message}\n`);
      return 2;
    }
    logger.error('command failed', { error: error as Error });
    io.stderr(`Error: ${(error as Error).message}\n`);
    return 1;
  }
}

async function commandSync(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo, logger: Logger): Promise<number> {
  const { runSync, isClean } = await import('./lib/sync/sync.js');
  const json = values.json === true;
  const max = wholeNumber('max', values.max as string | undefined);
  const waitMs = wholeNumber('wait', values.wait as string | undefined);
  const progress = io.isTTY && !json ? progressBar(io) : undefined;
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const summary = await runSync(config, {
      dryRun: values['dry-run'] === true,
      force: values.force === true,
      replacePrior: values['replace-prior'] === true,
      ...(typeof values.source === 'string' ? { source: values.source } : {}),
      ...(max === undefined ? {} : { max }),
      ...(waitMs === undefined ? {} : { waitMs }),
      // A hook worker or watch pass may hold the state lock for a while: wait, and say for whom.
      lockTimeoutMs: 10 * 60_000,
      lockLabel: 'cli sync',
      onLockWait: (holder) => io.stderr(`waiting for another sync to finish (${holder})…\n`),
      logger,
      signal: controller.signal,
      ...(progress === undefined ? {} : { onProgress: progress }),
    });
    progress?.({ done: 0, total: 0, end: true });
    if (json) {
      io.stdout(`${JSON.stringify(summary)}\n`);
    } else {
      const { formatSyncSummary } = await import('./commands/reports.js');
      io.stdout(formatSyncSummary(summary));
    }
    return isClean(summary) ? 0 : 1;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

function progressBar(io: CliIo): (p: { done: number; total: number; file?: string; end?: boolean }) => void {
  let shown = false;
  return (p) => {
    if (p.end === true) {
      if (shown) io.stderr('\r\x1b[2K');
      return;
    }
    if (p.total === 0) return;
    shown = true;
    const width = 24;
    const filled = Math.round((p.done / p.total) * width);
    const name = p.file === undefined ? '' : ` ${p.file.length > 40 ? `…${p.file.slice(-39)}` : p.file}`;
    io.stderr(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total}${name}`);
  };
}

async function commandStatus(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo, logger: Logger): Promise<number> {
  const { collectStatus, formatStatus } = await import('./commands/reports.js');
  const status = await collectStatus(config, logger);
  if (values.json === true) io.stdout(`${JSON.stringify(status)}\n`);
  else io.stdout(formatStatus(status));
  return status.counts.failed === 0 && status.server.ok ? 0 : 1;
}

async function commandHealth(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo, logger: Logger): Promise<number> {
  const { runDoctor, formatDoctor } = await import('./commands/health.js');
  const timeout = wholeNumber('timeout', values.timeout as string | undefined);
  const report = await runDoctor(config, { logger, deep: values.deep === true, ...(timeout === undefined ? {} : { deepTimeoutMs: timeout }) });
  if (values.json === true) io.stdout(`${JSON.stringify(report)}\n`);
  else io.stdout(formatDoctor(report, config));
  return report.ok ? 0 : 1;
}

async function commandContext(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo, logger: Logger): Promise<number> {
  const { contextForCli, formatOmitted, noProjectMessage } = await import('./lib/context/cli.js');
  const refresh = values.refresh === true;
  const result = await contextForCli(config, {
    cwd: typeof values.cwd === 'string' ? values.cwd : io.cwd,
    refresh,
    logger,
  });
  if (!result.known) {
    io.stderr(`${noProjectMessage(result.project)}\n`);
    return EXIT_NO_PROJECT;
  }
  // stdout is exactly what the hook injects; what was left out goes to stderr.
  io.stdout(result.text === '' ? '' : `${result.text}\n`);
  if (values.omitted === true) io.stderr(formatOmitted(result));
  return 0;
}

async function commandInstall(command: 'install' | 'uninstall', config: Config, values: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  const scope = (values.scope as string | undefined) ?? 'user';
  if (scope !== 'user' && scope !== 'project' && scope !== 'local') throw new UsageError(`--scope must be user, project or local, got "${scope}"`);
  const install = await import('./lib/install/install.js');
  const options = { scope, dryRun: values['dry-run'] === true, withMcp: values['with-mcp'] === true, cwd: io.cwd, env: io.env, config, stateDir: config.stateDir } as const;
  const result = command === 'install' ? await install.runInstall(options) : await install.runUninstall(options);
  io.stdout(install.formatInstallResult(result));
  if (command === 'install' && config.mcpUrlSource === 'default') {
    io.stdout(`No Graphiti server is configured (MADEINOZ_KNOWLEDGE_MCP_URL unset). No Docker? Run one with: graphiti-memory-sync server start\n`);
  }
  return 0;
}

async function commandWatch(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo, logger: Logger): Promise<number> {
  const { runWatch } = await import('./lib/watch/run.js');
  return runWatch(config, { poll: values.poll === true, json: values.json === true, io, logger });
}

/** Prints a systemd user unit or a launchd agent running `node <this package>/dist/cli.js watch`. */
async function commandService(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  if ((values.systemd === true) === (values.launchd === true)) throw new UsageError('service needs exactly one of --systemd or --launchd');
  const units = await import('./lib/install/service-units.js');
  const { packageRoot } = await import('./lib/util/package-root.js');
  const { join } = await import('node:path');
  const spec = {
    node: process.execPath,
    cli: join(packageRoot(), 'dist', 'cli.js'),
    ...(config.envFile !== undefined ? { envFile: config.envFile } : {}),
    ...(io.env.PATH !== undefined ? { path: io.env.PATH } : {}),
    logFile: join(config.stateDir, 'logs', 'watch-service.log'),
  };
  io.stdout(values.systemd === true ? units.systemdUserUnit(spec) : units.launchdAgent(spec));
  return 0;
}

// Run when executed directly (node dist/cli.js, tsx src/cli.ts, or the npm bin symlink).
const invokedDirectly = (() => {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  return /(?:^|[\\/])(cli\.(?:js|ts)|graphiti-memory-sync)$/.test(entry);
})();

if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`Error: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}

/**
 * graphiti-memory-sync command line (`main`), which src/cli.ts runs once the Node.js is new enough.
 *
 *   sync [--dry-run] [--json] [--force] [--source NAME] [--max N] [--wait MS] [--replace-prior]
 *   status [--json]
 *   health [--json] [--deep] [--timeout MS]   (alias: doctor)
 *   context [--cwd DIR] [--refresh] [--omitted]
 *   install [--scope user|project|local] [--dry-run] [--with-mcp]
 *   uninstall [--scope user|project|local] [--dry-run]
 *   watch [--poll] [--json]
 *   server start|stop|restart|status|logs|upgrade|run|service  (src/lib/server/server-command.ts)
 *
 * Exit codes: 0 success; 1 something failed or is still unsent (or the server is
 * unhealthy); 2 usage or configuration error; 3 `context` outside any project. Results go to stdout, progress and
 * diagnostics to stderr. Each command's modules are imported lazily so that a quick
 * `status` does not pay for the sync engine.
 *
 * Size: argument parsing (node:util parseArgs), the usage text and one small handler per command;
 * each handler imports its module lazily, so a command loads only what it runs.
 */
import { parseArgs } from 'node:util';
import { commandHelp, globalHelp, serverHelp, serverUsageProblem, unknownCommand, usageProblem, version, wantsHelp } from './commands/help.js';
import { findCommand, parseArgsOptions } from './commands/spec.js';
import { ConfigError, loadConfig, settingsFilesOf, type Config } from './lib/config/config.js';
import { createLogger, logFilePath, type Logger } from './lib/util/log.js';
import { cli } from './lib/util/install-route.js';

/** `context` run where there is no project to speak of (documented in USAGE and the README). */
export const EXIT_NO_PROJECT = 3;

export class UsageError extends Error {
  override name = 'UsageError';
}

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
  if (given === undefined || given === '--help' || given === '-h' || given === 'help') {
    io.stdout(`${globalHelp()}\n`);
    return given === undefined ? 2 : 0;
  }
  if (given === '--version' || given === '-V' || given === 'version') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const spec = findCommand(given);
  if (spec === undefined) {
    io.stderr(`${unknownCommand(given)}\n`);
    return 2;
  }
  const command = spec.name;
  if (command === 'server') {
    const help = serverHelp(rest);
    if (help !== undefined) {
      io.stdout(`${help.text}\n`);
      return help.code;
    }
    const { runServerCommand, parseServerArgs } = await import('./lib/server/server-command.js');
    try {
      parseServerArgs(rest);
    } catch (error) {
      io.stderr(`${serverUsageProblem(rest, (error as Error).message)}\n`);
      return 2;
    }
    return runServerCommand(rest, io);
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({ args: rest, options: parseArgsOptions(spec), strict: true, allowPositionals: false });
    values = parsed.values as Record<string, string | boolean | undefined>;
  } catch (error) {
    // --help wins over a mistake elsewhere on the line: the user is asking what is allowed.
    if (wantsHelp(rest)) {
      io.stdout(`${commandHelp(spec)}\n`);
      return 0;
    }
    io.stderr(`${usageProblem(spec, (error as Error).message)}\n`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(`${commandHelp(spec)}\n`);
    return 0;
  }
  let config: Config;
  try {
    config = await loadConfig({ env: io.env });
  } catch (error) {
    if (error instanceof ConfigError) {
      const { configErrorMessage } = await import('./commands/config-error.js');
      io.stderr(`${configErrorMessage(error.message, error.variable, io.env)}\n`);
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
      case 'pull':
        return await commandPull(config, values, io, logger);
      case 'link':
        return await commandLink(config, values, io);
      case 'origin':
        return await commandOrigin(config, values, io);
      case 'service':
        return await commandService(config, values, io);
      default:
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${usageProblem(spec, error.message)}\n`);
      return 2;
    }
    if ((error as Error).name === 'UnknownSourceError' || (error as Error).name === 'NoteKeyError' || error instanceof ConfigError) {
      io.stderr(`${(error as Error).message}\n`);
      return 2;
    }
    logger.error('command failed', { error: error as Error });
    io.stderr(`Error: ${(error as Error).message}\n`);
    const { nextStepLine } = await import('./commands/next-step.js');
    const step = nextStepLine((error as Error).message, config);
    if (step !== undefined) io.stderr(`  ${step}\n`);
    return 1;
  }
}

async function commandSync(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo, logger: Logger): Promise<number> {
  const json = values.json === true;
  // Everything the command prints with is loaded before the sync starts, not after: a `sync --wait`
  // runs for minutes, and an upgrade meanwhile replaces the files a later import() would load
  // (a newer module under this older process, or none at all while npm writes the new ones).
  const [{ runSync, isClean }, reports, copyQuestion] = await Promise.all([import('./lib/sync/sync.js'), json ? undefined : import('./commands/reports.js'), json ? undefined : import('./lib/sync/origin-choice.js')]);
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
      releaseHeld: values['release-held'] === true,
      ...(typeof values.source === 'string' ? { source: values.source } : {}),
      ...(max === undefined ? {} : { max }),
      ...(waitMs === undefined ? {} : { waitMs }),
      // A hook worker or watch pass may hold the state lock for a while: wait, and say for whom.
      lockTimeoutMs: 10 * 60_000,
      lockLabel: 'cli sync',
      onLockWait: (holder) => io.stderr(`waiting for another sync to finish (${holder}); \`${cli()} status\` says whether it still runs and what to do…\n`),
      logger,
      signal: controller.signal,
      ...(progress === undefined ? {} : { onProgress: progress }),
    });
    progress?.({ done: 0, total: 0, end: true });
    // What the graph lost is sent again now: the next session and `status` need not say to (FORCE_LOOK).
    // Not by a run of one source (--source): it looks at that source's notes only.
    if (values.force === true && values.source === undefined && !summary.dryRun && summary.serverReachable) (await import('./lib/context/graph-problem.js')).clearEmptiedGraph(config.stateDir);
    // What a listing of this run no longer showed: `status` and the next session say the step (sync/force-look.ts
    // LOST_SEEN_IN_PASSING), for as long as those notes are there and not sent again (graph-problem.ts LOST_OWNS_ITS_NOTES);
    // said in the log when it cannot be recorded: the sync is done, its summary is still printed (lost-notes.ts).
    else if (!summary.dryRun) await (await import('./lib/context/lost-notes.js')).recordLostAfterSync(config.stateDir, summary.lostSeen, logger);
    if (json) {
      io.stdout(`${JSON.stringify(summary)}\n`);
    } else if (reports !== undefined) {
      io.stdout(reports.formatSyncSummary(summary, config));
      // Deletions held as another machine's (sync/copy-hold.ts) are no failure, but the user is the one to settle them.
      const question = copyQuestion === undefined ? undefined : copyQuestion.originQuestion(await copyQuestion.originStanding(config));
      if (question !== undefined) io.stdout(`Two machines with one origin: ${question}\n`);
    }
    // A dry run plans work: pending work is its answer, not a failure (exit 0 unless a file failed).
    if (summary.dryRun) return summary.failed === 0 ? 0 : 1;
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
  // stdout is exactly what the hook injects; what was left out, and an empty block's next step, go to stderr.
  if (result.keptBetweenVersions !== undefined) io.stderr(`kept the last good block: ${result.keptBetweenVersions} note(s) of this project are between their old and new version in the graph (docs/semantics.md); it is rebuilt once they are in\n`);
  if (result.text === '') {
    const { emptyContextHint } = await import('./commands/messages.js');
    io.stderr(`${emptyContextHint({ projectName: result.project.name, refreshed: refresh, builtAt: result.builtAt, omitted: result.omitted?.length ?? 0 })}\n`);
  } else {
    io.stdout(`${result.text}\n`);
  }
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
  if (command === 'uninstall' && !install.installRefused(result)) {
    const { toolCopies } = await import('./lib/install/copies.js');
    const { liveServerUrl } = await import('./lib/config/server-runtime.js');
    const { whatStays } = await import('./commands/uninstall-report.js');
    const server = liveServerUrl(config.stateDir);
    const copies = toolCopies({ env: { ...io.env, CLAUDE_CONFIG_DIR: config.claudeConfigDir }, cwd: io.cwd });
    for (const line of whatStays({ copies, scope, ...(server === undefined ? {} : { liveServerUrl: server }) })) io.stdout(`  ${line}\n`);
  }
  if (command === 'install' && config.mcpUrlSource === 'default') {
    io.stdout(`No Graphiti server is configured (MADEINOZ_KNOWLEDGE_MCP_URL unset). No Docker? Run one with: ${cli()} server start\n`);
  }
  return install.installRefused(result) ? 1 : 0;
}

async function commandWatch(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo, logger: Logger): Promise<number> {
  const { runWatch } = await import('./lib/watch/run.js');
  const { nextStepLine } = await import('./commands/next-step.js');
  // While the server is down, the watch says what to do as `sync` does (once per outage).
  // Each pass takes up the settings as they stand then (settings added, removed, a new server or
  // group), and a change of a settings file owes a pass (watch/settings-change.ts has the rule).
  const settings = { reload: () => loadConfig({ env: io.env }), files: (current: Config) => settingsFilesOf(current, io.env) };
  return runWatch(config, { poll: values.poll === true, json: values.json === true, io, logger, nextStep: (serverError, current) => nextStepLine(serverError, current), watcher: { settings } });
}

async function commandPull(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo, logger: Logger): Promise<number> {
  const { runPull } = await import('./lib/pull/pull.js');
  const { formatPullReport } = await import('./commands/pull-report.js');
  if (values.init === true) {
    const { ensureNoteKey } = await import('./lib/state/note-key.js');
    if (ensureNoteKey(config.stateDir).created) io.stderr(`made a note key for this machine (link another machine: \`${cli()} link\`)\n${await signingNotice(config)}`);
  }
  const report = await runPull(config, {
    logger,
    all: values.all === true,
    ...(typeof values.to === 'string' ? { to: values.to } : {}),
    projectDirs: typeof values.cwd === 'string' ? [values.cwd] : [io.cwd],
    lockTimeoutMs: 10 * 60_000,
  });
  if (values.json === true) io.stdout(`${JSON.stringify(report)}\n`);
  else io.stdout(formatPullReport(report));
  // One origin on two machines: pull takes the other machine's notes at this machine's paths (the same checkout path) for this one's own, and brings none of them (sync/copy-hold.ts).
  if (report.linked && values.json !== true) {
    const { sharedOriginPullHint, originStanding } = await import('./lib/sync/origin-choice.js');
    const hint = sharedOriginPullHint(await originStanding(config));
    if (hint !== undefined) io.stdout(`Next: ${hint}\n`);
  }
  if (!report.linked) return 2;
  return report.conflicts.length === 0 ? 0 : 1;
}

async function commandLink(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  const keys = await import('./lib/state/note-key.js');
  if (values.import === true) {
    const text = await readStdin();
    const result = await keys.importNoteKey(config.stateDir, text, { replace: values.replace === true });
    io.stdout(result.same ? 'This machine already has this key: it is linked.\n' : `Linked: this machine now signs and pulls notes with the imported key (${keys.noteKeyPath(config.stateDir)}).\nNext: ${cli()} pull\n`);
    io.stdout(await signingNotice(config));
    return 0;
  }
  if (values.new === true) {
    await keys.replaceNoteKey(config.stateDir);
    io.stdout('Made a new note key in place of the old one. Import it on each of your other machines (`link --export` here, `link --import --replace` there); each machine\'s next sync re-signs its notes with it.\n');
    io.stdout(await signingNotice(config));
    return 0;
  }
  const { key, created } = keys.ensureNoteKey(config.stateDir);
  if (values.export === true) {
    io.stdout(`${keys.formatNoteKey(key)}\n`);
    return 0;
  }
  io.stdout(
    `${created ? 'Made a note key' : 'This machine has a note key'} (${keys.noteKeyPath(config.stateDir)}, mode 0600, never sent to the server).\n` +
      `To link another machine: run \`${cli()} link --export\` here, and \`${cli()} link --import\` there, pasting the line (then \`pull\`).\n` +
      'Whoever holds the key can write notes into your memory on every linked machine: move it only over a channel you trust.\n',
  );
  io.stdout(await signingNotice(config));
  return 0;
}

async function commandOrigin(config: Config, values: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  const choice = await import('./lib/sync/origin-choice.js');
  const { originStandingText } = await import('./commands/reports.js');
  if (values.keep === true && values.split === true) throw new UsageError('--keep and --split say opposite things: give one');
  try {
    if (values.keep === true) {
      const released = await choice.keepOrigin(config);
      io.stdout(`Kept: this machine and the one its origin or state came from are one memory (origin ${config.origin}).${released === 0 ? '' : ` The next sync deletes the ${released} episode(s) held until now.`}\nNext: ${cli()} sync\n`);
      return 0;
    }
    if (values.split === true) {
      const split = await choice.splitOrigin(config);
      io.stdout(`Split: this machine's origin is now ${split.origin}; the other machine keeps ${config.origin}.${split.stateAside === undefined ? '' : ` The copied state is kept aside in ${split.stateAside}.`} The next sync sends this machine's notes under the new origin${split.retired === 0 ? '' : ` and deletes the ${split.retired} episode(s) it sent under the shared one${split.handOver === 0 ? '' : ` (${split.handOver} of them sent again beside the other machine's edit: deleted only if that machine has not taken them back by a revert)`}`}; nothing of the other machine's is touched. A \`watch\` running here keeps the old origin until it is restarted.\nNext: ${cli()} sync\n`);
      return 0;
    }
  } catch (error) {
    if (error instanceof choice.OriginChoiceError) {
      io.stderr(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const standing = await choice.originStanding(config);
  io.stdout(values.json === true ? `${JSON.stringify(standing)}\n` : originStandingText(standing));
  return standing.undecided ? 1 : 0;
}

/** After a key is put in place: how many notes the next sync re-sends once, signed (empty when none). */
async function signingNotice(config: Config): Promise<string> {
  const { loadState } = await import('./lib/state/state.js');
  const { countUnsigned } = await import('./lib/sync/note-signing.js');
  const { unsignedLine } = await import('./commands/reports.js');
  const { state } = await loadState(config.stateDir, { readOnly: true });
  const n = await countUnsigned(config, state);
  return n === 0 ? '' : `Signing: ${unsignedLine(n)}.\n`;
}

/** All of stdin (a pasted key, or a pipe). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
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

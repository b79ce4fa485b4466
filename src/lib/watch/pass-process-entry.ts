/**
 * The child process that runs the watcher's sync passes (see pass-process.ts), one at a time,
 * exactly as the watcher used to run them itself: `runSync(config, {logger, signal,
 * lockTimeoutMs, lockLabel: 'watch'})`. The engine takes the state lock for the pass only, so the
 * one-writer rule holds as before. Log lines go to the watcher's logger (one log file, one
 * writer); results and errors go back as messages (pass-protocol.ts).
 *
 * Ending: the watcher closes the channel when it no longer needs the child (idle, stop) or when it
 * dies; so do SIGINT and SIGTERM (a terminal's Ctrl-C reaches the whole process group; a service
 * manager's stop, the whole unit). Either way a running pass is aborted (its state saved) and the
 * child exits once it has ended.
 */
import { withCurrentOrigin, type Config } from '../config/config.js';
import { pullDue, runPull, WATCH_PULL_EVERY_MS } from '../pull/pull.js';
import { recordLostAfterSync } from '../context/lost-notes.js';
import { recordSetAsideNote } from '../context/set-aside-record.js';
import { runSync } from '../sync/sync.js';
import { levelEnabled, type LogFields, type Logger } from '../util/log.js';
import { sendableError, sendableFields, type FromPassProcess, type LogLevelName, type PassProcessInit, type ToPassProcess } from './pass-protocol.js';

if (process.send === undefined) throw new Error('pass-process-entry runs only as the watcher\'s child (pass-process.ts starts it)');

function post(message: FromPassProcess): void {
  if (process.connected !== true) return;
  try {
    process.send?.(message);
  } catch (error) {
    // Something in it does not clone (a log field): say so rather than lose the message.
    if (message.type === 'log') process.send?.({ ...message, fields: { unsendable: (error as Error).message } } satisfies FromPassProcess);
    else if (message.type === 'done') process.send?.({ type: 'failed', id: message.id, error: sendableError(error) } satisfies FromPassProcess);
    else throw error;
  }
}

function childLogger(base: LogFields): Logger {
  const write = (level: LogLevelName) => (msg: string, fields?: LogFields) => {
    if (init !== undefined && !levelEnabled(init.logLevel, level)) return;
    post({ type: 'log', level, msg, base, ...(fields === undefined ? {} : { fields: sendableFields(fields) }) });
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), child: (fields) => childLogger({ ...base, ...fields }), file: undefined };
}

let init: PassProcessInit | undefined;
const logger = childLogger({});
const running = new Map<number, { controller: AbortController; done: Promise<void> }>();
let ending = false;

function runPass(id: number, settings: Config): void {
  const controller = new AbortController();
  if (init === undefined || ending) {
    post({ type: 'failed', id, error: sendableError(new Error(init === undefined ? 'pass before init' : 'the pass process is ending')) });
    return;
  }
  // The watch's settings as they stand at this pass (watch.ts reads them again); our origin may be kept since (config.ts withCurrentOrigin).
  const config = withCurrentOrigin(settings);
  const lockTimeoutMs = init.lockTimeoutMs;
  const done = runSync(config, { logger, signal: controller.signal, lockTimeoutMs, lockLabel: 'watch' }).then(
    async (summary) => {
      // What a listing of the pass no longer showed: the next session is told the step (sync/force-look.ts LOST_SEEN_IN_PASSING),
      // while those notes are there and not sent again (graph-problem.ts LOST_OWNS_ITS_NOTES).
      await recordLostAfterSync(config.stateDir, summary.lostSeen, logger);
      // The person's notes from their other machines (issue 42), at most every few minutes: a pull lists the whole group.
      if (summary.serverReachable && !controller.signal.aborted && pullDue(config.stateDir, Date.now(), WATCH_PULL_EVERY_MS)) {
        await runPull(config, { logger: logger.child({ component: 'pull' }), signal: controller.signal, lockTimeoutMs }).then(
          (r) => {
            if (r.linked) logger.info('pull done', { written: r.written.length, conflicts: r.conflicts.length, removed: r.removed.length, held: r.held.length, unverified: r.unverified });
            // Removed while its group listed nothing at all, its text kept aside: the next session is told (set-aside-record.ts SET_ASIDE_TOLD_FROM_EVERY_PULL).
            // A line that cannot be written must not take the pass with it (uncaught here, it ended the pass process unanswered).
            try {
              recordSetAsideNote(config.stateDir, r.setAside);
            } catch (error) {
              logger.warn('could not record for the next session the notes pull set aside; `status` lists them', { error: error instanceof Error ? error.message : String(error) });
            }
          },
          (error: unknown) => logger.warn('pull failed', { error: error instanceof Error ? error.message : String(error) }),
        );
      }
      post({ type: 'done', id, summary });
    },
    (error: unknown) => post({ type: 'failed', id, error: sendableError(error) }),
  );
  running.set(id, { controller, done });
  void done.finally(() => running.delete(id));
}

/** Aborts what runs, waits for it (state saved), exits. */
function end(reason: string): void {
  if (ending) return;
  ending = true;
  const passes = [...running.values()];
  for (const pass of passes) pass.controller.abort(new Error(reason));
  void Promise.allSettled(passes.map((p) => p.done)).then(() => process.exit(0));
}

process.on('message', (message: ToPassProcess) => {
  if (message.type === 'init') init = message.data;
  else if (message.type === 'run') runPass(message.id, message.config);
  else running.get(message.id)?.controller.abort(new Error(message.reason));
});
process.on('disconnect', () => end('the watcher stopped'));
process.on('SIGINT', () => end('interrupted (SIGINT)'));
process.on('SIGTERM', () => end('terminated (SIGTERM)'));

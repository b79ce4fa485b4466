/**
 * The three output modes of `watch` (TTY status line, plain log lines, JSON lines), driven by a
 * fake pass over a real (empty) folder, plus polling mode with the real engine.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildConfig, type Config } from '../../src/lib/config/config.js';
import type { SyncSummary } from '../../src/lib/sync/sync.js';
import { describePass, jsonLine, textLine } from '../../src/lib/watch/events.js';
import { runWatch } from '../../src/lib/watch/run.js';
import { createWatcher, type PassEvent } from '../../src/lib/watch/watch.js';
import { fakeSummary as summary, nextEvent } from './helpers.js';
import { parseJsonLines } from '../support/json-lines.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { cli } from '../../src/lib/util/install-route.js';


let root: string;
useTempDir('gms-watch-out-', (d) => (root = d));
let config: Config;

beforeEach(() => {
  mkdirSync(join(root, 'notes'));
  config = buildConfig({
    HOME: root,
    PAI_DIR: join(root, 'pai'),
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
    MADEINOZ_KNOWLEDGE_STATE_DIR: join(root, 'state'),
    MADEINOZ_KNOWLEDGE_MCP_URL: 'http://127.0.0.1:9/mcp',
    MADEINOZ_KNOWLEDGE_SYNC_PAI: 'false',
    MADEINOZ_KNOWLEDGE_RETRIES: '0',
    MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY: 'false',
    MADEINOZ_KNOWLEDGE_SYNC_PATHS: `notes=${join(root, 'notes')}`,
  });
});

/** Runs the CLI entry with a fake pass until `untilPasses` passes were reported, then aborts it. */
async function runWith(mode: { json?: boolean; isTTY: boolean }, passes: SyncSummary[], extra: { nextStep?: (serverError: string) => string | undefined } = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const controller = new AbortController();
  let n = 0;
  const code = await runWatch(config, {
    json: mode.json === true,
    io: { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t), isTTY: mode.isTTY },
    signal: controller.signal,
    handleSignals: false,
    ...extra,
    watcher: {
      confirmBackoff: { initialMs: 1, maxMs: 1 },
      serverBackoff: { initialMs: 1, maxMs: 1 },
      runPass: async () => {
        const s = passes[n++] ?? summary();
        if (n >= passes.length) setImmediate(() => controller.abort());
        return s;
      },
    },
  });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

describe('watch output', () => {
  it('non-TTY: one plain line per pass on stdout', async () => {
    const r = await runWith({ isTTY: false }, [summary({ added: 1, queued: 1 }), summary({ confirmed: 1 })]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    // Which folders, not only how many (issue 30).
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT.*Z watching 1 folder: \/.+$/);
    expect(lines[1]).toMatch(/^\d{4}-.*Z pass: new 1, changed 0, removed 0 \| confirmed 0, queued 1, pending 0$/);
    expect(lines[2]).toMatch(/Z pass: new 0, changed 0, removed 0 \| confirmed 1, queued 0, pending 0$/);
    expect(lines.at(-1)).toMatch(/Z stopped after 2 passes$/);
    expect(r.stderr).toBe('');
  });

  it('--json: one JSON object per line per event', async () => {
    const r = await runWith({ json: true, isTTY: true }, [summary({ serverReachable: false, pending: 2, serverError: 'connect ECONNREFUSED' }), summary({ added: 2, confirmed: 2 })]);
    const events = parseJsonLines(r.stdout);
    expect(events.map((e) => e.event)).toEqual(['ready', 'pass', 'backoff', 'pass', 'stopped']);
    expect(events[1]).toMatchObject({ reason: 'initial', pending: 2, serverReachable: false });
    expect(events[2]).toMatchObject({ reason: 'server', attempt: 1, message: 'connect ECONNREFUSED' });
    expect(events[3]).toMatchObject({ reason: 'retry', added: 2, confirmed: 2 });
    expect(events[4]).toMatchObject({ code: 0, passes: 2 });
    expect(r.stderr).toBe('');
  });

  it('TTY: a status line rewritten in place on stderr, nothing on stdout', async () => {
    const r = await runWith({ isTTY: true }, [summary({ serverReachable: false, pending: 3, serverError: 'down' }), summary({ added: 3, queued: 3 }), summary({ confirmed: 3 })]);
    expect(r.stdout).toBe('');
    const frames = r.stderr.split('\r\x1b[2K').filter((f) => f !== '');
    expect(frames.some((f) => f.startsWith('waiting for server (retry in'))).toBe(true);
    expect(frames.some((f) => /^syncing…|^retrying…/.test(f))).toBe(true);
    expect(frames.some((f) => f.includes('confirmed 0, queued 3, pending 0'))).toBe(true);
    expect(frames.some((f) => f.startsWith('watching 1 folder | confirmed 3, queued 0, pending 0'))).toBe(true);
    expect(frames.some((f) => /^watching \/.+\n$/.test(f))).toBe(true);
    expect(frames.at(-1)).toBe('stopped after 3 passes\n');
    expect(r.stderr).not.toContain('\n\n');
  });

  it('a file that failed in a pass is named with its reason and what to do, in every mode; the next pass does not repeat it', async () => {
    const failed = summary({
      added: 1,
      queued: 1,
      failed: 2,
      problems: [
        { id: 'notes:bad.md', reason: 'yaml', message: 'yaml: YAML error in frontmatter: missed comma between flow collection entries at line 3, column 1' },
        { id: 'notes:latin1.md', reason: 'not-utf8', message: 'not-utf8: the file is not valid UTF-8 (first bad byte at offset 23); convert it to UTF-8' },
      ],
    });
    const text = await runWith({ isTTY: false }, [failed, summary({ confirmed: 1, failed: 2 })]);
    const lines = text.stdout.trim().split('\n');
    const at = lines.findIndex((l) => / pass: new 1, .*failed 2$/.test(l));
    expect(lines.slice(at + 1, at + 4)).toEqual([
      '  notes:bad.md: yaml: YAML error in frontmatter: missed comma between flow collection entries at line 3, column 1',
      '  notes:latin1.md: not-utf8: the file is not valid UTF-8 (first bad byte at offset 23); convert it to UTF-8',
      `  next step: fix these files; each is synced again when it changes (\`${cli()} status\` lists every file not synced)`,
    ]);
    expect(lines[at + 4]).toMatch(/Z pass: new 0, changed 0, removed 0 \| confirmed 1, queued 0, pending 0, failed 2$/);
    expect(text.stdout.match(/notes:bad\.md/g)).toHaveLength(1);

    const tty = await runWith({ isTTY: true }, [failed, summary({ confirmed: 1, failed: 2 })]);
    const frames = tty.stderr.split('\r\x1b[2K').filter((f) => f !== '');
    expect(frames).toContain('  notes:latin1.md: not-utf8: the file is not valid UTF-8 (first bad byte at offset 23); convert it to UTF-8\n');
    expect(frames.some((f) => f.startsWith('  next step: fix these files;'))).toBe(true);

    const json = parseJsonLines((await runWith({ json: true, isTTY: false }, [failed])).stdout);
    expect(json.find((e) => e.event === 'pass')).toMatchObject({ problems: 2, problemFiles: failed.problems });
  });

  it('a problem the scan reports in every pass (a name that is not UTF-8) is shown once, and again only after a pass without it', async () => {
    const badName = { id: 'notes:caf\uFFFD.md', reason: 'bad-name', message: "the file's name is not valid UTF-8 (shown with \uFFFD), so it cannot be opened by name; rename it" };
    const r = await runWith({ isTTY: false }, [summary({ queued: 1, problems: [badName] }), summary({ updated: 1, queued: 1, problems: [badName] }), summary({ queued: 1, problems: [] }), summary({ problems: [badName] })]);
    const lines = r.stdout.trim().split('\n');
    const shownAfter = lines.flatMap((l, i) => (l.startsWith('  notes:caf') ? [lines[i - 1]] : []));
    expect(shownAfter).toHaveLength(2);
    expect(shownAfter[0]).toMatch(/Z pass: new 0, changed 0,/);
    expect(lines.filter((l) => / pass: /.test(l))).toHaveLength(4);
    expect(lines.indexOf(shownAfter[1] as string)).toBe(lines.findLastIndex((l) => / pass: /.test(l)));
  });

  it('the server down: the first retry of an outage says what to do, once; a later outage says it again', async () => {
    const down = summary({ serverReachable: false, pending: 1, serverError: 'Network error talking to http://127.0.0.1:9/mcp: connect ECONNREFUSED' });
    const nextStep = (error: string) => (error.includes('ECONNREFUSED') ? 'nothing answers at http://127.0.0.1:9/mcp; next step: start the Graphiti server there' : undefined);
    const r = await runWith({ isTTY: false }, [down, down, summary({ queued: 1 }), down], { nextStep });
    const lines = r.stdout.trim().split('\n');
    const waits = lines.flatMap((l, i) => (/ waiting for server \(retry in /.test(l) ? [i] : []));
    expect(waits).toHaveLength(3);
    expect(lines[(waits[0] as number) + 1]).toBe('  nothing answers at http://127.0.0.1:9/mcp; next step: start the Graphiti server there');
    expect(lines[(waits[1] as number) + 1]).toMatch(/ pass: /);
    expect(lines[(waits[2] as number) + 1]).toBe('  nothing answers at http://127.0.0.1:9/mcp; next step: start the Graphiti server there');

    const json = parseJsonLines((await runWith({ json: true, isTTY: false }, [down], { nextStep })).stdout);
    expect(json.find((e) => e.event === 'backoff')).toMatchObject({ reason: 'server', nextStep: 'nothing answers at http://127.0.0.1:9/mcp; next step: start the Graphiti server there' });
  });

  it('exits 2 with a clear message when no source is enabled', async () => {
    const stderr: string[] = [];
    const none = { ...config, extraSources: [] };
    const code = await runWatch(none, { io: { stdout: () => undefined, stderr: (t) => stderr.push(t), isTTY: false }, handleSignals: false });
    expect(code).toBe(2);
    expect(stderr.join('')).toMatch(/no memory sources are enabled/);
  });

  it('renders pass lines and skips internal events in JSON', () => {
    const e: PassEvent = {
      event: 'pass',
      pass: 2,
      reason: 'change',
      durationMs: 5,
      added: 1,
      updated: 2,
      deleted: 3,
      renamed: 1,
      unchanged: 0,
      skipped: 0,
      failed: 1,
      pending: 0,
      queued: 4,
      confirmed: 12,
      resent: 0,
      problems: 1,
      serverReachable: true,
      summary: summary(),
    };
    expect(describePass(e)).toBe('pass: new 1, changed 2, removed 3, renamed 1 | confirmed 12, queued 4, pending 0, failed 1');
    expect(JSON.parse(jsonLine(e) as string)).not.toHaveProperty('summary');
    expect(jsonLine({ event: 'phase', phase: 'idle' })).toBeUndefined();
    expect(textLine({ event: 'backoff', reason: 'confirm', delayMs: 2000, attempt: 1, pending: 0, queued: 1 })).toBeUndefined();
  });

  it('--poll: stat polling picks up a new note (real engine, server down → backoff, no crash)', async () => {
    const watcher = createWatcher({
      config,
      poll: true,
      pollIntervalMs: 100,
      debounceMs: 50,
      writeStableMs: 30,
      serverBackoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    const initial = nextEvent(watcher, 'pass', (e) => e.reason === 'initial');
    await watcher.start();
    await initial;
    const change = nextEvent(watcher, 'change');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(root, 'notes', 'polled.md'), '# Polled\n\nseen by stat polling\n');
    expect((await change).relPath).toBe('polled.md');
    const pass = await nextEvent(watcher, 'pass', (e) => e.reason === 'change');
    // The server URL points nowhere: the note is kept pending in the outbox.
    expect(pass).toMatchObject({ added: 1, pending: 1, serverReachable: false });
    expect(watcher.pendingTimer?.kind).toBe('retry');
    await watcher.stop();
  });
});

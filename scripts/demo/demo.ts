/**
 * `npm run demo`: the main job end to end for a newcomer with no Graphiti.
 *
 * Starts the bundled Graphiti-shaped test server on a free loopback port, copies
 * examples/memory to a temp folder (PAI memory + Claude Code auto memory), syncs it,
 * shows `status`, edits one memory file and syncs again to show the episode being
 * replaced, prints the context block a session in that project would get, then stops.
 * Nothing outside the temp folder is touched.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli-main.js';
import { startGraphitiServer } from '../../test/support/graphiti-server.js';
import { demoExtraction } from './demo-extraction.js';

const examples = fileURLToPath(new URL('../../examples/memory', import.meta.url));

/** Headings in bold on a terminal; plain in a pipe or a file, and with NO_COLOR set. */
const bold = process.stdout.isTTY === true && (process.env.NO_COLOR ?? '') === '';

function say(text: string): void {
  process.stdout.write(bold ? `\n\x1b[1m${text}\x1b[0m\n` : `\n${text}\n`);
}

async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gms-demo-'));
  cpSync(examples, work, { recursive: true });
  // Facts a person recognises (subject, relation, object), as a real Graphiti's LLM extracts them.
  const server = await startGraphitiServer({ processingDelayMs: 20, maxFactsPerEpisode: 20, extractor: demoExtraction });
  const env = {
    HOME: work,
    PATH: process.env.PATH,
    PAI_DIR: join(work, 'pai'),
    CLAUDE_CONFIG_DIR: join(work, 'claude'),
    MADEINOZ_KNOWLEDGE_STATE_DIR: join(work, 'state'),
    MADEINOZ_KNOWLEDGE_MCP_URL: server.url,
    MADEINOZ_KNOWLEDGE_GROUP_ID: 'demo',
  };
  const io = { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t), isTTY: false, env, cwd: work };
  try {
    say(`Graphiti-shaped test server listening at ${server.url}`);
    say(`Memory folders (copied from examples/memory): ${work}`);

    say('$ graphiti-memory-sync sync --wait 5000');
    await main(['sync', '--wait', '5000'], io);

    say('$ graphiti-memory-sync status');
    await main(['status'], io);

    say('Episodes now in the graph (group "demo"):');
    for (const e of server.episodes('demo')) process.stdout.write(`  ${e.uuid.slice(0, 8)}  ${e.name}\n`);

    const edited = join(work, 'claude/projects/-home-demo-code-webapp/memory/feedback_testing.md');
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}\nAlso: run the whole suite before every push.\n`);
    say('Edited feedback_testing.md; syncing again replaces its episode:');
    say('$ graphiti-memory-sync sync --wait 5000');
    await main(['sync', '--wait', '5000'], io);

    const testing = server.episodes('demo').filter((e) => e.name === 'Testing feedback');
    say(`Episodes named "Testing feedback" now: ${testing.length} (the old version was deleted)`);
    for (const e of testing) process.stdout.write(`  ${e.uuid.slice(0, 8)}  …${e.content.slice(-60).replace(/\n/g, ' ')}\n`);

    say('$ graphiti-memory-sync sync   (nothing changed: nothing is sent)');
    await main(['sync'], io);

    // The other half of the job: knowledge back into a session. A session in ~/code/webapp gets
    // this block from the SessionStart hook (served from the cache that --refresh just built).
    const project = join(work, 'code', 'webapp');
    mkdirSync(join(project, '.git'), { recursive: true });
    say('$ graphiti-memory-sync context --cwd ~/code/webapp --refresh   (what the SessionStart hook injects)');
    // Claude Code names the project's memory folder after its path; point it at the example's.
    const contextIo = { ...io, env: { ...env, CLAUDE_CODE_PROJECT_DIR_NAME: '-home-demo-code-webapp' } };
    await main(['context', '--cwd', project, '--refresh'], contextIo);
    say('Done. Try: npx tsx src/cli.ts --help');
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

run().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});

/** The vitest wrapper of sandbox.ts: a test server and a sandbox home per test. */
import { afterEach, beforeEach } from 'vitest';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { sentNotes, writeNamedNote } from './named-notes.js';

/**
 * Gives every test of the calling file a fresh loopback Graphiti test server and a sandbox home
 * pointing at it (registered as beforeEach/afterEach); `use` receives them for the file's own variables.
 */
export function useServerAndSandbox(use: (server: GraphitiTestServer, box: Sandbox) => void): void {
  let server: GraphitiTestServer | undefined;
  let box: Sandbox | undefined;
  beforeEach(async () => {
    server = await startGraphitiServer({ processingDelayMs: 0 });
    box = makeSandbox(server.url);
    use(server, box);
  });
  afterEach(async () => {
    await server?.close();
    box?.cleanup();
  });
}

/** What the tests that compare notes by name (named-notes.ts) write and read. */
export interface NamedNotes {
  /** Writes `<dir>/<name>.md` named `name` with `text` as its body (writeNamedNote). */
  note: typeof writeNamedNote;
  /** The `note <word>` of each episode on this test's server, sorted (sentNotes). */
  sent: () => (string | undefined)[];
}

/** useServerAndSandbox, with the named-note helpers bound to this test's server. */
export function useNamedNotesSandbox(use: (server: GraphitiTestServer, box: Sandbox) => void): NamedNotes {
  let current: GraphitiTestServer | undefined;
  useServerAndSandbox((server, box) => {
    current = server;
    use(server, box);
  });
  return {
    note: writeNamedNote,
    sent: () => {
      if (current === undefined) throw new Error('useNamedNotesSandbox: no server outside a test');
      return sentNotes(current);
    },
  };
}

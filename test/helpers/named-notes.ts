/**
 * Notes named by their frontmatter for the sync and watch tests, whose bodies say `note <name>`, and
 * which of them reached the test server: the tests compare names, not episode bodies.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphitiTestServer } from '../support/graphiti-server.js';

/** Writes `<dir>/<name>.md` with `name:` in its frontmatter and `text` as its body. */
export function writeNamedNote(dir: string, name: string, text: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\n---\n${text}\n`);
}

/** The `note <word>` each episode on the server holds, sorted. */
export function sentNotes(server: GraphitiTestServer): (string | undefined)[] {
  return server.episodes().map((e) => e.content.match(/note \w+/)?.[0]).sort();
}

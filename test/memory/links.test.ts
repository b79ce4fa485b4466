/** `[[links]]` between Claude Code memories reach the graph as words its extraction uses (issue 26). */
import { describe, expect, it } from 'vitest';
import { buildEpisodes } from '../../src/lib/memory/episode.js';
import { linkedMemories, renderMemoryLinks } from '../../src/lib/memory/links.js';
import { parseMemoryFile } from '../../src/lib/memory/parse.js';

describe('memory links', () => {
  it('a [[slug]] reads as words, [[slug|label]] as its label, a #heading part is dropped; the links are listed once', () => {
    const text = 'Retries follow [[billing-retries]] and [[queue_decision#why|the queue decision]]; see [[billing-retries]] again.';
    expect(renderMemoryLinks(text)).toBe('Retries follow billing retries and the queue decision; see billing retries again.');
    expect(linkedMemories(text)).toEqual(['billing retries', 'queue decision']);
    expect(renderMemoryLinks('No links, [single] brackets, [[ ]] and [[]] stay.')).toBe('No links, [single] brackets, [[ ]] and [[]] stay.');
  });

  it('a Claude Code 2.1.332 memory file: metadata.type and the links are in the episode body, the only part text extraction reads', () => {
    const file = '---\nname: queue-decision\ndescription: which queue the jobs use\nmetadata:\n  type: project\n---\nJobs use the shared queue; failures follow [[billing-retries]].\n<private>\nAsk [[secret-plan]].\n</private>\n';
    const parsed = parseMemoryFile(Buffer.from(file), 'p/memory/queue.md');
    if (!parsed.ok) throw new Error(parsed.message);
    const [episode] = buildEpisodes({ doc: parsed.data, source: 'auto-memory', kind: 'auto-memory', relPath: 'p/memory/queue.md', mtimeMs: 0, groupId: 'main', maxChars: 8000, fileId: 'f1', contentHash: 'a'.repeat(64) });
    expect(episode?.body).toBe('Type: project\nDescription: which queue the jobs use\nRelated memories: billing retries\n\nJobs use the shared queue; failures follow billing retries.');
  });
});

/**
 * Anti-loop: recognise Graphiti's own output pasted back into a memory file, so we do
 * not feed the graph its own facts (which would then be extracted again, and again).
 *
 * Words alone ("knowledge graph", "add_memory") prove nothing: a note may talk about them.
 * Only precise, structural markers count:
 * our own context header, Graphiti's JSON result envelopes, its "queued" reply, its
 * fact/edge JSON, and tool-call transcripts with actual arguments.
 */

import { CONTEXT_HEADER_PATTERN, CONTEXT_HEADER_START, LEGACY_CONTEXT_MARKER } from './context-header.js';

interface Marker {
  reason: string;
  /** Cheap substring that must be present before the regex runs (keeps 10 MB files fast). */
  hint: string;
  test: (text: string) => boolean;
}

const MARKERS: Marker[] = [
  // Our own context block: its header line (context-header.ts), or the HTML comment older versions wrote.
  { reason: 'context-block', hint: CONTEXT_HEADER_START, test: (t) => CONTEXT_HEADER_PATTERN.test(t) },
  { reason: 'context-block', hint: LEGACY_CONTEXT_MARKER, test: (t) => t.includes(LEGACY_CONTEXT_MARKER) },
  {
    // {"message": "Facts retrieved successfully", "facts": [ … ]} (and nodes/episodes, and the empty replies).
    reason: 'graphiti-search-result',
    hint: '"message"',
    test: (t) =>
      /"message"\s*:\s*"(?:(?:Facts|Nodes|Episodes) retrieved successfully|No relevant (?:facts|nodes) found|No episodes found[^"]{0,80})"/.test(t) &&
      /"(?:facts|nodes|episodes)"\s*:\s*\[/.test(t),
  },
  {
    // add_memory's reply.
    reason: 'graphiti-queued-reply',
    hint: 'queued for processing',
    test: (t) => /Episode '[^\n]{0,500}?' queued for processing in group '[^'\n]{0,200}'/.test(t),
  },
  {
    // Fact / edge objects: a uuid plus an endpoint uuid, both as JSON members with uuid-like values.
    reason: 'graphiti-fact-json',
    hint: '_node_uuid"',
    test: (t) => /"(?:source|target)_node_uuid"\s*:\s*"[0-9a-fA-F-]{8,}"/.test(t) && /"uuid"\s*:\s*"[0-9a-fA-F-]{8,}"/.test(t),
  },
  {
    // Tool calls with arguments, as Claude Code transcripts and logs show them:
    //   {"name":"mcp__graphiti__search_memory_facts","input":{…}}
    //   mcp__graphiti__add_memory(name: "…", episode_body: "…")
    //   graphiti - search_memory_facts (MCP)(query: "…")
    reason: 'graphiti-tool-call',
    hint: 'graphiti',
    test: (t) =>
      /"name"\s*:\s*"mcp__[A-Za-z0-9_-]*graphiti[A-Za-z0-9_-]*__[a-z_]+"\s*,\s*"(?:input|arguments)"\s*:\s*\{/.test(t) ||
      /mcp__[A-Za-z0-9_-]*graphiti[A-Za-z0-9_-]*__[a-z_]+\s*\(\s*\{?\s*"?[a-z_]+"?\s*[:=]/.test(t) ||
      /graphiti[A-Za-z0-9_-]* - [a-z_]+ \(MCP\)\s*\(\s*[a-z_]+\s*:/.test(t),
  },
  {
    // A bare call with Graphiti's own parameter names: add_memory(name="…", episode_body="…").
    reason: 'graphiti-tool-call',
    hint: '(',
    test: (t) =>
      /\b(?:add_memory|add_episode|search_memory_facts|search_memory_nodes|search_nodes|search_facts|get_episodes)\s*\(\s*\{?\s*"?(?:name|episode_body|query|group_ids?|max_facts|max_nodes|max_episodes|source_description)"?\s*[:=]/.test(t),
  },
];

/** The reason (which marker matched) when the text is Graphiti output or our own context block, else undefined. */
export function detectGraphitiOutput(text: string): string | undefined {
  for (const marker of MARKERS) {
    if (!text.includes(marker.hint)) continue;
    if (marker.test(text)) return marker.reason;
  }
  return undefined;
}

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

/** Graphiti's MCP tool names (every server generation), as a regex alternative. */
const GRAPHITI_TOOL =
  '(?:add_memory|add_episode|search_memory_facts|search_memory_nodes|search_nodes|search_facts|get_episodes|delete_episode|delete_entity_edge|get_entity_edge|clear_graph|get_status|add_triplet|build_communities|get_episode_entities|summarize_saga)';

/** A tool call with its arguments: transcript JSON, a call with named arguments, Claude Code's display. */
const TOOL_USE_JSON = new RegExp(`"name"\\s*:\\s*"mcp__[A-Za-z0-9_-]+__${GRAPHITI_TOOL}"\\s*,\\s*"(?:input|arguments)"\\s*:\\s*\\{`);
const TOOL_CALL = new RegExp(`mcp__[A-Za-z0-9_-]+__${GRAPHITI_TOOL}\\s*\\(\\s*\\{?\\s*"?[a-z_]+"?\\s*[:=]`);
const TOOL_DISPLAY = new RegExp(`[A-Za-z0-9_-]+ - ${GRAPHITI_TOOL} \\(MCP\\)\\s*\\(\\s*[a-z_]+\\s*:`);

/**
 * A section label of a Knowledge-skill answer at the start of a line: an optional emoji or `#`s and
 * bold, the label, then a colon (with or without content on the same line: `Key Entities: TypeScript, Go`)
 * or nothing more (a heading). A line that merely starts with the words ("Key Entities are …") is prose.
 */
function sectionLabel(labels: string): RegExp {
  return new RegExp(`^[^\\S\\n]*(?:[^\\w\\s*]+\\s*)?\\**\\s*(?:${labels})(?:\\**[^\\S\\n]*:|\\**[^\\S\\n]*$)`, 'im');
}

/**
 * The sections of a PAI Knowledge-skill answer (pai-knowledge-loop: the skill's search workflows tell
 * Claude to present results this way; emoji and bold vary and a captured copy may lose them).
 */
const KNOWLEDGE_ANSWER_MARKERS: RegExp[] = [
  sectionLabel('Knowledge Found'),
  /^[^\S\n]*(?:[^\w\s*]+\s*)?\**\s*No Knowledge Found\b/im,
  /\bBased on your knowledge graph\b/i,
  sectionLabel('Key Entities'),
  sectionLabel('Relationships'),
  /^[^\S\n]*[-*]\s+[^\n]{1,120}\s(?:→|->)\s[^\n]{1,80}\s(?:→|->)\s[^\n]{1,120}$/m,
  sectionLabel('Episodes Containing This Knowledge|Source Episodes|Episodes Found|No Episodes Found|Related Facts'),
  /^[^\S\n]*\d+\.\s+\*\*[^*\n]{1,120}\*\*\s+\([A-Za-z][^)\n]{0,40}\)/m,
  sectionLabel('Insights'),
];

/** How many different sections of a Knowledge-skill answer the text has. */
function knowledgeAnswerScore(text: string): number {
  let score = 0;
  for (const marker of KNOWLEDGE_ANSWER_MARKERS) if (marker.test(text)) score++;
  return score;
}

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
    // Tool calls with arguments, as Claude Code transcripts and logs show them, through whatever
    // name the user gave the MCP server (graphiti, madeinoz-knowledge, memory, a plugin's name):
    //   {"name":"mcp__madeinoz-knowledge__search_memory_facts","input":{…}}
    //   mcp__graphiti__add_memory(name: "…", episode_body: "…")
    //   madeinoz-knowledge - search_memory_facts (MCP)(query: "…")
    // Only Graphiti's own tool names count, so another server's tools are not taken for ours.
    reason: 'graphiti-tool-call',
    hint: '__',
    test: (t) => TOOL_USE_JSON.test(t) || TOOL_CALL.test(t),
  },
  {
    reason: 'graphiti-tool-call',
    hint: '(MCP)',
    test: (t) => TOOL_DISPLAY.test(t),
  },
  {
    // An answer of the PAI Knowledge skill, captured as a note: its sections together (one alone
    // is a note talking about them, see KNOWLEDGE_ANSWER_MARKERS).
    reason: 'knowledge-skill-answer',
    hint: ':',
    test: (t) => knowledgeAnswerScore(t) >= 3,
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

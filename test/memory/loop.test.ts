import { describe, expect, it } from 'vitest';
import { LEGACY_CONTEXT_MARKER } from '../../src/lib/context/cache.js';
import { contextHeader } from '../../src/lib/context/context.js';
import { detectGraphitiOutput } from '../../src/lib/memory/loop.js';

describe('detectGraphitiOutput: Graphiti output is recognised', () => {
  const CASES: Array<[string, string, string]> = [
    ['our context block', `${contextHeader('repo', ['main'])}\n- A uses B`, 'context-block'],
    ['our context block, several groups', `${contextHeader('web app', ['main', 'proj_x'])}\n- A uses B`, 'context-block'],
    ['an older context block (HTML comment)', `${LEGACY_CONTEXT_MARKER}\nKnowledge graph facts for repo (from Graphiti, main):\n- A uses B`, 'context-block'],
    [
      'search_memory_facts result',
      '```json\n{\n  "message": "Facts retrieved successfully",\n  "facts": [\n    {"uuid": "1", "fact": "Alice works at Acme"}\n  ]\n}\n```',
      'graphiti-search-result',
    ],
    ['search_nodes result', '{"message":"Nodes retrieved successfully","nodes":[{"name":"Alice"}]}', 'graphiti-search-result'],
    ['get_episodes result', '{"message": "Episodes retrieved successfully", "episodes": []}', 'graphiti-search-result'],
    ['empty facts result', '{"message": "No relevant facts found", "facts": []}', 'graphiti-search-result'],
    ['add_memory reply', "Episode 'Meeting notes' queued for processing in group 'main'", 'graphiti-queued-reply'],
    ['add_memory reply with quotes in the name', "Result: Episode 'Bob's notes' queued for processing in group 'team_a'.", 'graphiti-queued-reply'],
    [
      'fact JSON',
      '{"uuid": "3f2a9c1e-1111-2222-3333-444455556666", "name": "WORKS_AT", "fact": "Alice works at Acme", "source_node_uuid": "aaaaaaaa-1111-2222-3333-444455556666", "target_node_uuid": "bbbbbbbb-1111-2222-3333-444455556666"}',
      'graphiti-fact-json',
    ],
    ['transcript tool_use JSON', '{"type":"tool_use","name":"mcp__graphiti__search_memory_facts","input":{"query":"auth"}}', 'graphiti-tool-call'],
    ['transcript with a plugin server name', '{"name": "mcp__plugin_graphiti-memory__add_memory", "arguments": {"name": "x"}}', 'graphiti-tool-call'],
    ['call with named arguments', 'mcp__graphiti__add_memory(name: "Notes", episode_body: "...")', 'graphiti-tool-call'],
    ['Claude Code tool display', '● graphiti - search_memory_facts (MCP)(query: "auth rotation", max_facts: 10)', 'graphiti-tool-call'],
    ['python-style call', 'add_memory(name="Notes", episode_body="We decided…", group_id="main")', 'graphiti-tool-call'],
    ['search call with query', 'search_memory_facts(query="what do I know about auth")', 'graphiti-tool-call'],
    // Any MCP server name: the PAI Knowledge skill registers Graphiti as "madeinoz-knowledge".
    ['transcript through madeinoz-knowledge', '{"type":"tool_use","name":"mcp__madeinoz-knowledge__search_memory_facts","input":{"query":"deploy"}}', 'graphiti-tool-call'],
    ['call through a server named memory', 'mcp__memory__add_memory(name: "Notes", episode_body: "...")', 'graphiti-tool-call'],
    ['Claude Code display of madeinoz-knowledge', '● madeinoz-knowledge - search_nodes (MCP)(query: "deploy pipeline")', 'graphiti-tool-call'],
  ];

  it.each(CASES)('%s', (_name, text, reason) => {
    expect(detectGraphitiOutput(`Some note.\n\n${text}\n\nMore text.`)).toBe(reason);
  });

  it('the context block carries no markup, and prose that merely mentions it is not a block', () => {
    expect(contextHeader('repo', ['main']).split('\n')[0]).toBe('Knowledge graph facts for repo (from Graphiti, group main):');
    expect(contextHeader('repo', ['main'])).not.toMatch(/[<>]/);
    expect(detectGraphitiOutput('We put knowledge graph facts for the repo into Graphiti at session start.')).toBeUndefined();
  });
});

describe('detectGraphitiOutput: a captured Knowledge-skill answer is recognised by its structure', () => {
  const FULL = [
    '📚 **Knowledge Found: deploy pipeline**',
    '',
    "Based on your knowledge graph, here's what you know:",
    '',
    '**Key Entities:**',
    '1. **Argo CD** (Tool)',
    '   - Summary: Syncs the manifests of the web app',
    '   - Related to: Kubernetes, web app',
    '',
    '**Relationships:**',
    '- Argo CD → deploys → web app',
    '- web app -> runs on -> Kubernetes',
    '',
    '**Episodes Containing This Knowledge:**',
    '- LEARNING: deploy pipeline (2026-05-02)',
    '',
    '💡 **Insights:**',
    '- Deploys are GitOps-driven.',
  ].join('\n');

  it('with emoji and bold, as the skill formats it', () => {
    expect(detectGraphitiOutput(FULL)).toBe('knowledge-skill-answer');
  });

  it('plain, as a captured copy may lose the emoji and bold', () => {
    expect(detectGraphitiOutput(FULL.replace(/[*📚💡]/gu, ''))).toBe('knowledge-skill-answer');
  });

  it('the empty answer and the facts workflow', () => {
    const facts = ['No Knowledge Found for last week', '', 'Related Facts:', '- Argo CD → deploys → web app', '', 'Source Episodes:', '- LEARNING: deploy pipeline'].join('\n');
    expect(detectGraphitiOutput(facts)).toBe('knowledge-skill-answer');
  });

  it('section labels with their content on the same line count as the sections (issue 26)', () => {
    const pasted = ['Knowledge Found: build tooling', 'Key Entities: TypeScript, Go', 'Related Facts: TypeScript compiles the CLI; Go builds the agent'].join('\n');
    expect(detectGraphitiOutput(pasted)).toBe('knowledge-skill-answer');
    expect(detectGraphitiOutput(pasted.replace(/^/gm, '**').replace(/:/g, ':**'))).toBe('knowledge-skill-answer');
    expect(detectGraphitiOutput(['Key Entities: TypeScript, Go', 'Relationships: TypeScript → compiles → CLI', 'Insights: keep the agent in Go'].join('\n'))).toBe('knowledge-skill-answer');
  });

  it('a note that only talks about those words, line by line, is still synced', () => {
    const note = [
      'Knowledge Found is the heading the skill prints first.',
      'Key Entities are listed with their types.',
      'Related Facts come after them, then Insights when there are any.',
      'Relationships between entities are arrows.',
    ].join('\n');
    expect(detectGraphitiOutput(note)).toBeUndefined();
  });

  it('one section alone, or a note that talks about the format, is synced', () => {
    expect(detectGraphitiOutput('## Key Entities:\n- Alice leads the auth work.')).toBeUndefined();
    expect(detectGraphitiOutput('The Knowledge skill answers with "Knowledge Found:" and a Relationships section; we skip such captures.')).toBeUndefined();
    expect(detectGraphitiOutput('Relationships:\n- Alice → manages → Bob')).toBeUndefined();
  });
});

describe('detectGraphitiOutput: notes that merely talk about Graphiti are not flagged', () => {
  const NOTES = [
    'We store our notes in a knowledge graph (Graphiti) and query it at session start.',
    'Use search_nodes to find entities and search_memory_facts for relationships.',
    'The add_memory tool queues an episode; it returns no uuid.',
    'Call add_memory() after the meeting.',
    'User often asks "what do I know about X?" — answer from the knowledge graph.',
    'Facts retrieved successfully is the message Graphiti sends back.',
    'The "facts" list is empty when nothing matches.',
    'Every fact has a "uuid" and points at source_node_uuid / target_node_uuid.',
    'The tool mcp__graphiti__search_memory_facts needs the MCP server running.',
    '| `add_memory` | Add episode to knowledge graph | `name`, `episode_body`, `group_id?` |',
    'An episode is queued for processing in the background.',
    'The context hook writes an HTML comment marker at the top of its block.',
    '```ts\nconst result = await addEpisode(params);\n```',
    '{"message": "Graphiti MCP server is running and connected to falkordb database"}',
    '{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Bad Request: Missing session ID"}}',
    'search_nodes(query) takes a query string.',
    'Claude calls mcp__madeinoz-knowledge__search_memory_facts when I ask about past work.',
    'Another server: {"type":"tool_use","name":"mcp__github__search_issues","input":{"q":"bug"}}',
  ];

  it.each(NOTES.map((n) => [n]))('%j', (note) => {
    expect(detectGraphitiOutput(note)).toBeUndefined();
  });

  it('a long research note about the Graphiti MCP API is not flagged', () => {
    const note = [
      '# Graphiti MCP Transport Research',
      '',
      '**Research Date:** 2026-01-28',
      '',
      '## Tools',
      '| Tool | Purpose | Parameters |',
      '|---|---|---|',
      '| `add_memory` | Add episode to knowledge graph | `name`, `episode_body`, `group_id?`, `source?` |',
      '| `search_memory_facts` | Search for relationships/facts | `query`, `group_ids?`, `max_facts?` |',
      '| `search_nodes` | Search entities | `query`, `group_ids?` |',
      '',
      '**Critical:** Always use the server-verified names (`add_memory`, `search_memory_facts`) in client implementations.',
      '',
      '```json',
      '{ "jsonrpc": "2.0", "result": { "content": [{ "type": "text", "text": "..." }] } }',
      '```',
    ].join('\n');
    expect(detectGraphitiOutput(note)).toBeUndefined();
  });

  it('is fast on a 10 MB note', () => {
    const big = 'The knowledge graph stores facts; add_memory and search_nodes are tools. "message" ( graphiti\n'.repeat(110_000);
    const started = performance.now();
    expect(detectGraphitiOutput(big)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

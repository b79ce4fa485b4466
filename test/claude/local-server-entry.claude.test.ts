/**
 * The REAL Claude Code CLI reaching the local server (`server start`, the real Graphiti MCP server
 * and FalkorDB from the pinned environment) through the MCP entry `install --with-mcp` wrote: a
 * `headersHelper` that prints the current token at each connection, so the entry stores none and
 * keeps working after a restart, whose new token the old one could not open. `claude mcp list`
 * connects to every configured server (Claude Code's own health check). No LLM is asked: the
 * server's endpoint is an unreachable stand-in, which starting and connecting never use.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRuntime, readSecretFile } from '../../src/lib/config/server-runtime.js';
import { cacheRoot } from '../../src/lib/server/environment.js';
import { makeClaudeBox, type ClaudeBox } from './harness.js';

let box: ClaudeBox;

beforeAll(() => {
  box = makeClaudeBox('http://127.0.0.1:9', '', {
    // No URL set: the tool and install follow the running local server.
    MADEINOZ_KNOWLEDGE_MCP_URL: '',
    GMS_GRAPHITI_CACHE: cacheRoot(process.env),
    OPENAI_API_KEY: 'not-used',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    GMS_SERVER_MODEL: 'not-used',
    GMS_SERVER_EMBEDDER_MODEL: 'not-used',
  });
});

afterAll(async () => {
  box?.gms(['server', 'stop']);
  await box?.cleanup();
});

describe('real Claude Code CLI: the local server through its headersHelper entry', () => {
  it('connects with the token the helper prints, and again after a restart (new token, none stored in ~/.claude.json, which is 0600)', async () => {
    const started = box.gms(['server', 'start']);
    expect(started.code, started.stderr).toBe(0);
    const first = readRuntime(box.stateDir);
    const firstToken = readSecretFile(first?.mcpTokenFile);
    expect(first?.state).toBe('ready');
    const install = box.gms(['install', '--with-mcp', '--scope', 'user']);
    expect(install.code, install.stderr).toBe(0);
    const claudeJson = join(box.claudeDir, '.claude.json');
    const entry = (JSON.parse(readFileSync(claudeJson, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers.graphiti;
    expect(entry).toEqual({ type: 'http', url: first?.url, headersHelper: expect.stringMatching(/^node .*dist\/cli\.js'? server headers$/) });
    expect(statSync(claudeJson).mode & 0o777).toBe(0o600);

    const connected = `graphiti: ${first?.url} (HTTP) - ✔ Connected`;
    const before = await box.claude(['mcp', 'list'], { management: true });
    expect(before.stdout).toContain(connected);

    expect(box.gms(['server', 'stop']).code).toBe(0);
    // Stopped: the helper gives nothing, so Claude Code cannot connect (and sends no token anywhere).
    const down = await box.claude(['mcp', 'list'], { management: true });
    expect(down.stdout).not.toContain(connected);

    const restarted = box.gms(['server', 'start']);
    expect(restarted.code, restarted.stderr).toBe(0);
    const second = readRuntime(box.stateDir);
    expect(second?.url).toBe(first?.url);
    const secondToken = readSecretFile(second?.mcpTokenFile);
    expect(secondToken).not.toBe(firstToken);
    const after = await box.claude(['mcp', 'list'], { management: true });
    expect(after.stdout).toContain(connected);
    // Claude Code rewrote its file meanwhile: still 0600, still no token.
    const text = readFileSync(claudeJson, 'utf8');
    expect(text).not.toContain(firstToken as string);
    expect(text).not.toContain(secondToken as string);
    expect(statSync(claudeJson).mode & 0o777).toBe(0o600);
  });
});

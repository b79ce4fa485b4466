/**
 * Settings written the way people write them (qa-edges-4): `.env` lines with quotes, `export`,
 * spaces, CRLF, `$` and Unicode; a `#` or a backslash where dotenv reads otherwise than a shell
 * (DOTENV_SURPRISES); a file saved as UTF-16 by Windows tools; a token or header a request cannot
 * carry (HEADER_VALUE); a token pasted with its "Bearer " (BEARER_PREFIX); a URL whose user and
 * password must never be shown (util/display-url.ts). Files and the CLI against the Graphiti
 * test server on 127.0.0.1.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli-main.js';
import { ConfigError, loadConfig } from '../../src/lib/config/config.js';
import { displayUrl } from '../../src/lib/util/display-url.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

/** The sandbox's environment with its settings file holding `text` (bytes as given) and no URL set in the environment. */
function withFile(text: string | Buffer, env: Record<string, string> = {}): Record<string, string> {
  const file = join(box.root, 'settings.env');
  writeFileSync(file, text);
  return { ...box.env, MADEINOZ_KNOWLEDGE_ENV_FILE: file, MADEINOZ_KNOWLEDGE_MCP_URL: '', MADEINOZ_KNOWLEDGE_GROUP_ID: '', ...env };
}

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd: box.root });
  return { code, out, err };
}

async function configError(env: Record<string, string>): Promise<ConfigError> {
  try {
    await loadConfig({ env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('.env lines as people write them', () => {
  it('quotes, export, spaces around =, CRLF, $ and Unicode are read as written, with nothing to say', async () => {
    const file = [
      `export MADEINOZ_KNOWLEDGE_MCP_URL = "${server.url}"`,
      "MADEINOZ_KNOWLEDGE_GROUP_ID='team-notes'   # ours",
      'MADEINOZ_KNOWLEDGE_AUTH_TOKEN=pa$$w0rd-ä',
      'MADEINOZ_KNOWLEDGE_HEADERS=\'{"X-Api-Key":"k\\"ey"}\'',
      '',
    ].join('\r\n');
    const config = await loadConfig({ env: withFile(file) });
    expect(config.mcpUrl).toBe(server.url);
    expect(config.groupId).toBe('team-notes');
    expect(config.authToken).toBe('pa$$w0rd-ä');
    expect(config.headers).toEqual({ 'X-Api-Key': 'k"ey' });
    expect(config.warnings).toEqual([]);
  });

  it('HASH_IN_VALUE: a "#" inside an unquoted value (dotenv cuts it there) is said with the fix, never the value; a comment after a space, or a quoted "#", is not', async () => {
    const env = withFile(`MADEINOZ_KNOWLEDGE_MCP_URL=${server.url}\nMADEINOZ_KNOWLEDGE_AUTH_TOKEN=s3cr#tPart\nMADEINOZ_KNOWLEDGE_GROUP_ID=main # the default\nMADEINOZ_KNOWLEDGE_SOURCE_GROUPS='pai=a#b'\n`);
    const config = await loadConfig({ env });
    // dotenv's rule stands (the token is what it reads); we only say so.
    expect(config.authToken).toBe('s3cr');
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toContain(`MADEINOZ_KNOWLEDGE_AUTH_TOKEN in ${env.MADEINOZ_KNOWLEDGE_ENV_FILE} (line 2)`);
    expect(config.warnings[0]).toContain("put the value in single quotes: MADEINOZ_KNOWLEDGE_AUTH_TOKEN='…'");
    expect(config.warnings[0]).not.toContain('tPart');
    // The CLI prints it where the user looks when the server refuses the token.
    const status = await cli(['status'], env);
    expect(status.err).toContain('warning: MADEINOZ_KNOWLEDGE_AUTH_TOKEN in');
    expect(`${status.out}${status.err}`).not.toContain('tPart');
    // Set in the environment, the file's line is not the one used: nothing to say.
    expect((await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'other' } })).warnings).toEqual([]);
  });

  it('a value that begins with "#" (read as empty) is said too', async () => {
    const config = await loadConfig({ env: withFile(`MADEINOZ_KNOWLEDGE_MCP_URL=${server.url}\nMADEINOZ_KNOWLEDGE_AUTH_TOKEN=#hash-first\n`) });
    expect(config.authToken).toBeUndefined();
    expect(config.warnings.join('\n')).toMatch(/MADEINOZ_KNOWLEDGE_AUTH_TOKEN in .* \(line 2\): dotenv ends an unquoted value at its first "#"/);
  });

  it('ESCAPE_IN_QUOTES: \\" or \\\\ inside double quotes (dotenv keeps the backslash) is said with the fix', async () => {
    const config = await loadConfig({ env: withFile(`MADEINOZ_KNOWLEDGE_MCP_URL=${server.url}\nMADEINOZ_KNOWLEDGE_AUTH_TOKEN="pa\\"ss"\n`) });
    expect(config.authToken).toBe('pa\\"ss');
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toMatch(/MADEINOZ_KNOWLEDGE_AUTH_TOKEN in .* \(line 2\): inside double quotes dotenv keeps a backslash/);
    expect(config.warnings[0]).not.toContain('pa\\"ss');
  });

  it("a settings file saved as UTF-16 (PowerShell 5's `>`, Notepad's \"Unicode\") is read: every setting in it was ignored before", async () => {
    const text = `\uFEFFMADEINOZ_KNOWLEDGE_MCP_URL=${server.url}\r\nMADEINOZ_KNOWLEDGE_GROUP_ID=team\r\n`;
    const le = await loadConfig({ env: withFile(Buffer.from(text, 'utf16le')) });
    expect([le.mcpUrl, le.groupId, le.mcpUrlSource]).toEqual([server.url, 'team', 'setting']);
    const be = Buffer.from(text, 'utf16le').swap16();
    expect((await loadConfig({ env: withFile(be) })).groupId).toBe('team');
    // And a sync reaches the server named there.
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    const sync = await cli(['sync'], withFile(Buffer.from(text, 'utf16le')));
    expect(sync.code).toBe(0);
    expect(server.calls.some((c) => c.tool === 'add_memory' && (c.args as { group_id?: string }).group_id === 'team')).toBe(true);
  });

  it('MISSPELLED_SETTING: a name that is nearly ours (typo, lower case) is said with the name meant, in the file or the environment; other names are not', async () => {
    const env = withFile(`MADEINOZ_KNOWLEDGE_MCP_ULR=${server.url}\nmadeinoz_knowledge_group_id=team\nGMS_SEVER_PORT=8123\nMADEINOZ_KNOWLEDGE_HOST=localhost\nMADEINOZ_KNOWLEDGE_PORT=8000\nOTHER_TOOL_URL=x\n`);
    const config = await loadConfig({ env: { ...env, MADEINOZ_KNOWLEDGE_CONTEXT_BUGDET: '4000', GMS_TEST_REBUILD: '1' } });
    expect(config.mcpUrlSource).toBe('default');
    const file = env.MADEINOZ_KNOWLEDGE_ENV_FILE;
    expect(config.warnings).toEqual([
      `MADEINOZ_KNOWLEDGE_MCP_ULR (set in ${file}) is not a setting of graphiti-memory-sync, so it is ignored: did you mean MADEINOZ_KNOWLEDGE_MCP_URL? Rename it there.`,
      `madeinoz_knowledge_group_id (set in ${file}) is not a setting of graphiti-memory-sync, so it is ignored: did you mean MADEINOZ_KNOWLEDGE_GROUP_ID? Rename it there.`,
      `GMS_SEVER_PORT (set in ${file}) is not a setting of graphiti-memory-sync, so it is ignored: did you mean GMS_SERVER_PORT? Rename it there.`,
      'MADEINOZ_KNOWLEDGE_CONTEXT_BUGDET (set in the environment) is not a setting of graphiti-memory-sync, so it is ignored: did you mean MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET? Export it under that name instead.',
    ]);
    // Every command says it on stderr (here with the URL also set right, so nothing reaches for the default port).
    const status = await cli(['status'], { ...env, MADEINOZ_KNOWLEDGE_MCP_URL: server.url });
    expect(status.err).toContain('warning: MADEINOZ_KNOWLEDGE_MCP_ULR');
  });

  it('a settings file with NUL bytes and no UTF-16 mark is refused, naming the file and the fix', async () => {
    const e = await configError(withFile(Buffer.from('MADEINOZ_KNOWLEDGE_GROUP_ID=a\0b\n')));
    expect(e.message).toMatch(/settings\.env: it is not text \(it holds NUL bytes\); save it as UTF-8 text/);
  });
});

describe('a token or header a request cannot carry is a settings error naming the setting (HEADER_VALUE)', () => {
  it('€ or a line break in MADEINOZ_KNOWLEDGE_AUTH_TOKEN or a header value: refused when read, the value never shown', async () => {
    const euro = await configError({ ...box.env, MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'pr€ttysecret' });
    expect(euro.variable).toBe('MADEINOZ_KNOWLEDGE_AUTH_TOKEN');
    expect(euro.message).toContain('holds a character outside Latin-1 at character 3, which an HTTP header cannot carry');
    expect(euro.message).not.toContain('ttysecret');
    const newline = await configError({ ...box.env, MADEINOZ_KNOWLEDGE_HEADERS: '{"X-Api-Key":"key\\nsecond"}' });
    expect(newline.variable).toBe('MADEINOZ_KNOWLEDGE_HEADERS');
    expect(newline.message).toContain('the value of "X-Api-Key" holds a line break at character 4');
    expect(newline.message).not.toContain('second');
    // Latin-1 is what a header carries (Python servers read it back as the same text).
    expect((await loadConfig({ env: { ...box.env, MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'pässwörd' } })).authToken).toBe('pässwörd');
  });

  it('sync says it is the setting (exit 2), not "nothing answers at <url>; start the Graphiti server there"', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    const sync = await cli(['sync'], { ...box.env, MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'pr€ttysecret' });
    expect(sync.code).toBe(2);
    expect(`${sync.out}${sync.err}`).toContain('MADEINOZ_KNOWLEDGE_AUTH_TOKEN is not allowed');
    expect(`${sync.out}${sync.err}`).not.toMatch(/nothing answers|start the Graphiti server/);
    expect(`${sync.out}${sync.err}`).not.toContain('ttysecret');
  });

  it('BEARER_PREFIX: a token pasted with its "Bearer " is sent once as "Bearer <token>", not "Bearer Bearer …"', async () => {
    expect((await loadConfig({ env: { ...box.env, MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'Bearer abc123' } })).authToken).toBe('abc123');
    expect((await loadConfig({ env: { ...box.env, MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'bearer  abc123 ' } })).authToken).toBe('abc123');
    expect((await loadConfig({ env: { ...box.env, MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'Bearerabc' } })).authToken).toBe('Bearerabc');
  });
});

describe("a URL's user and password are never shown (util/display-url.ts)", () => {
  const secretUrl = () => server.url.replace('http://', 'http://bob:Hunter2pw@');

  it('status, health and sync print where the server is, never its password', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    const env = { ...box.env, MADEINOZ_KNOWLEDGE_MCP_URL: secretUrl() };
    for (const args of [['sync'], ['status'], ['status', '--json'], ['health'], ['health', '--json']]) {
      const run = await cli(args, env);
      expect(`${run.out}${run.err}`, args.join(' ')).not.toContain('Hunter2pw');
      expect(`${run.out}${run.err}`, args.join(' ')).not.toContain('bob:');
    }
    expect((await cli(['status'], env)).out).toContain(`(${server.url}, from MADEINOZ_KNOWLEDGE_MCP_URL)`);
  });

  it('the next step for a server that is down, or a URL without /mcp, says the URL without them (and that they stay)', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    const origin = new URL(server.url).origin;
    await server.close();
    const down = await cli(['sync'], { ...box.env, MADEINOZ_KNOWLEDGE_MCP_URL: secretUrl(), MADEINOZ_KNOWLEDGE_RETRIES: '0' });
    expect(down.out).toContain(`nothing answers at ${server.url}; next step`);
    const noPath = await cli(['health'], { ...box.env, MADEINOZ_KNOWLEDGE_MCP_URL: `${origin.replace('http://', 'http://bob:Hunter2pw@')}/`, MADEINOZ_KNOWLEDGE_RETRIES: '0' });
    expect(noPath.out).toContain(`its path should be /mcp: ${origin}/mcp (keeping your user and password in it)`);
    for (const run of [down, noPath]) expect(`${run.out}${run.err}`).not.toContain('Hunter2pw');
  });

  it('a URL broken by an unencoded "#" in its password: the error names percent-encoding and shows no password', async () => {
    const e = await configError({ ...box.env, MADEINOZ_KNOWLEDGE_MCP_URL: 'http://bob:s3cr#tpw@127.0.0.1:8000/mcp' });
    expect(e.message).toContain('MADEINOZ_KNOWLEDGE_MCP_URL="http://127.0.0.1:8000/mcp" is not allowed');
    expect(e.message).toContain('must be percent-encoded: # as %23');
    expect(e.message).not.toMatch(/s3cr|tpw|bob/);
  });

  it('displayUrl leaves out user, password, query and fragment', () => {
    expect(displayUrl('https://u:p@graph.example:8443/mcp?api_key=k1#x')).toBe('https://graph.example:8443/mcp');
    expect(displayUrl('http://127.0.0.1:8000/mcp')).toBe('http://127.0.0.1:8000/mcp');
    expect(displayUrl('http://u:a#b@h/mcp')).toBe('http://h/mcp');
  });
});

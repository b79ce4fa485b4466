import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellWord } from '../../src/lib/util/install-route.js';
import { REPO_ROOT } from '../support/paths.js';
import { misconfiguredNote, parseHookInput, readStdin, sessionStartOutput, shouldInject, truncateAtLine, writeStdout } from '../../src/hooks/hook-io.js';
import { ConfigError } from '../../src/lib/config/config.js';

describe('sessionStartOutput', () => {
  it('empty context → no output at all', () => {
    expect(sessionStartOutput('')).toBe('');
    expect(sessionStartOutput('   \n ')).toBe('');
  });

  it('exactly the documented JSON shape', () => {
    expect(JSON.parse(sessionStartOutput('a\nb'))).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'a\nb' } });
  });

  it('property: JSON < 10000 characters and context ≤ 9000, whole lines, whatever the text (escaping included)', () => {
    const line = fc.string({ maxLength: 300, unit: fc.constantFrom('a', '"', '\\', '\u0001', 'é', ' ', '\t', '😀') });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 200 }), (lines) => {
        const text = lines.join('\n');
        const out = sessionStartOutput(text);
        expect(out.length).toBeLessThan(10_000);
        if (out === '') return;
        const ctx = (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
        expect(ctx.length).toBeLessThanOrEqual(9000);
        expect(text.trim().startsWith(ctx)).toBe(true);
        const rest = text.trim().slice(ctx.length);
        expect(rest === '' || /^\s*\n/.test(rest)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('truncateAtLine never cuts a line', () => {
    expect(truncateAtLine('aaa\nbbb\nccc', 9)).toBe('aaa\nbbb');
    expect(truncateAtLine('aaaaaaaaaa', 5)).toBe('');
    expect(truncateAtLine('short', 100)).toBe('short');
  });
});

describe('parseHookInput', () => {
  it('reads the documented fields and keeps unknown ones', () => {
    const p = parseHookInput(JSON.stringify({ session_id: 's', cwd: '/x', hook_event_name: 'SessionStart', source: 'compact', model: 'm', future_field: 1 }), '/fallback');
    expect(p).toMatchObject({ cwd: '/x', source: 'compact', problem: undefined });
    expect(p.input.future_field).toBe(1);
  });

  it('tolerates empty, non-JSON and wrong shapes', () => {
    expect(parseHookInput('', '/f')).toMatchObject({ cwd: '/f', source: 'startup', problem: 'empty stdin' });
    expect(parseHookInput('{oops', '/f').problem).toMatch(/not JSON/);
    expect(parseHookInput('[]', '/f').problem).toMatch(/not an object/);
    const partial = parseHookInput('{"cwd":"/ok","source":7,"stop_hook_active":"yes"}', '/f');
    expect(partial).toMatchObject({ cwd: '/ok', source: 'startup' });
    expect(partial.input.stop_hook_active).toBeUndefined();
    expect(parseHookInput('\uFEFF{"stop_hook_active":true}', '/f').input.stop_hook_active).toBe(true);
  });
});

describe('readStdin', () => {
  it('reads to the end', async () => {
    const s = new PassThrough();
    const p = readStdin({ stream: s as unknown as NodeJS.ReadStream });
    s.write('{"a":');
    s.end('1}');
    expect(await p).toBe('{"a":1}');
  });

  it('stops at the byte cap', async () => {
    const s = new PassThrough();
    const p = readStdin({ stream: s as unknown as NodeJS.ReadStream, maxBytes: 4 });
    s.write('123456789');
    expect(await p).toBe('1234');
  });

  it('gives up after the timeout with what arrived', async () => {
    const s = new PassThrough();
    const p = readStdin({ stream: s as unknown as NodeJS.ReadStream, timeoutMs: 50 });
    s.write('partial');
    expect(await p).toBe('partial');
  });
});

describe('stdio through file descriptors (under Claude Code)', () => {
  const underClaude = { CLAUDE_PROJECT_DIR: '/some/project' };
  const withFile = async (content: string, use: (fd: number, path: string) => Promise<void>) => {
    const dir = mkdtempSync(join(tmpdir(), 'gms-hookio-'));
    const path = join(dir, 'io');
    writeFileSync(path, content);
    const fd = openSync(path, 'r+');
    try {
      await use(fd, path);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('reads the payload from the descriptor to its end', async () => {
    await withFile('{"cwd":"/p","source":"startup"}', async (fd) => {
      expect(await readStdin({ env: underClaude, fd })).toBe('{"cwd":"/p","source":"startup"}');
    });
  });

  it('stops at the byte cap', async () => {
    await withFile('x'.repeat(100), async (fd) => {
      expect(await readStdin({ env: underClaude, fd, maxBytes: 10 })).toBe('x'.repeat(10));
    });
  });

  it('a terminal-like descriptor (/dev/null is a character device) gives the empty payload', async () => {
    const fd = openSync('/dev/null', 'r');
    try {
      expect(await readStdin({ env: underClaude, fd })).toBe('');
    } finally {
      closeSync(fd);
    }
  });

  it('writeStdout writes the whole text to the descriptor; a closed descriptor is ignored', async () => {
    await withFile('', async (fd, path) => {
      const text = `${'é'.repeat(40_000)}\n`;
      await writeStdout(text, fd);
      expect(readFileSync(path, 'utf8')).toBe(text);
    });
    await expect(writeStdout('lost', 987_654)).resolves.toBeUndefined();
  });
});

describe('policy helpers', () => {
  it('resume and fork inject only with contextOnResume; every other source injects', () => {
    for (const s of ['startup', 'clear', 'compact', 'something-new']) expect(shouldInject(s, false)).toBe(true);
    for (const s of ['resume', 'fork']) {
      expect(shouldInject(s, false)).toBe(false);
      expect(shouldInject(s, true)).toBe(true);
    }
  });

  it('the misconfiguration note states facts, names the setting, never the value', () => {
    const note = misconfiguredNote(new ConfigError('MADEINOZ_KNOWLEDGE_MCP_URL="ftp://user:secret@x" is not allowed', 'MADEINOZ_KNOWLEDGE_MCP_URL'), '/state');
    expect(note).toContain('MADEINOZ_KNOWLEDGE_MCP_URL');
    expect(note).not.toContain('secret');
    // The tests run a checkout: its command by its absolute path (each route: test/util/install-route.test.ts).
    expect(note).toContain(`\`node ${shellWord(join(REPO_ROOT, 'dist', 'cli.js'))} health\` shows the reason.`);
    expect(note).not.toContain('\n');
  });
});

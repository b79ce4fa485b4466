/** The rule for a settings change while the watch runs (watch/settings-change.ts), on built configs. */
import { describe, expect, it } from 'vitest';
import { buildConfig, type Config } from '../../src/lib/config/config.js';
import { resolveSources } from '../../src/lib/memory/sources.js';
import { settingsChange } from '../../src/lib/watch/settings-change.js';
import { cli } from '../../src/lib/util/install-route.js';

/** The running copy's command (this checkout's: node and the path of its dist/cli.js), as a regular expression. */
const CLI = cli().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const base: Record<string, string> = {
  HOME: '/home/me',
  MADEINOZ_KNOWLEDGE_STATE_DIR: '/home/me/.local/state/gms',
  MADEINOZ_KNOWLEDGE_ORIGIN: 'me',
  MADEINOZ_KNOWLEDGE_MCP_URL: 'http://127.0.0.1:8000/mcp',
};
const config = (env: Record<string, string> = {}): Config => buildConfig({ ...base, ...env });
const change = (a: Config, b: Config) => settingsChange(a, b, { before: resolveSources(a), after: resolveSources(b) });

describe('settingsChange', () => {
  it('the same settings read again: no change', () => {
    expect(change(config(), config())).toMatchObject({ changed: [], sourcesChanged: false, notes: [] });
  });

  it('a URL with a user, password or query is said without them', () => {
    const c = change(config(), config({ MADEINOZ_KNOWLEDGE_MCP_URL: 'https://bob:hunter2@graph.example/mcp?token=s3cret' }));
    expect(c.changed).toEqual(['mcpUrl']);
    expect(c.notes.join(' ')).toContain('server now https://graph.example/mcp (was http://127.0.0.1:8000/mcp)');
    expect(c.notes.join(' ')).not.toMatch(/hunter2|s3cret|bob/);
  });

  it('exclusions and folders restart the watching; the log level and debounce wait for a restart; a token is named, never shown', () => {
    const c = change(config(), config({ MADEINOZ_KNOWLEDGE_EXCLUDE: 'drafts/**', MADEINOZ_KNOWLEDGE_SYNC_PAI: 'false', MADEINOZ_KNOWLEDGE_LOG_LEVEL: 'debug', MADEINOZ_KNOWLEDGE_AUTH_TOKEN: 'tok-very-secret' }));
    expect(c.sourcesChanged).toBe(true);
    expect(c.removed).toEqual(['pai=/home/me/.claude/MEMORY']);
    expect(c.notes).toEqual([
      expect.stringMatching(/^no longer watching pai=.*deletes nothing\)$/),
      'exclusions now drafts/**',
      'logLevel takes effect when the watch restarts',
      'taken up from the next pass: authToken',
    ]);
    expect(JSON.stringify(c)).not.toContain('tok-very-secret');
  });

  it('no memory folder left: refused (there would be nothing to watch), naming the next step', () => {
    const c = change(config(), config({ MADEINOZ_KNOWLEDGE_SYNC_PAI: 'false', MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY: 'false' }));
    expect(c.refused).toMatch(/enable no memory folder.*nothing to watch.*goes on with the settings it had; stop it if you mean to sync nothing/);
  });

  it('another state folder: refused as a whole, naming the restart', () => {
    const c = change(config(), config({ MADEINOZ_KNOWLEDGE_STATE_DIR: '/elsewhere' }));
    expect(c.refused).toMatch(new RegExp(String.raw`another state folder.*\/elsewhere.*keeps \/home\/me\/.local\/state\/gms.*Restart \`${CLI} watch\``));
    expect(c.changed).toEqual([]);
  });
});

describe('settingsChange: a source name given to another folder (the engine judges it: sync/source-roots.ts)', () => {
  it('unnamed folders renumbered: said as a name now at another folder, not as a folder added and one removed', () => {
    const a = config({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: '/data/a:/data/b' });
    const b = config({ MADEINOZ_KNOWLEDGE_SYNC_PATHS: '/data/b' });
    const c = settingsChange(a, b, { before: resolveSources(a), after: resolveSources(b) });
    expect(c.refused).toBeUndefined();
    expect(c.notes).toEqual(['extra1 is now /data/b (was /data/a)', expect.stringMatching(/^no longer watching extra2=\/data\/b/)]);
  });
});

/**
 * The Claude Code plugin's version (plugin/.claude-plugin/plugin.json): package.json's version with
 * a content hash of what the plugin ships as semver build metadata, `0.1.0+1a2b3c4d5e6f`.
 * `npm run build:plugin` writes it (scripts/build/bundle-hooks.mjs); test/install/plugin.test.ts
 * fails when the committed manifest does not name the committed files; `status` reads it to know
 * whether `claude plugin update` can bring a copy up to date (commands/copies.ts).
 *
 * Why: `claude plugin update` keeps the cached copy while plugin.json's version string is
 * unchanged, and fetches the marketplace's copy into a new cache folder as soon as the string
 * differs — any difference: measured with Claude Code 2.1.330, 2.1.332 and 2.1.337, `0.1.0+<hash>` to
 * `0.1.0`, to `0.1.0+bbb222`, `0.1.0+bbb222` to `0.1.0+0aa000` (the same semver precedence), to
 * `0.1.0-ccc333` and to `0.0.9` all updated, and changed files under the same string did not;
 * test/claude/plugin.claude.test.ts ("any change of plugin.json's version string") checks it on every pinned generation. A hash of the content makes the
 * string change exactly when what users run changes, with no release step to forget; package.json's
 * version in front keeps the release readable. Build metadata rather than a pre-release tag: it says
 * "the same release, another build" and ranks no lower than the release itself.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Hex digits of the content hash in the version. */
export const CONTENT_HASH_LENGTH = 12;

/** The manifest, relative to the plugin's folder. */
export const PLUGIN_MANIFEST = join('.claude-plugin', 'plugin.json');

/** Every file under `dir`, relative, with `/` separators, sorted (the hash must not depend on the platform). */
function filesUnder(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, root));
    else if (entry.isFile()) out.push(relative(root, path).split(sep).join('/'));
  }
  return out.sort();
}

/**
 * The hash of everything the plugin at `pluginDir` ships: every file's path and bytes, the manifest
 * without its `version` (the version names the rest; it cannot name itself). A text file's CRLF
 * line ends count as LF: a checkout with git's autocrlf holds the same release.
 */
export function pluginContentHash(pluginDir: string): string {
  const hash = createHash('sha256');
  for (const rel of filesUnder(pluginDir)) {
    let bytes: Buffer = readFileSync(join(pluginDir, rel));
    if (rel === PLUGIN_MANIFEST.split(sep).join('/')) {
      const { version: _version, ...rest } = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      bytes = Buffer.from(JSON.stringify(rest));
    }
    if (!bytes.includes(0)) bytes = Buffer.from(bytes.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
    hash.update(`${rel}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex').slice(0, CONTENT_HASH_LENGTH);
}

/** The version the plugin at `pluginDir` should declare, for package.json's `packageVersion`. */
export function pluginVersion(packageVersion: string, pluginDir: string): string {
  return `${packageVersion.replace(/\+.*$/, '')}+${pluginContentHash(pluginDir)}`;
}

/**
 * Whether a plugin copy's version names its content (this rule): then every later build has another
 * version, and `claude plugin update` fetches it. Builds before it all said `0.1.0`.
 */
export function versionNamesContent(version: string | undefined): boolean {
  return version !== undefined && new RegExp(`\\+[0-9a-f]{${CONTENT_HASH_LENGTH}}$`).test(version);
}

/** Writes the version into the plugin's manifest (its other fields and their order kept); returns it. */
export function writePluginVersion(packageVersion: string, pluginDir: string): string {
  const file = join(pluginDir, PLUGIN_MANIFEST);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const version = pluginVersion(packageVersion, pluginDir);
  writeFileSync(file, `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
  return version;
}

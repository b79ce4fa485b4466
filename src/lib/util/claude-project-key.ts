/**
 * Claude Code's project folder name ("key") for a path, as shipped in its CLI bundle
 * (`sanitizePath`); context/project.ts explains it and re-exports these (with the process's
 * environment as the default). Here, in util/, so that the sync and `pull` (issue 42), which may
 * not import context/, map a project to its folder name too. Claude Code's override of the name
 * (`CLAUDE_CODE_PROJECT_DIR_NAME`) is handed in as read by config/claude-memory.ts
 * (`projectDirNameOverride`, PROJECT_DIR_NAME_OVERRIDE): util/ reads no setting of its own.
 */
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

export const MAX_SANITIZED_LENGTH = 200;

/** Claude Code's 32-bit string hash (Java's String.hashCode) in base 36, as used for long project keys. */
export function claudePathHash(path: string): string {
  let h = 0;
  for (let i = 0; i < path.length; i++) h = ((h << 5) - h + path.charCodeAt(i)) | 0;
  return Math.abs(h).toString(36);
}

/** Claude Code's project folder name for a path (pure; see the module comment). */
export function claudeProjectKey(path: string): string {
  const sanitized = path.replace(/[^a-zA-Z0-9]/g, '-');
  if (sanitized.length <= MAX_SANITIZED_LENGTH) return sanitized;
  return `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-${claudePathHash(path)}`;
}

/**
 * The key as Claude Code will have created it on disk. For long paths, an existing folder
 * sharing the 200-character prefix wins over our computed hash (Claude Code has changed
 * the disambiguation scheme; Bun builds may hash differently). Among several, the computed
 * one if present, else the most recently modified.
 */
export function resolveProjectKey(path: string, projectsDir: string, override: string | undefined): string {
  if (override !== undefined) return override;
  const computed = claudeProjectKey(path);
  if (computed.length <= MAX_SANITIZED_LENGTH) return computed;
  const prefix = `${computed.slice(0, MAX_SANITIZED_LENGTH)}-`;
  let names: string[];
  try {
    names = readdirSync(projectsDir).filter((n) => n.startsWith(prefix) && n.length > prefix.length);
  } catch {
    return computed;
  }
  if (names.length === 0 || names.includes(computed)) return computed;
  let best = names[0] as string;
  let bestTime = -1;
  for (const name of names) {
    const st = statOrUndefinedHere(join(projectsDir, name));
    if (st !== undefined && st.mtimeMs > bestTime) {
      best = name;
      bestTime = st.mtimeMs;
    }
  }
  return best;
}


function statOrUndefinedHere(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

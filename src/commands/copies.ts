/**
 * What `status` says of the copies of the tool Claude Code runs (install/copies.ts finds them):
 * each one's registration, version, state format and folder; which is older than the state format
 * or than another copy; and the step that updates it (or removes it: one copy is enough).
 *
 * The steps were checked against Claude Code 2.1.330, 2.1.332 and 2.1.337 (test/claude/plugin.claude.test.ts,
 * on every pinned generation): `claude plugin update` refreshes the marketplace (unless it did less
 * than 30 s before: 20 s ago it is not fetched, 30.5 s ago it is) and fetches the plugin when plugin.json's version
 * string differs from the cached copy's, keeping the copy while it is the same. A copy whose version
 * names its content (install/plugin-version.ts) is brought up to date by that command; the builds
 * before it all said 0.1.0, so theirs is `marketplace update`, `uninstall` and `install`. A directory
 * marketplace's plugin is read from its folder, which only its owner updates.
 */
import { HELD_STATE_VERSION, STATE_VERSION } from '../lib/state/format.js';
import type { ToolCopy } from '../lib/install/copies.js';
import { versionNamesContent } from '../lib/install/plugin-version.js';
import { commandFor, routeOfPackage, updateStepFor } from '../lib/util/install-route.js';

export interface CopyReport extends ToolCopy {
  /** Why this copy needs the user (older than the state format, or than another copy); absent when it is fine. */
  problem?: string;
  /** The command or action that updates it, and the one that removes it. */
  nextStep?: string;
}

const PLUGIN = 'graphiti-memory-sync';

/** Numeric compare of dotted versions (pre-release tags ignored): negative when a is older. */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[-+]/)[0]?.split('.').map((n) => Number.parseInt(n, 10) || 0) ?? [];
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Negative when copy a is older than b (by the state format, then the version); 0 when they cannot be told apart. */
function compareCopies(a: ToolCopy, b: ToolCopy): number {
  if (a.stateFormat !== undefined && b.stateFormat !== undefined && a.stateFormat !== b.stateFormat) return a.stateFormat - b.stateFormat;
  if (a.version !== undefined && b.version !== undefined) return compareVersions(a.version, b.version);
  return 0;
}

/** What a copy is called in a sentence. */
export function copyName(c: ToolCopy): string {
  if (c.registration === 'plugin') return `the plugin ${c.registeredIn}`;
  return `the settings hooks in ${c.registeredIn} (${c.scope ?? '?'} scope)`;
}

function scopeFlag(c: ToolCopy): string {
  return c.scope === undefined || c.scope === 'user' ? '' : ` --scope ${c.scope}`;
}

/** The command that removes a copy: the plugin's uninstall, or the settings hooks' `uninstall` for their scope. */
export function removeStep(c: ToolCopy): string {
  if (c.registration === 'plugin') return `claude plugin uninstall ${c.registeredIn}${scopeFlag(c)}`;
  return commandFor(`uninstall --scope ${c.scope ?? (c.kind === 'project' ? 'project' : 'user')}`);
}

/** The step that brings this copy up to date, then the one that removes it. */
export function updateStep(c: ToolCopy): string {
  const where = c.root ?? 'its folder';
  switch (c.kind) {
    case 'plugin-cache': {
      const id = c.registeredIn;
      const remove = `or remove it ("${removeStep(c)}"), since one copy is enough`;
      if (versionNamesContent(c.version)) return `update it: "claude plugin update ${id}${scopeFlag(c)}" (it refreshes the marketplace first), and restart Claude Code; ${remove}`;
      return `update it: "claude plugin marketplace update ${c.marketplace ?? '<marketplace>'}", then "claude plugin uninstall ${id}${scopeFlag(c)}" and "claude plugin install ${id}${scopeFlag(c)}" (this copy's version, ${c.version ?? 'unknown'}, does not change with its content, and "claude plugin update" keeps the cached copy while the version is unchanged), and restart Claude Code; ${remove}`;
    }
    case 'plugin-folder':
      return `Claude Code reads this plugin from the folder ${where} (a directory marketplace): update that folder (a checkout of ${PLUGIN}: "git -C ${c.root === undefined ? '<folder>' : shellArg(dirOfMarketplace(c.root))} pull"; the plugin's bundles are committed); or remove it ("${removeStep(c)}"), since one copy is enough`;
    case 'global':
    case 'project':
    case 'folder': {
      // The route's update step (util/install-route.ts owns it); removing the hooks is a command of the copy running now.
      const route = c.root === undefined ? { route: c.kind, root: 'its folder' } : { ...routeOfPackage(c.root), route: c.kind };
      const scope = c.scope ?? (c.kind === 'project' ? 'project' : 'user');
      const instead = c.kind === 'folder' ? `, or run "${commandFor(`install --scope ${scope}`)}" with the copy you use now` : '';
      return `${updateStepFor(route)}${instead}; or remove these hooks ("${removeStep(c)}"), since one copy is enough`;
    }
  }
}

/**
 * The step that writes every file of a copy again, for one whose bundles an update left missing or
 * cut short (`incomplete`). Not always its update step: `claude plugin update` keeps a cached copy
 * of an unchanged version, `git pull` keeps a checkout's damaged files, and `npm install` in a
 * project keeps a dependency it finds installed.
 */
export function repairStep(c: ToolCopy): string {
  const again = 'then start a new Claude Code session';
  switch (c.kind) {
    case 'plugin-cache':
      return `install it again: "claude plugin uninstall ${c.registeredIn}${scopeFlag(c)}" and "claude plugin install ${c.registeredIn}${scopeFlag(c)}" ("claude plugin update" keeps a cached copy of the same version), ${again}`;
    case 'plugin-folder':
      return `restore the plugin's committed files: "git -C ${c.root === undefined ? '<folder>' : shellArg(c.root)} checkout -- ." (then "git pull" to update it), ${again}`;
    case 'project': {
      const project = c.root === undefined ? undefined : /^(.*?)[\\/]node_modules[\\/]/.exec(c.root)?.[1];
      return `install the project's dependencies afresh: "cd ${project === undefined ? '<the project>' : shellArg(project)} && npm ci" ("npm install" keeps a dependency it finds installed), ${again}`;
    }
    case 'global':
    case 'folder':
      return `${updateStep(c)}; ${again}`;
  }
}

/** The marketplace folder of a plugin read from `<marketplace>/plugin`. */
function dirOfMarketplace(pluginRoot: string): string {
  return pluginRoot.replace(/[\\/]plugin[\\/]?$/, '');
}

function shellArg(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Judges every copy against the state format (`stateFormat`, the one this build writes; `held`: a part
 * is held as another machine's, so the state is written in the format only builds since then read;
 * `emptiedLedger`: pull marks notes lost with their emptied group, so `pulled.json` is written in the
 * version only builds since then read, state/format.ts EMPTIED_NEEDS_NEWER_LEDGER) and against
 * the newest copy: a copy older than the state refuses it and syncs nothing (another copy of this
 * build or later syncs in its place: worker/spawn.ts); one only older than another copy still works,
 * and is named so the user knows which one runs what.
 */
export function judgeCopies(copies: ToolCopy[], stateFormat: number = STATE_VERSION, held = false, emptiedLedger = false): CopyReport[] {
  const newest = copies.reduce<ToolCopy | undefined>((best, c) => (best === undefined || compareCopies(c, best) > 0 ? c : best), undefined);
  return copies.map((c) => {
    // First: code someone else can change runs as the user in every session (install/bundle-check.ts CODE_OURS_ALONE).
    if (c.openToOthers !== undefined) {
      return { ...c, problem: `another local user can change the code its hooks run, as you, in every session: ${c.openToOthers}`, nextStep: 'make that writable by you alone (or root): "chmod go-w" it if it is yours; otherwise install the tool into a folder of yours and remove this copy' };
    }
    // Then: a copy whose files are not all there runs nothing, whatever its version says.
    if (c.incomplete !== undefined) {
      return { ...c, problem: `incomplete: ${c.incomplete.join(', ')}, as an update or copy that stopped half-way leaves them; its hooks end quietly (no hook error), so nothing syncs or loads from it`, nextStep: repairStep(c) };
    }
    // While a part is held as another machine's, the state is written in a format builds from before that refuse, and so do builds that write an older held version (state/format.ts HELD_NEEDS_NEWER_FORMAT).
    if (held && c.stateFormat === stateFormat && (c.readsHeldState === false || (c.heldStateFormat !== undefined && c.heldStateFormat < HELD_STATE_VERSION))) {
      const age = c.readsHeldState === false ? 'from before the check for two machines with one origin' : 'from before the current rules for two machines with one origin';
      return { ...c, problem: `${age}: while episodes are held as another machine's (\`origin\`), the state is written in a format it refuses ("upgrade"), so its worker syncs nothing until you update it or answer \`origin --keep\` or \`--split\``, nextStep: updateStep(c) };
    }
    // The ledger's mark is refused the same way by a copy that reads this state (state/format.ts EMPTIED_NEEDS_NEWER_LEDGER).
    if (emptiedLedger && c.stateFormat === stateFormat && c.readsEmptiedLedger === false) {
      return { ...c, problem: 'from before the rule that keeps notes lost with an emptied group: while notes are marked so, pulled.json is written in a version it refuses ("upgrade"), so its worker pulls and syncs nothing until you update it, or until those notes are in the graph again (`sync --force` on the machine that wrote them, then a pull here)', nextStep: updateStep(c) };
    }
    if (c.stateFormat !== undefined && c.stateFormat < stateFormat) {
      const others = copies.filter((o) => o !== c && o.stateFormat !== undefined && o.stateFormat >= stateFormat);
      const other = others.find((o) => o.leasePerFormat === true) ?? others[0];
      const verb = (o: ToolCopy) => (o.registration === 'plugin' ? 'syncs' : 'sync');
      const instead =
        other === undefined
          ? '; no other copy that reads it runs in Claude Code, so nothing syncs from your sessions'
          : other.leasePerFormat === true
            ? `; ${copyName(other)} ${verb(other)} in its place`
            : `; ${copyName(other)} ${other.registration === 'plugin' ? 'reads' : 'read'} it, but ${other.registration === 'plugin' ? 'is' : 'are'} of a build that shares one worker with this one: whichever hook starts the worker first decides, and when it is this one nothing syncs`;
      return { ...c, problem: `older than the state format: it writes state format ${c.stateFormat} and refuses the format ${stateFormat} this version writes ("upgrade"), so its worker syncs nothing${instead}`, nextStep: updateStep(c) };
    }
    if (newest !== undefined && newest !== c && compareCopies(c, newest) < 0) {
      return { ...c, problem: `older than ${copyName(newest)} (${describe(c)} against ${describe(newest)})`, nextStep: updateStep(c) };
    }
    return { ...c };
  });
}

function describe(c: ToolCopy): string {
  return [c.version === undefined ? undefined : `version ${c.version}`, c.stateFormat === undefined ? undefined : `state format ${c.stateFormat}`].filter((p) => p !== undefined).join(', ') || 'version unknown';
}

/** The `status` lines: one per copy, then each problem with its next step. Nothing when Claude Code runs no copy. */
export function formatCopies(copies: CopyReport[]): string[] {
  if (copies.length === 0) return [];
  const lines = [`Claude Code runs ${copies.length === 1 ? 'one copy' : `${copies.length} copies`} of ${PLUGIN}:`];
  for (const c of copies) {
    lines.push(`  ${c.registration === 'plugin' ? `plugin ${c.registeredIn}` : `settings hooks (${c.scope ?? '?'} scope, ${c.registeredIn})`}: ${describe(c)}, from ${c.root ?? '(its folder could not be found)'}`);
  }
  for (const c of copies) {
    if (c.problem === undefined) continue;
    lines.push(`  ${capitalize(copyName(c))}: ${c.problem}.`);
    if (c.nextStep !== undefined) lines.push(`    Next: ${c.nextStep}.`);
  }
  return lines;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

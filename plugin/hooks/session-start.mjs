// Bundled by scripts/bundle-hooks.mjs from src/; edit the sources, not this file.
import { createRequire as __gmsRequire } from 'node:module';
const require = __gmsRequire(import.meta.url);

// src/lib/config/snapshot.ts
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join as join2 } from "node:path";

// src/lib/config/env-file.ts
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

// src/lib/util/package-root.ts
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
function buildRootOf(hereUrl = import.meta.url) {
  let dir = dirname(fileURLToPath(hereUrl));
  while (basename(dir) !== "lib" && basename(dir) !== "hooks") {
    const up = dirname(dir);
    if (up === dir) throw new Error(`not inside a lib/ or hooks/ folder: ${hereUrl}`);
    dir = up;
  }
  return dirname(dir);
}
function packageRoot(hereUrl = import.meta.url) {
  return dirname(buildRootOf(hereUrl));
}

// src/lib/config/env-file.ts
var ConfigError = class extends Error {
  constructor(message, variable) {
    super(message);
    this.variable = variable;
    this.name = "ConfigError";
  }
  variable;
};
function configErrorVariable(error) {
  if (!(error instanceof Error) || error.name !== "ConfigError") return void 0;
  const variable = error.variable;
  return typeof variable === "string" ? variable : void 0;
}
function home(env) {
  return env.HOME && env.HOME !== "" ? env.HOME : homedir();
}
function expandHome(p, env) {
  if (p === "~") return home(env);
  if (p.startsWith("~/")) return join(home(env), p.slice(2));
  return p;
}
function findEnvFile(env) {
  const explicit = env.MADEINOZ_KNOWLEDGE_ENV_FILE;
  if (explicit !== void 0 && explicit.trim() !== "") {
    const p = resolve(expandHome(explicit.trim(), env));
    if (!existsSync(p)) throw new ConfigError(`MADEINOZ_KNOWLEDGE_ENV_FILE="${explicit}" is not allowed: the file does not exist`, "MADEINOZ_KNOWLEDGE_ENV_FILE");
    return p;
  }
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : join(home(env), ".config");
  for (const candidate of [join(packageRoot(), "config", ".env"), join(xdg, "graphiti-memory-sync", ".env")]) {
    if (existsSync(candidate)) return candidate;
  }
  return void 0;
}
function findPaiEnvFile(env) {
  const candidates = [];
  const pai = env.PAI_DIR?.trim();
  if (pai !== void 0 && pai !== "") candidates.push(join(resolve(expandHome(pai, env)), ".env"));
  const claude = env.CLAUDE_CONFIG_DIR?.trim();
  candidates.push(join(claude !== void 0 && claude !== "" ? resolve(expandHome(claude, env)) : join(home(env), ".claude"), ".env"));
  return candidates.find((candidate) => existsSync(candidate));
}

// src/lib/config/snapshot.ts
var FIELDS = ["stateDir", "logLevel", "contextBudget", "contextOnResume", "claudeConfigDir", "db", "groupId", "sourceGroups"];
var OTHER_INPUTS = ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "PAI_DIR", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_PROJECT_DIR_NAME"];
var VERSION = 1;
var KEEP_SNAPSHOTS = 16;
function settingsFingerprint(env = process.env) {
  const entries = Object.entries(env).filter(([k, v]) => v !== void 0 && v !== "" && (k.startsWith("MADEINOZ_") || OTHER_INPUTS.includes(k))).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  const files = [findEnvFile(env), findPaiEnvFile(env)].map((file) => [file ?? null, file === void 0 ? "" : fileStamp(file)]);
  return createHash("sha256").update(JSON.stringify([VERSION, entries, files])).digest("hex").slice(0, 32);
}
function fileStamp(file) {
  try {
    const st = statSync(file);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return "unreadable";
  }
}
function snapshotDir(env = process.env) {
  const stateHome = env.XDG_STATE_HOME && env.XDG_STATE_HOME !== "" ? env.XDG_STATE_HOME : join2(home(env), ".local", "state");
  return join2(stateHome, "graphiti-memory-sync", "config-snapshots");
}
function pick(config) {
  const out = {};
  for (const f of FIELDS) out[f] = config[f];
  return out;
}
function save(dir, key, config) {
  try {
    mkdirSync(dir, { recursive: true, mode: 448 });
    const tmp = join2(dir, `.${key}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(pick(config)), { mode: 384 });
    renameSync(tmp, join2(dir, `${key}.json`));
    const names = readdirSync(dir).filter((n) => n.endsWith(".json"));
    if (names.length > KEEP_SNAPSHOTS) {
      const byAge = names.map((n) => ({ n, t: statSync(join2(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
      for (const { n } of byAge.slice(0, names.length - KEEP_SNAPSHOTS)) if (n !== `${key}.json`) unlinkSync(join2(dir, n));
    }
  } catch {
  }
}
function valid(value) {
  if (typeof value !== "object" || value === null) return false;
  const v = value;
  return typeof v.stateDir === "string" && typeof v.claudeConfigDir === "string" && typeof v.contextBudget === "number" && typeof v.groupId === "string" && typeof v.logLevel === "string";
}
async function loadHookConfig(env = process.env) {
  const key = settingsFingerprint(env);
  const dir = snapshotDir(env);
  try {
    const value = JSON.parse(readFileSync(join2(dir, `${key}.json`), "utf8"));
    if (valid(value)) return value;
  } catch {
  }
  const { loadConfig } = await import("./hook-config.mjs");
  const config = await loadConfig({ env });
  save(dir, key, config);
  return pick(config);
}

// src/lib/context/cache.ts
import { readFileSync as readFileSync2 } from "node:fs";
import { join as join3 } from "node:path";
var MAX_CONTEXT_CHARS = 9e3;
function contextCacheDir(stateDir) {
  return join3(stateDir, "context");
}
function contextCachePath(stateDir, key) {
  const safe2 = key.replace(/[^A-Za-z0-9_-]/g, "-") || "default";
  return join3(contextCacheDir(stateDir), `${safe2}.json`);
}
function isEntry(value) {
  if (typeof value !== "object" || value === null) return false;
  const v = value;
  return v.version === 1 && typeof v.text === "string" && typeof v.builtAt === "string" && typeof v.project === "string" && typeof v.key === "string" && (v.format === "lines" || v.format === "toon" || v.format === "none") && typeof v.facts === "number";
}
function readContextCache(stateDir, key) {
  try {
    const text = readFileSync2(contextCachePath(stateDir, key), "utf8");
    const value = JSON.parse(text);
    return isEntry(value) ? value : void 0;
  } catch {
    return void 0;
  }
}

// src/lib/context/injection-claim.ts
import { mkdirSync as mkdirSync2, readdirSync as readdirSync2, readFileSync as readFileSync3, statSync as statSync2, unlinkSync as unlinkSync2, writeFileSync as writeFileSync2 } from "node:fs";
import { join as join4 } from "node:path";
var CLAIM_WINDOW_MS = 3e4;
var PRUNE_AFTER_MS = 24 * 60 * 6e4;
function safe(part) {
  return part.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
}
function claimInjection(stateDir, sessionId, source, who, now = Date.now()) {
  if (sessionId === void 0 || sessionId === "") return { claimed: true };
  const dir = join4(stateDir, "sessions");
  const file = join4(dir, `${safe(sessionId)}-${safe(source)}`);
  try {
    mkdirSync2(dir, { recursive: true, mode: 448 });
  } catch {
    return { claimed: true };
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync2(file, who, { flag: "wx", mode: 384 });
      if (attempt === 0) prune(dir, now);
      return { claimed: true };
    } catch (error) {
      if (error.code !== "EEXIST") return { claimed: true };
    }
    try {
      const st = statSync2(file);
      if (now - st.mtimeMs < CLAIM_WINDOW_MS) {
        let by = "another copy of this hook";
        try {
          by = readFileSync3(file, "utf8").slice(0, 40) || by;
        } catch {
        }
        return { claimed: false, by };
      }
      unlinkSync2(file);
    } catch {
    }
  }
  return { claimed: true };
}
function prune(dir, now) {
  try {
    const names = readdirSync2(dir);
    if (names.length < 100) return;
    for (const n of names) {
      const p = join4(dir, n);
      if (now - statSync2(p).mtimeMs > PRUNE_AFTER_MS) unlinkSync2(p);
    }
  } catch {
  }
}

// src/lib/context/graph-problem.ts
import { readFileSync as readFileSync4, renameSync as renameSync2, unlinkSync as unlinkSync3, writeFileSync as writeFileSync3 } from "node:fs";
import { join as join5 } from "node:path";
var FILE = "graph-problem.json";
function readGraphProblem(stateDir) {
  try {
    const value = JSON.parse(readFileSync4(join5(stateDir, FILE), "utf8"));
    if ((value.kind === "unreachable" || value.kind === "searches-failing") && typeof value.since === "string") {
      return { kind: value.kind, detail: typeof value.detail === "string" ? value.detail : "", since: value.since, told: value.told === true };
    }
  } catch {
  }
  return void 0;
}
function write(stateDir, problem) {
  const file = join5(stateDir, FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync3(tmp, `${JSON.stringify(problem)}
`);
  renameSync2(tmp, file);
}
function takeGraphProblemNote(stateDir) {
  const problem = readGraphProblem(stateDir);
  if (problem === void 0 || problem.told) return void 0;
  try {
    write(stateDir, { ...problem, told: true });
  } catch {
    return void 0;
  }
  const since = problem.since.slice(0, 16).replace("T", " ");
  return problem.kind === "unreachable" ? `Note: the knowledge graph (Graphiti) could not be reached since ${since} UTC, so the knowledge below may be out of date and new memory files wait to be synced. \`graphiti-memory-sync health\` names the cause.` : `Note: the knowledge graph (Graphiti) answers, but its searches fail (${problem.detail}), so no knowledge could be read from it since ${since} UTC. \`graphiti-memory-sync health\` names the cause and the fix.`;
}

// src/lib/util/log.ts
import { appendFileSync, mkdirSync as mkdirSync3, renameSync as renameSync3, statSync as statSync3 } from "node:fs";
import { dirname as dirname2, join as join6 } from "node:path";
var ORDER = { debug: 10, info: 20, warn: 30, error: 40 };
var MAX_LOG_BYTES = 5 * 1024 * 1024;
var SECRET_KEYS = /^(authorization|auth_?token|token|password|secret|api_?key|headers|cookie)$/i;
function logFilePath(stateDir) {
  return join6(stateDir, "logs", "graphiti-memory-sync.log");
}
function scrub(fields) {
  const out = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_KEYS.test(key)) out[key] = "[redacted]";
    else if (value instanceof Error) out[key] = { name: value.name, message: value.message };
    else out[key] = value;
  }
  return out;
}
function createLogger(options) {
  const level = options.level ?? "info";
  const threshold = level === "silent" ? Number.POSITIVE_INFINITY : ORDER[level];
  const file = options.file;
  let dirReady = false;
  let checkedSize = false;
  const write2 = (lvl, msg, base, fields) => {
    if (ORDER[lvl] < threshold) return;
    const line = JSON.stringify({ t: (/* @__PURE__ */ new Date()).toISOString(), level: lvl, pid: process.pid, msg, ...scrub(base), ...fields ? scrub(fields) : {} });
    options.mirror?.(line);
    if (file === void 0) return;
    try {
      if (!dirReady) {
        mkdirSync3(dirname2(file), { recursive: true, mode: 448 });
        dirReady = true;
      }
      if (!checkedSize) {
        checkedSize = true;
        try {
          if (statSync3(file).size > MAX_LOG_BYTES) renameSync3(file, `${file}.1`);
        } catch {
        }
      }
      appendFileSync(file, `${line}
`, { mode: 384 });
    } catch {
    }
  };
  const make = (base) => ({
    debug: (m, f) => write2("debug", m, base, f),
    info: (m, f) => write2("info", m, base, f),
    warn: (m, f) => write2("warn", m, base, f),
    error: (m, f) => write2("error", m, base, f),
    child: (f) => make({ ...base, ...f }),
    file
  });
  return make(options.base ?? {});
}
var nullLogger = createLogger({ level: "silent" });

// src/lib/context/project.ts
import { closeSync, openSync, readdirSync as readdirSync3, readSync, statSync as statSync4 } from "node:fs";
import { basename as basename2, dirname as dirname3, isAbsolute, join as join7, resolve as resolve2 } from "node:path";

// src/lib/graphiti/escape.ts
import { createHash as createHash2 } from "node:crypto";
var MAX_PROJECT_GROUP_LENGTH = 64;
function shortHash(text) {
  return createHash2("sha256").update(text, "utf8").digest("hex").slice(0, 8);
}
function projectGroupId(db, projectName) {
  const sep = db === "falkordb" ? "_" : "-";
  const folded = projectName.normalize("NFKD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase();
  const keep = db === "falkordb" ? /[^a-z0-9_]+/g : /[^a-z0-9_-]+/g;
  let slug = folded.replace(keep, sep);
  slug = slug.replace(db === "falkordb" ? /_+/g : /[-_]*-[-_]*/g, sep).replace(/^[-_]+|[-_]+$/g, "");
  if (!/[a-z0-9]/.test(slug)) return `project${sep}${shortHash(projectName)}`;
  if (slug.length > MAX_PROJECT_GROUP_LENGTH) {
    const prefix = slug.slice(0, MAX_PROJECT_GROUP_LENGTH - 9).replace(/[-_]+$/, "");
    slug = `${prefix}${sep}${shortHash(projectName)}`;
  }
  return slug;
}

// src/lib/context/project.ts
var MAX_SANITIZED_LENGTH = 200;
function claudePathHash(path) {
  let h = 0;
  for (let i = 0; i < path.length; i++) h = (h << 5) - h + path.charCodeAt(i) | 0;
  return Math.abs(h).toString(36);
}
function claudeProjectKey(path) {
  const sanitized = path.replace(/[^a-zA-Z0-9]/g, "-");
  if (sanitized.length <= MAX_SANITIZED_LENGTH) return sanitized;
  return `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-${claudePathHash(path)}`;
}
function resolveProjectKey(path, projectsDir, env = process.env) {
  const override = env.CLAUDE_CODE_PROJECT_DIR_NAME?.trim();
  if (override !== void 0 && override !== "" && !/[\\/]/.test(override) && override !== "." && override !== "..") return override;
  const computed = claudeProjectKey(path);
  if (computed.length <= MAX_SANITIZED_LENGTH) return computed;
  const prefix = `${computed.slice(0, MAX_SANITIZED_LENGTH)}-`;
  let names;
  try {
    names = readdirSync3(projectsDir).filter((n) => n.startsWith(prefix) && n.length > prefix.length);
  } catch {
    return computed;
  }
  if (names.length === 0 || names.includes(computed)) return computed;
  let best = names[0];
  let bestTime = -1;
  for (const name of names) {
    const st = statOrUndefined(join7(projectsDir, name));
    if (st !== void 0 && st.mtimeMs > bestTime) {
      best = name;
      bestTime = st.mtimeMs;
    }
  }
  return best;
}
function statOrUndefined(path) {
  try {
    return statSync4(path);
  } catch {
    return void 0;
  }
}
function readSmall(path, max = 4096) {
  let fd;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return void 0;
  } finally {
    if (fd !== void 0) closeSync(fd);
  }
}
function findGitRoot(start) {
  let dir = resolve2(start);
  for (let depth = 0; depth < 256; depth++) {
    const dotGit = join7(dir, ".git");
    const st = statOrUndefined(dotGit);
    if (st?.isDirectory()) return { worktreeRoot: dir, gitDir: dotGit, mainRoot: dir };
    if (st?.isFile()) {
      const text = readSmall(dotGit);
      const m = text === void 0 ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (m?.[1] !== void 0) {
        const gitDir = isAbsolute(m[1]) ? m[1] : resolve2(dir, m[1]);
        const common = readSmall(join7(gitDir, "commondir"))?.trim();
        if (common !== void 0 && common !== "") {
          const commonDir = isAbsolute(common) ? common : resolve2(gitDir, common);
          const mainRoot = basename2(commonDir) === ".git" ? dirname3(commonDir) : dir;
          return { worktreeRoot: dir, gitDir, mainRoot };
        }
        return { worktreeRoot: dir, gitDir, mainRoot: dir };
      }
    }
    const parent = dirname3(dir);
    if (parent === dir) return void 0;
    dir = parent;
  }
  return void 0;
}
function projectSearchGroups(config, key) {
  const groups = [config.groupId];
  if (config.sourceGroups["auto-memory"] === "{project}") {
    const g = projectGroupId(config.db, key);
    if (!groups.includes(g)) groups.push(g);
  }
  return groups;
}
function detectProject(cwd, config, env = process.env) {
  const abs = resolve2(cwd);
  const git = findGitRoot(abs);
  const root = git?.mainRoot ?? abs;
  const projectsDir = join7(config.claudeConfigDir, "projects");
  const key = resolveProjectKey(root, projectsDir, env);
  const memoryDir = join7(projectsDir, key, "memory");
  return {
    cwd: abs,
    root,
    isGit: git !== void 0,
    gitDir: git?.gitDir,
    name: basename2(root) || root,
    key,
    memoryDir,
    memoryDirExists: statOrUndefined(memoryDir)?.isDirectory() ?? false,
    groupIds: projectSearchGroups(config, key)
  };
}

// src/lib/worker/spawn.ts
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync as appendFileSync2, mkdirSync as mkdirSync4, readFileSync as readFileSync8, renameSync as renameSync4, statSync as statSync6, unlinkSync as unlinkSync5, writeFileSync as writeFileSync5 } from "node:fs";
import { dirname as dirname4, extname, join as join8, resolve as resolve3 } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath as fileURLToPath2, pathToFileURL } from "node:url";

// src/lib/util/lock-file.ts
import { linkSync, readFileSync as readFileSync6, statSync as statSync5, unlinkSync as unlinkSync4, writeFileSync as writeFileSync4 } from "node:fs";
var GUARD_STALE_MS = 1e4;
var NO_HARD_LINKS = /* @__PURE__ */ new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);
function errnoCode(error) {
  return error?.code;
}
function readLockFile(path) {
  try {
    const st = statSync5(path);
    return { text: readFileSync6(path, "utf8"), mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return void 0;
    throw error;
  }
}
function createLockFile(path, text, tag) {
  const tmp = `${path}.${tag}.tmp`;
  writeFileSync4(tmp, text, { mode: 384, flag: "wx" });
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EEXIST") return false;
    if (code === void 0 || !NO_HARD_LINKS.has(code)) throw error;
  } finally {
    try {
      unlinkSync4(tmp);
    } catch {
    }
  }
  try {
    writeFileSync4(path, text, { mode: 384, flag: "wx" });
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  }
}
function removeStaleLock(path, seen, same, token) {
  const guard = `${path}.takeover`;
  try {
    writeFileSync4(guard, token, { mode: 384, flag: "wx" });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
    try {
      if (Date.now() - statSync5(guard).mtimeMs > GUARD_STALE_MS) unlinkSync4(guard);
    } catch {
    }
    return false;
  }
  try {
    const current = readLockFile(path);
    if (current === void 0) return true;
    if (!same(current, seen)) return false;
    try {
      unlinkSync4(path);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") throw error;
    }
    return true;
  } finally {
    try {
      unlinkSync4(guard);
    } catch {
    }
  }
}
function sameLockFile(a, b, tokenOf) {
  const ta = tokenOf(a.text);
  const tb = tokenOf(b.text);
  if (ta !== void 0 && tb !== void 0) return ta === tb;
  return a.ino === b.ino && a.dev === b.dev;
}

// src/lib/util/process-alive.ts
import { readFileSync as readFileSync7 } from "node:fs";
function procState(pid) {
  try {
    const stat = readFileSync7(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) || void 0;
  } catch {
    return void 0;
  }
}
function isProcessAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  const state = procState(pid);
  return state !== "Z" && state !== "X";
}

// src/lib/worker/spawn.ts
var WORKER_TIMEOUT_MS = 5 * 6e4;
var LOCK_STALE_MS = WORKER_TIMEOUT_MS + 6e4;
function workerFiles(stateDir) {
  const dir = join8(stateDir, "worker");
  return { dir, pidFile: join8(dir, "worker.pid"), dirtyFile: join8(dir, "worker.dirty") };
}
function readLock(pidFile) {
  try {
    return parseLockInfo(readFileSync8(pidFile, "utf8"));
  } catch {
    return void 0;
  }
}
function parseLockInfo(text) {
  try {
    const value = JSON.parse(text);
    if (typeof value.pid === "number" && typeof value.token === "string" && typeof value.startedAt === "string") {
      return { pid: value.pid, token: value.token, startedAt: value.startedAt };
    }
  } catch {
  }
  return void 0;
}
function lockIsStale(pidFile, info, now) {
  if (info === void 0) {
    try {
      return now - statSync6(pidFile).mtimeMs > 1e4;
    } catch {
      return true;
    }
  }
  const started = Date.parse(info.startedAt);
  if (Number.isFinite(started) && now - started > LOCK_STALE_MS) return true;
  return !isProcessAlive(info.pid);
}
function writeTemp(target, content) {
  const tmp = join8(dirname4(target), `.${randomBytes(6).toString("hex")}.${process.pid}.tmp`);
  writeFileSync5(tmp, content, { mode: 384, flag: "wx" });
  return tmp;
}
function takeLock(stateDir, options = {}) {
  const files = workerFiles(stateDir);
  mkdirSync4(files.dir, { recursive: true, mode: 448 });
  const lock = {
    pid: options.pid ?? process.pid,
    token: options.token ?? randomBytes(8).toString("hex"),
    startedAt: new Date(options.now ?? Date.now()).toISOString()
  };
  const tag = `${process.pid}.${randomBytes(6).toString("hex")}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createLockFile(files.pidFile, `${JSON.stringify(lock)}
`, tag)) return { acquired: true, lock };
    const seen = readLockFile(files.pidFile);
    if (seen === void 0) continue;
    const holder = parseLockInfo(seen.text);
    if (!lockIsStale(files.pidFile, holder, options.now ?? Date.now())) return { acquired: false, holder };
    removeStaleLock(files.pidFile, seen, (a, b) => sameLockFile(a, b, (text) => parseLockInfo(text)?.token), tag);
  }
  return { acquired: false, holder: readLock(files.pidFile) };
}
function transferLock(stateDir, lock, pid) {
  const files = workerFiles(stateDir);
  const current = readLock(files.pidFile);
  if (current === void 0 || current.token !== lock.token) throw new Error("worker lock is not ours any more");
  const next = { ...lock, pid };
  const tmp = writeTemp(files.pidFile, `${JSON.stringify(next)}
`);
  try {
    renameSync4(tmp, files.pidFile);
  } catch (error) {
    try {
      unlinkSync5(tmp);
    } catch {
    }
    throw error;
  }
  return next;
}
function releaseLock(stateDir, token) {
  const files = workerFiles(stateDir);
  try {
    const current = readLock(files.pidFile);
    if (current?.token !== token) return false;
    unlinkSync5(files.pidFile);
    return true;
  } catch {
    return false;
  }
}
function markDirty(stateDir, request) {
  const files = workerFiles(stateDir);
  mkdirSync4(files.dir, { recursive: true, mode: 448 });
  appendFileSync2(files.dirtyFile, `${JSON.stringify({ cwd: request.cwd, reason: request.reason, at: (/* @__PURE__ */ new Date()).toISOString() })}
`, { mode: 384 });
}
function workerCommand(env = process.env, hereUrl = import.meta.url) {
  const here = fileURLToPath2(hereUrl);
  const ext = extname(here);
  const override = env.GMS_WORKER_SCRIPT?.trim();
  const script = override !== void 0 && override !== "" ? resolve3(override) : join8(buildRootOf(hereUrl), "hooks", `worker${ext === ".ts" || ext === ".mjs" ? ext : ".js"}`);
  const args = [];
  if (extname(script) === ".ts") args.push("--import", pathToFileURL(createRequire(hereUrl).resolve("tsx")).href);
  args.push(script);
  return { execPath: process.execPath, args };
}
function triggerWorker(options) {
  const env = options.env ?? process.env;
  const { logger, stateDir } = options;
  try {
    if (env.GMS_WORKER_DISABLED === "1") {
      logger.debug("worker disabled by GMS_WORKER_DISABLED", { reason: options.reason });
      return { action: "disabled" };
    }
    markDirty(stateDir, { cwd: options.cwd, reason: options.reason });
    const taken = takeLock(stateDir);
    if (!taken.acquired) {
      logger.info("worker already running; marked dirty", { reason: options.reason, holderPid: taken.holder?.pid });
      return { action: "already-running", holder: taken.holder };
    }
    const cmd = workerCommand(env);
    let pid;
    try {
      const child = spawn(cmd.execPath, [...cmd.args, "--cwd", options.cwd, "--lock-token", taken.lock.token, "--reason", options.reason], {
        detached: true,
        stdio: "ignore",
        env: { ...env },
        cwd: stateDir,
        windowsHide: true
      });
      child.on("error", (error) => logger.error("worker spawn error", { error }));
      child.unref();
      pid = child.pid;
    } catch (error) {
      releaseLock(stateDir, taken.lock.token);
      throw error;
    }
    if (pid === void 0) {
      releaseLock(stateDir, taken.lock.token);
      return { action: "failed", error: "spawn returned no pid" };
    }
    try {
      transferLock(stateDir, taken.lock, pid);
    } catch (error) {
      logger.warn("could not hand the worker lock to the worker", { error });
    }
    logger.info("worker spawned", { workerPid: pid, reason: options.reason, script: cmd.args[cmd.args.length - 1] });
    return { action: "spawned", pid };
  } catch (error) {
    logger.error("worker trigger failed", { error });
    return { action: "failed", error: error instanceof Error ? error.message : String(error) };
  }
}

// src/hooks/hook-io.ts
import { createHash as createHash3 } from "node:crypto";
import { mkdirSync as mkdirSync5, readFileSync as readFileSync9, unlinkSync as unlinkSync6, writeFileSync as writeFileSync6 } from "node:fs";
import { homedir as homedir2, tmpdir } from "node:os";
import { isAbsolute as isAbsolute2, join as join9 } from "node:path";
var MAX_STDIN_BYTES = 1024 * 1024;
var STDIN_TIMEOUT_MS = 1e3;
var MAX_OUTPUT_CHARS = 1e4;
var STRING_FIELDS = ["session_id", "transcript_path", "cwd", "hook_event_name", "source", "model", "agent_type", "permission_mode", "last_assistant_message"];
function pickHookFields(value) {
  const input = {};
  const dropped = [];
  for (const [k, v] of Object.entries(value)) {
    const known = STRING_FIELDS.includes(k) ? "string" : k === "stop_hook_active" ? "boolean" : void 0;
    if (known === void 0 || v === void 0 || typeof v === known) input[k] = v;
    else dropped.push(k);
  }
  return { input, dropped };
}
function parseHookInput(raw, fallbackCwd = process.cwd()) {
  let problem;
  let input = {};
  const text = raw.replace(/^\uFEFF/, "").trim();
  if (text === "") {
    problem = "empty stdin";
  } else {
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      problem = `stdin is not JSON: ${error.message}`;
    }
    if (problem === void 0) {
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        const picked = pickHookFields(value);
        input = picked.input;
        if (picked.dropped.length > 0) problem = `unexpected field types: ${picked.dropped.join(", ")}`;
      } else {
        problem = "stdin JSON is not an object";
      }
    }
  }
  const cwd = typeof input.cwd === "string" && input.cwd.trim() !== "" ? input.cwd : fallbackCwd;
  const source = typeof input.source === "string" && input.source.trim() !== "" ? input.source.trim() : "startup";
  return { input, cwd, source, problem };
}
function readStdin(options = {}) {
  const maxBytes = options.maxBytes ?? MAX_STDIN_BYTES;
  const timeoutMs = options.timeoutMs ?? STDIN_TIMEOUT_MS;
  const stream = options.stream ?? process.stdin;
  return new Promise((resolve4) => {
    if (stream.isTTY === true) {
      resolve4("");
      return;
    }
    const chunks = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.off("data", onData);
      stream.off("end", finish);
      stream.off("error", finish);
      stream.off("close", finish);
      try {
        stream.pause();
        stream.destroy();
      } catch {
      }
      resolve4(Buffer.concat(chunks).toString("utf8"));
    };
    const onData = (chunk) => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      const room = maxBytes - size;
      if (room > 0) {
        const part = buf.length > room ? buf.subarray(0, room) : buf;
        chunks.push(part);
        size += part.length;
      }
      if (size >= maxBytes) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    stream.on("data", onData);
    stream.once("end", finish);
    stream.once("error", finish);
    stream.once("close", finish);
    try {
      stream.resume();
    } catch {
      finish();
    }
  });
}
function truncateAtLine(text, max) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const nl = cut.lastIndexOf("\n");
  return nl <= 0 ? "" : text.slice(0, nl).trimEnd();
}
function sessionStartOutput(additionalContext, maxChars = MAX_CONTEXT_CHARS, eventName = "SessionStart") {
  let context = truncateAtLine(additionalContext.trim(), Math.min(maxChars, MAX_CONTEXT_CHARS));
  for (; ; ) {
    if (context === "") return "";
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: context } });
    if (json.length < MAX_OUTPUT_CHARS) return json;
    const nl = context.lastIndexOf("\n");
    context = nl <= 0 ? "" : context.slice(0, nl).trimEnd();
  }
}
function writeStdout(text) {
  if (text === "") return Promise.resolve();
  return new Promise((resolve4) => {
    try {
      process.stdout.write(text, () => resolve4());
    } catch {
      resolve4();
    }
  });
}
async function runHook(name, body, getLogger, options = {}) {
  const onFatal = (error) => {
    try {
      getLogger()?.error("hook crashed", { hook: name, error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
    } catch {
    }
    process.exitCode = 0;
    process.exit(0);
  };
  process.on("uncaughtException", onFatal);
  process.on("unhandledRejection", onFatal);
  process.stdout.on("error", () => void 0);
  const safety = setTimeout(() => process.exit(0), options.maxRuntimeMs ?? 8e3);
  safety.unref();
  try {
    await body();
  } catch (error) {
    try {
      getLogger()?.error("hook failed", { hook: name, error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
    } catch {
    }
  }
  process.exitCode = 0;
}
var CONFIG_ERROR_MARKER = "config-error.notified";
function shouldInject(source, contextOnResume) {
  if (source === "resume" || source === "fork") return contextOnResume;
  return true;
}
function usableDir(dir) {
  try {
    mkdirSync5(dir, { recursive: true, mode: 448 });
    return true;
  } catch {
    return false;
  }
}
function fallbackStateDir(env = process.env) {
  const candidates = [];
  let home2 = env.HOME && env.HOME !== "" ? env.HOME : void 0;
  if (home2 === void 0) {
    try {
      home2 = homedir2();
    } catch {
      home2 = void 0;
    }
  }
  const explicit = env.MADEINOZ_KNOWLEDGE_STATE_DIR?.trim();
  if (explicit !== void 0 && explicit !== "") {
    const p = explicit.startsWith("~/") && home2 !== void 0 ? join9(home2, explicit.slice(2)) : explicit;
    if (isAbsolute2(p)) candidates.push(p);
  }
  {
    const xdg = env.XDG_STATE_HOME && isAbsolute2(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : home2 === void 0 ? void 0 : join9(home2, ".local", "state");
    if (xdg !== void 0) candidates.push(join9(xdg, "graphiti-memory-sync"));
  }
  let user = "user";
  try {
    user = String(process.getuid?.() ?? env.USERNAME ?? "user");
  } catch {
  }
  candidates.push(join9(tmpdir(), `graphiti-memory-sync-${user}`));
  for (const dir of candidates) if (usableDir(dir)) return dir;
  return candidates[candidates.length - 1];
}
function misconfiguredNote(error) {
  const name = configErrorVariable(error);
  const variable = name !== void 0 ? ` (setting ${name})` : "";
  return `graphiti-memory-sync is misconfigured${variable}, so memory files are currently not synced to the Graphiti knowledge graph and no graph context was loaded. \`graphiti-memory-sync health\` (in a checkout: \`node dist/cli.js health\`) shows the reason.`;
}
function fingerprint(text) {
  return createHash3("sha256").update(text).digest("hex").slice(0, 16);
}
function firstTimeForConfigError(stateDir, message) {
  const file = join9(stateDir, CONFIG_ERROR_MARKER);
  const key = fingerprint(message);
  try {
    if (readFileSync9(file, "utf8").trim() === key) return false;
  } catch {
  }
  try {
    writeFileSync6(file, `${key}
`, { mode: 384 });
  } catch {
  }
  return true;
}
function clearConfigErrorNote(stateDir) {
  try {
    unlinkSync6(join9(stateDir, CONFIG_ERROR_MARKER));
    return true;
  } catch {
    return false;
  }
}

// src/hooks/session-start.ts
async function sessionStart(setLogger) {
  const started = performance.now();
  const raw = await readStdin();
  const hook = parseHookInput(raw);
  let config;
  try {
    config = await loadHookConfig();
  } catch (error) {
    const stateDir = fallbackStateDir();
    const logger2 = createLogger({ file: logFilePath(stateDir), level: "info" }).child({ component: "session-start" });
    setLogger(logger2);
    const message = error instanceof Error ? error.message : String(error);
    const notify = firstTimeForConfigError(stateDir, message);
    logger2.error("configuration error", { error: message, variable: configErrorVariable(error), notified: notify });
    if (notify) await writeStdout(sessionStartOutput(misconfiguredNote(error)));
    return;
  }
  const logger = createLogger({ file: logFilePath(config.stateDir), level: config.logLevel }).child({ component: "session-start" });
  setLogger(logger);
  if (hook.problem !== void 0) logger.warn("hook input not usable as given", { problem: hook.problem });
  if (clearConfigErrorNote(config.stateDir)) logger.info("configuration fixed");
  const project = detectProject(hook.cwd, config);
  let injected = 0;
  let cacheAge;
  const registration = import.meta.url.endsWith(".mjs") ? "plugin" : "settings hooks";
  const claim = claimInjection(config.stateDir, hook.input.session_id, hook.source, registration);
  if (!claim.claimed) {
    logger.info("our SessionStart hook is registered twice (settings hooks from `install` and the plugin); the other copy injects, this one does not", { self: registration, other: claim.by });
  }
  if (claim.claimed && shouldInject(hook.source, config.contextOnResume) && config.contextBudget > 0) {
    const entry = readContextCache(config.stateDir, project.key);
    const note = takeGraphProblemNote(config.stateDir);
    const text = [note ?? "", entry?.text ?? ""].filter((t) => t !== "").join("\n\n");
    if (text !== "") {
      const out = sessionStartOutput(text, config.contextBudget);
      injected = out === "" ? 0 : JSON.parse(out).hookSpecificOutput.additionalContext.length;
      if (entry !== void 0) cacheAge = Date.now() - Date.parse(entry.builtAt);
      await writeStdout(out);
    }
    if (note !== void 0) logger.info("told the session about a graph problem", { note });
  }
  const worker = triggerWorker({ stateDir: config.stateDir, cwd: project.root, logger, reason: `session-start:${hook.source}` });
  logger.info("session start", {
    source: hook.source,
    session: hook.input.session_id,
    project: project.name,
    key: project.key,
    injectedChars: injected,
    cacheAgeMs: cacheAge,
    worker: worker.action,
    ms: Math.round(performance.now() - started)
  });
}
var hookLogger;
await runHook(
  "session-start",
  () => sessionStart((l) => {
    hookLogger = l;
  }),
  () => hookLogger
);

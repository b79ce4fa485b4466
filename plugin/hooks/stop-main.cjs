// Bundled by scripts/build/bundle-hooks.mjs from src/; edit the sources, not this file. Its last line marks its end.
const __gmsModuleUrl = require('node:url').pathToFileURL(__filename).href;
"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// src/lib/config/snapshot.ts
var import_node_fs5 = require("node:fs");
var import_node_path5 = require("node:path");

// src/lib/config/env-file.ts
var import_node_fs2 = require("node:fs");
var import_node_os = require("node:os");
var import_node_path3 = require("node:path");

// src/lib/util/package-root.ts
var import_node_path = require("node:path");
var import_node_url = require("node:url");
function buildRootOf(hereUrl = __gmsModuleUrl) {
  let dir = (0, import_node_path.dirname)((0, import_node_url.fileURLToPath)(hereUrl));
  while ((0, import_node_path.basename)(dir) !== "lib" && (0, import_node_path.basename)(dir) !== "hooks") {
    const up = (0, import_node_path.dirname)(dir);
    if (up === dir) throw new Error(`not inside a lib/ or hooks/ folder: ${hereUrl}`);
    dir = up;
  }
  return (0, import_node_path.dirname)(dir);
}
function packageRoot(hereUrl = __gmsModuleUrl) {
  return (0, import_node_path.dirname)(buildRootOf(hereUrl));
}

// src/lib/util/safe-ancestors.ts
var import_node_fs = require("node:fs");
var import_node_path2 = require("node:path");
function unsafeAncestor(dir) {
  if (process.platform === "win32") return void 0;
  const given = (0, import_node_path2.resolve)(dir);
  return unsafeOnTheWay(given) ?? unsafeOnTheWay(realExistingPart(given));
}
function unsafeOnTheWay(path) {
  const uid = process.getuid?.();
  const theirs = (owner) => owner !== 0 && uid !== void 0 && owner !== uid;
  let current = path;
  for (let parent = (0, import_node_path2.dirname)(current); parent !== current; current = parent, parent = (0, import_node_path2.dirname)(parent)) {
    let st;
    try {
      st = (0, import_node_fs.lstatSync)(parent);
    } catch {
      continue;
    }
    if (theirs(st.uid)) return `${parent} belongs to another user (uid ${st.uid})`;
    if (st.isSymbolicLink()) continue;
    if (writableByOthers(st) && (st.mode & 512) === 0) return `${parent} can be written by others and is not sticky (mode ${(st.mode & 4095).toString(8)})`;
  }
  return void 0;
}
function writableByOthers(st) {
  if ((st.mode & 2) !== 0) return true;
  if ((st.mode & 16) === 0) return false;
  const uid = process.getuid?.();
  return uid === void 0 || !privateGroup(st.gid, uid, accounts());
}
var cachedAccounts;
function accounts() {
  const read = (file) => {
    try {
      return (0, import_node_fs.readFileSync)(file, "utf8");
    } catch {
      return "";
    }
  };
  const seen = [ACCOUNT_FILES.passwd, ACCOUNT_FILES.group].map(fileVersion).join("|");
  if (cachedAccounts?.seen !== seen) cachedAccounts = { seen, accounts: { passwd: read(ACCOUNT_FILES.passwd), group: read(ACCOUNT_FILES.group) } };
  return cachedAccounts.accounts;
}
var ACCOUNT_FILES = { passwd: "/etc/passwd", group: "/etc/group" };
function fileVersion(file) {
  try {
    const st = (0, import_node_fs.statSync)(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return "none";
  }
}
function privateGroup(gid, uid, files) {
  const rows = (text) => text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).map((line) => line.split(":"));
  const users = rows(files.passwd);
  const me = users.find((f) => Number(f[2]) === uid)?.[0];
  if (me === void 0) return false;
  const groups = rows(files.group).filter((f) => Number(f[2]) === gid);
  if (groups.length === 0) return false;
  const members = groups.flatMap((g) => (g[3] ?? "").split(",")).filter((m) => m !== "");
  if (members.some((m) => m !== me)) return false;
  return users.every((f) => Number(f[3]) !== gid || Number(f[2]) === uid);
}
function realExistingPart(path) {
  try {
    return (0, import_node_fs.realpathSync)(path);
  } catch {
    const parent = (0, import_node_path2.dirname)(path);
    return parent === path ? path : (0, import_node_path2.resolve)(realExistingPart(parent), (0, import_node_path2.basename)(path));
  }
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
function home(env) {
  return env.HOME && env.HOME !== "" ? env.HOME : (0, import_node_os.homedir)();
}
function expandHome(p, env) {
  if (p === "~") return home(env);
  if (p.startsWith("~/")) return (0, import_node_path3.join)(home(env), p.slice(2));
  return p;
}
function defaultStateDir(env) {
  const stateHome = env.XDG_STATE_HOME && env.XDG_STATE_HOME !== "" ? env.XDG_STATE_HOME : (0, import_node_path3.join)(home(env), ".local", "state");
  return (0, import_node_path3.join)(stateHome, "graphiti-memory-sync");
}
function stateDirProblem(dir) {
  if (process.platform === "win32") return void 0;
  let st;
  try {
    st = (0, import_node_fs2.statSync)(dir);
  } catch {
    return ancestorProblem(dir);
  }
  if (!st.isDirectory()) return void 0;
  const uid = process.getuid?.();
  if (uid !== void 0 && st.uid !== uid) return { problem: `${dir} belongs to another user (uid ${st.uid})`, above: false };
  if ((st.mode & 18) !== 0) return { problem: `${dir} can be written by others (mode ${(st.mode & 511).toString(8)})`, above: false };
  return ancestorProblem(dir);
}
function ancestorProblem(dir) {
  const problem = unsafeAncestor(dir);
  return problem === void 0 ? void 0 : { problem, above: true };
}
function checkStateDir(dir) {
  const found = stateDirProblem(dir);
  if (found === void 0) return;
  const fix = found.above ? `another user could put their own folder in the place of ${dir}. Make that folder writable by you alone (or root), or set MADEINOZ_KNOWLEDGE_STATE_DIR to a folder of your own under folders only you (or root) can write to` : "graphiti-memory-sync keeps its state only in a folder of yours that no one else can write to. Remove that folder (or, if it is yours, chmod 700 it after checking what is in it), or set MADEINOZ_KNOWLEDGE_STATE_DIR to a folder of your own";
  throw new ConfigError(`${found.problem}: ${fix}`, "MADEINOZ_KNOWLEDGE_STATE_DIR");
}
function stateDirFromEnvironment(env) {
  const explicit = env.MADEINOZ_KNOWLEDGE_STATE_DIR?.trim();
  if (explicit === void 0 || explicit === "") return void 0;
  const path = expandHome(explicit, env);
  return (0, import_node_path3.isAbsolute)(path) ? path : void 0;
}
function findEnvFile(env) {
  const explicit = env.MADEINOZ_KNOWLEDGE_ENV_FILE;
  if (explicit !== void 0 && explicit.trim() !== "") {
    const p = (0, import_node_path3.resolve)(expandHome(explicit.trim(), env));
    if (!(0, import_node_fs2.existsSync)(p)) throw new ConfigError(`MADEINOZ_KNOWLEDGE_ENV_FILE="${explicit}" is not allowed: the file does not exist`, "MADEINOZ_KNOWLEDGE_ENV_FILE");
    return p;
  }
  return envFileCandidates(env).find((candidate) => (0, import_node_fs2.existsSync)(candidate));
}
function envFileCandidates(env) {
  const explicit = env.MADEINOZ_KNOWLEDGE_ENV_FILE;
  if (explicit !== void 0 && explicit.trim() !== "") return [(0, import_node_path3.resolve)(expandHome(explicit.trim(), env))];
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : (0, import_node_path3.join)(home(env), ".config");
  return [(0, import_node_path3.join)(packageRoot(), "config", ".env"), (0, import_node_path3.join)(xdg, "graphiti-memory-sync", ".env")];
}
function findPaiEnvFile(env) {
  return paiEnvFileCandidates(env).find((candidate) => (0, import_node_fs2.existsSync)(candidate));
}
function paiEnvFileCandidates(env) {
  const candidates = [];
  const pai = paiDirFromEnvironment(env);
  if (pai !== void 0) candidates.push((0, import_node_path3.join)(pai, ".env"));
  candidates.push((0, import_node_path3.join)(claudeConfigDirFromEnvironment(env), ".env"));
  return candidates;
}
function claudeConfigDirFromEnvironment(env) {
  const claude = env.CLAUDE_CONFIG_DIR?.trim();
  return claude !== void 0 && claude !== "" ? (0, import_node_path3.resolve)(expandHome(claude, env)) : (0, import_node_path3.join)(home(env), ".claude");
}
function paiDirFromEnvironment(env) {
  const pai = env.PAI_DIR?.trim();
  return pai !== void 0 && pai !== "" ? (0, import_node_path3.resolve)(expandHome(pai, env)) : void 0;
}

// src/lib/util/fs-atomic.ts
var import_node_fs4 = require("node:fs");
var import_node_path4 = require("node:path");

// src/lib/util/ids.ts
var counter = 0;
function uniqueId() {
  return `${process.pid.toString(36)}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
var FNV_OFFSET = 0xcbf29ce484222325n;
var FNV_PRIME = 0x100000001b3n;
var MASK_64 = 0xffffffffffffffffn;
function cacheKey(text) {
  let hash = FNV_OFFSET;
  for (const byte of Buffer.from(text, "utf8")) hash = (hash ^ BigInt(byte)) * FNV_PRIME & MASK_64;
  return hash.toString(16).padStart(16, "0");
}

// src/lib/util/process-alive.ts
var import_node_fs3 = require("node:fs");
function procState(pid) {
  try {
    const stat = (0, import_node_fs3.readFileSync)(`/proc/${pid}/stat`, "utf8");
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

// src/lib/util/fs-atomic.ts
var TEMP_SUFFIX = ".tmp";
function tempPathFor(path) {
  return (0, import_node_path4.join)((0, import_node_path4.dirname)(path), `.${(0, import_node_path4.basename)(path)}.${process.pid}.${uniqueId()}${TEMP_SUFFIX}`);
}
function fsyncDirSync(dir) {
  let fd;
  try {
    fd = (0, import_node_fs4.openSync)(dir, import_node_fs4.constants.O_RDONLY);
    (0, import_node_fs4.fsyncSync)(fd);
  } catch {
  } finally {
    if (fd !== void 0) {
      try {
        (0, import_node_fs4.closeSync)(fd);
      } catch {
      }
    }
  }
}
function writeFileAtomicSync(path, data, options = {}) {
  const mode = options.mode ?? 384;
  if (options.mkdirMode !== void 0 && options.mkdirMode !== false) (0, import_node_fs4.mkdirSync)((0, import_node_path4.dirname)(path), { recursive: true, mode: options.mkdirMode });
  const tmp = tempPathFor(path);
  const fd = (0, import_node_fs4.openSync)(tmp, "wx", mode);
  let renamed = false;
  try {
    try {
      const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
      let written = 0;
      while (written < bytes.length) written += (0, import_node_fs4.writeSync)(fd, bytes, written, bytes.length - written);
      (0, import_node_fs4.fchmodSync)(fd, mode);
      (0, import_node_fs4.fsyncSync)(fd);
    } finally {
      (0, import_node_fs4.closeSync)(fd);
    }
    (0, import_node_fs4.renameSync)(tmp, path);
    renamed = true;
  } finally {
    if (!renamed) {
      try {
        (0, import_node_fs4.unlinkSync)(tmp);
      } catch {
      }
    }
  }
  fsyncDirSync((0, import_node_path4.dirname)(path));
}

// src/lib/config/snapshot.ts
var OTHER_INPUTS = ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "PAI_DIR", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_PROJECT_DIR_NAME"];
var VERSION = 1;
var KEEP_SNAPSHOTS = 16;
function settingsFingerprint(env = process.env) {
  const entries = Object.entries(env).filter(([k, v]) => v !== void 0 && v !== "" && (k.startsWith("MADEINOZ_") || OTHER_INPUTS.includes(k))).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  const files = [findEnvFile(env), findPaiEnvFile(env)].map((file) => [file ?? null, file === void 0 ? "" : fileStamp(file)]);
  return cacheKey(JSON.stringify([VERSION, entries, files]));
}
function fileStamp(file) {
  try {
    const st = (0, import_node_fs5.statSync)(file);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return "unreadable";
  }
}
function snapshotDir(env = process.env) {
  return (0, import_node_path5.join)(defaultStateDir(env), "config-snapshots");
}
var LOG_LEVELS = ["debug", "info", "warn", "error", "silent"];
var isString = (v) => typeof v === "string";
var FIELD_CHECKS = {
  stateDir: (v) => isString(v) && v !== "",
  logLevel: (v) => LOG_LEVELS.includes(v),
  contextBudget: (v) => Number.isInteger(v) && v >= 0,
  contextOnResume: (v) => typeof v === "boolean",
  claudeConfigDir: (v) => isString(v) && v !== "",
  db: (v) => v === "neo4j" || v === "falkordb",
  groupId: (v) => isString(v) && v !== "",
  sourceGroups: (v) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every(isString)
};
var FIELDS = Object.keys(FIELD_CHECKS);
function pick(config) {
  const out = {};
  for (const f of FIELDS) out[f] = config[f];
  return out;
}
function save(dir, key, config) {
  try {
    writeFileAtomicSync((0, import_node_path5.join)(dir, `${key}.json`), JSON.stringify(pick(config)), { mkdirMode: 448 });
    const names = (0, import_node_fs5.readdirSync)(dir).filter((n) => n.endsWith(".json"));
    if (names.length > KEEP_SNAPSHOTS) {
      const byAge = names.map((n) => ({ n, t: (0, import_node_fs5.statSync)((0, import_node_path5.join)(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
      for (const { n } of byAge.slice(0, names.length - KEEP_SNAPSHOTS)) if (n !== `${key}.json`) (0, import_node_fs5.unlinkSync)((0, import_node_path5.join)(dir, n));
    }
  } catch {
  }
}
function valid(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value;
  return FIELDS.every((field) => FIELD_CHECKS[field](v[field]));
}
async function loadHookConfig(env = process.env) {
  const key = settingsFingerprint(env);
  const dir = snapshotDir(env);
  const ownSnapshots = stateDirProblem(defaultStateDir(env)) === void 0;
  if (ownSnapshots) {
    try {
      const value = JSON.parse((0, import_node_fs5.readFileSync)((0, import_node_path5.join)(dir, `${key}.json`), "utf8"));
      if (valid(value)) {
        checkStateDir(value.stateDir);
        return value;
      }
    } catch (error) {
      if (error instanceof Error && error.name === "ConfigError") throw error;
    }
  }
  const config = await loadFullConfig(env);
  if (ownSnapshots) save(dir, key, config);
  return pick(config);
}
var PackageIncompleteError = class extends Error {
  constructor(cause) {
    super(`a part of graphiti-memory-sync could not be loaded (${cause instanceof Error ? cause.message.split("\n")[0] : String(cause)}): its files are being replaced or are incomplete; the next run uses the installed version (if this stays, install graphiti-memory-sync again)`, { cause });
    this.name = "PackageIncompleteError";
  }
};
function isLoadFailure(error) {
  const code = error?.code;
  return code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND" || error instanceof SyntaxError;
}
async function loadFullConfig(env) {
  try {
    const { loadConfig } = await import("./hook-config.cjs");
    return await loadConfig({ env });
  } catch (error) {
    throw isLoadFailure(error) ? new PackageIncompleteError(error) : error;
  }
}

// src/lib/util/log.ts
var import_node_fs6 = require("node:fs");
var import_node_path6 = require("node:path");
var ORDER = { debug: 10, info: 20, warn: 30, error: 40 };
var MAX_LOG_BYTES = 5 * 1024 * 1024;
var SECRET_KEYS = /^(authorization|auth_?token|token|password|secret|api_?key|headers|cookie)$/i;
function levelEnabled(threshold, level) {
  return threshold !== "silent" && ORDER[level] >= ORDER[threshold];
}
function logFilePath(stateDir) {
  return (0, import_node_path6.join)(stateDir, "logs", "graphiti-memory-sync.log");
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
  const file = options.file;
  let dirReady = false;
  let checkedSize = false;
  const write = (lvl, msg, base, fields) => {
    if (!levelEnabled(level, lvl)) return;
    const line = JSON.stringify({ t: (/* @__PURE__ */ new Date()).toISOString(), level: lvl, pid: process.pid, msg, ...scrub(base), ...fields ? scrub(fields) : {} });
    options.mirror?.(line);
    if (file === void 0) return;
    try {
      if (!dirReady) {
        (0, import_node_fs6.mkdirSync)((0, import_node_path6.dirname)(file), { recursive: true, mode: 448 });
        dirReady = true;
      }
      if (!checkedSize) {
        checkedSize = true;
        try {
          if ((0, import_node_fs6.statSync)(file).size > MAX_LOG_BYTES) (0, import_node_fs6.renameSync)(file, `${file}.1`);
        } catch {
        }
      }
      (0, import_node_fs6.appendFileSync)(file, `${line}
`, { mode: 384 });
    } catch {
    }
  };
  const make = (base) => ({
    debug: (m, f) => write("debug", m, base, f),
    info: (m, f) => write("info", m, base, f),
    warn: (m, f) => write("warn", m, base, f),
    error: (m, f) => write("error", m, base, f),
    child: (f) => make({ ...base, ...f }),
    file
  });
  return make(options.base ?? {});
}
var nullLogger = createLogger({ level: "silent" });

// src/lib/context/project.ts
var import_node_fs7 = require("node:fs");
var import_node_path7 = require("node:path");

// src/lib/config/claude-memory.ts
function managedSettingsDir(platform = process.platform) {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode";
  return "/etc/claude-code";
}
var MANAGED_SETTINGS_DIR = managedSettingsDir();
var TRANSCRIPT_HEAD_BYTES = [8 * 1024, 64 * 1024];

// src/lib/config/process-env.ts
function processEnv() {
  return process.env;
}

// src/lib/context/project.ts
function statOrUndefined(path) {
  try {
    return (0, import_node_fs7.statSync)(path);
  } catch {
    return void 0;
  }
}
function readSmall(path, max = 4096) {
  let fd;
  try {
    fd = (0, import_node_fs7.openSync)(path, "r");
    const buf = Buffer.alloc(max);
    const n = (0, import_node_fs7.readSync)(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return void 0;
  } finally {
    if (fd !== void 0) (0, import_node_fs7.closeSync)(fd);
  }
}
function findGitRoot(start) {
  let dir = (0, import_node_path7.resolve)(start);
  for (let depth = 0; depth < 256; depth++) {
    const dotGit = (0, import_node_path7.join)(dir, ".git");
    const st = statOrUndefined(dotGit);
    if (st?.isDirectory()) return { worktreeRoot: dir, gitDir: dotGit, mainRoot: dir };
    if (st?.isFile()) {
      const text = readSmall(dotGit);
      const m = text === void 0 ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (m?.[1] !== void 0) {
        const gitDir = (0, import_node_path7.isAbsolute)(m[1]) ? m[1] : (0, import_node_path7.resolve)(dir, m[1]);
        const common = readSmall((0, import_node_path7.join)(gitDir, "commondir"))?.trim();
        if (common !== void 0 && common !== "") {
          const commonDir = (0, import_node_path7.isAbsolute)(common) ? common : (0, import_node_path7.resolve)(gitDir, common);
          const mainRoot = (0, import_node_path7.basename)(commonDir) === ".git" ? (0, import_node_path7.dirname)(commonDir) : dir;
          return { worktreeRoot: dir, gitDir, mainRoot };
        }
        return { worktreeRoot: dir, gitDir, mainRoot: dir };
      }
    }
    const parent = (0, import_node_path7.dirname)(dir);
    if (parent === dir) return void 0;
    dir = parent;
  }
  return void 0;
}

// src/lib/worker/spawn.ts
var import_node_fs10 = require("node:fs");
var import_node_path8 = require("node:path");
var import_node_module = require("node:module");
var import_node_os2 = require("node:os");
var import_node_url2 = require("node:url");

// src/lib/util/lock-file.ts
var import_node_fs8 = require("node:fs");
var GUARD_STALE_MS = 1e4;
var NO_HARD_LINKS = /* @__PURE__ */ new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);
function errnoCode(error) {
  return error?.code;
}
function readLockFile(path) {
  try {
    const st = (0, import_node_fs8.statSync)(path);
    return { text: (0, import_node_fs8.readFileSync)(path, "utf8"), mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return void 0;
    throw error;
  }
}
function createLockFile(path, text, tag) {
  const tmp = `${path}.${tag}.tmp`;
  try {
    (0, import_node_fs8.writeFileSync)(tmp, text, { mode: 384, flag: "wx" });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") removeQuietly(tmp);
    throw error;
  }
  try {
    (0, import_node_fs8.linkSync)(tmp, path);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EEXIST") return false;
    if (code === void 0 || !NO_HARD_LINKS.has(code)) throw error;
  } finally {
    try {
      (0, import_node_fs8.unlinkSync)(tmp);
    } catch {
    }
  }
  try {
    (0, import_node_fs8.writeFileSync)(path, text, { mode: 384, flag: "wx" });
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  }
}
function removeStaleLock(path, seen, tokenOf, token) {
  const guard = `${path}.takeover`;
  try {
    (0, import_node_fs8.writeFileSync)(guard, token, { mode: 384, flag: "wx" });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
    try {
      if (Math.abs(Date.now() - (0, import_node_fs8.statSync)(guard).mtimeMs) > GUARD_STALE_MS) (0, import_node_fs8.unlinkSync)(guard);
    } catch {
    }
    return false;
  }
  try {
    const current = readLockFile(path);
    if (current === void 0) return true;
    if (!sameLockRecord(current, seen, tokenOf)) return false;
    try {
      (0, import_node_fs8.unlinkSync)(path);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") throw error;
    }
    return true;
  } finally {
    try {
      (0, import_node_fs8.unlinkSync)(guard);
    } catch {
    }
  }
}
function sameLockRecord(a, b, tokenOf) {
  if (a.text !== b.text || a.mtimeMs !== b.mtimeMs) return false;
  return tokenOf(a.text) !== void 0 || a.ino === b.ino && a.dev === b.dev;
}
function removeQuietly(path) {
  try {
    (0, import_node_fs8.unlinkSync)(path);
  } catch {
  }
}

// src/lib/config/switches.ts
function workerSwitches(env) {
  const script = env.GMS_WORKER_SCRIPT?.trim();
  return { disabled: env.GMS_WORKER_DISABLED?.trim() === "1", script: script === void 0 || script === "" ? void 0 : script };
}

// src/lib/util/process-identity.ts
var import_node_fs9 = require("node:fs");
function bootId() {
  try {
    return (0, import_node_fs9.readFileSync)("/proc/sys/kernel/random/boot_id", "utf8").trim() || void 0;
  } catch {
    return void 0;
  }
}
function linuxBootId() {
  return bootId() ?? "unknown-boot";
}
function ps(pid) {
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const r = spawnSync("/bin/ps", ["-ww", "-o", "lstart=", "-o", "command=", "-p", String(pid)], { encoding: "utf8", timeout: 5e3, env: { LC_ALL: "C" } });
  const out = r.status === 0 ? r.stdout.trim() : "";
  if (out.length < 24) return void 0;
  return { start: out.slice(0, 24).replace(/\s+/g, " "), command: out.slice(24).trim() };
}
function processStartTime(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return void 0;
  if (process.platform === "linux") {
    try {
      const stat = (0, import_node_fs9.readFileSync)(`/proc/${pid}/stat`, "utf8");
      const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
      return ticks === void 0 ? void 0 : `${linuxBootId()}:${ticks}`;
    } catch {
      return void 0;
    }
  }
  if (process.platform === "win32") return void 0;
  return ps(pid)?.start;
}
function processCommandLine(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return void 0;
  if (process.platform === "linux") {
    try {
      return (0, import_node_fs9.readFileSync)(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").split("\0").join(" ");
    } catch {
      return void 0;
    }
  }
  if (process.platform === "win32") return void 0;
  return ps(pid)?.command;
}
function identifyProcess(pid) {
  if (pid === void 0 || !isProcessAlive(pid)) return void 0;
  const start = processStartTime(pid);
  return start === void 0 ? void 0 : { pid, start };
}
function runsAsUs(pid) {
  const uid = process.getuid?.();
  if (process.platform !== "linux" || uid === void 0) return true;
  try {
    return (0, import_node_fs9.statSync)(`/proc/${pid}`).uid === uid;
  } catch {
    return false;
  }
}
function isSameProcess(recorded, mark) {
  if (recorded === void 0 || !isProcessAlive(recorded.pid) || !runsAsUs(recorded.pid)) return false;
  if (process.platform !== "linux" && process.platform !== "win32") {
    const info = ps(recorded.pid);
    return info !== void 0 && info.start === recorded.start && info.command.includes(mark);
  }
  const start = processStartTime(recorded.pid);
  if (start === void 0 || start !== recorded.start) return false;
  return processCommandLine(recorded.pid)?.includes(mark) === true;
}

// src/lib/worker/spawn.ts
var WORKER_TIMEOUT_MS = 5 * 6e4;
var LOCK_STALE_MS = WORKER_TIMEOUT_MS + 6e4;
var UNPARSEABLE_GRACE_MS = 1e4;
var WORKER_STATE_FORMAT = 4;
function workerFiles(stateDir, format = WORKER_STATE_FORMAT) {
  const dir = (0, import_node_path8.join)(stateDir, "worker", `format-${format}`);
  return { dir, pidFile: (0, import_node_path8.join)(dir, "worker.pid"), dirtyFile: (0, import_node_path8.join)(dir, "worker.dirty") };
}
function identityOf(pid) {
  const identity = identifyProcess(pid);
  const command = identity === void 0 ? void 0 : processCommandLine(pid);
  return identity === void 0 || command === void 0 ? {} : { start: identity.start, command };
}
function readLock(pidFile) {
  try {
    return parseLockInfo((0, import_node_fs10.readFileSync)(pidFile, "utf8"));
  } catch {
    return void 0;
  }
}
function parseLockInfo(text) {
  try {
    const value = JSON.parse(text);
    if (typeof value.pid === "number" && typeof value.token === "string" && typeof value.startedAt === "string") {
      const identity = typeof value.start === "string" && typeof value.command === "string" ? { start: value.start, command: value.command } : {};
      return { pid: value.pid, token: value.token, startedAt: value.startedAt, ...identity };
    }
  } catch {
  }
  return void 0;
}
function lockIsStale(pidFile, info, now) {
  if (info === void 0) {
    try {
      return Math.abs(now - (0, import_node_fs10.statSync)(pidFile).mtimeMs) > UNPARSEABLE_GRACE_MS;
    } catch {
      return true;
    }
  }
  if (!isProcessAlive(info.pid)) return true;
  if (info.start !== void 0 && info.command !== void 0) return !isSameProcess({ pid: info.pid, start: info.start }, info.command);
  const started = Date.parse(info.startedAt);
  return !Number.isFinite(started) || Math.abs(now - started) > LOCK_STALE_MS;
}
function takeLock(stateDir, options = {}) {
  const files = workerFiles(stateDir);
  (0, import_node_fs10.mkdirSync)(files.dir, { recursive: true, mode: 448 });
  const pid = options.pid ?? process.pid;
  const lock = {
    pid,
    token: options.token ?? uniqueId(),
    startedAt: new Date(options.now ?? Date.now()).toISOString(),
    ...identityOf(pid)
  };
  const tag = uniqueId();
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createLockFile(files.pidFile, `${JSON.stringify(lock)}
`, tag)) return { acquired: true, lock };
    const seen = readLockFile(files.pidFile);
    if (seen === void 0) continue;
    const holder = parseLockInfo(seen.text);
    if (!lockIsStale(files.pidFile, holder, options.now ?? Date.now())) return { acquired: false, holder };
    removeStaleLock(files.pidFile, seen, (text) => parseLockInfo(text)?.token, tag);
  }
  return { acquired: false, holder: readLock(files.pidFile) };
}
function transferLock(stateDir, lock, pid) {
  const files = workerFiles(stateDir);
  const current = readLock(files.pidFile);
  if (current === void 0 || current.token !== lock.token) throw new Error("worker lock is not ours any more");
  const next = { pid, token: lock.token, startedAt: lock.startedAt, ...identityOf(pid) };
  writeFileAtomicSync(files.pidFile, `${JSON.stringify(next)}
`);
  return next;
}
function releaseLock(stateDir, token) {
  const files = workerFiles(stateDir);
  try {
    const current = readLock(files.pidFile);
    if (current?.token !== token) return false;
    (0, import_node_fs10.unlinkSync)(files.pidFile);
    return true;
  } catch {
    return false;
  }
}
function markDirty(stateDir, request) {
  const files = workerFiles(stateDir);
  (0, import_node_fs10.mkdirSync)(files.dir, { recursive: true, mode: 448 });
  (0, import_node_fs10.appendFileSync)(files.dirtyFile, `${JSON.stringify({ cwd: request.cwd, reason: request.reason, at: (/* @__PURE__ */ new Date()).toISOString() })}
`, { mode: 384 });
}
function workerCommand(env = processEnv(), hereUrl = __gmsModuleUrl) {
  const here = (0, import_node_url2.fileURLToPath)(hereUrl);
  const ext = (0, import_node_path8.extname)(here);
  const override = workerSwitches(env).script;
  const script = override !== void 0 ? (0, import_node_path8.resolve)(override) : (0, import_node_path8.join)(buildRootOf(hereUrl), "hooks", `worker${ext === ".ts" || ext === ".mjs" || ext === ".cjs" ? ext : ".js"}`);
  const args = [];
  if ((0, import_node_path8.extname)(script) === ".ts") args.push("--import", (0, import_node_url2.pathToFileURL)((0, import_node_module.createRequire)(hereUrl).resolve("tsx")).href);
  args.push(script);
  return { execPath: process.execPath, args };
}
var TOKEN_ON_STDIN_FLAG = "--lock-token-on-stdin";
function handTokenOver(stdin, token) {
  if (stdin === null) return;
  stdin.on("error", () => void 0);
  stdin.end(`${token}
`);
}
var WORKER_NICENESS = 19;
function lowerPriority(pid) {
  try {
    (0, import_node_os2.setPriority)(pid, WORKER_NICENESS);
  } catch {
  }
}
function triggerWorker(options) {
  const env = options.env ?? processEnv();
  const { logger, stateDir } = options;
  try {
    if (workerSwitches(env).disabled) {
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
      const { spawn } = (0, import_node_module.createRequire)(__gmsModuleUrl)("node:child_process");
      const child = spawn(cmd.execPath, [...cmd.args, "--cwd", options.cwd, "--reason", options.reason, TOKEN_ON_STDIN_FLAG], {
        detached: true,
        stdio: ["pipe", "ignore", "ignore"],
        env: { ...env },
        cwd: stateDir,
        windowsHide: true
      });
      child.on("error", (error) => logger.error("worker spawn error", { error }));
      handTokenOver(child.stdin, taken.lock.token);
      child.unref();
      pid = child.pid;
      if (pid !== void 0) lowerPriority(pid);
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
var import_node_fs11 = require("node:fs");
var import_node_os3 = require("node:os");
var import_node_path9 = require("node:path");

// src/lib/util/install-route.ts
var PACKAGE_NAME = "graphiti-memory-sync";
var INSTALL_THE_COMMAND = `install the command as the README's "Install" says: in a clone of the repository, npm ci, npm pack and npm install -g ./${PACKAGE_NAME}-*.tgz`;

// src/hooks/hook-io.ts
var MAX_STDIN_BYTES = 1024 * 1024;
var STDIN_TIMEOUT_MS = 1e3;
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
  if (options.stream !== void 0) return readStream(options.stream, maxBytes, timeoutMs);
  const env = options.env ?? process.env;
  if (env.CLAUDE_PROJECT_DIR === void 0) return readStream(process.stdin, maxBytes, timeoutMs);
  const fd = options.fd ?? 0;
  try {
    if ((0, import_node_fs11.fstatSync)(fd).isCharacterDevice()) return Promise.resolve("");
  } catch {
    return Promise.resolve("");
  }
  const read = readPayloadSync(fd, maxBytes);
  if (read.complete) return Promise.resolve(read.bytes.toString("utf8"));
  return readStream(process.stdin, maxBytes - read.bytes.length, timeoutMs).then((rest) => read.bytes.toString("utf8") + rest);
}
function readPayloadSync(fd, maxBytes) {
  const chunks = [];
  let size = 0;
  const bytes = () => Buffer.concat(chunks, size);
  for (; ; ) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes - size));
    let n;
    try {
      n = (0, import_node_fs11.readSync)(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = error.code;
      if (code === "EAGAIN") return { bytes: bytes(), complete: false };
      return { bytes: bytes(), complete: true };
    }
    if (n === 0) return { bytes: bytes(), complete: true };
    chunks.push(chunk.subarray(0, n));
    size += n;
    if (size >= maxBytes || parsesAsObject(bytes())) return { bytes: bytes(), complete: true };
  }
}
function parsesAsObject(bytes) {
  try {
    const value = JSON.parse(bytes.toString("utf8"));
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}
function readStream(stream, maxBytes, timeoutMs) {
  return new Promise((resolve5) => {
    if (stream.isTTY === true) {
      resolve5("");
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
      resolve5(Buffer.concat(chunks).toString("utf8"));
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
function usableDir(dir) {
  try {
    (0, import_node_fs11.mkdirSync)(dir, { recursive: true, mode: 448 });
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
      home2 = (0, import_node_os3.homedir)();
    } catch {
      home2 = void 0;
    }
  }
  try {
    const explicit = stateDirFromEnvironment(home2 === void 0 ? env : { ...env, HOME: home2 });
    if (explicit !== void 0) candidates.push(explicit);
  } catch {
  }
  try {
    const usual = defaultStateDir(home2 === void 0 ? env : { ...env, HOME: home2 });
    if ((0, import_node_path9.isAbsolute)(usual)) candidates.push(usual);
  } catch {
  }
  let user = "user";
  try {
    user = String(process.getuid?.() ?? env.USERNAME ?? "user");
  } catch {
  }
  for (const dir of candidates) if (usableDir(dir) && stateDirProblem(dir) === void 0) return dir;
  return ownTempDir((0, import_node_path9.join)((0, import_node_os3.tmpdir)(), `graphiti-memory-sync-${user}`));
}
function ownTempDir(dir) {
  if (usableDir(dir) && ownRealDir(dir)) return dir;
  return earlierOwnTempDir(dir) ?? (0, import_node_fs11.mkdtempSync)(`${dir}-`);
}
function ownRealDir(dir) {
  try {
    if (!(0, import_node_fs11.lstatSync)(dir).isDirectory() || stateDirProblem(dir) !== void 0) return false;
    (0, import_node_fs11.chmodSync)(dir, 448);
    return true;
  } catch {
    return false;
  }
}
function earlierOwnTempDir(dir) {
  const prefix = `${(0, import_node_path9.basename)(dir)}-`;
  let names;
  try {
    names = (0, import_node_fs11.readdirSync)((0, import_node_path9.dirname)(dir));
  } catch {
    return void 0;
  }
  for (const name of names.filter((n) => n.startsWith(prefix) && n.length === prefix.length + 6).sort()) {
    const candidate = (0, import_node_path9.join)((0, import_node_path9.dirname)(dir), name);
    if (ownRealDir(candidate)) return candidate;
  }
  return void 0;
}

// src/hooks/stop.ts
async function stop(setLogger) {
  const raw = await readStdin();
  const hook = parseHookInput(raw);
  if (hook.input.stop_hook_active === true) return;
  let stateDir;
  let logger;
  try {
    const config = await loadHookConfig();
    stateDir = config.stateDir;
    logger = createLogger({ file: logFilePath(stateDir), level: config.logLevel }).child({ component: "stop" });
  } catch (error) {
    logger = createLogger({ file: logFilePath(fallbackStateDir()), level: "info" }).child({ component: "stop" });
    setLogger(logger);
    if (error instanceof PackageIncompleteError) logger.warn("hook skipped: the package is incomplete", { error: error.message });
    else logger.error("configuration error", { error: error instanceof Error ? error.message : String(error) });
    return;
  }
  setLogger(logger);
  if (hook.problem !== void 0) logger.warn("hook input not usable as given", { problem: hook.problem });
  const root = findGitRoot(hook.cwd)?.mainRoot ?? hook.cwd;
  const worker = triggerWorker({ stateDir, cwd: root, logger, reason: "stop" });
  logger.debug("stop", { session: hook.input.session_id, worker: worker.action });
}
var hookLogger;
void runHook(
  "stop",
  () => stop((l) => {
    hookLogger = l;
  }),
  () => hookLogger
);
//# end of a graphiti-memory-sync bundle

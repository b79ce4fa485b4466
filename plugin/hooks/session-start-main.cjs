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
function configErrorVariable(error) {
  if (!(error instanceof Error) || error.name !== "ConfigError") return void 0;
  const variable = error.variable;
  return typeof variable === "string" ? variable : void 0;
}
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
var import_node_module = require("node:module");
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
var crypto;
function sha256Hex(text) {
  crypto ??= (0, import_node_module.createRequire)(__gmsModuleUrl)("node:crypto");
  return crypto.createHash("sha256").update(text, "utf8").digest("hex");
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

// src/lib/context/cache.ts
var import_node_fs6 = require("node:fs");
var import_node_path6 = require("node:path");
var MAX_CONTEXT_CHARS = 9e3;
function contextCacheDir(stateDir) {
  return (0, import_node_path6.join)(stateDir, "context");
}
function contextCachePath(stateDir, key) {
  const safe2 = key.replace(/[^A-Za-z0-9_-]/g, "-") || "default";
  return (0, import_node_path6.join)(contextCacheDir(stateDir), `${safe2}.json`);
}
function isEntry(value) {
  if (typeof value !== "object" || value === null) return false;
  const v = value;
  return v.version === 1 && typeof v.text === "string" && typeof v.builtAt === "string" && typeof v.project === "string" && typeof v.key === "string" && (v.format === "lines" || v.format === "toon" || v.format === "none") && typeof v.facts === "number";
}
function readContextCache(stateDir, key) {
  try {
    const text = (0, import_node_fs6.readFileSync)(contextCachePath(stateDir, key), "utf8");
    const value = JSON.parse(text);
    return isEntry(value) ? value : void 0;
  } catch {
    return void 0;
  }
}

// src/lib/context/injection-claim.ts
var import_node_fs7 = require("node:fs");
var import_node_path7 = require("node:path");
var CLAIM_WINDOW_MS = 3e4;
var PRUNE_AFTER_MS = 24 * 60 * 6e4;
function safe(part) {
  return part.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
}
function claimInjection(stateDir, sessionId, source, who, now = Date.now()) {
  if (sessionId === void 0 || sessionId === "") return { claimed: true };
  const dir = (0, import_node_path7.join)(stateDir, "sessions");
  const file = (0, import_node_path7.join)(dir, `${safe(sessionId)}-${safe(source)}`);
  try {
    (0, import_node_fs7.mkdirSync)(dir, { recursive: true, mode: 448 });
  } catch {
    return { claimed: true };
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      (0, import_node_fs7.writeFileSync)(file, who, { flag: "wx", mode: 384 });
      if (attempt === 0) prune(dir, now);
      return { claimed: true };
    } catch (error) {
      if (error.code !== "EEXIST") return { claimed: true };
    }
    try {
      const st = (0, import_node_fs7.statSync)(file);
      if (now - st.mtimeMs < CLAIM_WINDOW_MS) {
        let by = "another copy of this hook";
        try {
          by = (0, import_node_fs7.readFileSync)(file, "utf8").slice(0, 40) || by;
        } catch {
        }
        return { claimed: false, by };
      }
      (0, import_node_fs7.unlinkSync)(file);
    } catch {
    }
  }
  return { claimed: true };
}
function prune(dir, now) {
  try {
    const names = (0, import_node_fs7.readdirSync)(dir);
    if (names.length < 100) return;
    for (const n of names) {
      const p = (0, import_node_path7.join)(dir, n);
      if (now - (0, import_node_fs7.statSync)(p).mtimeMs > PRUNE_AFTER_MS) (0, import_node_fs7.unlinkSync)(p);
    }
  } catch {
  }
}

// src/lib/context/graph-problem.ts
var import_node_fs10 = require("node:fs");
var import_node_path10 = require("node:path");

// src/lib/util/install-route.ts
var import_node_fs8 = require("node:fs");
var import_node_path8 = require("node:path");
var import_node_url2 = require("node:url");
var PACKAGE_NAME = "graphiti-memory-sync";
function shellWord(s) {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
function nodeCli(root) {
  return `node ${shellWord((0, import_node_path8.join)(root, "dist", "cli.js"))}`;
}
function inside(dir, parent) {
  const rel = (0, import_node_path8.relative)(parent, dir);
  return rel === "" || rel !== ".." && !rel.startsWith(`..${import_node_path8.sep}`) && !(0, import_node_path8.isAbsolute)(rel);
}
function routeOfPackage(root, probe = {}) {
  const exists = probe.exists ?? import_node_fs8.existsSync;
  const cwd = probe.cwd ?? process.cwd();
  const win = (probe.platform ?? process.platform) === "win32";
  const m = /^(.*?)[\\/]node_modules[\\/]/.exec(root);
  if (m?.[1] !== void 0 && m[1] !== "") {
    const owner = m[1];
    const global = win ? exists((0, import_node_path8.join)(owner, `${PACKAGE_NAME}.cmd`)) : (0, import_node_path8.basename)(owner) === "lib" && !exists((0, import_node_path8.join)(owner, "package.json"));
    if (global) return { route: "global", root, cli: PACKAGE_NAME };
    return { route: "project", root, projectDir: owner, cli: inside((0, import_node_path8.resolve)(cwd), owner) ? `npx ${PACKAGE_NAME}` : nodeCli(root) };
  }
  return { route: "folder", root, checkout: exists((0, import_node_path8.join)(root, ".git")), cli: nodeCli(root) };
}
function routeOfModule(file, probe = {}) {
  const exists = probe.exists ?? import_node_fs8.existsSync;
  let dir = (0, import_node_path8.dirname)(file);
  while ((0, import_node_path8.basename)(dir) !== "lib" && (0, import_node_path8.basename)(dir) !== "hooks") {
    const up = (0, import_node_path8.dirname)(dir);
    if (up === dir) return routeOfPackage((0, import_node_path8.dirname)((0, import_node_path8.dirname)(file)), probe);
    dir = up;
  }
  const buildRoot = (0, import_node_path8.dirname)(dir);
  if ((0, import_node_path8.basename)(dir) === "hooks" && exists((0, import_node_path8.join)(buildRoot, ".claude-plugin", "plugin.json"))) {
    const cached = /[\\/]plugins[\\/]cache[\\/]([^\\/]+)[\\/][^\\/]+[\\/][^\\/]+$/.exec(buildRoot);
    if (cached?.[1] !== void 0) return { route: "plugin-cache", root: buildRoot, marketplace: cached[1] };
    const repo = (0, import_node_path8.dirname)(buildRoot);
    const built = exists((0, import_node_path8.join)(repo, "dist", "cli.js"));
    return { route: "plugin-folder", root: buildRoot, checkout: exists((0, import_node_path8.join)(repo, ".git")), ...built ? { cli: nodeCli(repo) } : {} };
  }
  return routeOfPackage((0, import_node_path8.dirname)(buildRoot), probe);
}
var running;
function runningCopy(cwd = process.cwd()) {
  running ??= routeOfModule((0, import_node_url2.fileURLToPath)(__gmsModuleUrl), { cwd });
  if (running.route === "project" && running.projectDir !== void 0) {
    const here = inside((0, import_node_path8.resolve)(cwd), running.projectDir);
    return { ...running, cli: here ? `npx ${PACKAGE_NAME}` : nodeCli(running.root) };
  }
  return running;
}
var INSTALL_THE_COMMAND = `install the command as the README's "Install" says: in a clone of the repository, npm ci, npm pack and npm install -g ./${PACKAGE_NAME}-*.tgz`;
function commandFor(args, copy = runningCopy()) {
  return `${cli(copy)} ${args}`;
}
function cli(copy = runningCopy()) {
  return copy.cli ?? PACKAGE_NAME;
}
function commandCaveat(copy = runningCopy()) {
  if (copy.cli !== void 0) return "";
  return copy.route === "plugin-folder" ? ` (the plugin ships no command line: build the repository it runs from, npm install in ${shellWord((0, import_node_path8.dirname)(copy.root))}, and run it as ${nodeCli((0, import_node_path8.dirname)(copy.root))})` : ` (the plugin ships no command line: ${INSTALL_THE_COMMAND})`;
}
function namedCommand(args, copy = runningCopy()) {
  return `\`${commandFor(args, copy)}\`${commandCaveat(copy)}`;
}

// src/lib/util/log.ts
var import_node_fs9 = require("node:fs");
var import_node_path9 = require("node:path");
var ORDER = { debug: 10, info: 20, warn: 30, error: 40 };
var MAX_LOG_BYTES = 5 * 1024 * 1024;
var SECRET_KEYS = /^(authorization|auth_?token|token|password|secret|api_?key|headers|cookie)$/i;
function levelEnabled(threshold, level) {
  return threshold !== "silent" && ORDER[level] >= ORDER[threshold];
}
function logFilePath(stateDir) {
  return (0, import_node_path9.join)(stateDir, "logs", "graphiti-memory-sync.log");
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
  const write2 = (lvl, msg, base, fields) => {
    if (!levelEnabled(level, lvl)) return;
    const line = JSON.stringify({ t: (/* @__PURE__ */ new Date()).toISOString(), level: lvl, pid: process.pid, msg, ...scrub(base), ...fields ? scrub(fields) : {} });
    options.mirror?.(line);
    if (file === void 0) return;
    try {
      if (!dirReady) {
        (0, import_node_fs9.mkdirSync)((0, import_node_path9.dirname)(file), { recursive: true, mode: 448 });
        dirReady = true;
      }
      if (!checkedSize) {
        checkedSize = true;
        try {
          if ((0, import_node_fs9.statSync)(file).size > MAX_LOG_BYTES) (0, import_node_fs9.renameSync)(file, `${file}.1`);
        } catch {
        }
      }
      (0, import_node_fs9.appendFileSync)(file, `${line}
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

// src/lib/context/our-note.ts
var OUR_NOTE_LABEL = "Note for the user from graphiti-memory-sync:";
function ourNote(text) {
  return `${OUR_NOTE_LABEL} ${text}`;
}

// src/lib/context/graph-problem.ts
var KINDS = /* @__PURE__ */ new Set(["unreachable", "searches-failing", "not-graphiti", "emptied", "lost"]);
var LOSSES = /* @__PURE__ */ new Set(["emptied", "lost"]);
function isLoss(kind) {
  return LOSSES.has(kind);
}
var GRAPH_PROBLEM_FILE = "graph-problem.json";
var FILE = GRAPH_PROBLEM_FILE;
function readGraphProblem(stateDir) {
  try {
    const value = JSON.parse((0, import_node_fs10.readFileSync)((0, import_node_path10.join)(stateDir, FILE), "utf8"));
    if (value.kind !== void 0 && KINDS.has(value.kind) && typeof value.since === "string") {
      const groups = isLoss(value.kind) ? emptiedGroupsOf(value.groups, value.kind) : void 0;
      return { kind: value.kind, detail: typeof value.detail === "string" ? value.detail : "", since: value.since, told: value.told === true, ...groups === void 0 ? {} : { groups } };
    }
  } catch {
  }
  return void 0;
}
function emptiedGroupsOf(value, recordKind) {
  if (!Array.isArray(value)) return void 0;
  const groups = value.filter((g) => typeof g === "object" && g !== null && typeof g.group === "string" && typeof g.notes === "number");
  if (groups.length !== value.length) return void 0;
  return groups.map(({ group, notes, parts, kind }) => {
    const known = lostPartsOf(parts);
    return { group, notes, kind: kind === "emptied" || kind === "lost" ? kind : recordKind, ...known === void 0 ? {} : { parts: known } };
  });
}
function lostPartsOf(value) {
  if (!Array.isArray(value)) return void 0;
  const parts = value.filter((p) => typeof p === "object" && p !== null && typeof p.id === "string" && typeof p.uuid === "string");
  return parts.length === value.length ? parts.map(({ id, uuid }) => ({ id, uuid })) : void 0;
}
function write(stateDir, problem) {
  writeFileAtomicSync((0, import_node_path10.join)(stateDir, FILE), `${JSON.stringify(problem)}
`);
}
var DETAIL_GROUPS = 5;
var notesText = (n) => `${n} note${n === 1 ? "" : "s"}`;
var groupsText = (n) => `${n} group${n === 1 ? "" : "s"}`;
function emptiedDetail(groups, names = DETAIL_GROUPS) {
  const named = groups.slice(0, names).map((e) => `${notesText(e.notes)} in group ${e.group}`);
  const rest = groups.slice(names);
  if (rest.length === 0) return named.join(", ");
  const notes = rest.reduce((sum, e) => sum + e.notes, 0);
  if (named.length === 0) return `${notesText(notes)} in ${groupsText(rest.length)}`;
  return `${named.join(", ")}, and ${notesText(notes)} in ${rest.length} more ${rest.length === 1 ? "group" : "groups"}`;
}
function lossDetails(groups) {
  const emptied = groups.filter((g) => g.kind === "emptied");
  const lost = groups.filter((g) => g.kind !== "emptied");
  const left = Math.max(0, DETAIL_GROUPS - emptied.length);
  return { ...emptied.length > 0 ? { emptied: emptiedDetail(emptied) } : {}, ...lost.length > 0 ? { lost: emptiedDetail(lost, left) } : {} };
}
function emptiedGraphText(problem, forceCommand) {
  return `since ${sinceText(problem)} UTC the knowledge graph (Graphiti) holds none of the memory notes this machine sent to it (${problem.detail}): the server was probably started again without its data (a removed volume, a database that does not persist, clear_graph), so no knowledge of them can be shown. ${forceCommand} sends them again, once each.`;
}
function lostGraphText(problem, forceCommand) {
  return `since ${sinceText(problem)} UTC the knowledge graph (Graphiti) no longer holds memory notes this machine sent to it and it had confirmed (${problem.detail}): the server was probably started again without its data (a removed volume, a database that does not persist, clear_graph) while newer notes were sent, so no knowledge of those can be shown. ${forceCommand} sends them again, once each.`;
}
function bothLossesText(problem, details, forceCommand) {
  return `since ${sinceText(problem)} UTC the knowledge graph (Graphiti) holds none of the memory notes this machine sent to some groups (${details.emptied}) and no longer holds others it had confirmed (${details.lost}): the server was probably started again without its data (a removed volume, a database that does not persist, clear_graph), so no knowledge of them can be shown. ${forceCommand} sends them again, once each.`;
}
function graphLossText(problem, forceCommand) {
  const { emptied, lost } = lossDetails(problem.groups ?? []);
  if (problem.kind === "emptied" && emptied !== void 0 && lost !== void 0) return bothLossesText(problem, { emptied, lost }, forceCommand);
  if (problem.kind === "emptied") return emptiedGraphText(problem, forceCommand);
  if (problem.kind === "lost") return lostGraphText(problem, forceCommand);
  return void 0;
}
function sinceText(problem) {
  return problem.since.slice(0, 16).replace("T", " ");
}
function takeGraphProblemNote(stateDir, copyRunning) {
  const problem = readGraphProblem(stateDir);
  if (problem === void 0 || problem.told) return void 0;
  try {
    write(stateDir, { ...problem, told: true });
  } catch {
    return void 0;
  }
  const since = sinceText(problem);
  const copy = copyRunning ?? runningCopy();
  const health = copy.cli === void 0 ? `The worker's log ${logFilePath(stateDir)} has the errors; ${namedCommand("health", copy)}` : namedCommand("health", copy);
  if (problem.kind === "unreachable") return ourNote(`the knowledge graph (Graphiti) could not be reached since ${since} UTC, so the knowledge below may be out of date and new memory files wait to be synced. ${health} names the cause.`);
  const loss = graphLossText(problem, namedCommand("sync --force", copy));
  if (loss !== void 0) return ourNote(loss);
  if (problem.kind === "not-graphiti") return ourNote(`since ${since} UTC another program, not Graphiti, answers at the knowledge graph's address, so the knowledge below may be out of date and new memory files wait to be synced. ${health} names it and the fix.`);
  return ourNote(`the knowledge graph (Graphiti) answers, but its searches fail (${problem.detail}), so no knowledge could be read from it since ${since} UTC. ${health} names the cause and the fix.`);
}

// src/lib/context/once-note.ts
var import_node_fs11 = require("node:fs");
var import_node_path11 = require("node:path");
function readOnceNote(stateDir, file) {
  try {
    const value = JSON.parse((0, import_node_fs11.readFileSync)((0, import_node_path11.join)(stateDir, file), "utf8"));
    if (typeof value.text === "string" && value.text !== "") {
      const items = Array.isArray(value.items) ? value.items.filter((i) => typeof i === "string") : void 0;
      return { text: value.text, told: value.told === true, ...items === void 0 ? {} : { items } };
    }
  } catch {
  }
  return void 0;
}
function takeOnceNote(stateDir, file) {
  const note = readOnceNote(stateDir, file);
  if (note === void 0 || note.told) return void 0;
  try {
    writeFileAtomicSync((0, import_node_path11.join)(stateDir, file), `${JSON.stringify({ ...note, told: true })}
`);
  } catch {
    return void 0;
  }
  return ourNote(note.text);
}

// src/lib/context/origin-note.ts
var FILE2 = "origin-question.json";
function takeOriginNote(stateDir) {
  return takeOnceNote(stateDir, FILE2);
}

// src/lib/context/set-aside-note.ts
var SET_ASIDE_NOTE_FILE = "set-aside-note.json";
function takeSetAsideNote(stateDir) {
  return takeOnceNote(stateDir, SET_ASIDE_NOTE_FILE);
}

// src/lib/context/project.ts
var import_node_fs14 = require("node:fs");
var import_node_path14 = require("node:path");
var import_node_os2 = require("node:os");

// src/lib/config/claude-memory.ts
var import_node_fs13 = require("node:fs");
var import_node_path13 = require("node:path");

// src/lib/util/claude-project-key.ts
var import_node_fs12 = require("node:fs");
var import_node_path12 = require("node:path");
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
function resolveProjectKey(path, projectsDir, override) {
  if (override !== void 0) return override;
  const computed = claudeProjectKey(path);
  if (computed.length <= MAX_SANITIZED_LENGTH) return computed;
  const prefix = `${computed.slice(0, MAX_SANITIZED_LENGTH)}-`;
  let names;
  try {
    names = (0, import_node_fs12.readdirSync)(projectsDir).filter((n) => n.startsWith(prefix) && n.length > prefix.length);
  } catch {
    return computed;
  }
  if (names.length === 0 || names.includes(computed)) return computed;
  let best = names[0];
  let bestTime = -1;
  for (const name of names) {
    const st = statOrUndefinedHere((0, import_node_path12.join)(projectsDir, name));
    if (st !== void 0 && st.mtimeMs > bestTime) {
      best = name;
      bestTime = st.mtimeMs;
    }
  }
  return best;
}
function statOrUndefinedHere(path) {
  try {
    return (0, import_node_fs12.statSync)(path);
  } catch {
    return void 0;
  }
}

// src/lib/config/claude-memory.ts
function managedSettingsDir(platform = process.platform) {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode";
  return "/etc/claude-code";
}
var MANAGED_SETTINGS_DIR = managedSettingsDir();
function claudeSwitchOn(value) {
  return value !== void 0 && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}
function claudeSwitchOff(value) {
  return value !== void 0 && ["0", "false", "no", "off"].includes(value.trim().toLowerCase());
}
function readSettings(file) {
  try {
    const parsed = JSON.parse((0, import_node_fs13.readFileSync)(file, "utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : void 0;
  } catch {
    return void 0;
  }
}
var SettingsFiles = class {
  files = /* @__PURE__ */ new Map();
  managedOf = /* @__PURE__ */ new Map();
  recorded = /* @__PURE__ */ new Map();
  read(file) {
    if (!this.files.has(file)) this.files.set(file, readSettings(file));
    return this.files.get(file);
  }
  /** The managed settings of `dir`, merged once (managedSettings). */
  managed(dir) {
    let merged = this.managedOf.get(dir);
    if (merged === void 0) this.managedOf.set(dir, merged = managedSettings(dir, this));
    return merged;
  }
  /** The projects Claude Code recorded (knownProjects), found once per config folder. */
  projects(key, find) {
    let found = this.recorded.get(key);
    if (found === void 0) this.recorded.set(key, found = find());
    return found;
  }
};
function envOf(settings) {
  const env = settings?.env;
  return typeof env === "object" && env !== null ? Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === "string")) : {};
}
function managedSettings(dir, files) {
  let dropIns = [];
  try {
    dropIns = (0, import_node_fs13.readdirSync)((0, import_node_path13.join)(dir, "managed-settings.d")).filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort();
  } catch {
  }
  let merged = {};
  for (const file of [(0, import_node_path13.join)(dir, "managed-settings.json"), ...dropIns.map((f) => (0, import_node_path13.join)(dir, "managed-settings.d", f))]) {
    const settings = files.read(file);
    if (settings !== void 0) merged = { ...merged, ...settings, env: { ...envOf(merged), ...envOf(settings) } };
  }
  return merged;
}
function settingsLayers(files, claudeConfigDir, managedDir, project) {
  const layers = [{ name: "managed settings", settings: files.managed(managedDir) }];
  for (const dir of project === void 0 ? [] : [.../* @__PURE__ */ new Set([project.mainRoot, project.dir])]) {
    const file = (0, import_node_path13.join)(dir, ".claude", "settings.local.json");
    layers.push({ name: "local settings", settings: files.read(file) ?? {}, file });
  }
  layers.push({ name: "user settings", settings: files.read((0, import_node_path13.join)(claudeConfigDir, "settings.json")) ?? {} });
  return layers;
}
function firstSet(layers, pick2) {
  for (const layer of layers) {
    const value = pick2(layer.settings);
    if (value !== void 0 && value !== null) return { value, layer };
  }
  return void 0;
}
function autoMemorySwitch(env, layers) {
  const set = firstSet(layers, (s) => envOf(s).CLAUDE_CODE_DISABLE_AUTO_MEMORY);
  const variable = set?.value ?? env.CLAUDE_CODE_DISABLE_AUTO_MEMORY;
  if (claudeSwitchOn(variable)) return { off: true, ...set === void 0 ? {} : { by: set.layer } };
  if (claudeSwitchOff(variable)) return { off: false, ...set === void 0 ? {} : { by: set.layer } };
  const enabled = firstSet(layers, (s) => typeof s.autoMemoryEnabled === "boolean" ? s.autoMemoryEnabled : void 0);
  return { off: enabled?.value === false, ...enabled === void 0 ? {} : { by: enabled.layer } };
}
function autoMemoryOff(env, layers) {
  return autoMemorySwitch(env, layers).off;
}
function folderSetting(value, homeDir, expandTilde) {
  if (typeof value !== "string" || value.trim() === "" || value.includes("\0")) return void 0;
  let path = value.trim();
  if (expandTilde && (path.startsWith("~/") || path.startsWith("~\\"))) path = (0, import_node_path13.join)(homeDir, path.slice(2));
  if (!(0, import_node_path13.isAbsolute)(path)) return void 0;
  const folder = (0, import_node_path13.normalize)(path).replace(/[/\\]+$/, "");
  return folder.length < 2 ? void 0 : folder;
}
function movedFolder(env, homeDir, layers) {
  const cowork = folderSetting(env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, homeDir, false);
  if (cowork !== void 0) return { root: cowork, via: "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE" };
  const set = firstSet(layers, (s) => s.autoMemoryDirectory);
  if (set === void 0) return void 0;
  const root = folderSetting(set.value, homeDir, true);
  return root === void 0 ? null : { root, via: `autoMemoryDirectory (${set.layer.name})` };
}
function projectsBase(env, claudeConfigDir) {
  const remote = folderSetting(env.CLAUDE_CODE_REMOTE_MEMORY_DIR, "", false);
  return remote === void 0 ? { base: claudeConfigDir, remote: false } : { base: remote, remote: true };
}
function projectMemoryFolder(env, claudeConfigDir, homeDir, project, key, managedDir = MANAGED_SETTINGS_DIR, files = new SettingsFiles()) {
  const layers = settingsLayers(files, claudeConfigDir, managedDir, typeof project === "string" ? { mainRoot: project, dir: project } : project);
  return autoMemoryOff(env, layers) ? void 0 : memoryFolderOver(env, claudeConfigDir, homeDir, layers, key);
}
function memoryFolderOver(env, claudeConfigDir, homeDir, layers, key) {
  const moved = movedFolder(env, homeDir, layers);
  if (moved) return { dir: moved.root, via: moved.via };
  const { base, remote } = projectsBase(env, claudeConfigDir);
  return { dir: (0, import_node_path13.join)(base, "projects", key, "memory"), via: remote ? "CLAUDE_CODE_REMOTE_MEMORY_DIR" : "default" };
}
var TRANSCRIPT_HEAD_BYTES = [8 * 1024, 64 * 1024];
function projectDirNameOverride(env) {
  const name = env.CLAUDE_CODE_PROJECT_DIR_NAME;
  if (env.CLAUDE_CONFIG_DIR === void 0 || env.CLAUDE_CONFIG_DIR === "" || name === void 0) return void 0;
  return /^[A-Za-z0-9_-]{1,64}$/.test(name) && !/^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name) ? name : void 0;
}

// src/lib/graphiti/escape.ts
var MAX_PROJECT_GROUP_LENGTH = 64;
function shortHash(text) {
  return sha256Hex(text).slice(0, 8);
}
function projectGroupId(db, projectName) {
  const sep2 = db === "falkordb" ? "_" : "-";
  const folded = projectName.normalize("NFKD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase();
  const keep = db === "falkordb" ? /[^a-z0-9_]+/g : /[^a-z0-9_-]+/g;
  let slug = folded.replace(keep, sep2);
  slug = slug.replace(db === "falkordb" ? /_+/g : /[-_]*-[-_]*/g, sep2).replace(/^[-_]+|[-_]+$/g, "");
  if (!/[a-z0-9]/.test(slug)) return `project${sep2}${shortHash(projectName)}`;
  if (slug.length > MAX_PROJECT_GROUP_LENGTH) {
    const prefix = slug.slice(0, MAX_PROJECT_GROUP_LENGTH - 9).replace(/[-_]+$/, "");
    slug = `${prefix}${sep2}${shortHash(projectName)}`;
  }
  return slug;
}

// src/lib/config/process-env.ts
function processEnv() {
  return process.env;
}

// src/lib/context/project.ts
function resolveProjectKey2(path, projectsDir, env = processEnv()) {
  return resolveProjectKey(path, projectsDir, projectDirNameOverride(env));
}
function statOrUndefined(path) {
  try {
    return (0, import_node_fs14.statSync)(path);
  } catch {
    return void 0;
  }
}
function readSmall(path, max = 4096) {
  let fd;
  try {
    fd = (0, import_node_fs14.openSync)(path, "r");
    const buf = Buffer.alloc(max);
    const n = (0, import_node_fs14.readSync)(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return void 0;
  } finally {
    if (fd !== void 0) (0, import_node_fs14.closeSync)(fd);
  }
}
function findGitRoot(start) {
  let dir = (0, import_node_path14.resolve)(start);
  for (let depth = 0; depth < 256; depth++) {
    const dotGit = (0, import_node_path14.join)(dir, ".git");
    const st = statOrUndefined(dotGit);
    if (st?.isDirectory()) return { worktreeRoot: dir, gitDir: dotGit, mainRoot: dir };
    if (st?.isFile()) {
      const text = readSmall(dotGit);
      const m = text === void 0 ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (m?.[1] !== void 0) {
        const gitDir = (0, import_node_path14.isAbsolute)(m[1]) ? m[1] : (0, import_node_path14.resolve)(dir, m[1]);
        const common = readSmall((0, import_node_path14.join)(gitDir, "commondir"))?.trim();
        if (common !== void 0 && common !== "") {
          const commonDir = (0, import_node_path14.isAbsolute)(common) ? common : (0, import_node_path14.resolve)(gitDir, common);
          const mainRoot = (0, import_node_path14.basename)(commonDir) === ".git" ? (0, import_node_path14.dirname)(commonDir) : dir;
          return { worktreeRoot: dir, gitDir, mainRoot };
        }
        return { worktreeRoot: dir, gitDir, mainRoot: dir };
      }
    }
    const parent = (0, import_node_path14.dirname)(dir);
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
function detectProject(cwd, config, env = processEnv()) {
  const abs = (0, import_node_path14.resolve)(cwd);
  const git = findGitRoot(abs);
  const root = git?.mainRoot ?? abs;
  const projectsDir = (0, import_node_path14.join)(config.claudeConfigDir, "projects");
  const key = resolveProjectKey2(root, projectsDir, env);
  const located = projectMemoryFolder(env, config.claudeConfigDir, env.HOME !== void 0 && env.HOME !== "" ? env.HOME : (0, import_node_os2.homedir)(), { mainRoot: root, dir: abs }, key);
  const memoryDir = located?.dir ?? (0, import_node_path14.join)(projectsDir, key, "memory");
  return {
    cwd: abs,
    root,
    isGit: git !== void 0,
    gitDir: git?.gitDir,
    name: (0, import_node_path14.basename)(root) || root,
    key,
    memoryDir,
    memoryDirExists: located !== void 0 && (statOrUndefined(memoryDir)?.isDirectory() ?? false),
    memoryVia: located?.via ?? "disabled",
    groupIds: projectSearchGroups(config, key)
  };
}

// src/lib/worker/spawn.ts
var import_node_fs17 = require("node:fs");
var import_node_path15 = require("node:path");
var import_node_module2 = require("node:module");
var import_node_os3 = require("node:os");
var import_node_url3 = require("node:url");

// src/lib/util/lock-file.ts
var import_node_fs15 = require("node:fs");
var GUARD_STALE_MS = 1e4;
var NO_HARD_LINKS = /* @__PURE__ */ new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);
function errnoCode(error) {
  return error?.code;
}
function readLockFile(path) {
  try {
    const st = (0, import_node_fs15.statSync)(path);
    return { text: (0, import_node_fs15.readFileSync)(path, "utf8"), mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return void 0;
    throw error;
  }
}
function createLockFile(path, text, tag) {
  const tmp = `${path}.${tag}.tmp`;
  try {
    (0, import_node_fs15.writeFileSync)(tmp, text, { mode: 384, flag: "wx" });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") removeQuietly(tmp);
    throw error;
  }
  try {
    (0, import_node_fs15.linkSync)(tmp, path);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EEXIST") return false;
    if (code === void 0 || !NO_HARD_LINKS.has(code)) throw error;
  } finally {
    try {
      (0, import_node_fs15.unlinkSync)(tmp);
    } catch {
    }
  }
  try {
    (0, import_node_fs15.writeFileSync)(path, text, { mode: 384, flag: "wx" });
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  }
}
function removeStaleLock(path, seen, tokenOf, token) {
  const guard = `${path}.takeover`;
  try {
    (0, import_node_fs15.writeFileSync)(guard, token, { mode: 384, flag: "wx" });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
    try {
      if (Math.abs(Date.now() - (0, import_node_fs15.statSync)(guard).mtimeMs) > GUARD_STALE_MS) (0, import_node_fs15.unlinkSync)(guard);
    } catch {
    }
    return false;
  }
  try {
    const current = readLockFile(path);
    if (current === void 0) return true;
    if (!sameLockRecord(current, seen, tokenOf)) return false;
    try {
      (0, import_node_fs15.unlinkSync)(path);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") throw error;
    }
    return true;
  } finally {
    try {
      (0, import_node_fs15.unlinkSync)(guard);
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
    (0, import_node_fs15.unlinkSync)(path);
  } catch {
  }
}

// src/lib/config/switches.ts
function workerSwitches(env) {
  const script = env.GMS_WORKER_SCRIPT?.trim();
  return { disabled: env.GMS_WORKER_DISABLED?.trim() === "1", script: script === void 0 || script === "" ? void 0 : script };
}

// src/lib/util/process-identity.ts
var import_node_fs16 = require("node:fs");
function bootId() {
  try {
    return (0, import_node_fs16.readFileSync)("/proc/sys/kernel/random/boot_id", "utf8").trim() || void 0;
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
      const stat = (0, import_node_fs16.readFileSync)(`/proc/${pid}/stat`, "utf8");
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
      return (0, import_node_fs16.readFileSync)(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").split("\0").join(" ");
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
    return (0, import_node_fs16.statSync)(`/proc/${pid}`).uid === uid;
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
  const dir = (0, import_node_path15.join)(stateDir, "worker", `format-${format}`);
  return { dir, pidFile: (0, import_node_path15.join)(dir, "worker.pid"), dirtyFile: (0, import_node_path15.join)(dir, "worker.dirty") };
}
function identityOf(pid) {
  const identity = identifyProcess(pid);
  const command = identity === void 0 ? void 0 : processCommandLine(pid);
  return identity === void 0 || command === void 0 ? {} : { start: identity.start, command };
}
function readLock(pidFile) {
  try {
    return parseLockInfo((0, import_node_fs17.readFileSync)(pidFile, "utf8"));
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
      return Math.abs(now - (0, import_node_fs17.statSync)(pidFile).mtimeMs) > UNPARSEABLE_GRACE_MS;
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
  (0, import_node_fs17.mkdirSync)(files.dir, { recursive: true, mode: 448 });
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
    (0, import_node_fs17.unlinkSync)(files.pidFile);
    return true;
  } catch {
    return false;
  }
}
function markDirty(stateDir, request) {
  const files = workerFiles(stateDir);
  (0, import_node_fs17.mkdirSync)(files.dir, { recursive: true, mode: 448 });
  (0, import_node_fs17.appendFileSync)(files.dirtyFile, `${JSON.stringify({ cwd: request.cwd, reason: request.reason, at: (/* @__PURE__ */ new Date()).toISOString() })}
`, { mode: 384 });
}
function workerCommand(env = processEnv(), hereUrl = __gmsModuleUrl) {
  const here = (0, import_node_url3.fileURLToPath)(hereUrl);
  const ext = (0, import_node_path15.extname)(here);
  const override = workerSwitches(env).script;
  const script = override !== void 0 ? (0, import_node_path15.resolve)(override) : (0, import_node_path15.join)(buildRootOf(hereUrl), "hooks", `worker${ext === ".ts" || ext === ".mjs" || ext === ".cjs" ? ext : ".js"}`);
  const args = [];
  if ((0, import_node_path15.extname)(script) === ".ts") args.push("--import", (0, import_node_url3.pathToFileURL)((0, import_node_module2.createRequire)(hereUrl).resolve("tsx")).href);
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
    (0, import_node_os3.setPriority)(pid, WORKER_NICENESS);
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
      const { spawn } = (0, import_node_module2.createRequire)(__gmsModuleUrl)("node:child_process");
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
var import_node_fs18 = require("node:fs");
var import_node_os4 = require("node:os");
var import_node_path16 = require("node:path");
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
  if (options.stream !== void 0) return readStream(options.stream, maxBytes, timeoutMs);
  const env = options.env ?? process.env;
  if (env.CLAUDE_PROJECT_DIR === void 0) return readStream(process.stdin, maxBytes, timeoutMs);
  const fd = options.fd ?? 0;
  try {
    if ((0, import_node_fs18.fstatSync)(fd).isCharacterDevice()) return Promise.resolve("");
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
      n = (0, import_node_fs18.readSync)(fd, chunk, 0, chunk.length, null);
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
  return new Promise((resolve7) => {
    if (stream.isTTY === true) {
      resolve7("");
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
      resolve7(Buffer.concat(chunks).toString("utf8"));
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
function writeStdout(text, fd = 1) {
  if (text === "") return Promise.resolve();
  const data = Buffer.from(text, "utf8");
  let written = 0;
  try {
    while (written < data.length) written += (0, import_node_fs18.writeSync)(fd, data, written);
    return Promise.resolve();
  } catch (error) {
    if (error.code !== "EAGAIN") return Promise.resolve();
  }
  return new Promise((resolve7) => {
    try {
      process.stdout.on("error", () => resolve7());
      process.stdout.write(data.subarray(written), () => resolve7());
    } catch {
      resolve7();
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
var CONFIG_ERROR_MARKER = "config-error.notified";
function shouldInject(source, contextOnResume) {
  if (source === "resume" || source === "fork") return contextOnResume;
  return true;
}
function usableDir(dir) {
  try {
    (0, import_node_fs18.mkdirSync)(dir, { recursive: true, mode: 448 });
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
      home2 = (0, import_node_os4.homedir)();
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
    if ((0, import_node_path16.isAbsolute)(usual)) candidates.push(usual);
  } catch {
  }
  let user = "user";
  try {
    user = String(process.getuid?.() ?? env.USERNAME ?? "user");
  } catch {
  }
  for (const dir of candidates) if (usableDir(dir) && stateDirProblem(dir) === void 0) return dir;
  return ownTempDir((0, import_node_path16.join)((0, import_node_os4.tmpdir)(), `graphiti-memory-sync-${user}`));
}
function ownTempDir(dir) {
  if (usableDir(dir) && ownRealDir(dir)) return dir;
  return earlierOwnTempDir(dir) ?? (0, import_node_fs18.mkdtempSync)(`${dir}-`);
}
function ownRealDir(dir) {
  try {
    if (!(0, import_node_fs18.lstatSync)(dir).isDirectory() || stateDirProblem(dir) !== void 0) return false;
    (0, import_node_fs18.chmodSync)(dir, 448);
    return true;
  } catch {
    return false;
  }
}
function earlierOwnTempDir(dir) {
  const prefix = `${(0, import_node_path16.basename)(dir)}-`;
  let names;
  try {
    names = (0, import_node_fs18.readdirSync)((0, import_node_path16.dirname)(dir));
  } catch {
    return void 0;
  }
  for (const name of names.filter((n) => n.startsWith(prefix) && n.length === prefix.length + 6).sort()) {
    const candidate = (0, import_node_path16.join)((0, import_node_path16.dirname)(dir), name);
    if (ownRealDir(candidate)) return candidate;
  }
  return void 0;
}
function misconfiguredNote(error, stateDir, copy = runningCopy()) {
  const name = configErrorVariable(error);
  const variable = name !== void 0 ? ` (setting ${name})` : "";
  const health = copy.cli === void 0 ? `The log ${logFilePath(stateDir)} has the error; ${namedCommand("health", copy)}` : namedCommand("health", copy);
  return `graphiti-memory-sync is misconfigured${variable}, so memory files are currently not synced to the Graphiti knowledge graph and no graph context was loaded. ${health} shows the reason.`;
}
function fingerprint(text) {
  return sha256Hex(text).slice(0, 16);
}
function firstTimeForConfigError(stateDir, message) {
  const file = (0, import_node_path16.join)(stateDir, CONFIG_ERROR_MARKER);
  const key = fingerprint(message);
  try {
    if ((0, import_node_fs18.readFileSync)(file, "utf8").trim() === key) return false;
  } catch {
  }
  try {
    (0, import_node_fs18.writeFileSync)(file, `${key}
`, { mode: 384 });
  } catch {
  }
  return true;
}
function clearConfigErrorNote(stateDir) {
  try {
    (0, import_node_fs18.unlinkSync)((0, import_node_path16.join)(stateDir, CONFIG_ERROR_MARKER));
    return true;
  } catch {
    return false;
  }
}

// src/hooks/session-start.ts
async function sessionStart(setLogger) {
  const started = Date.now();
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
    if (error instanceof PackageIncompleteError) {
      logger2.warn("hook skipped: the package is incomplete", { error: message });
      return;
    }
    const notify = firstTimeForConfigError(stateDir, message);
    logger2.error("configuration error", { error: message, variable: configErrorVariable(error), notified: notify });
    if (notify) await writeStdout(sessionStartOutput(misconfiguredNote(error, stateDir)));
    return;
  }
  const logger = createLogger({ file: logFilePath(config.stateDir), level: config.logLevel }).child({ component: "session-start" });
  setLogger(logger);
  if (hook.problem !== void 0) logger.warn("hook input not usable as given", { problem: hook.problem });
  if (clearConfigErrorNote(config.stateDir)) logger.info("configuration fixed");
  const project = detectProject(hook.cwd, config);
  let injected = 0;
  let cacheAge;
  const registration = /\.[cm]js$/.test(__gmsModuleUrl) ? "plugin" : "settings hooks";
  const claim = claimInjection(config.stateDir, hook.input.session_id, hook.source, registration);
  if (!claim.claimed) {
    logger.info("our SessionStart hook is registered twice (settings hooks from `install` and the plugin); the other copy injects, this one does not", { self: registration, other: claim.by });
  }
  if (claim.claimed && shouldInject(hook.source, config.contextOnResume) && config.contextBudget > 0) {
    const entry = readContextCache(config.stateDir, project.key);
    const note = takeGraphProblemNote(config.stateDir);
    const question = takeOriginNote(config.stateDir);
    const aside = takeSetAsideNote(config.stateDir);
    const ours = [note ?? "", question ?? "", aside ?? ""].filter((t) => t !== "").join("\n\n");
    const text = [ours, entry?.text ?? ""].filter((t) => t !== "").join("\n\n");
    if (text !== "") {
      const out = sessionStartOutput(text, Math.max(config.contextBudget, ours.length));
      injected = out === "" ? 0 : JSON.parse(out).hookSpecificOutput.additionalContext.length;
      if (entry !== void 0) cacheAge = Date.now() - Date.parse(entry.builtAt);
      await writeStdout(out);
    }
    if (note !== void 0) logger.info("told the session about a graph problem", { note });
    if (question !== void 0) logger.info("told the session about the copy question");
    if (aside !== void 0) logger.info("told the session about notes pull set aside");
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
    ms: Date.now() - started
  });
}
var hookLogger;
void runHook(
  "session-start",
  () => sessionStart((l) => {
    hookLogger = l;
  }),
  () => hookLogger
);
//# end of a graphiti-memory-sync bundle

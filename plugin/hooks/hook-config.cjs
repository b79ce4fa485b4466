// Bundled by scripts/build/bundle-hooks.mjs from src/; edit the sources, not this file. Its last line marks its end.
const __gmsModuleUrl = require('node:url').pathToFileURL(__filename).href;
"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __commonJS = (cb, mod) => function __require() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
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
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

// src/lib/util/package-root.ts
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
var import_node_path, import_node_url;
var init_package_root = __esm({
  "src/lib/util/package-root.ts"() {
    "use strict";
    import_node_path = require("node:path");
    import_node_url = require("node:url");
  }
});

// src/lib/util/safe-ancestors.ts
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
var import_node_fs, import_node_path2, cachedAccounts, ACCOUNT_FILES;
var init_safe_ancestors = __esm({
  "src/lib/util/safe-ancestors.ts"() {
    "use strict";
    import_node_fs = require("node:fs");
    import_node_path2 = require("node:path");
    ACCOUNT_FILES = { passwd: "/etc/passwd", group: "/etc/group" };
  }
});

// src/lib/config/env-file.ts
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
var import_node_fs2, import_node_os, import_node_path3, ConfigError;
var init_env_file = __esm({
  "src/lib/config/env-file.ts"() {
    "use strict";
    import_node_fs2 = require("node:fs");
    import_node_os = require("node:os");
    import_node_path3 = require("node:path");
    init_package_root();
    init_safe_ancestors();
    ConfigError = class extends Error {
      constructor(message, variable) {
        super(message);
        this.variable = variable;
        this.name = "ConfigError";
      }
      variable;
    };
  }
});

// node_modules/dotenv/lib/main.js
var require_main = __commonJS({
  "node_modules/dotenv/lib/main.js"(exports2, module2) {
    var fs = require("fs");
    var path = require("path");
    var os = require("os");
    var crypto = require("crypto");
    var TIPS = [
      "\u25C8 encrypted .env [www.dotenvx.com]",
      "\u25C8 secrets for agents [www.dotenvx.com]",
      "\u2301 auth for agents [www.vestauth.com]",
      "\u2318 custom filepath { path: '/custom/path/.env' }",
      "\u2318 enable debugging { debug: true }",
      "\u2318 override existing { override: true }",
      "\u2318 suppress logs { quiet: true }",
      "\u2318 multiple files { path: ['.env.local', '.env'] }"
    ];
    function _getRandomTip() {
      return TIPS[Math.floor(Math.random() * TIPS.length)];
    }
    function parseBoolean(value) {
      if (typeof value === "string") {
        return !["false", "0", "no", "off", ""].includes(value.toLowerCase());
      }
      return Boolean(value);
    }
    function supportsAnsi() {
      return process.stdout.isTTY;
    }
    function dim(text) {
      return supportsAnsi() ? `\x1B[2m${text}\x1B[0m` : text;
    }
    var LINE2 = /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/mg;
    function parse2(src) {
      const obj = {};
      let lines = src.toString();
      lines = lines.replace(/\r\n?/mg, "\n");
      let match;
      while ((match = LINE2.exec(lines)) != null) {
        const key = match[1];
        let value = match[2] || "";
        value = value.trim();
        const maybeQuote = value[0];
        value = value.replace(/^(['"`])([\s\S]*)\1$/mg, "$2");
        if (maybeQuote === '"') {
          value = value.replace(/\\n/g, "\n");
          value = value.replace(/\\r/g, "\r");
        }
        obj[key] = value;
      }
      return obj;
    }
    function _parseVault(options) {
      options = options || {};
      const vaultPath = _vaultPath(options);
      options.path = vaultPath;
      const result = DotenvModule.configDotenv(options);
      if (!result.parsed) {
        const err = new Error(`MISSING_DATA: Cannot parse ${vaultPath} for an unknown reason`);
        err.code = "MISSING_DATA";
        throw err;
      }
      const keys = _dotenvKey(options).split(",");
      const length = keys.length;
      let decrypted;
      for (let i = 0; i < length; i++) {
        try {
          const key = keys[i].trim();
          const attrs = _instructions(result, key);
          decrypted = DotenvModule.decrypt(attrs.ciphertext, attrs.key);
          break;
        } catch (error) {
          if (i + 1 >= length) {
            throw error;
          }
        }
      }
      return DotenvModule.parse(decrypted);
    }
    function _warn(message) {
      console.error(`\u26A0 ${message}`);
    }
    function _debug(message) {
      console.log(`\u2506 ${message}`);
    }
    function _log(message) {
      console.log(`\u25C7 ${message}`);
    }
    function _dotenvKey(options) {
      if (options && options.DOTENV_KEY && options.DOTENV_KEY.length > 0) {
        return options.DOTENV_KEY;
      }
      if (process.env.DOTENV_KEY && process.env.DOTENV_KEY.length > 0) {
        return process.env.DOTENV_KEY;
      }
      return "";
    }
    function _instructions(result, dotenvKey) {
      let uri;
      try {
        uri = new URL(dotenvKey);
      } catch (error) {
        if (error.code === "ERR_INVALID_URL") {
          const err = new Error("INVALID_DOTENV_KEY: Wrong format. Must be in valid uri format like dotenv://:key_1234@dotenvx.com/vault/.env.vault?environment=development");
          err.code = "INVALID_DOTENV_KEY";
          throw err;
        }
        throw error;
      }
      const key = uri.password;
      if (!key) {
        const err = new Error("INVALID_DOTENV_KEY: Missing key part");
        err.code = "INVALID_DOTENV_KEY";
        throw err;
      }
      const environment = uri.searchParams.get("environment");
      if (!environment) {
        const err = new Error("INVALID_DOTENV_KEY: Missing environment part");
        err.code = "INVALID_DOTENV_KEY";
        throw err;
      }
      const environmentKey = `DOTENV_VAULT_${environment.toUpperCase()}`;
      const ciphertext = result.parsed[environmentKey];
      if (!ciphertext) {
        const err = new Error(`NOT_FOUND_DOTENV_ENVIRONMENT: Cannot locate environment ${environmentKey} in your .env.vault file.`);
        err.code = "NOT_FOUND_DOTENV_ENVIRONMENT";
        throw err;
      }
      return { ciphertext, key };
    }
    function _vaultPath(options) {
      let possibleVaultPath = null;
      if (options && options.path && options.path.length > 0) {
        if (Array.isArray(options.path)) {
          for (const filepath of options.path) {
            if (fs.existsSync(filepath)) {
              possibleVaultPath = filepath.endsWith(".vault") ? filepath : `${filepath}.vault`;
            }
          }
        } else {
          possibleVaultPath = options.path.endsWith(".vault") ? options.path : `${options.path}.vault`;
        }
      } else {
        possibleVaultPath = path.resolve(process.cwd(), ".env.vault");
      }
      if (fs.existsSync(possibleVaultPath)) {
        return possibleVaultPath;
      }
      return null;
    }
    function _resolveHome(envPath) {
      return envPath[0] === "~" ? path.join(os.homedir(), envPath.slice(1)) : envPath;
    }
    function _configVault(options) {
      const debug = parseBoolean(process.env.DOTENV_CONFIG_DEBUG || options && options.debug);
      const quiet = parseBoolean(process.env.DOTENV_CONFIG_QUIET || options && options.quiet);
      if (debug || !quiet) {
        _log("loading env from encrypted .env.vault");
      }
      const parsed = DotenvModule._parseVault(options);
      let processEnv = process.env;
      if (options && options.processEnv != null) {
        processEnv = options.processEnv;
      }
      DotenvModule.populate(processEnv, parsed, options);
      return { parsed };
    }
    function configDotenv(options) {
      const dotenvPath = path.resolve(process.cwd(), ".env");
      let encoding = "utf8";
      let processEnv = process.env;
      if (options && options.processEnv != null) {
        processEnv = options.processEnv;
      }
      let debug = parseBoolean(processEnv.DOTENV_CONFIG_DEBUG || options && options.debug);
      let quiet = parseBoolean(processEnv.DOTENV_CONFIG_QUIET || options && options.quiet);
      if (options && options.encoding) {
        encoding = options.encoding;
      } else {
        if (debug) {
          _debug("no encoding is specified (UTF-8 is used by default)");
        }
      }
      let optionPaths = [dotenvPath];
      if (options && options.path) {
        if (!Array.isArray(options.path)) {
          optionPaths = [_resolveHome(options.path)];
        } else {
          optionPaths = [];
          for (const filepath of options.path) {
            optionPaths.push(_resolveHome(filepath));
          }
        }
      }
      let lastError;
      const parsedAll = {};
      for (const path2 of optionPaths) {
        try {
          const parsed = DotenvModule.parse(fs.readFileSync(path2, { encoding }));
          DotenvModule.populate(parsedAll, parsed, options);
        } catch (e) {
          if (debug) {
            _debug(`failed to load ${path2} ${e.message}`);
          }
          lastError = e;
        }
      }
      const populated = DotenvModule.populate(processEnv, parsedAll, options);
      debug = parseBoolean(processEnv.DOTENV_CONFIG_DEBUG || debug);
      quiet = parseBoolean(processEnv.DOTENV_CONFIG_QUIET || quiet);
      if (debug || !quiet) {
        const keysCount = Object.keys(populated).length;
        const shortPaths = [];
        for (const filePath of optionPaths) {
          try {
            const relative = path.relative(process.cwd(), filePath);
            shortPaths.push(relative);
          } catch (e) {
            if (debug) {
              _debug(`failed to load ${filePath} ${e.message}`);
            }
            lastError = e;
          }
        }
        _log(`injected env (${keysCount}) from ${shortPaths.join(",")} ${dim(`// tip: ${_getRandomTip()}`)}`);
      }
      if (lastError) {
        return { parsed: parsedAll, error: lastError };
      } else {
        return { parsed: parsedAll };
      }
    }
    function config(options) {
      if (_dotenvKey(options).length === 0) {
        return DotenvModule.configDotenv(options);
      }
      const vaultPath = _vaultPath(options);
      if (!vaultPath) {
        _warn(`you set DOTENV_KEY but you are missing a .env.vault file at ${vaultPath}`);
        return DotenvModule.configDotenv(options);
      }
      return DotenvModule._configVault(options);
    }
    function decrypt(encrypted, keyStr) {
      const key = Buffer.from(keyStr.slice(-64), "hex");
      let ciphertext = Buffer.from(encrypted, "base64");
      const nonce = ciphertext.subarray(0, 12);
      const authTag = ciphertext.subarray(-16);
      ciphertext = ciphertext.subarray(12, -16);
      try {
        const aesgcm = crypto.createDecipheriv("aes-256-gcm", key, nonce);
        aesgcm.setAuthTag(authTag);
        return `${aesgcm.update(ciphertext)}${aesgcm.final()}`;
      } catch (error) {
        const isRange = error instanceof RangeError;
        const invalidKeyLength = error.message === "Invalid key length";
        const decryptionFailed = error.message === "Unsupported state or unable to authenticate data";
        if (isRange || invalidKeyLength) {
          const err = new Error("INVALID_DOTENV_KEY: It must be 64 characters long (or more)");
          err.code = "INVALID_DOTENV_KEY";
          throw err;
        } else if (decryptionFailed) {
          const err = new Error("DECRYPTION_FAILED: Please check your DOTENV_KEY");
          err.code = "DECRYPTION_FAILED";
          throw err;
        } else {
          throw error;
        }
      }
    }
    function populate(processEnv, parsed, options = {}) {
      const debug = Boolean(options && options.debug);
      const override = Boolean(options && options.override);
      const populated = {};
      if (typeof parsed !== "object") {
        const err = new Error("OBJECT_REQUIRED: Please check the processEnv argument being passed to populate");
        err.code = "OBJECT_REQUIRED";
        throw err;
      }
      for (const key of Object.keys(parsed)) {
        if (Object.prototype.hasOwnProperty.call(processEnv, key)) {
          if (override === true) {
            processEnv[key] = parsed[key];
            populated[key] = parsed[key];
          }
          if (debug) {
            if (override === true) {
              _debug(`"${key}" is already defined and WAS overwritten`);
            } else {
              _debug(`"${key}" is already defined and was NOT overwritten`);
            }
          }
        } else {
          processEnv[key] = parsed[key];
          populated[key] = parsed[key];
        }
      }
      return populated;
    }
    var DotenvModule = {
      configDotenv,
      _configVault,
      _parseVault,
      config,
      decrypt,
      parse: parse2,
      populate
    };
    module2.exports.configDotenv = DotenvModule.configDotenv;
    module2.exports._configVault = DotenvModule._configVault;
    module2.exports._parseVault = DotenvModule._parseVault;
    module2.exports.config = DotenvModule.config;
    module2.exports.decrypt = DotenvModule.decrypt;
    module2.exports.parse = DotenvModule.parse;
    module2.exports.populate = DotenvModule.populate;
    module2.exports = DotenvModule;
  }
});

// src/lib/config/dotenv-file.ts
var dotenv_file_exports = {};
__export(dotenv_file_exports, {
  readSettingsFile: () => readSettingsFile
});
function decode(bytes, file) {
  if (bytes[0] === 255 && bytes[1] === 254) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 254 && bytes[1] === 255) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  if (bytes.includes(0)) throw new ConfigError(`Cannot read settings file ${file}: it is not text (it holds NUL bytes); save it as UTF-8 text, one NAME=value a line`);
  return bytes.toString("utf8");
}
function settingsFileProblem(st) {
  if (process.platform === "win32") return void 0;
  const uid = process.getuid?.();
  if (uid !== void 0 && st.uid !== uid && st.uid !== 0) return `belongs to another user (uid ${st.uid})`;
  if (st.isCharacterDevice()) return void 0;
  if ((st.mode & 2) !== 0) return `can be written by every user (mode ${(st.mode & 511).toString(8)})`;
  if (writableByOthers(st)) return `can be written by the members of group ${st.gid}, which is not yours alone (mode ${(st.mode & 511).toString(8)})`;
  return void 0;
}
function readSettingsFile(file, wanted) {
  let bytes;
  let fd;
  try {
    fd = (0, import_node_fs10.openSync)(file, "r");
    const problem = settingsFileProblem((0, import_node_fs10.fstatSync)(fd));
    if (problem !== void 0) throw new ConfigError(`Settings file ${file} ${problem}: its settings say where your notes and keys go, so only a file of yours (or root's) that no other user can write is read. chmod 600 it if it is yours, else remove it, or set MADEINOZ_KNOWLEDGE_ENV_FILE to a file of your own`);
    bytes = (0, import_node_fs10.readFileSync)(fd);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Cannot read settings file ${file}: ${error.message}; make it a file you can read (chmod 600 ${file}), or set MADEINOZ_KNOWLEDGE_ENV_FILE to another one`);
  } finally {
    if (fd !== void 0) (0, import_node_fs10.closeSync)(fd);
  }
  const text = decode(bytes, file);
  const parsed = (0, import_dotenv.parse)(text);
  const values = {};
  for (const [name, value] of Object.entries(parsed)) if (value !== "" && wanted(name)) values[name] = value;
  return { values, names: Object.keys(parsed), notes: surprises(text, file, wanted) };
}
function surprises(text, file, wanted) {
  const notes = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const match = LINE.exec(line);
    if (match === null || !wanted(match[1])) return;
    const [, name, value] = match;
    for (const surprise of DOTENV_SURPRISES) {
      if (surprise.test(value)) notes.push({ name, text: `${name} in ${file} (line ${index + 1}): ${surprise.say(name)}` });
    }
  });
  return notes;
}
var import_node_fs10, import_dotenv, DOTENV_SURPRISES, LINE;
var init_dotenv_file = __esm({
  "src/lib/config/dotenv-file.ts"() {
    "use strict";
    import_node_fs10 = require("node:fs");
    import_dotenv = __toESM(require_main(), 1);
    init_env_file();
    init_safe_ancestors();
    DOTENV_SURPRISES = [
      {
        rule: "HASH_IN_VALUE",
        test: (value) => !/^["'`]/.test(value) && /(?:^|[^\s])#/.test(value),
        say: (name) => `dotenv ends an unquoted value at its first "#", so only the part before it is used; if the "#" belongs to the value, put the value in single quotes: ${name}='\u2026'`
      },
      {
        rule: "ESCAPE_IN_QUOTES",
        test: (value) => /^"/.test(value) && /\\["\\]/.test(value),
        say: (name) => `inside double quotes dotenv keeps a backslash before " or \\ as part of the value; write the value in single quotes without backslashes (${name}='\u2026'), or in backquotes if it holds a single quote`
      }
    ];
    LINE = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/;
  }
});

// src/lib/config/config.ts
var config_exports = {};
__export(config_exports, {
  ConfigError: () => ConfigError,
  DEFAULT_MCP_URL: () => DEFAULT_MCP_URL,
  SERVER_RULES_SETTINGS: () => SERVER_RULES_SETTINGS,
  SETTINGS: () => SETTINGS,
  buildConfig: () => buildConfig,
  findEnvFile: () => findEnvFile,
  loadConfig: () => loadConfig,
  mcpUrlOrigin: () => mcpUrlOrigin,
  settingsFilesOf: () => settingsFilesOf,
  withCurrentOrigin: () => withCurrentOrigin
});
module.exports = __toCommonJS(config_exports);
var import_node_path9 = require("node:path");

// node_modules/zod/v3/external.js
var external_exports = {};
__export(external_exports, {
  BRAND: () => BRAND,
  DIRTY: () => DIRTY,
  EMPTY_PATH: () => EMPTY_PATH,
  INVALID: () => INVALID,
  NEVER: () => NEVER,
  OK: () => OK,
  ParseStatus: () => ParseStatus,
  Schema: () => ZodType,
  ZodAny: () => ZodAny,
  ZodArray: () => ZodArray,
  ZodBigInt: () => ZodBigInt,
  ZodBoolean: () => ZodBoolean,
  ZodBranded: () => ZodBranded,
  ZodCatch: () => ZodCatch,
  ZodDate: () => ZodDate,
  ZodDefault: () => ZodDefault,
  ZodDiscriminatedUnion: () => ZodDiscriminatedUnion,
  ZodEffects: () => ZodEffects,
  ZodEnum: () => ZodEnum,
  ZodError: () => ZodError,
  ZodFirstPartyTypeKind: () => ZodFirstPartyTypeKind,
  ZodFunction: () => ZodFunction,
  ZodIntersection: () => ZodIntersection,
  ZodIssueCode: () => ZodIssueCode,
  ZodLazy: () => ZodLazy,
  ZodLiteral: () => ZodLiteral,
  ZodMap: () => ZodMap,
  ZodNaN: () => ZodNaN,
  ZodNativeEnum: () => ZodNativeEnum,
  ZodNever: () => ZodNever,
  ZodNull: () => ZodNull,
  ZodNullable: () => ZodNullable,
  ZodNumber: () => ZodNumber,
  ZodObject: () => ZodObject,
  ZodOptional: () => ZodOptional,
  ZodParsedType: () => ZodParsedType,
  ZodPipeline: () => ZodPipeline,
  ZodPromise: () => ZodPromise,
  ZodReadonly: () => ZodReadonly,
  ZodRecord: () => ZodRecord,
  ZodSchema: () => ZodType,
  ZodSet: () => ZodSet,
  ZodString: () => ZodString,
  ZodSymbol: () => ZodSymbol,
  ZodTransformer: () => ZodEffects,
  ZodTuple: () => ZodTuple,
  ZodType: () => ZodType,
  ZodUndefined: () => ZodUndefined,
  ZodUnion: () => ZodUnion,
  ZodUnknown: () => ZodUnknown,
  ZodVoid: () => ZodVoid,
  addIssueToContext: () => addIssueToContext,
  any: () => anyType,
  array: () => arrayType,
  bigint: () => bigIntType,
  boolean: () => booleanType,
  coerce: () => coerce,
  custom: () => custom,
  date: () => dateType,
  datetimeRegex: () => datetimeRegex,
  defaultErrorMap: () => en_default,
  discriminatedUnion: () => discriminatedUnionType,
  effect: () => effectsType,
  enum: () => enumType,
  function: () => functionType,
  getErrorMap: () => getErrorMap,
  getParsedType: () => getParsedType,
  instanceof: () => instanceOfType,
  intersection: () => intersectionType,
  isAborted: () => isAborted,
  isAsync: () => isAsync,
  isDirty: () => isDirty,
  isValid: () => isValid,
  late: () => late,
  lazy: () => lazyType,
  literal: () => literalType,
  makeIssue: () => makeIssue,
  map: () => mapType,
  nan: () => nanType,
  nativeEnum: () => nativeEnumType,
  never: () => neverType,
  null: () => nullType,
  nullable: () => nullableType,
  number: () => numberType,
  object: () => objectType,
  objectUtil: () => objectUtil,
  oboolean: () => oboolean,
  onumber: () => onumber,
  optional: () => optionalType,
  ostring: () => ostring,
  pipeline: () => pipelineType,
  preprocess: () => preprocessType,
  promise: () => promiseType,
  quotelessJson: () => quotelessJson,
  record: () => recordType,
  set: () => setType,
  setErrorMap: () => setErrorMap,
  strictObject: () => strictObjectType,
  string: () => stringType,
  symbol: () => symbolType,
  transformer: () => effectsType,
  tuple: () => tupleType,
  undefined: () => undefinedType,
  union: () => unionType,
  unknown: () => unknownType,
  util: () => util,
  void: () => voidType
});

// node_modules/zod/v3/helpers/util.js
var util;
(function(util2) {
  util2.assertEqual = (_) => {
  };
  function assertIs(_arg) {
  }
  util2.assertIs = assertIs;
  function assertNever(_x) {
    throw new Error();
  }
  util2.assertNever = assertNever;
  util2.arrayToEnum = (items) => {
    const obj = {};
    for (const item of items) {
      obj[item] = item;
    }
    return obj;
  };
  util2.getValidEnumValues = (obj) => {
    const validKeys = util2.objectKeys(obj).filter((k) => typeof obj[obj[k]] !== "number");
    const filtered = {};
    for (const k of validKeys) {
      filtered[k] = obj[k];
    }
    return util2.objectValues(filtered);
  };
  util2.objectValues = (obj) => {
    return util2.objectKeys(obj).map(function(e) {
      return obj[e];
    });
  };
  util2.objectKeys = typeof Object.keys === "function" ? (obj) => Object.keys(obj) : (object) => {
    const keys = [];
    for (const key in object) {
      if (Object.prototype.hasOwnProperty.call(object, key)) {
        keys.push(key);
      }
    }
    return keys;
  };
  util2.find = (arr, checker) => {
    for (const item of arr) {
      if (checker(item))
        return item;
    }
    return void 0;
  };
  util2.isInteger = typeof Number.isInteger === "function" ? (val) => Number.isInteger(val) : (val) => typeof val === "number" && Number.isFinite(val) && Math.floor(val) === val;
  function joinValues(array, separator = " | ") {
    return array.map((val) => typeof val === "string" ? `'${val}'` : val).join(separator);
  }
  util2.joinValues = joinValues;
  util2.jsonStringifyReplacer = (_, value) => {
    if (typeof value === "bigint") {
      return value.toString();
    }
    return value;
  };
})(util || (util = {}));
var objectUtil;
(function(objectUtil2) {
  objectUtil2.mergeShapes = (first, second) => {
    return {
      ...first,
      ...second
      // second overwrites first
    };
  };
})(objectUtil || (objectUtil = {}));
var ZodParsedType = util.arrayToEnum([
  "string",
  "nan",
  "number",
  "integer",
  "float",
  "boolean",
  "date",
  "bigint",
  "symbol",
  "function",
  "undefined",
  "null",
  "array",
  "object",
  "unknown",
  "promise",
  "void",
  "never",
  "map",
  "set"
]);
var getParsedType = (data) => {
  const t = typeof data;
  switch (t) {
    case "undefined":
      return ZodParsedType.undefined;
    case "string":
      return ZodParsedType.string;
    case "number":
      return Number.isNaN(data) ? ZodParsedType.nan : ZodParsedType.number;
    case "boolean":
      return ZodParsedType.boolean;
    case "function":
      return ZodParsedType.function;
    case "bigint":
      return ZodParsedType.bigint;
    case "symbol":
      return ZodParsedType.symbol;
    case "object":
      if (Array.isArray(data)) {
        return ZodParsedType.array;
      }
      if (data === null) {
        return ZodParsedType.null;
      }
      if (data.then && typeof data.then === "function" && data.catch && typeof data.catch === "function") {
        return ZodParsedType.promise;
      }
      if (typeof Map !== "undefined" && data instanceof Map) {
        return ZodParsedType.map;
      }
      if (typeof Set !== "undefined" && data instanceof Set) {
        return ZodParsedType.set;
      }
      if (typeof Date !== "undefined" && data instanceof Date) {
        return ZodParsedType.date;
      }
      return ZodParsedType.object;
    default:
      return ZodParsedType.unknown;
  }
};

// node_modules/zod/v3/ZodError.js
var ZodIssueCode = util.arrayToEnum([
  "invalid_type",
  "invalid_literal",
  "custom",
  "invalid_union",
  "invalid_union_discriminator",
  "invalid_enum_value",
  "unrecognized_keys",
  "invalid_arguments",
  "invalid_return_type",
  "invalid_date",
  "invalid_string",
  "too_small",
  "too_big",
  "invalid_intersection_types",
  "not_multiple_of",
  "not_finite"
]);
var quotelessJson = (obj) => {
  const json = JSON.stringify(obj, null, 2);
  return json.replace(/"([^"]+)":/g, "$1:");
};
var ZodError = class _ZodError extends Error {
  get errors() {
    return this.issues;
  }
  constructor(issues) {
    super();
    this.issues = [];
    this.addIssue = (sub) => {
      this.issues = [...this.issues, sub];
    };
    this.addIssues = (subs = []) => {
      this.issues = [...this.issues, ...subs];
    };
    const actualProto = new.target.prototype;
    if (Object.setPrototypeOf) {
      Object.setPrototypeOf(this, actualProto);
    } else {
      this.__proto__ = actualProto;
    }
    this.name = "ZodError";
    this.issues = issues;
  }
  format(_mapper) {
    const mapper = _mapper || function(issue) {
      return issue.message;
    };
    const fieldErrors = { _errors: [] };
    const processError = (error) => {
      for (const issue of error.issues) {
        if (issue.code === "invalid_union") {
          issue.unionErrors.map(processError);
        } else if (issue.code === "invalid_return_type") {
          processError(issue.returnTypeError);
        } else if (issue.code === "invalid_arguments") {
          processError(issue.argumentsError);
        } else if (issue.path.length === 0) {
          fieldErrors._errors.push(mapper(issue));
        } else {
          let curr = fieldErrors;
          let i = 0;
          while (i < issue.path.length) {
            const el = issue.path[i];
            const terminal = i === issue.path.length - 1;
            if (el === "_errors") {
              if (terminal)
                curr._errors.push(mapper(issue));
              i++;
              continue;
            }
            if (!Object.prototype.hasOwnProperty.call(curr, el)) {
              if (el === "__proto__") {
                Object.defineProperty(curr, el, {
                  value: { _errors: [] },
                  writable: true,
                  enumerable: true,
                  configurable: true
                });
              } else {
                curr[el] = { _errors: [] };
              }
            }
            curr = curr[el];
            if (terminal) {
              curr._errors.push(mapper(issue));
            }
            i++;
          }
        }
      }
    };
    processError(this);
    return fieldErrors;
  }
  static assert(value) {
    if (!(value instanceof _ZodError)) {
      throw new Error(`Not a ZodError: ${value}`);
    }
  }
  toString() {
    return this.message;
  }
  get message() {
    return JSON.stringify(this.issues, util.jsonStringifyReplacer, 2);
  }
  get isEmpty() {
    return this.issues.length === 0;
  }
  flatten(mapper = (issue) => issue.message) {
    const fieldErrors = /* @__PURE__ */ Object.create(null);
    const formErrors = [];
    for (const sub of this.issues) {
      if (sub.path.length > 0) {
        const firstEl = sub.path[0];
        fieldErrors[firstEl] = fieldErrors[firstEl] || [];
        fieldErrors[firstEl].push(mapper(sub));
      } else {
        formErrors.push(mapper(sub));
      }
    }
    return { formErrors, fieldErrors };
  }
  get formErrors() {
    return this.flatten();
  }
};
ZodError.create = (issues) => {
  const error = new ZodError(issues);
  return error;
};

// node_modules/zod/v3/locales/en.js
var errorMap = (issue, _ctx) => {
  let message;
  switch (issue.code) {
    case ZodIssueCode.invalid_type:
      if (issue.received === ZodParsedType.undefined) {
        message = "Required";
      } else {
        message = `Expected ${issue.expected}, received ${issue.received}`;
      }
      break;
    case ZodIssueCode.invalid_literal:
      message = `Invalid literal value, expected ${JSON.stringify(issue.expected, util.jsonStringifyReplacer)}`;
      break;
    case ZodIssueCode.unrecognized_keys:
      message = `Unrecognized key(s) in object: ${util.joinValues(issue.keys, ", ")}`;
      break;
    case ZodIssueCode.invalid_union:
      message = `Invalid input`;
      break;
    case ZodIssueCode.invalid_union_discriminator:
      message = `Invalid discriminator value. Expected ${util.joinValues(issue.options)}`;
      break;
    case ZodIssueCode.invalid_enum_value:
      message = `Invalid enum value. Expected ${util.joinValues(issue.options)}, received '${issue.received}'`;
      break;
    case ZodIssueCode.invalid_arguments:
      message = `Invalid function arguments`;
      break;
    case ZodIssueCode.invalid_return_type:
      message = `Invalid function return type`;
      break;
    case ZodIssueCode.invalid_date:
      message = `Invalid date`;
      break;
    case ZodIssueCode.invalid_string:
      if (typeof issue.validation === "object") {
        if ("includes" in issue.validation) {
          message = `Invalid input: must include "${issue.validation.includes}"`;
          if (typeof issue.validation.position === "number") {
            message = `${message} at one or more positions greater than or equal to ${issue.validation.position}`;
          }
        } else if ("startsWith" in issue.validation) {
          message = `Invalid input: must start with "${issue.validation.startsWith}"`;
        } else if ("endsWith" in issue.validation) {
          message = `Invalid input: must end with "${issue.validation.endsWith}"`;
        } else {
          util.assertNever(issue.validation);
        }
      } else if (issue.validation !== "regex") {
        message = `Invalid ${issue.validation}`;
      } else {
        message = "Invalid";
      }
      break;
    case ZodIssueCode.too_small:
      if (issue.type === "array")
        message = `Array must contain ${issue.exact ? "exactly" : issue.inclusive ? `at least` : `more than`} ${issue.minimum} element(s)`;
      else if (issue.type === "string")
        message = `String must contain ${issue.exact ? "exactly" : issue.inclusive ? `at least` : `over`} ${issue.minimum} character(s)`;
      else if (issue.type === "number")
        message = `Number must be ${issue.exact ? `exactly equal to ` : issue.inclusive ? `greater than or equal to ` : `greater than `}${issue.minimum}`;
      else if (issue.type === "bigint")
        message = `Number must be ${issue.exact ? `exactly equal to ` : issue.inclusive ? `greater than or equal to ` : `greater than `}${issue.minimum}`;
      else if (issue.type === "date")
        message = `Date must be ${issue.exact ? `exactly equal to ` : issue.inclusive ? `greater than or equal to ` : `greater than `}${new Date(Number(issue.minimum))}`;
      else
        message = "Invalid input";
      break;
    case ZodIssueCode.too_big:
      if (issue.type === "array")
        message = `Array must contain ${issue.exact ? `exactly` : issue.inclusive ? `at most` : `less than`} ${issue.maximum} element(s)`;
      else if (issue.type === "string")
        message = `String must contain ${issue.exact ? `exactly` : issue.inclusive ? `at most` : `under`} ${issue.maximum} character(s)`;
      else if (issue.type === "number")
        message = `Number must be ${issue.exact ? `exactly` : issue.inclusive ? `less than or equal to` : `less than`} ${issue.maximum}`;
      else if (issue.type === "bigint")
        message = `BigInt must be ${issue.exact ? `exactly` : issue.inclusive ? `less than or equal to` : `less than`} ${issue.maximum}`;
      else if (issue.type === "date")
        message = `Date must be ${issue.exact ? `exactly` : issue.inclusive ? `smaller than or equal to` : `smaller than`} ${new Date(Number(issue.maximum))}`;
      else
        message = "Invalid input";
      break;
    case ZodIssueCode.custom:
      message = `Invalid input`;
      break;
    case ZodIssueCode.invalid_intersection_types:
      message = `Intersection results could not be merged`;
      break;
    case ZodIssueCode.not_multiple_of:
      message = `Number must be a multiple of ${issue.multipleOf}`;
      break;
    case ZodIssueCode.not_finite:
      message = "Number must be finite";
      break;
    default:
      message = _ctx.defaultError;
      util.assertNever(issue);
  }
  return { message };
};
var en_default = errorMap;

// node_modules/zod/v3/errors.js
var overrideErrorMap = en_default;
function setErrorMap(map) {
  overrideErrorMap = map;
}
function getErrorMap() {
  return overrideErrorMap;
}

// node_modules/zod/v3/helpers/parseUtil.js
var makeIssue = (params) => {
  const { data, path, errorMaps, issueData } = params;
  const fullPath = [...path, ...issueData.path || []];
  const fullIssue = {
    ...issueData,
    path: fullPath
  };
  if (issueData.message !== void 0) {
    return {
      ...issueData,
      path: fullPath,
      message: issueData.message
    };
  }
  let errorMessage = "";
  const maps = errorMaps.filter((m) => !!m).slice().reverse();
  for (const map of maps) {
    errorMessage = map(fullIssue, { data, defaultError: errorMessage }).message;
  }
  return {
    ...issueData,
    path: fullPath,
    message: errorMessage
  };
};
var EMPTY_PATH = [];
function addIssueToContext(ctx, issueData) {
  const overrideMap = getErrorMap();
  const issue = makeIssue({
    issueData,
    data: ctx.data,
    path: ctx.path,
    errorMaps: [
      ctx.common.contextualErrorMap,
      // contextual error map is first priority
      ctx.schemaErrorMap,
      // then schema-bound map if available
      overrideMap,
      // then global override map
      overrideMap === en_default ? void 0 : en_default
      // then global default map
    ].filter((x) => !!x)
  });
  ctx.common.issues.push(issue);
}
var ParseStatus = class _ParseStatus {
  constructor() {
    this.value = "valid";
  }
  dirty() {
    if (this.value === "valid")
      this.value = "dirty";
  }
  abort() {
    if (this.value !== "aborted")
      this.value = "aborted";
  }
  static mergeArray(status, results) {
    const arrayValue = [];
    for (const s of results) {
      if (s.status === "aborted")
        return INVALID;
      if (s.status === "dirty")
        status.dirty();
      arrayValue.push(s.value);
    }
    return { status: status.value, value: arrayValue };
  }
  static async mergeObjectAsync(status, pairs) {
    const syncPairs = [];
    for (const pair of pairs) {
      const key = await pair.key;
      const value = await pair.value;
      syncPairs.push({
        key,
        value
      });
    }
    return _ParseStatus.mergeObjectSync(status, syncPairs);
  }
  static mergeObjectSync(status, pairs) {
    const finalObject = {};
    for (const pair of pairs) {
      const { key, value } = pair;
      if (key.status === "aborted")
        return INVALID;
      if (value.status === "aborted")
        return INVALID;
      if (key.status === "dirty")
        status.dirty();
      if (value.status === "dirty")
        status.dirty();
      if (key.value !== "__proto__" && (typeof value.value !== "undefined" || pair.alwaysSet)) {
        finalObject[key.value] = value.value;
      }
    }
    return { status: status.value, value: finalObject };
  }
};
var INVALID = Object.freeze({
  status: "aborted"
});
var DIRTY = (value) => ({ status: "dirty", value });
var OK = (value) => ({ status: "valid", value });
var isAborted = (x) => x.status === "aborted";
var isDirty = (x) => x.status === "dirty";
var isValid = (x) => x.status === "valid";
var isAsync = (x) => typeof Promise !== "undefined" && x instanceof Promise;

// node_modules/zod/v3/helpers/errorUtil.js
var errorUtil;
(function(errorUtil2) {
  errorUtil2.errToObj = (message) => typeof message === "string" ? { message } : message || {};
  errorUtil2.toString = (message) => typeof message === "string" ? message : message?.message;
})(errorUtil || (errorUtil = {}));

// node_modules/zod/v3/types.js
var ParseInputLazyPath = class {
  constructor(parent, value, path, key) {
    this._cachedPath = [];
    this.parent = parent;
    this.data = value;
    this._path = path;
    this._key = key;
  }
  get path() {
    if (!this._cachedPath.length) {
      if (Array.isArray(this._key)) {
        this._cachedPath.push(...this._path, ...this._key);
      } else {
        this._cachedPath.push(...this._path, this._key);
      }
    }
    return this._cachedPath;
  }
};
var handleResult = (ctx, result) => {
  if (isValid(result)) {
    return { success: true, data: result.value };
  } else {
    if (!ctx.common.issues.length) {
      throw new Error("Validation failed but no issues detected.");
    }
    return {
      success: false,
      get error() {
        if (this._error)
          return this._error;
        const error = new ZodError(ctx.common.issues);
        this._error = error;
        return this._error;
      }
    };
  }
};
function processCreateParams(params) {
  if (!params)
    return {};
  const { errorMap: errorMap2, invalid_type_error, required_error, description } = params;
  if (errorMap2 && (invalid_type_error || required_error)) {
    throw new Error(`Can't use "invalid_type_error" or "required_error" in conjunction with custom error map.`);
  }
  if (errorMap2)
    return { errorMap: errorMap2, description };
  const customMap = (iss, ctx) => {
    const { message } = params;
    if (iss.code === "invalid_enum_value") {
      return { message: message ?? ctx.defaultError };
    }
    if (typeof ctx.data === "undefined") {
      return { message: message ?? required_error ?? ctx.defaultError };
    }
    if (iss.code !== "invalid_type")
      return { message: ctx.defaultError };
    return { message: message ?? invalid_type_error ?? ctx.defaultError };
  };
  return { errorMap: customMap, description };
}
var ZodType = class {
  get description() {
    return this._def.description;
  }
  _getType(input) {
    return getParsedType(input.data);
  }
  _getOrReturnCtx(input, ctx) {
    return ctx || {
      common: input.parent.common,
      data: input.data,
      parsedType: getParsedType(input.data),
      schemaErrorMap: this._def.errorMap,
      path: input.path,
      parent: input.parent
    };
  }
  _processInputParams(input) {
    return {
      status: new ParseStatus(),
      ctx: {
        common: input.parent.common,
        data: input.data,
        parsedType: getParsedType(input.data),
        schemaErrorMap: this._def.errorMap,
        path: input.path,
        parent: input.parent
      }
    };
  }
  _parseSync(input) {
    const result = this._parse(input);
    if (isAsync(result)) {
      throw new Error("Synchronous parse encountered promise.");
    }
    return result;
  }
  _parseAsync(input) {
    const result = this._parse(input);
    return Promise.resolve(result);
  }
  parse(data, params) {
    const result = this.safeParse(data, params);
    if (result.success)
      return result.data;
    throw result.error;
  }
  safeParse(data, params) {
    const ctx = {
      common: {
        issues: [],
        async: params?.async ?? false,
        contextualErrorMap: params?.errorMap
      },
      path: params?.path || [],
      schemaErrorMap: this._def.errorMap,
      parent: null,
      data,
      parsedType: getParsedType(data)
    };
    const result = this._parseSync({ data, path: ctx.path, parent: ctx });
    return handleResult(ctx, result);
  }
  "~validate"(data) {
    const ctx = {
      common: {
        issues: [],
        async: !!this["~standard"].async
      },
      path: [],
      schemaErrorMap: this._def.errorMap,
      parent: null,
      data,
      parsedType: getParsedType(data)
    };
    if (!this["~standard"].async) {
      try {
        const result = this._parseSync({ data, path: [], parent: ctx });
        return isValid(result) ? {
          value: result.value
        } : {
          issues: ctx.common.issues
        };
      } catch (err) {
        if (err?.message?.toLowerCase()?.includes("encountered")) {
          this["~standard"].async = true;
        }
        ctx.common = {
          issues: [],
          async: true
        };
      }
    }
    return this._parseAsync({ data, path: [], parent: ctx }).then((result) => isValid(result) ? {
      value: result.value
    } : {
      issues: ctx.common.issues
    });
  }
  async parseAsync(data, params) {
    const result = await this.safeParseAsync(data, params);
    if (result.success)
      return result.data;
    throw result.error;
  }
  async safeParseAsync(data, params) {
    const ctx = {
      common: {
        issues: [],
        contextualErrorMap: params?.errorMap,
        async: true
      },
      path: params?.path || [],
      schemaErrorMap: this._def.errorMap,
      parent: null,
      data,
      parsedType: getParsedType(data)
    };
    const maybeAsyncResult = this._parse({ data, path: ctx.path, parent: ctx });
    const result = await (isAsync(maybeAsyncResult) ? maybeAsyncResult : Promise.resolve(maybeAsyncResult));
    return handleResult(ctx, result);
  }
  refine(check, message) {
    const getIssueProperties = (val) => {
      if (typeof message === "string" || typeof message === "undefined") {
        return { message };
      } else if (typeof message === "function") {
        return message(val);
      } else {
        return message;
      }
    };
    return this._refinement((val, ctx) => {
      const result = check(val);
      const setError = () => ctx.addIssue({
        code: ZodIssueCode.custom,
        ...getIssueProperties(val)
      });
      if (typeof Promise !== "undefined" && result instanceof Promise) {
        return result.then((data) => {
          if (!data) {
            setError();
            return false;
          } else {
            return true;
          }
        });
      }
      if (!result) {
        setError();
        return false;
      } else {
        return true;
      }
    });
  }
  refinement(check, refinementData) {
    return this._refinement((val, ctx) => {
      if (!check(val)) {
        ctx.addIssue(typeof refinementData === "function" ? refinementData(val, ctx) : refinementData);
        return false;
      } else {
        return true;
      }
    });
  }
  _refinement(refinement) {
    return new ZodEffects({
      schema: this,
      typeName: ZodFirstPartyTypeKind.ZodEffects,
      effect: { type: "refinement", refinement }
    });
  }
  superRefine(refinement) {
    return this._refinement(refinement);
  }
  constructor(def) {
    this.spa = this.safeParseAsync;
    this._def = def;
    this.parse = this.parse.bind(this);
    this.safeParse = this.safeParse.bind(this);
    this.parseAsync = this.parseAsync.bind(this);
    this.safeParseAsync = this.safeParseAsync.bind(this);
    this.spa = this.spa.bind(this);
    this.refine = this.refine.bind(this);
    this.refinement = this.refinement.bind(this);
    this.superRefine = this.superRefine.bind(this);
    this.optional = this.optional.bind(this);
    this.nullable = this.nullable.bind(this);
    this.nullish = this.nullish.bind(this);
    this.array = this.array.bind(this);
    this.promise = this.promise.bind(this);
    this.or = this.or.bind(this);
    this.and = this.and.bind(this);
    this.transform = this.transform.bind(this);
    this.brand = this.brand.bind(this);
    this.default = this.default.bind(this);
    this.catch = this.catch.bind(this);
    this.describe = this.describe.bind(this);
    this.pipe = this.pipe.bind(this);
    this.readonly = this.readonly.bind(this);
    this.isNullable = this.isNullable.bind(this);
    this.isOptional = this.isOptional.bind(this);
    this["~standard"] = {
      version: 1,
      vendor: "zod",
      validate: (data) => this["~validate"](data)
    };
  }
  optional() {
    return ZodOptional.create(this, this._def);
  }
  nullable() {
    return ZodNullable.create(this, this._def);
  }
  nullish() {
    return this.nullable().optional();
  }
  array() {
    return ZodArray.create(this);
  }
  promise() {
    return ZodPromise.create(this, this._def);
  }
  or(option) {
    return ZodUnion.create([this, option], this._def);
  }
  and(incoming) {
    return ZodIntersection.create(this, incoming, this._def);
  }
  transform(transform) {
    return new ZodEffects({
      ...processCreateParams(this._def),
      schema: this,
      typeName: ZodFirstPartyTypeKind.ZodEffects,
      effect: { type: "transform", transform }
    });
  }
  default(def) {
    const defaultValueFunc = typeof def === "function" ? def : () => def;
    return new ZodDefault({
      ...processCreateParams(this._def),
      innerType: this,
      defaultValue: defaultValueFunc,
      typeName: ZodFirstPartyTypeKind.ZodDefault
    });
  }
  brand() {
    return new ZodBranded({
      typeName: ZodFirstPartyTypeKind.ZodBranded,
      type: this,
      ...processCreateParams(this._def)
    });
  }
  catch(def) {
    const catchValueFunc = typeof def === "function" ? def : () => def;
    return new ZodCatch({
      ...processCreateParams(this._def),
      innerType: this,
      catchValue: catchValueFunc,
      typeName: ZodFirstPartyTypeKind.ZodCatch
    });
  }
  describe(description) {
    const This = this.constructor;
    return new This({
      ...this._def,
      description
    });
  }
  pipe(target) {
    return ZodPipeline.create(this, target);
  }
  readonly() {
    return ZodReadonly.create(this);
  }
  isOptional() {
    return this.safeParse(void 0).success;
  }
  isNullable() {
    return this.safeParse(null).success;
  }
};
var cuidRegex = /^c[^\s-]{8,}$/i;
var cuid2Regex = /^[0-9a-z]+$/;
var ulidRegex = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
var uuidRegex = /^[0-9a-fA-F]{8}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{12}$/i;
var nanoidRegex = /^[a-z0-9_-]{21}$/i;
var jwtRegex = /^[A-Za-z0-9-_]+\.[A-Za-z0-9-_]+\.[A-Za-z0-9-_]*$/;
var durationRegex = /^[-+]?P(?!$)(?:(?:[-+]?\d+Y)|(?:[-+]?\d+[.,]\d+Y$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:(?:[-+]?\d+W)|(?:[-+]?\d+[.,]\d+W$))?(?:(?:[-+]?\d+D)|(?:[-+]?\d+[.,]\d+D$))?(?:T(?=[\d+-])(?:(?:[-+]?\d+H)|(?:[-+]?\d+[.,]\d+H$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:[-+]?\d+(?:[.,]\d+)?S)?)??$/;
var emailRegex = /^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-\.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9\-]*\.)+[A-Z]{2,}$/i;
var _emojiRegex = `^[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
var emojiRegex;
var ipv4Regex = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
var ipv4CidrRegex = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/(3[0-2]|[12]?[0-9])$/;
var ipv6Regex = /^(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:)|fe80:(:[0-9a-fA-F]{0,4}){0,4}%[0-9a-zA-Z]{1,}|::(ffff(:0{1,4}){0,1}:){0,1}((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])|([0-9a-fA-F]{1,4}:){1,4}:((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9]))$/;
var ipv6CidrRegex = /^(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:)|fe80:(:[0-9a-fA-F]{0,4}){0,4}%[0-9a-zA-Z]{1,}|::(ffff(:0{1,4}){0,1}:){0,1}((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])|([0-9a-fA-F]{1,4}:){1,4}:((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9]))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
var base64Regex = /^([0-9a-zA-Z+/]{4})*(([0-9a-zA-Z+/]{2}==)|([0-9a-zA-Z+/]{3}=))?$/;
var base64urlRegex = /^([0-9a-zA-Z-_]{4})*(([0-9a-zA-Z-_]{2}(==)?)|([0-9a-zA-Z-_]{3}(=)?))?$/;
var dateRegexSource = `((\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-((0[13578]|1[02])-(0[1-9]|[12]\\d|3[01])|(0[469]|11)-(0[1-9]|[12]\\d|30)|(02)-(0[1-9]|1\\d|2[0-8])))`;
var dateRegex = new RegExp(`^${dateRegexSource}$`);
function timeRegexSource(args) {
  let secondsRegexSource = `[0-5]\\d`;
  if (args.precision) {
    secondsRegexSource = `${secondsRegexSource}\\.\\d{${args.precision}}`;
  } else if (args.precision == null) {
    secondsRegexSource = `${secondsRegexSource}(\\.\\d+)?`;
  }
  const secondsQuantifier = args.precision ? "+" : "?";
  return `([01]\\d|2[0-3]):[0-5]\\d(:${secondsRegexSource})${secondsQuantifier}`;
}
function timeRegex(args) {
  return new RegExp(`^${timeRegexSource(args)}$`);
}
function datetimeRegex(args) {
  let regex = `${dateRegexSource}T${timeRegexSource(args)}`;
  const opts = [];
  opts.push(args.local ? `Z?` : `Z`);
  if (args.offset)
    opts.push(`([+-]\\d{2}:?\\d{2})`);
  regex = `${regex}(${opts.join("|")})`;
  return new RegExp(`^${regex}$`);
}
function isValidIP(ip, version) {
  if ((version === "v4" || !version) && ipv4Regex.test(ip)) {
    return true;
  }
  if ((version === "v6" || !version) && ipv6Regex.test(ip)) {
    return true;
  }
  return false;
}
function isValidJWT(jwt, alg) {
  if (!jwtRegex.test(jwt))
    return false;
  try {
    const [header] = jwt.split(".");
    if (!header)
      return false;
    const base64 = header.replace(/-/g, "+").replace(/_/g, "/").padEnd(header.length + (4 - header.length % 4) % 4, "=");
    const decoded = JSON.parse(atob(base64));
    if (typeof decoded !== "object" || decoded === null)
      return false;
    if ("typ" in decoded && decoded?.typ !== "JWT")
      return false;
    if (!decoded.alg)
      return false;
    if (alg && decoded.alg !== alg)
      return false;
    return true;
  } catch {
    return false;
  }
}
function isValidCidr(ip, version) {
  if ((version === "v4" || !version) && ipv4CidrRegex.test(ip)) {
    return true;
  }
  if ((version === "v6" || !version) && ipv6CidrRegex.test(ip)) {
    return true;
  }
  return false;
}
var ZodString = class _ZodString extends ZodType {
  _parse(input) {
    if (this._def.coerce) {
      input.data = String(input.data);
    }
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.string) {
      const ctx2 = this._getOrReturnCtx(input);
      addIssueToContext(ctx2, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.string,
        received: ctx2.parsedType
      });
      return INVALID;
    }
    const status = new ParseStatus();
    let ctx = void 0;
    for (const check of this._def.checks) {
      if (check.kind === "min") {
        if (input.data.length < check.value) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_small,
            minimum: check.value,
            type: "string",
            inclusive: true,
            exact: false,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "max") {
        if (input.data.length > check.value) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_big,
            maximum: check.value,
            type: "string",
            inclusive: true,
            exact: false,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "length") {
        const tooBig = input.data.length > check.value;
        const tooSmall = input.data.length < check.value;
        if (tooBig || tooSmall) {
          ctx = this._getOrReturnCtx(input, ctx);
          if (tooBig) {
            addIssueToContext(ctx, {
              code: ZodIssueCode.too_big,
              maximum: check.value,
              type: "string",
              inclusive: true,
              exact: true,
              message: check.message
            });
          } else if (tooSmall) {
            addIssueToContext(ctx, {
              code: ZodIssueCode.too_small,
              minimum: check.value,
              type: "string",
              inclusive: true,
              exact: true,
              message: check.message
            });
          }
          status.dirty();
        }
      } else if (check.kind === "email") {
        if (!emailRegex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "email",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "emoji") {
        if (!emojiRegex) {
          emojiRegex = new RegExp(_emojiRegex, "u");
        }
        if (!emojiRegex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "emoji",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "uuid") {
        if (!uuidRegex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "uuid",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "nanoid") {
        if (!nanoidRegex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "nanoid",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "cuid") {
        if (!cuidRegex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "cuid",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "cuid2") {
        if (!cuid2Regex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "cuid2",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "ulid") {
        if (!ulidRegex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "ulid",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "url") {
        try {
          new URL(input.data);
        } catch {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "url",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "regex") {
        check.regex.lastIndex = 0;
        const testResult = check.regex.test(input.data);
        if (!testResult) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "regex",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "trim") {
        input.data = input.data.trim();
      } else if (check.kind === "includes") {
        if (!input.data.includes(check.value, check.position)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_string,
            validation: { includes: check.value, position: check.position },
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "toLowerCase") {
        input.data = input.data.toLowerCase();
      } else if (check.kind === "toUpperCase") {
        input.data = input.data.toUpperCase();
      } else if (check.kind === "startsWith") {
        if (!input.data.startsWith(check.value)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_string,
            validation: { startsWith: check.value },
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "endsWith") {
        if (!input.data.endsWith(check.value)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_string,
            validation: { endsWith: check.value },
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "datetime") {
        const regex = datetimeRegex(check);
        if (!regex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_string,
            validation: "datetime",
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "date") {
        const regex = dateRegex;
        if (!regex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_string,
            validation: "date",
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "time") {
        const regex = timeRegex(check);
        if (!regex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_string,
            validation: "time",
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "duration") {
        if (!durationRegex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "duration",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "ip") {
        if (!isValidIP(input.data, check.version)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "ip",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "jwt") {
        if (!isValidJWT(input.data, check.alg)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "jwt",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "cidr") {
        if (!isValidCidr(input.data, check.version)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "cidr",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "base64") {
        if (!base64Regex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "base64",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "base64url") {
        if (!base64urlRegex.test(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            validation: "base64url",
            code: ZodIssueCode.invalid_string,
            message: check.message
          });
          status.dirty();
        }
      } else {
        util.assertNever(check);
      }
    }
    return { status: status.value, value: input.data };
  }
  _regex(regex, validation, message) {
    return this.refinement((data) => regex.test(data), {
      validation,
      code: ZodIssueCode.invalid_string,
      ...errorUtil.errToObj(message)
    });
  }
  _addCheck(check) {
    return new _ZodString({
      ...this._def,
      checks: [...this._def.checks, check]
    });
  }
  email(message) {
    return this._addCheck({ kind: "email", ...errorUtil.errToObj(message) });
  }
  url(message) {
    return this._addCheck({ kind: "url", ...errorUtil.errToObj(message) });
  }
  emoji(message) {
    return this._addCheck({ kind: "emoji", ...errorUtil.errToObj(message) });
  }
  uuid(message) {
    return this._addCheck({ kind: "uuid", ...errorUtil.errToObj(message) });
  }
  nanoid(message) {
    return this._addCheck({ kind: "nanoid", ...errorUtil.errToObj(message) });
  }
  cuid(message) {
    return this._addCheck({ kind: "cuid", ...errorUtil.errToObj(message) });
  }
  cuid2(message) {
    return this._addCheck({ kind: "cuid2", ...errorUtil.errToObj(message) });
  }
  ulid(message) {
    return this._addCheck({ kind: "ulid", ...errorUtil.errToObj(message) });
  }
  base64(message) {
    return this._addCheck({ kind: "base64", ...errorUtil.errToObj(message) });
  }
  base64url(message) {
    return this._addCheck({
      kind: "base64url",
      ...errorUtil.errToObj(message)
    });
  }
  jwt(options) {
    return this._addCheck({ kind: "jwt", ...errorUtil.errToObj(options) });
  }
  ip(options) {
    return this._addCheck({ kind: "ip", ...errorUtil.errToObj(options) });
  }
  cidr(options) {
    return this._addCheck({ kind: "cidr", ...errorUtil.errToObj(options) });
  }
  datetime(options) {
    if (typeof options === "string") {
      return this._addCheck({
        kind: "datetime",
        precision: null,
        offset: false,
        local: false,
        message: options
      });
    }
    return this._addCheck({
      kind: "datetime",
      precision: typeof options?.precision === "undefined" ? null : options?.precision,
      offset: options?.offset ?? false,
      local: options?.local ?? false,
      ...errorUtil.errToObj(options?.message)
    });
  }
  date(message) {
    return this._addCheck({ kind: "date", message });
  }
  time(options) {
    if (typeof options === "string") {
      return this._addCheck({
        kind: "time",
        precision: null,
        message: options
      });
    }
    return this._addCheck({
      kind: "time",
      precision: typeof options?.precision === "undefined" ? null : options?.precision,
      ...errorUtil.errToObj(options?.message)
    });
  }
  duration(message) {
    return this._addCheck({ kind: "duration", ...errorUtil.errToObj(message) });
  }
  regex(regex, message) {
    return this._addCheck({
      kind: "regex",
      regex,
      ...errorUtil.errToObj(message)
    });
  }
  includes(value, options) {
    return this._addCheck({
      kind: "includes",
      value,
      position: options?.position,
      ...errorUtil.errToObj(options?.message)
    });
  }
  startsWith(value, message) {
    return this._addCheck({
      kind: "startsWith",
      value,
      ...errorUtil.errToObj(message)
    });
  }
  endsWith(value, message) {
    return this._addCheck({
      kind: "endsWith",
      value,
      ...errorUtil.errToObj(message)
    });
  }
  min(minLength, message) {
    return this._addCheck({
      kind: "min",
      value: minLength,
      ...errorUtil.errToObj(message)
    });
  }
  max(maxLength, message) {
    return this._addCheck({
      kind: "max",
      value: maxLength,
      ...errorUtil.errToObj(message)
    });
  }
  length(len, message) {
    return this._addCheck({
      kind: "length",
      value: len,
      ...errorUtil.errToObj(message)
    });
  }
  /**
   * Equivalent to `.min(1)`
   */
  nonempty(message) {
    return this.min(1, errorUtil.errToObj(message));
  }
  trim() {
    return new _ZodString({
      ...this._def,
      checks: [...this._def.checks, { kind: "trim" }]
    });
  }
  toLowerCase() {
    return new _ZodString({
      ...this._def,
      checks: [...this._def.checks, { kind: "toLowerCase" }]
    });
  }
  toUpperCase() {
    return new _ZodString({
      ...this._def,
      checks: [...this._def.checks, { kind: "toUpperCase" }]
    });
  }
  get isDatetime() {
    return !!this._def.checks.find((ch) => ch.kind === "datetime");
  }
  get isDate() {
    return !!this._def.checks.find((ch) => ch.kind === "date");
  }
  get isTime() {
    return !!this._def.checks.find((ch) => ch.kind === "time");
  }
  get isDuration() {
    return !!this._def.checks.find((ch) => ch.kind === "duration");
  }
  get isEmail() {
    return !!this._def.checks.find((ch) => ch.kind === "email");
  }
  get isURL() {
    return !!this._def.checks.find((ch) => ch.kind === "url");
  }
  get isEmoji() {
    return !!this._def.checks.find((ch) => ch.kind === "emoji");
  }
  get isUUID() {
    return !!this._def.checks.find((ch) => ch.kind === "uuid");
  }
  get isNANOID() {
    return !!this._def.checks.find((ch) => ch.kind === "nanoid");
  }
  get isCUID() {
    return !!this._def.checks.find((ch) => ch.kind === "cuid");
  }
  get isCUID2() {
    return !!this._def.checks.find((ch) => ch.kind === "cuid2");
  }
  get isULID() {
    return !!this._def.checks.find((ch) => ch.kind === "ulid");
  }
  get isIP() {
    return !!this._def.checks.find((ch) => ch.kind === "ip");
  }
  get isCIDR() {
    return !!this._def.checks.find((ch) => ch.kind === "cidr");
  }
  get isBase64() {
    return !!this._def.checks.find((ch) => ch.kind === "base64");
  }
  get isBase64url() {
    return !!this._def.checks.find((ch) => ch.kind === "base64url");
  }
  get minLength() {
    let min = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "min") {
        if (min === null || ch.value > min)
          min = ch.value;
      }
    }
    return min;
  }
  get maxLength() {
    let max = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "max") {
        if (max === null || ch.value < max)
          max = ch.value;
      }
    }
    return max;
  }
};
ZodString.create = (params) => {
  return new ZodString({
    checks: [],
    typeName: ZodFirstPartyTypeKind.ZodString,
    coerce: params?.coerce ?? false,
    ...processCreateParams(params)
  });
};
function floatSafeRemainder(val, step) {
  const valDecCount = (val.toString().split(".")[1] || "").length;
  const stepDecCount = (step.toString().split(".")[1] || "").length;
  const decCount = valDecCount > stepDecCount ? valDecCount : stepDecCount;
  const valInt = Number.parseInt(val.toFixed(decCount).replace(".", ""));
  const stepInt = Number.parseInt(step.toFixed(decCount).replace(".", ""));
  return valInt % stepInt / 10 ** decCount;
}
var ZodNumber = class _ZodNumber extends ZodType {
  constructor() {
    super(...arguments);
    this.min = this.gte;
    this.max = this.lte;
    this.step = this.multipleOf;
  }
  _parse(input) {
    if (this._def.coerce) {
      input.data = Number(input.data);
    }
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.number) {
      const ctx2 = this._getOrReturnCtx(input);
      addIssueToContext(ctx2, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.number,
        received: ctx2.parsedType
      });
      return INVALID;
    }
    let ctx = void 0;
    const status = new ParseStatus();
    for (const check of this._def.checks) {
      if (check.kind === "int") {
        if (!util.isInteger(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: "integer",
            received: "float",
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "min") {
        const tooSmall = check.inclusive ? input.data < check.value : input.data <= check.value;
        if (tooSmall) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_small,
            minimum: check.value,
            type: "number",
            inclusive: check.inclusive,
            exact: false,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "max") {
        const tooBig = check.inclusive ? input.data > check.value : input.data >= check.value;
        if (tooBig) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_big,
            maximum: check.value,
            type: "number",
            inclusive: check.inclusive,
            exact: false,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "multipleOf") {
        if (floatSafeRemainder(input.data, check.value) !== 0) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.not_multiple_of,
            multipleOf: check.value,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "finite") {
        if (!Number.isFinite(input.data)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.not_finite,
            message: check.message
          });
          status.dirty();
        }
      } else {
        util.assertNever(check);
      }
    }
    return { status: status.value, value: input.data };
  }
  gte(value, message) {
    return this.setLimit("min", value, true, errorUtil.toString(message));
  }
  gt(value, message) {
    return this.setLimit("min", value, false, errorUtil.toString(message));
  }
  lte(value, message) {
    return this.setLimit("max", value, true, errorUtil.toString(message));
  }
  lt(value, message) {
    return this.setLimit("max", value, false, errorUtil.toString(message));
  }
  setLimit(kind, value, inclusive, message) {
    return new _ZodNumber({
      ...this._def,
      checks: [
        ...this._def.checks,
        {
          kind,
          value,
          inclusive,
          message: errorUtil.toString(message)
        }
      ]
    });
  }
  _addCheck(check) {
    return new _ZodNumber({
      ...this._def,
      checks: [...this._def.checks, check]
    });
  }
  int(message) {
    return this._addCheck({
      kind: "int",
      message: errorUtil.toString(message)
    });
  }
  positive(message) {
    return this._addCheck({
      kind: "min",
      value: 0,
      inclusive: false,
      message: errorUtil.toString(message)
    });
  }
  negative(message) {
    return this._addCheck({
      kind: "max",
      value: 0,
      inclusive: false,
      message: errorUtil.toString(message)
    });
  }
  nonpositive(message) {
    return this._addCheck({
      kind: "max",
      value: 0,
      inclusive: true,
      message: errorUtil.toString(message)
    });
  }
  nonnegative(message) {
    return this._addCheck({
      kind: "min",
      value: 0,
      inclusive: true,
      message: errorUtil.toString(message)
    });
  }
  multipleOf(value, message) {
    return this._addCheck({
      kind: "multipleOf",
      value,
      message: errorUtil.toString(message)
    });
  }
  finite(message) {
    return this._addCheck({
      kind: "finite",
      message: errorUtil.toString(message)
    });
  }
  safe(message) {
    return this._addCheck({
      kind: "min",
      inclusive: true,
      value: Number.MIN_SAFE_INTEGER,
      message: errorUtil.toString(message)
    })._addCheck({
      kind: "max",
      inclusive: true,
      value: Number.MAX_SAFE_INTEGER,
      message: errorUtil.toString(message)
    });
  }
  get minValue() {
    let min = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "min") {
        if (min === null || ch.value > min)
          min = ch.value;
      }
    }
    return min;
  }
  get maxValue() {
    let max = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "max") {
        if (max === null || ch.value < max)
          max = ch.value;
      }
    }
    return max;
  }
  get isInt() {
    return !!this._def.checks.find((ch) => ch.kind === "int" || ch.kind === "multipleOf" && util.isInteger(ch.value));
  }
  get isFinite() {
    let max = null;
    let min = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "finite" || ch.kind === "int" || ch.kind === "multipleOf") {
        return true;
      } else if (ch.kind === "min") {
        if (min === null || ch.value > min)
          min = ch.value;
      } else if (ch.kind === "max") {
        if (max === null || ch.value < max)
          max = ch.value;
      }
    }
    return Number.isFinite(min) && Number.isFinite(max);
  }
};
ZodNumber.create = (params) => {
  return new ZodNumber({
    checks: [],
    typeName: ZodFirstPartyTypeKind.ZodNumber,
    coerce: params?.coerce || false,
    ...processCreateParams(params)
  });
};
var ZodBigInt = class _ZodBigInt extends ZodType {
  constructor() {
    super(...arguments);
    this.min = this.gte;
    this.max = this.lte;
  }
  _parse(input) {
    if (this._def.coerce) {
      try {
        input.data = BigInt(input.data);
      } catch {
        return this._getInvalidInput(input);
      }
    }
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.bigint) {
      return this._getInvalidInput(input);
    }
    let ctx = void 0;
    const status = new ParseStatus();
    for (const check of this._def.checks) {
      if (check.kind === "min") {
        const tooSmall = check.inclusive ? input.data < check.value : input.data <= check.value;
        if (tooSmall) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_small,
            type: "bigint",
            minimum: check.value,
            inclusive: check.inclusive,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "max") {
        const tooBig = check.inclusive ? input.data > check.value : input.data >= check.value;
        if (tooBig) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_big,
            type: "bigint",
            maximum: check.value,
            inclusive: check.inclusive,
            message: check.message
          });
          status.dirty();
        }
      } else if (check.kind === "multipleOf") {
        if (input.data % check.value !== BigInt(0)) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.not_multiple_of,
            multipleOf: check.value,
            message: check.message
          });
          status.dirty();
        }
      } else {
        util.assertNever(check);
      }
    }
    return { status: status.value, value: input.data };
  }
  _getInvalidInput(input) {
    const ctx = this._getOrReturnCtx(input);
    addIssueToContext(ctx, {
      code: ZodIssueCode.invalid_type,
      expected: ZodParsedType.bigint,
      received: ctx.parsedType
    });
    return INVALID;
  }
  gte(value, message) {
    return this.setLimit("min", value, true, errorUtil.toString(message));
  }
  gt(value, message) {
    return this.setLimit("min", value, false, errorUtil.toString(message));
  }
  lte(value, message) {
    return this.setLimit("max", value, true, errorUtil.toString(message));
  }
  lt(value, message) {
    return this.setLimit("max", value, false, errorUtil.toString(message));
  }
  setLimit(kind, value, inclusive, message) {
    return new _ZodBigInt({
      ...this._def,
      checks: [
        ...this._def.checks,
        {
          kind,
          value,
          inclusive,
          message: errorUtil.toString(message)
        }
      ]
    });
  }
  _addCheck(check) {
    return new _ZodBigInt({
      ...this._def,
      checks: [...this._def.checks, check]
    });
  }
  positive(message) {
    return this._addCheck({
      kind: "min",
      value: BigInt(0),
      inclusive: false,
      message: errorUtil.toString(message)
    });
  }
  negative(message) {
    return this._addCheck({
      kind: "max",
      value: BigInt(0),
      inclusive: false,
      message: errorUtil.toString(message)
    });
  }
  nonpositive(message) {
    return this._addCheck({
      kind: "max",
      value: BigInt(0),
      inclusive: true,
      message: errorUtil.toString(message)
    });
  }
  nonnegative(message) {
    return this._addCheck({
      kind: "min",
      value: BigInt(0),
      inclusive: true,
      message: errorUtil.toString(message)
    });
  }
  multipleOf(value, message) {
    return this._addCheck({
      kind: "multipleOf",
      value,
      message: errorUtil.toString(message)
    });
  }
  get minValue() {
    let min = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "min") {
        if (min === null || ch.value > min)
          min = ch.value;
      }
    }
    return min;
  }
  get maxValue() {
    let max = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "max") {
        if (max === null || ch.value < max)
          max = ch.value;
      }
    }
    return max;
  }
};
ZodBigInt.create = (params) => {
  return new ZodBigInt({
    checks: [],
    typeName: ZodFirstPartyTypeKind.ZodBigInt,
    coerce: params?.coerce ?? false,
    ...processCreateParams(params)
  });
};
var ZodBoolean = class extends ZodType {
  _parse(input) {
    if (this._def.coerce) {
      input.data = Boolean(input.data);
    }
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.boolean) {
      const ctx = this._getOrReturnCtx(input);
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.boolean,
        received: ctx.parsedType
      });
      return INVALID;
    }
    return OK(input.data);
  }
};
ZodBoolean.create = (params) => {
  return new ZodBoolean({
    typeName: ZodFirstPartyTypeKind.ZodBoolean,
    coerce: params?.coerce || false,
    ...processCreateParams(params)
  });
};
var ZodDate = class _ZodDate extends ZodType {
  _parse(input) {
    if (this._def.coerce) {
      input.data = new Date(input.data);
    }
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.date) {
      const ctx2 = this._getOrReturnCtx(input);
      addIssueToContext(ctx2, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.date,
        received: ctx2.parsedType
      });
      return INVALID;
    }
    if (Number.isNaN(input.data.getTime())) {
      const ctx2 = this._getOrReturnCtx(input);
      addIssueToContext(ctx2, {
        code: ZodIssueCode.invalid_date
      });
      return INVALID;
    }
    const status = new ParseStatus();
    let ctx = void 0;
    for (const check of this._def.checks) {
      if (check.kind === "min") {
        if (input.data.getTime() < check.value) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_small,
            message: check.message,
            inclusive: true,
            exact: false,
            minimum: check.value,
            type: "date"
          });
          status.dirty();
        }
      } else if (check.kind === "max") {
        if (input.data.getTime() > check.value) {
          ctx = this._getOrReturnCtx(input, ctx);
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_big,
            message: check.message,
            inclusive: true,
            exact: false,
            maximum: check.value,
            type: "date"
          });
          status.dirty();
        }
      } else {
        util.assertNever(check);
      }
    }
    return {
      status: status.value,
      value: new Date(input.data.getTime())
    };
  }
  _addCheck(check) {
    return new _ZodDate({
      ...this._def,
      checks: [...this._def.checks, check]
    });
  }
  min(minDate, message) {
    return this._addCheck({
      kind: "min",
      value: minDate.getTime(),
      message: errorUtil.toString(message)
    });
  }
  max(maxDate, message) {
    return this._addCheck({
      kind: "max",
      value: maxDate.getTime(),
      message: errorUtil.toString(message)
    });
  }
  get minDate() {
    let min = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "min") {
        if (min === null || ch.value > min)
          min = ch.value;
      }
    }
    return min != null ? new Date(min) : null;
  }
  get maxDate() {
    let max = null;
    for (const ch of this._def.checks) {
      if (ch.kind === "max") {
        if (max === null || ch.value < max)
          max = ch.value;
      }
    }
    return max != null ? new Date(max) : null;
  }
};
ZodDate.create = (params) => {
  return new ZodDate({
    checks: [],
    coerce: params?.coerce || false,
    typeName: ZodFirstPartyTypeKind.ZodDate,
    ...processCreateParams(params)
  });
};
var ZodSymbol = class extends ZodType {
  _parse(input) {
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.symbol) {
      const ctx = this._getOrReturnCtx(input);
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.symbol,
        received: ctx.parsedType
      });
      return INVALID;
    }
    return OK(input.data);
  }
};
ZodSymbol.create = (params) => {
  return new ZodSymbol({
    typeName: ZodFirstPartyTypeKind.ZodSymbol,
    ...processCreateParams(params)
  });
};
var ZodUndefined = class extends ZodType {
  _parse(input) {
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.undefined) {
      const ctx = this._getOrReturnCtx(input);
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.undefined,
        received: ctx.parsedType
      });
      return INVALID;
    }
    return OK(input.data);
  }
};
ZodUndefined.create = (params) => {
  return new ZodUndefined({
    typeName: ZodFirstPartyTypeKind.ZodUndefined,
    ...processCreateParams(params)
  });
};
var ZodNull = class extends ZodType {
  _parse(input) {
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.null) {
      const ctx = this._getOrReturnCtx(input);
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.null,
        received: ctx.parsedType
      });
      return INVALID;
    }
    return OK(input.data);
  }
};
ZodNull.create = (params) => {
  return new ZodNull({
    typeName: ZodFirstPartyTypeKind.ZodNull,
    ...processCreateParams(params)
  });
};
var ZodAny = class extends ZodType {
  constructor() {
    super(...arguments);
    this._any = true;
  }
  _parse(input) {
    return OK(input.data);
  }
};
ZodAny.create = (params) => {
  return new ZodAny({
    typeName: ZodFirstPartyTypeKind.ZodAny,
    ...processCreateParams(params)
  });
};
var ZodUnknown = class extends ZodType {
  constructor() {
    super(...arguments);
    this._unknown = true;
  }
  _parse(input) {
    return OK(input.data);
  }
};
ZodUnknown.create = (params) => {
  return new ZodUnknown({
    typeName: ZodFirstPartyTypeKind.ZodUnknown,
    ...processCreateParams(params)
  });
};
var ZodNever = class extends ZodType {
  _parse(input) {
    const ctx = this._getOrReturnCtx(input);
    addIssueToContext(ctx, {
      code: ZodIssueCode.invalid_type,
      expected: ZodParsedType.never,
      received: ctx.parsedType
    });
    return INVALID;
  }
};
ZodNever.create = (params) => {
  return new ZodNever({
    typeName: ZodFirstPartyTypeKind.ZodNever,
    ...processCreateParams(params)
  });
};
var ZodVoid = class extends ZodType {
  _parse(input) {
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.undefined) {
      const ctx = this._getOrReturnCtx(input);
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.void,
        received: ctx.parsedType
      });
      return INVALID;
    }
    return OK(input.data);
  }
};
ZodVoid.create = (params) => {
  return new ZodVoid({
    typeName: ZodFirstPartyTypeKind.ZodVoid,
    ...processCreateParams(params)
  });
};
var ZodArray = class _ZodArray extends ZodType {
  _parse(input) {
    const { ctx, status } = this._processInputParams(input);
    const def = this._def;
    if (ctx.parsedType !== ZodParsedType.array) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.array,
        received: ctx.parsedType
      });
      return INVALID;
    }
    if (def.exactLength !== null) {
      const tooBig = ctx.data.length > def.exactLength.value;
      const tooSmall = ctx.data.length < def.exactLength.value;
      if (tooBig || tooSmall) {
        addIssueToContext(ctx, {
          code: tooBig ? ZodIssueCode.too_big : ZodIssueCode.too_small,
          minimum: tooSmall ? def.exactLength.value : void 0,
          maximum: tooBig ? def.exactLength.value : void 0,
          type: "array",
          inclusive: true,
          exact: true,
          message: def.exactLength.message
        });
        status.dirty();
      }
    }
    if (def.minLength !== null) {
      if (ctx.data.length < def.minLength.value) {
        addIssueToContext(ctx, {
          code: ZodIssueCode.too_small,
          minimum: def.minLength.value,
          type: "array",
          inclusive: true,
          exact: false,
          message: def.minLength.message
        });
        status.dirty();
      }
    }
    if (def.maxLength !== null) {
      if (ctx.data.length > def.maxLength.value) {
        addIssueToContext(ctx, {
          code: ZodIssueCode.too_big,
          maximum: def.maxLength.value,
          type: "array",
          inclusive: true,
          exact: false,
          message: def.maxLength.message
        });
        status.dirty();
      }
    }
    if (ctx.common.async) {
      return Promise.all([...ctx.data].map((item, i) => {
        return def.type._parseAsync(new ParseInputLazyPath(ctx, item, ctx.path, i));
      })).then((result2) => {
        return ParseStatus.mergeArray(status, result2);
      });
    }
    const result = [...ctx.data].map((item, i) => {
      return def.type._parseSync(new ParseInputLazyPath(ctx, item, ctx.path, i));
    });
    return ParseStatus.mergeArray(status, result);
  }
  get element() {
    return this._def.type;
  }
  min(minLength, message) {
    return new _ZodArray({
      ...this._def,
      minLength: { value: minLength, message: errorUtil.toString(message) }
    });
  }
  max(maxLength, message) {
    return new _ZodArray({
      ...this._def,
      maxLength: { value: maxLength, message: errorUtil.toString(message) }
    });
  }
  length(len, message) {
    return new _ZodArray({
      ...this._def,
      exactLength: { value: len, message: errorUtil.toString(message) }
    });
  }
  nonempty(message) {
    return this.min(1, message);
  }
};
ZodArray.create = (schema, params) => {
  return new ZodArray({
    type: schema,
    minLength: null,
    maxLength: null,
    exactLength: null,
    typeName: ZodFirstPartyTypeKind.ZodArray,
    ...processCreateParams(params)
  });
};
function deepPartialify(schema) {
  if (schema instanceof ZodObject) {
    const newShape = {};
    for (const key in schema.shape) {
      const fieldSchema = schema.shape[key];
      newShape[key] = ZodOptional.create(deepPartialify(fieldSchema));
    }
    return new ZodObject({
      ...schema._def,
      shape: () => newShape
    });
  } else if (schema instanceof ZodArray) {
    return new ZodArray({
      ...schema._def,
      type: deepPartialify(schema.element)
    });
  } else if (schema instanceof ZodOptional) {
    return ZodOptional.create(deepPartialify(schema.unwrap()));
  } else if (schema instanceof ZodNullable) {
    return ZodNullable.create(deepPartialify(schema.unwrap()));
  } else if (schema instanceof ZodTuple) {
    return ZodTuple.create(schema.items.map((item) => deepPartialify(item)));
  } else {
    return schema;
  }
}
var ZodObject = class _ZodObject extends ZodType {
  constructor() {
    super(...arguments);
    this._cached = null;
    this.nonstrict = this.passthrough;
    this.augment = this.extend;
  }
  _getCached() {
    if (this._cached !== null)
      return this._cached;
    const shape = this._def.shape();
    const keys = util.objectKeys(shape);
    this._cached = { shape, keys };
    return this._cached;
  }
  _parse(input) {
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.object) {
      const ctx2 = this._getOrReturnCtx(input);
      addIssueToContext(ctx2, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.object,
        received: ctx2.parsedType
      });
      return INVALID;
    }
    const { status, ctx } = this._processInputParams(input);
    const { shape, keys: shapeKeys } = this._getCached();
    const extraKeys = [];
    if (!(this._def.catchall instanceof ZodNever && this._def.unknownKeys === "strip")) {
      for (const key in ctx.data) {
        if (!shapeKeys.includes(key)) {
          extraKeys.push(key);
        }
      }
    }
    const pairs = [];
    for (const key of shapeKeys) {
      const keyValidator = shape[key];
      const value = ctx.data[key];
      pairs.push({
        key: { status: "valid", value: key },
        value: keyValidator._parse(new ParseInputLazyPath(ctx, value, ctx.path, key)),
        alwaysSet: key in ctx.data
      });
    }
    if (this._def.catchall instanceof ZodNever) {
      const unknownKeys = this._def.unknownKeys;
      if (unknownKeys === "passthrough") {
        for (const key of extraKeys) {
          pairs.push({
            key: { status: "valid", value: key },
            value: { status: "valid", value: ctx.data[key] }
          });
        }
      } else if (unknownKeys === "strict") {
        if (extraKeys.length > 0) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.unrecognized_keys,
            keys: extraKeys
          });
          status.dirty();
        }
      } else if (unknownKeys === "strip") {
      } else {
        throw new Error(`Internal ZodObject error: invalid unknownKeys value.`);
      }
    } else {
      const catchall = this._def.catchall;
      for (const key of extraKeys) {
        const value = ctx.data[key];
        pairs.push({
          key: { status: "valid", value: key },
          value: catchall._parse(
            new ParseInputLazyPath(ctx, value, ctx.path, key)
            //, ctx.child(key), value, getParsedType(value)
          ),
          alwaysSet: key in ctx.data
        });
      }
    }
    if (ctx.common.async) {
      return Promise.resolve().then(async () => {
        const syncPairs = [];
        for (const pair of pairs) {
          const key = await pair.key;
          const value = await pair.value;
          syncPairs.push({
            key,
            value,
            alwaysSet: pair.alwaysSet
          });
        }
        return syncPairs;
      }).then((syncPairs) => {
        return ParseStatus.mergeObjectSync(status, syncPairs);
      });
    } else {
      return ParseStatus.mergeObjectSync(status, pairs);
    }
  }
  get shape() {
    return this._def.shape();
  }
  strict(message) {
    errorUtil.errToObj;
    return new _ZodObject({
      ...this._def,
      unknownKeys: "strict",
      ...message !== void 0 ? {
        errorMap: (issue, ctx) => {
          const defaultError = this._def.errorMap?.(issue, ctx).message ?? ctx.defaultError;
          if (issue.code === "unrecognized_keys")
            return {
              message: errorUtil.errToObj(message).message ?? defaultError
            };
          return {
            message: defaultError
          };
        }
      } : {}
    });
  }
  strip() {
    return new _ZodObject({
      ...this._def,
      unknownKeys: "strip"
    });
  }
  passthrough() {
    return new _ZodObject({
      ...this._def,
      unknownKeys: "passthrough"
    });
  }
  // const AugmentFactory =
  //   <Def extends ZodObjectDef>(def: Def) =>
  //   <Augmentation extends ZodRawShape>(
  //     augmentation: Augmentation
  //   ): ZodObject<
  //     extendShape<ReturnType<Def["shape"]>, Augmentation>,
  //     Def["unknownKeys"],
  //     Def["catchall"]
  //   > => {
  //     return new ZodObject({
  //       ...def,
  //       shape: () => ({
  //         ...def.shape(),
  //         ...augmentation,
  //       }),
  //     }) as any;
  //   };
  extend(augmentation) {
    return new _ZodObject({
      ...this._def,
      shape: () => ({
        ...this._def.shape(),
        ...augmentation
      })
    });
  }
  /**
   * Prior to zod@1.0.12 there was a bug in the
   * inferred type of merged objects. Please
   * upgrade if you are experiencing issues.
   */
  merge(merging) {
    const merged = new _ZodObject({
      unknownKeys: merging._def.unknownKeys,
      catchall: merging._def.catchall,
      shape: () => ({
        ...this._def.shape(),
        ...merging._def.shape()
      }),
      typeName: ZodFirstPartyTypeKind.ZodObject
    });
    return merged;
  }
  // merge<
  //   Incoming extends AnyZodObject,
  //   Augmentation extends Incoming["shape"],
  //   NewOutput extends {
  //     [k in keyof Augmentation | keyof Output]: k extends keyof Augmentation
  //       ? Augmentation[k]["_output"]
  //       : k extends keyof Output
  //       ? Output[k]
  //       : never;
  //   },
  //   NewInput extends {
  //     [k in keyof Augmentation | keyof Input]: k extends keyof Augmentation
  //       ? Augmentation[k]["_input"]
  //       : k extends keyof Input
  //       ? Input[k]
  //       : never;
  //   }
  // >(
  //   merging: Incoming
  // ): ZodObject<
  //   extendShape<T, ReturnType<Incoming["_def"]["shape"]>>,
  //   Incoming["_def"]["unknownKeys"],
  //   Incoming["_def"]["catchall"],
  //   NewOutput,
  //   NewInput
  // > {
  //   const merged: any = new ZodObject({
  //     unknownKeys: merging._def.unknownKeys,
  //     catchall: merging._def.catchall,
  //     shape: () =>
  //       objectUtil.mergeShapes(this._def.shape(), merging._def.shape()),
  //     typeName: ZodFirstPartyTypeKind.ZodObject,
  //   }) as any;
  //   return merged;
  // }
  setKey(key, schema) {
    return this.augment({ [key]: schema });
  }
  // merge<Incoming extends AnyZodObject>(
  //   merging: Incoming
  // ): //ZodObject<T & Incoming["_shape"], UnknownKeys, Catchall> = (merging) => {
  // ZodObject<
  //   extendShape<T, ReturnType<Incoming["_def"]["shape"]>>,
  //   Incoming["_def"]["unknownKeys"],
  //   Incoming["_def"]["catchall"]
  // > {
  //   // const mergedShape = objectUtil.mergeShapes(
  //   //   this._def.shape(),
  //   //   merging._def.shape()
  //   // );
  //   const merged: any = new ZodObject({
  //     unknownKeys: merging._def.unknownKeys,
  //     catchall: merging._def.catchall,
  //     shape: () =>
  //       objectUtil.mergeShapes(this._def.shape(), merging._def.shape()),
  //     typeName: ZodFirstPartyTypeKind.ZodObject,
  //   }) as any;
  //   return merged;
  // }
  catchall(index) {
    return new _ZodObject({
      ...this._def,
      catchall: index
    });
  }
  pick(mask) {
    const shape = {};
    for (const key of util.objectKeys(mask)) {
      if (mask[key] && this.shape[key]) {
        shape[key] = this.shape[key];
      }
    }
    return new _ZodObject({
      ...this._def,
      shape: () => shape
    });
  }
  omit(mask) {
    const shape = {};
    for (const key of util.objectKeys(this.shape)) {
      if (!mask[key]) {
        shape[key] = this.shape[key];
      }
    }
    return new _ZodObject({
      ...this._def,
      shape: () => shape
    });
  }
  /**
   * @deprecated
   */
  deepPartial() {
    return deepPartialify(this);
  }
  partial(mask) {
    const newShape = {};
    for (const key of util.objectKeys(this.shape)) {
      const fieldSchema = this.shape[key];
      if (mask && !mask[key]) {
        newShape[key] = fieldSchema;
      } else {
        newShape[key] = fieldSchema.optional();
      }
    }
    return new _ZodObject({
      ...this._def,
      shape: () => newShape
    });
  }
  required(mask) {
    const newShape = {};
    for (const key of util.objectKeys(this.shape)) {
      if (mask && !mask[key]) {
        newShape[key] = this.shape[key];
      } else {
        const fieldSchema = this.shape[key];
        let newField = fieldSchema;
        while (newField instanceof ZodOptional) {
          newField = newField._def.innerType;
        }
        newShape[key] = newField;
      }
    }
    return new _ZodObject({
      ...this._def,
      shape: () => newShape
    });
  }
  keyof() {
    return createZodEnum(util.objectKeys(this.shape));
  }
};
ZodObject.create = (shape, params) => {
  return new ZodObject({
    shape: () => shape,
    unknownKeys: "strip",
    catchall: ZodNever.create(),
    typeName: ZodFirstPartyTypeKind.ZodObject,
    ...processCreateParams(params)
  });
};
ZodObject.strictCreate = (shape, params) => {
  return new ZodObject({
    shape: () => shape,
    unknownKeys: "strict",
    catchall: ZodNever.create(),
    typeName: ZodFirstPartyTypeKind.ZodObject,
    ...processCreateParams(params)
  });
};
ZodObject.lazycreate = (shape, params) => {
  return new ZodObject({
    shape,
    unknownKeys: "strip",
    catchall: ZodNever.create(),
    typeName: ZodFirstPartyTypeKind.ZodObject,
    ...processCreateParams(params)
  });
};
var ZodUnion = class extends ZodType {
  _parse(input) {
    const { ctx } = this._processInputParams(input);
    const options = this._def.options;
    function handleResults(results) {
      for (const result of results) {
        if (result.result.status === "valid") {
          return result.result;
        }
      }
      for (const result of results) {
        if (result.result.status === "dirty") {
          ctx.common.issues.push(...result.ctx.common.issues);
          return result.result;
        }
      }
      const unionErrors = results.map((result) => new ZodError(result.ctx.common.issues));
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_union,
        unionErrors
      });
      return INVALID;
    }
    if (ctx.common.async) {
      return Promise.all(options.map(async (option) => {
        const childCtx = {
          ...ctx,
          common: {
            ...ctx.common,
            issues: []
          },
          parent: null
        };
        return {
          result: await option._parseAsync({
            data: ctx.data,
            path: ctx.path,
            parent: childCtx
          }),
          ctx: childCtx
        };
      })).then(handleResults);
    } else {
      let dirty = void 0;
      const issues = [];
      for (const option of options) {
        const childCtx = {
          ...ctx,
          common: {
            ...ctx.common,
            issues: []
          },
          parent: null
        };
        const result = option._parseSync({
          data: ctx.data,
          path: ctx.path,
          parent: childCtx
        });
        if (result.status === "valid") {
          return result;
        } else if (result.status === "dirty" && !dirty) {
          dirty = { result, ctx: childCtx };
        }
        if (childCtx.common.issues.length) {
          issues.push(childCtx.common.issues);
        }
      }
      if (dirty) {
        ctx.common.issues.push(...dirty.ctx.common.issues);
        return dirty.result;
      }
      const unionErrors = issues.map((issues2) => new ZodError(issues2));
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_union,
        unionErrors
      });
      return INVALID;
    }
  }
  get options() {
    return this._def.options;
  }
};
ZodUnion.create = (types, params) => {
  return new ZodUnion({
    options: types,
    typeName: ZodFirstPartyTypeKind.ZodUnion,
    ...processCreateParams(params)
  });
};
var getDiscriminator = (type) => {
  if (type instanceof ZodLazy) {
    return getDiscriminator(type.schema);
  } else if (type instanceof ZodEffects) {
    return getDiscriminator(type.innerType());
  } else if (type instanceof ZodLiteral) {
    return [type.value];
  } else if (type instanceof ZodEnum) {
    return type.options;
  } else if (type instanceof ZodNativeEnum) {
    return util.objectValues(type.enum);
  } else if (type instanceof ZodDefault) {
    return getDiscriminator(type._def.innerType);
  } else if (type instanceof ZodUndefined) {
    return [void 0];
  } else if (type instanceof ZodNull) {
    return [null];
  } else if (type instanceof ZodOptional) {
    return [void 0, ...getDiscriminator(type.unwrap())];
  } else if (type instanceof ZodNullable) {
    return [null, ...getDiscriminator(type.unwrap())];
  } else if (type instanceof ZodBranded) {
    return getDiscriminator(type.unwrap());
  } else if (type instanceof ZodReadonly) {
    return getDiscriminator(type.unwrap());
  } else if (type instanceof ZodCatch) {
    return getDiscriminator(type._def.innerType);
  } else {
    return [];
  }
};
var ZodDiscriminatedUnion = class _ZodDiscriminatedUnion extends ZodType {
  _parse(input) {
    const { ctx } = this._processInputParams(input);
    if (ctx.parsedType !== ZodParsedType.object) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.object,
        received: ctx.parsedType
      });
      return INVALID;
    }
    const discriminator = this.discriminator;
    const discriminatorValue = ctx.data[discriminator];
    const option = this.optionsMap.get(discriminatorValue);
    if (!option) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_union_discriminator,
        options: Array.from(this.optionsMap.keys()),
        path: [discriminator]
      });
      return INVALID;
    }
    if (ctx.common.async) {
      return option._parseAsync({
        data: ctx.data,
        path: ctx.path,
        parent: ctx
      });
    } else {
      return option._parseSync({
        data: ctx.data,
        path: ctx.path,
        parent: ctx
      });
    }
  }
  get discriminator() {
    return this._def.discriminator;
  }
  get options() {
    return this._def.options;
  }
  get optionsMap() {
    return this._def.optionsMap;
  }
  /**
   * The constructor of the discriminated union schema. Its behaviour is very similar to that of the normal z.union() constructor.
   * However, it only allows a union of objects, all of which need to share a discriminator property. This property must
   * have a different value for each object in the union.
   * @param discriminator the name of the discriminator property
   * @param types an array of object schemas
   * @param params
   */
  static create(discriminator, options, params) {
    const optionsMap = /* @__PURE__ */ new Map();
    for (const type of options) {
      const discriminatorValues = getDiscriminator(type.shape[discriminator]);
      if (!discriminatorValues.length) {
        throw new Error(`A discriminator value for key \`${discriminator}\` could not be extracted from all schema options`);
      }
      for (const value of discriminatorValues) {
        if (optionsMap.has(value)) {
          throw new Error(`Discriminator property ${String(discriminator)} has duplicate value ${String(value)}`);
        }
        optionsMap.set(value, type);
      }
    }
    return new _ZodDiscriminatedUnion({
      typeName: ZodFirstPartyTypeKind.ZodDiscriminatedUnion,
      discriminator,
      options,
      optionsMap,
      ...processCreateParams(params)
    });
  }
};
function mergeValues(a, b) {
  const aType = getParsedType(a);
  const bType = getParsedType(b);
  if (a === b) {
    return { valid: true, data: a };
  } else if (aType === ZodParsedType.object && bType === ZodParsedType.object) {
    const bKeys = util.objectKeys(b);
    const sharedKeys = util.objectKeys(a).filter((key) => bKeys.indexOf(key) !== -1);
    const newObj = { ...a, ...b };
    if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
      delete newObj.__proto__;
    for (const key of sharedKeys) {
      if (key === "__proto__")
        continue;
      const sharedValue = mergeValues(a[key], b[key]);
      if (!sharedValue.valid) {
        return { valid: false };
      }
      newObj[key] = sharedValue.data;
    }
    return { valid: true, data: newObj };
  } else if (aType === ZodParsedType.array && bType === ZodParsedType.array) {
    if (a.length !== b.length) {
      return { valid: false };
    }
    const newArray = [];
    for (let index = 0; index < a.length; index++) {
      const itemA = a[index];
      const itemB = b[index];
      const sharedValue = mergeValues(itemA, itemB);
      if (!sharedValue.valid) {
        return { valid: false };
      }
      newArray.push(sharedValue.data);
    }
    return { valid: true, data: newArray };
  } else if (aType === ZodParsedType.date && bType === ZodParsedType.date && +a === +b) {
    return { valid: true, data: a };
  } else {
    return { valid: false };
  }
}
var ZodIntersection = class extends ZodType {
  _parse(input) {
    const { status, ctx } = this._processInputParams(input);
    const handleParsed = (parsedLeft, parsedRight) => {
      if (isAborted(parsedLeft) || isAborted(parsedRight)) {
        return INVALID;
      }
      const merged = mergeValues(parsedLeft.value, parsedRight.value);
      if (!merged.valid) {
        addIssueToContext(ctx, {
          code: ZodIssueCode.invalid_intersection_types
        });
        return INVALID;
      }
      if (isDirty(parsedLeft) || isDirty(parsedRight)) {
        status.dirty();
      }
      return { status: status.value, value: merged.data };
    };
    if (ctx.common.async) {
      return Promise.all([
        this._def.left._parseAsync({
          data: ctx.data,
          path: ctx.path,
          parent: ctx
        }),
        this._def.right._parseAsync({
          data: ctx.data,
          path: ctx.path,
          parent: ctx
        })
      ]).then(([left, right]) => handleParsed(left, right));
    } else {
      return handleParsed(this._def.left._parseSync({
        data: ctx.data,
        path: ctx.path,
        parent: ctx
      }), this._def.right._parseSync({
        data: ctx.data,
        path: ctx.path,
        parent: ctx
      }));
    }
  }
};
ZodIntersection.create = (left, right, params) => {
  return new ZodIntersection({
    left,
    right,
    typeName: ZodFirstPartyTypeKind.ZodIntersection,
    ...processCreateParams(params)
  });
};
var ZodTuple = class _ZodTuple extends ZodType {
  _parse(input) {
    const { status, ctx } = this._processInputParams(input);
    if (ctx.parsedType !== ZodParsedType.array) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.array,
        received: ctx.parsedType
      });
      return INVALID;
    }
    if (ctx.data.length < this._def.items.length) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.too_small,
        minimum: this._def.items.length,
        inclusive: true,
        exact: false,
        type: "array"
      });
      return INVALID;
    }
    const rest = this._def.rest;
    if (!rest && ctx.data.length > this._def.items.length) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.too_big,
        maximum: this._def.items.length,
        inclusive: true,
        exact: false,
        type: "array"
      });
      status.dirty();
    }
    const items = [...ctx.data].map((item, itemIndex) => {
      const schema = this._def.items[itemIndex] || this._def.rest;
      if (!schema)
        return null;
      return schema._parse(new ParseInputLazyPath(ctx, item, ctx.path, itemIndex));
    }).filter((x) => !!x);
    if (ctx.common.async) {
      return Promise.all(items).then((results) => {
        return ParseStatus.mergeArray(status, results);
      });
    } else {
      return ParseStatus.mergeArray(status, items);
    }
  }
  get items() {
    return this._def.items;
  }
  rest(rest) {
    return new _ZodTuple({
      ...this._def,
      rest
    });
  }
};
ZodTuple.create = (schemas, params) => {
  if (!Array.isArray(schemas)) {
    throw new Error("You must pass an array of schemas to z.tuple([ ... ])");
  }
  return new ZodTuple({
    items: schemas,
    typeName: ZodFirstPartyTypeKind.ZodTuple,
    rest: null,
    ...processCreateParams(params)
  });
};
var ZodRecord = class _ZodRecord extends ZodType {
  get keySchema() {
    return this._def.keyType;
  }
  get valueSchema() {
    return this._def.valueType;
  }
  _parse(input) {
    const { status, ctx } = this._processInputParams(input);
    if (ctx.parsedType !== ZodParsedType.object) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.object,
        received: ctx.parsedType
      });
      return INVALID;
    }
    const pairs = [];
    const keyType = this._def.keyType;
    const valueType = this._def.valueType;
    for (const key in ctx.data) {
      pairs.push({
        key: keyType._parse(new ParseInputLazyPath(ctx, key, ctx.path, key)),
        value: valueType._parse(new ParseInputLazyPath(ctx, ctx.data[key], ctx.path, key)),
        alwaysSet: key in ctx.data
      });
    }
    if (ctx.common.async) {
      return ParseStatus.mergeObjectAsync(status, pairs);
    } else {
      return ParseStatus.mergeObjectSync(status, pairs);
    }
  }
  get element() {
    return this._def.valueType;
  }
  static create(first, second, third) {
    if (second instanceof ZodType) {
      return new _ZodRecord({
        keyType: first,
        valueType: second,
        typeName: ZodFirstPartyTypeKind.ZodRecord,
        ...processCreateParams(third)
      });
    }
    return new _ZodRecord({
      keyType: ZodString.create(),
      valueType: first,
      typeName: ZodFirstPartyTypeKind.ZodRecord,
      ...processCreateParams(second)
    });
  }
};
var ZodMap = class extends ZodType {
  get keySchema() {
    return this._def.keyType;
  }
  get valueSchema() {
    return this._def.valueType;
  }
  _parse(input) {
    const { status, ctx } = this._processInputParams(input);
    if (ctx.parsedType !== ZodParsedType.map) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.map,
        received: ctx.parsedType
      });
      return INVALID;
    }
    const keyType = this._def.keyType;
    const valueType = this._def.valueType;
    const pairs = [...ctx.data.entries()].map(([key, value], index) => {
      return {
        key: keyType._parse(new ParseInputLazyPath(ctx, key, ctx.path, [index, "key"])),
        value: valueType._parse(new ParseInputLazyPath(ctx, value, ctx.path, [index, "value"]))
      };
    });
    if (ctx.common.async) {
      const finalMap = /* @__PURE__ */ new Map();
      return Promise.resolve().then(async () => {
        for (const pair of pairs) {
          const key = await pair.key;
          const value = await pair.value;
          if (key.status === "aborted" || value.status === "aborted") {
            return INVALID;
          }
          if (key.status === "dirty" || value.status === "dirty") {
            status.dirty();
          }
          finalMap.set(key.value, value.value);
        }
        return { status: status.value, value: finalMap };
      });
    } else {
      const finalMap = /* @__PURE__ */ new Map();
      for (const pair of pairs) {
        const key = pair.key;
        const value = pair.value;
        if (key.status === "aborted" || value.status === "aborted") {
          return INVALID;
        }
        if (key.status === "dirty" || value.status === "dirty") {
          status.dirty();
        }
        finalMap.set(key.value, value.value);
      }
      return { status: status.value, value: finalMap };
    }
  }
};
ZodMap.create = (keyType, valueType, params) => {
  return new ZodMap({
    valueType,
    keyType,
    typeName: ZodFirstPartyTypeKind.ZodMap,
    ...processCreateParams(params)
  });
};
var ZodSet = class _ZodSet extends ZodType {
  _parse(input) {
    const { status, ctx } = this._processInputParams(input);
    if (ctx.parsedType !== ZodParsedType.set) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.set,
        received: ctx.parsedType
      });
      return INVALID;
    }
    const def = this._def;
    if (def.minSize !== null) {
      if (ctx.data.size < def.minSize.value) {
        addIssueToContext(ctx, {
          code: ZodIssueCode.too_small,
          minimum: def.minSize.value,
          type: "set",
          inclusive: true,
          exact: false,
          message: def.minSize.message
        });
        status.dirty();
      }
    }
    if (def.maxSize !== null) {
      if (ctx.data.size > def.maxSize.value) {
        addIssueToContext(ctx, {
          code: ZodIssueCode.too_big,
          maximum: def.maxSize.value,
          type: "set",
          inclusive: true,
          exact: false,
          message: def.maxSize.message
        });
        status.dirty();
      }
    }
    const valueType = this._def.valueType;
    function finalizeSet(elements2) {
      const parsedSet = /* @__PURE__ */ new Set();
      for (const element of elements2) {
        if (element.status === "aborted")
          return INVALID;
        if (element.status === "dirty")
          status.dirty();
        parsedSet.add(element.value);
      }
      return { status: status.value, value: parsedSet };
    }
    const elements = [...ctx.data.values()].map((item, i) => valueType._parse(new ParseInputLazyPath(ctx, item, ctx.path, i)));
    if (ctx.common.async) {
      return Promise.all(elements).then((elements2) => finalizeSet(elements2));
    } else {
      return finalizeSet(elements);
    }
  }
  min(minSize, message) {
    return new _ZodSet({
      ...this._def,
      minSize: { value: minSize, message: errorUtil.toString(message) }
    });
  }
  max(maxSize, message) {
    return new _ZodSet({
      ...this._def,
      maxSize: { value: maxSize, message: errorUtil.toString(message) }
    });
  }
  size(size, message) {
    return this.min(size, message).max(size, message);
  }
  nonempty(message) {
    return this.min(1, message);
  }
};
ZodSet.create = (valueType, params) => {
  return new ZodSet({
    valueType,
    minSize: null,
    maxSize: null,
    typeName: ZodFirstPartyTypeKind.ZodSet,
    ...processCreateParams(params)
  });
};
var ZodFunction = class _ZodFunction extends ZodType {
  constructor() {
    super(...arguments);
    this.validate = this.implement;
  }
  _parse(input) {
    const { ctx } = this._processInputParams(input);
    if (ctx.parsedType !== ZodParsedType.function) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.function,
        received: ctx.parsedType
      });
      return INVALID;
    }
    function makeArgsIssue(args, error) {
      return makeIssue({
        data: args,
        path: ctx.path,
        errorMaps: [ctx.common.contextualErrorMap, ctx.schemaErrorMap, getErrorMap(), en_default].filter((x) => !!x),
        issueData: {
          code: ZodIssueCode.invalid_arguments,
          argumentsError: error
        }
      });
    }
    function makeReturnsIssue(returns, error) {
      return makeIssue({
        data: returns,
        path: ctx.path,
        errorMaps: [ctx.common.contextualErrorMap, ctx.schemaErrorMap, getErrorMap(), en_default].filter((x) => !!x),
        issueData: {
          code: ZodIssueCode.invalid_return_type,
          returnTypeError: error
        }
      });
    }
    const params = { errorMap: ctx.common.contextualErrorMap };
    const fn = ctx.data;
    if (this._def.returns instanceof ZodPromise) {
      const me = this;
      return OK(async function(...args) {
        const error = new ZodError([]);
        const parsedArgs = await me._def.args.parseAsync(args, params).catch((e) => {
          error.addIssue(makeArgsIssue(args, e));
          throw error;
        });
        const result = await Reflect.apply(fn, this, parsedArgs);
        const parsedReturns = await me._def.returns._def.type.parseAsync(result, params).catch((e) => {
          error.addIssue(makeReturnsIssue(result, e));
          throw error;
        });
        return parsedReturns;
      });
    } else {
      const me = this;
      return OK(function(...args) {
        const parsedArgs = me._def.args.safeParse(args, params);
        if (!parsedArgs.success) {
          throw new ZodError([makeArgsIssue(args, parsedArgs.error)]);
        }
        const result = Reflect.apply(fn, this, parsedArgs.data);
        const parsedReturns = me._def.returns.safeParse(result, params);
        if (!parsedReturns.success) {
          throw new ZodError([makeReturnsIssue(result, parsedReturns.error)]);
        }
        return parsedReturns.data;
      });
    }
  }
  parameters() {
    return this._def.args;
  }
  returnType() {
    return this._def.returns;
  }
  args(...items) {
    return new _ZodFunction({
      ...this._def,
      args: ZodTuple.create(items).rest(ZodUnknown.create())
    });
  }
  returns(returnType) {
    return new _ZodFunction({
      ...this._def,
      returns: returnType
    });
  }
  implement(func) {
    const validatedFunc = this.parse(func);
    return validatedFunc;
  }
  strictImplement(func) {
    const validatedFunc = this.parse(func);
    return validatedFunc;
  }
  static create(args, returns, params) {
    return new _ZodFunction({
      args: args ? args : ZodTuple.create([]).rest(ZodUnknown.create()),
      returns: returns || ZodUnknown.create(),
      typeName: ZodFirstPartyTypeKind.ZodFunction,
      ...processCreateParams(params)
    });
  }
};
var ZodLazy = class extends ZodType {
  get schema() {
    return this._def.getter();
  }
  _parse(input) {
    const { ctx } = this._processInputParams(input);
    const lazySchema = this._def.getter();
    return lazySchema._parse({ data: ctx.data, path: ctx.path, parent: ctx });
  }
};
ZodLazy.create = (getter, params) => {
  return new ZodLazy({
    getter,
    typeName: ZodFirstPartyTypeKind.ZodLazy,
    ...processCreateParams(params)
  });
};
var ZodLiteral = class extends ZodType {
  _parse(input) {
    if (input.data !== this._def.value) {
      const ctx = this._getOrReturnCtx(input);
      addIssueToContext(ctx, {
        received: ctx.data,
        code: ZodIssueCode.invalid_literal,
        expected: this._def.value
      });
      return INVALID;
    }
    return { status: "valid", value: input.data };
  }
  get value() {
    return this._def.value;
  }
};
ZodLiteral.create = (value, params) => {
  return new ZodLiteral({
    value,
    typeName: ZodFirstPartyTypeKind.ZodLiteral,
    ...processCreateParams(params)
  });
};
function createZodEnum(values, params) {
  return new ZodEnum({
    values,
    typeName: ZodFirstPartyTypeKind.ZodEnum,
    ...processCreateParams(params)
  });
}
var ZodEnum = class _ZodEnum extends ZodType {
  _parse(input) {
    if (typeof input.data !== "string") {
      const ctx = this._getOrReturnCtx(input);
      const expectedValues = this._def.values;
      addIssueToContext(ctx, {
        expected: util.joinValues(expectedValues),
        received: ctx.parsedType,
        code: ZodIssueCode.invalid_type
      });
      return INVALID;
    }
    if (!this._cache) {
      this._cache = new Set(this._def.values);
    }
    if (!this._cache.has(input.data)) {
      const ctx = this._getOrReturnCtx(input);
      const expectedValues = this._def.values;
      addIssueToContext(ctx, {
        received: ctx.data,
        code: ZodIssueCode.invalid_enum_value,
        options: expectedValues
      });
      return INVALID;
    }
    return OK(input.data);
  }
  get options() {
    return this._def.values;
  }
  get enum() {
    const enumValues = {};
    for (const val of this._def.values) {
      enumValues[val] = val;
    }
    return enumValues;
  }
  get Values() {
    const enumValues = {};
    for (const val of this._def.values) {
      enumValues[val] = val;
    }
    return enumValues;
  }
  get Enum() {
    const enumValues = {};
    for (const val of this._def.values) {
      enumValues[val] = val;
    }
    return enumValues;
  }
  extract(values, newDef = this._def) {
    return _ZodEnum.create(values, {
      ...this._def,
      ...newDef
    });
  }
  exclude(values, newDef = this._def) {
    return _ZodEnum.create(this.options.filter((opt) => !values.includes(opt)), {
      ...this._def,
      ...newDef
    });
  }
};
ZodEnum.create = createZodEnum;
var ZodNativeEnum = class extends ZodType {
  _parse(input) {
    const nativeEnumValues = util.getValidEnumValues(this._def.values);
    const ctx = this._getOrReturnCtx(input);
    if (ctx.parsedType !== ZodParsedType.string && ctx.parsedType !== ZodParsedType.number) {
      const expectedValues = util.objectValues(nativeEnumValues);
      addIssueToContext(ctx, {
        expected: util.joinValues(expectedValues),
        received: ctx.parsedType,
        code: ZodIssueCode.invalid_type
      });
      return INVALID;
    }
    if (!this._cache) {
      this._cache = new Set(util.getValidEnumValues(this._def.values));
    }
    if (!this._cache.has(input.data)) {
      const expectedValues = util.objectValues(nativeEnumValues);
      addIssueToContext(ctx, {
        received: ctx.data,
        code: ZodIssueCode.invalid_enum_value,
        options: expectedValues
      });
      return INVALID;
    }
    return OK(input.data);
  }
  get enum() {
    return this._def.values;
  }
};
ZodNativeEnum.create = (values, params) => {
  return new ZodNativeEnum({
    values,
    typeName: ZodFirstPartyTypeKind.ZodNativeEnum,
    ...processCreateParams(params)
  });
};
var ZodPromise = class extends ZodType {
  unwrap() {
    return this._def.type;
  }
  _parse(input) {
    const { ctx } = this._processInputParams(input);
    if (ctx.parsedType !== ZodParsedType.promise && ctx.common.async === false) {
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.promise,
        received: ctx.parsedType
      });
      return INVALID;
    }
    const promisified = ctx.parsedType === ZodParsedType.promise ? ctx.data : Promise.resolve(ctx.data);
    return OK(promisified.then((data) => {
      return this._def.type.parseAsync(data, {
        path: ctx.path,
        errorMap: ctx.common.contextualErrorMap
      });
    }));
  }
};
ZodPromise.create = (schema, params) => {
  return new ZodPromise({
    type: schema,
    typeName: ZodFirstPartyTypeKind.ZodPromise,
    ...processCreateParams(params)
  });
};
var ZodEffects = class extends ZodType {
  innerType() {
    return this._def.schema;
  }
  sourceType() {
    return this._def.schema._def.typeName === ZodFirstPartyTypeKind.ZodEffects ? this._def.schema.sourceType() : this._def.schema;
  }
  _parse(input) {
    const { status, ctx } = this._processInputParams(input);
    const effect = this._def.effect || null;
    const checkCtx = {
      addIssue: (arg) => {
        addIssueToContext(ctx, arg);
        if (arg.fatal) {
          status.abort();
        } else {
          status.dirty();
        }
      },
      get path() {
        return ctx.path;
      }
    };
    checkCtx.addIssue = checkCtx.addIssue.bind(checkCtx);
    if (effect.type === "preprocess") {
      const processed = effect.transform(ctx.data, checkCtx);
      if (ctx.common.async) {
        return Promise.resolve(processed).then(async (processed2) => {
          if (status.value === "aborted")
            return INVALID;
          const result = await this._def.schema._parseAsync({
            data: processed2,
            path: ctx.path,
            parent: ctx
          });
          if (result.status === "aborted")
            return INVALID;
          if (result.status === "dirty")
            return DIRTY(result.value);
          if (status.value === "dirty")
            return DIRTY(result.value);
          return result;
        });
      } else {
        if (status.value === "aborted")
          return INVALID;
        const result = this._def.schema._parseSync({
          data: processed,
          path: ctx.path,
          parent: ctx
        });
        if (result.status === "aborted")
          return INVALID;
        if (result.status === "dirty")
          return DIRTY(result.value);
        if (status.value === "dirty")
          return DIRTY(result.value);
        return result;
      }
    }
    if (effect.type === "refinement") {
      const executeRefinement = (acc) => {
        const result = effect.refinement(acc, checkCtx);
        if (ctx.common.async) {
          return Promise.resolve(result);
        }
        if (result instanceof Promise) {
          throw new Error("Async refinement encountered during synchronous parse operation. Use .parseAsync instead.");
        }
        return acc;
      };
      if (ctx.common.async === false) {
        const inner = this._def.schema._parseSync({
          data: ctx.data,
          path: ctx.path,
          parent: ctx
        });
        if (inner.status === "aborted")
          return INVALID;
        if (inner.status === "dirty")
          status.dirty();
        executeRefinement(inner.value);
        return { status: status.value, value: inner.value };
      } else {
        return this._def.schema._parseAsync({ data: ctx.data, path: ctx.path, parent: ctx }).then((inner) => {
          if (inner.status === "aborted")
            return INVALID;
          if (inner.status === "dirty")
            status.dirty();
          return executeRefinement(inner.value).then(() => {
            return { status: status.value, value: inner.value };
          });
        });
      }
    }
    if (effect.type === "transform") {
      if (ctx.common.async === false) {
        const base = this._def.schema._parseSync({
          data: ctx.data,
          path: ctx.path,
          parent: ctx
        });
        if (!isValid(base))
          return INVALID;
        const result = effect.transform(base.value, checkCtx);
        if (result instanceof Promise) {
          throw new Error(`Asynchronous transform encountered during synchronous parse operation. Use .parseAsync instead.`);
        }
        return { status: status.value, value: result };
      } else {
        return this._def.schema._parseAsync({ data: ctx.data, path: ctx.path, parent: ctx }).then((base) => {
          if (!isValid(base))
            return INVALID;
          return Promise.resolve(effect.transform(base.value, checkCtx)).then((result) => ({
            status: status.value,
            value: result
          }));
        });
      }
    }
    util.assertNever(effect);
  }
};
ZodEffects.create = (schema, effect, params) => {
  return new ZodEffects({
    schema,
    typeName: ZodFirstPartyTypeKind.ZodEffects,
    effect,
    ...processCreateParams(params)
  });
};
ZodEffects.createWithPreprocess = (preprocess, schema, params) => {
  return new ZodEffects({
    schema,
    effect: { type: "preprocess", transform: preprocess },
    typeName: ZodFirstPartyTypeKind.ZodEffects,
    ...processCreateParams(params)
  });
};
var ZodOptional = class extends ZodType {
  _parse(input) {
    const parsedType = this._getType(input);
    if (parsedType === ZodParsedType.undefined) {
      return OK(void 0);
    }
    return this._def.innerType._parse(input);
  }
  unwrap() {
    return this._def.innerType;
  }
};
ZodOptional.create = (type, params) => {
  return new ZodOptional({
    innerType: type,
    typeName: ZodFirstPartyTypeKind.ZodOptional,
    ...processCreateParams(params)
  });
};
var ZodNullable = class extends ZodType {
  _parse(input) {
    const parsedType = this._getType(input);
    if (parsedType === ZodParsedType.null) {
      return OK(null);
    }
    return this._def.innerType._parse(input);
  }
  unwrap() {
    return this._def.innerType;
  }
};
ZodNullable.create = (type, params) => {
  return new ZodNullable({
    innerType: type,
    typeName: ZodFirstPartyTypeKind.ZodNullable,
    ...processCreateParams(params)
  });
};
var ZodDefault = class extends ZodType {
  _parse(input) {
    const { ctx } = this._processInputParams(input);
    let data = ctx.data;
    if (ctx.parsedType === ZodParsedType.undefined) {
      data = this._def.defaultValue();
    }
    return this._def.innerType._parse({
      data,
      path: ctx.path,
      parent: ctx
    });
  }
  removeDefault() {
    return this._def.innerType;
  }
};
ZodDefault.create = (type, params) => {
  return new ZodDefault({
    innerType: type,
    typeName: ZodFirstPartyTypeKind.ZodDefault,
    defaultValue: typeof params.default === "function" ? params.default : () => params.default,
    ...processCreateParams(params)
  });
};
var ZodCatch = class extends ZodType {
  _parse(input) {
    const { ctx } = this._processInputParams(input);
    const newCtx = {
      ...ctx,
      common: {
        ...ctx.common,
        issues: []
      }
    };
    const result = this._def.innerType._parse({
      data: newCtx.data,
      path: newCtx.path,
      parent: {
        ...newCtx
      }
    });
    if (isAsync(result)) {
      return result.then((result2) => {
        return {
          status: "valid",
          value: result2.status === "valid" ? result2.value : this._def.catchValue({
            get error() {
              return new ZodError(newCtx.common.issues);
            },
            input: newCtx.data
          })
        };
      });
    } else {
      return {
        status: "valid",
        value: result.status === "valid" ? result.value : this._def.catchValue({
          get error() {
            return new ZodError(newCtx.common.issues);
          },
          input: newCtx.data
        })
      };
    }
  }
  removeCatch() {
    return this._def.innerType;
  }
};
ZodCatch.create = (type, params) => {
  return new ZodCatch({
    innerType: type,
    typeName: ZodFirstPartyTypeKind.ZodCatch,
    catchValue: typeof params.catch === "function" ? params.catch : () => params.catch,
    ...processCreateParams(params)
  });
};
var ZodNaN = class extends ZodType {
  _parse(input) {
    const parsedType = this._getType(input);
    if (parsedType !== ZodParsedType.nan) {
      const ctx = this._getOrReturnCtx(input);
      addIssueToContext(ctx, {
        code: ZodIssueCode.invalid_type,
        expected: ZodParsedType.nan,
        received: ctx.parsedType
      });
      return INVALID;
    }
    return { status: "valid", value: input.data };
  }
};
ZodNaN.create = (params) => {
  return new ZodNaN({
    typeName: ZodFirstPartyTypeKind.ZodNaN,
    ...processCreateParams(params)
  });
};
var BRAND = /* @__PURE__ */ Symbol("zod_brand");
var ZodBranded = class extends ZodType {
  _parse(input) {
    const { ctx } = this._processInputParams(input);
    const data = ctx.data;
    return this._def.type._parse({
      data,
      path: ctx.path,
      parent: ctx
    });
  }
  unwrap() {
    return this._def.type;
  }
};
var ZodPipeline = class _ZodPipeline extends ZodType {
  _parse(input) {
    const { status, ctx } = this._processInputParams(input);
    if (ctx.common.async) {
      const handleAsync = async () => {
        const inResult = await this._def.in._parseAsync({
          data: ctx.data,
          path: ctx.path,
          parent: ctx
        });
        if (inResult.status === "aborted")
          return INVALID;
        if (inResult.status === "dirty") {
          status.dirty();
          return DIRTY(inResult.value);
        } else {
          return this._def.out._parseAsync({
            data: inResult.value,
            path: ctx.path,
            parent: ctx
          });
        }
      };
      return handleAsync();
    } else {
      const inResult = this._def.in._parseSync({
        data: ctx.data,
        path: ctx.path,
        parent: ctx
      });
      if (inResult.status === "aborted")
        return INVALID;
      if (inResult.status === "dirty") {
        status.dirty();
        return {
          status: "dirty",
          value: inResult.value
        };
      } else {
        return this._def.out._parseSync({
          data: inResult.value,
          path: ctx.path,
          parent: ctx
        });
      }
    }
  }
  static create(a, b) {
    return new _ZodPipeline({
      in: a,
      out: b,
      typeName: ZodFirstPartyTypeKind.ZodPipeline
    });
  }
};
var ZodReadonly = class extends ZodType {
  _parse(input) {
    const result = this._def.innerType._parse(input);
    const freeze = (data) => {
      if (isValid(data)) {
        data.value = Object.freeze(data.value);
      }
      return data;
    };
    return isAsync(result) ? result.then((data) => freeze(data)) : freeze(result);
  }
  unwrap() {
    return this._def.innerType;
  }
};
ZodReadonly.create = (type, params) => {
  return new ZodReadonly({
    innerType: type,
    typeName: ZodFirstPartyTypeKind.ZodReadonly,
    ...processCreateParams(params)
  });
};
function cleanParams(params, data) {
  const p = typeof params === "function" ? params(data) : typeof params === "string" ? { message: params } : params;
  const p2 = typeof p === "string" ? { message: p } : p;
  return p2;
}
function custom(check, _params = {}, fatal) {
  if (check)
    return ZodAny.create().superRefine((data, ctx) => {
      const r = check(data);
      if (r instanceof Promise) {
        return r.then((r2) => {
          if (!r2) {
            const params = cleanParams(_params, data);
            const _fatal = params.fatal ?? fatal ?? true;
            ctx.addIssue({ code: "custom", ...params, fatal: _fatal });
          }
        });
      }
      if (!r) {
        const params = cleanParams(_params, data);
        const _fatal = params.fatal ?? fatal ?? true;
        ctx.addIssue({ code: "custom", ...params, fatal: _fatal });
      }
      return;
    });
  return ZodAny.create();
}
var late = {
  object: ZodObject.lazycreate
};
var ZodFirstPartyTypeKind;
(function(ZodFirstPartyTypeKind2) {
  ZodFirstPartyTypeKind2["ZodString"] = "ZodString";
  ZodFirstPartyTypeKind2["ZodNumber"] = "ZodNumber";
  ZodFirstPartyTypeKind2["ZodNaN"] = "ZodNaN";
  ZodFirstPartyTypeKind2["ZodBigInt"] = "ZodBigInt";
  ZodFirstPartyTypeKind2["ZodBoolean"] = "ZodBoolean";
  ZodFirstPartyTypeKind2["ZodDate"] = "ZodDate";
  ZodFirstPartyTypeKind2["ZodSymbol"] = "ZodSymbol";
  ZodFirstPartyTypeKind2["ZodUndefined"] = "ZodUndefined";
  ZodFirstPartyTypeKind2["ZodNull"] = "ZodNull";
  ZodFirstPartyTypeKind2["ZodAny"] = "ZodAny";
  ZodFirstPartyTypeKind2["ZodUnknown"] = "ZodUnknown";
  ZodFirstPartyTypeKind2["ZodNever"] = "ZodNever";
  ZodFirstPartyTypeKind2["ZodVoid"] = "ZodVoid";
  ZodFirstPartyTypeKind2["ZodArray"] = "ZodArray";
  ZodFirstPartyTypeKind2["ZodObject"] = "ZodObject";
  ZodFirstPartyTypeKind2["ZodUnion"] = "ZodUnion";
  ZodFirstPartyTypeKind2["ZodDiscriminatedUnion"] = "ZodDiscriminatedUnion";
  ZodFirstPartyTypeKind2["ZodIntersection"] = "ZodIntersection";
  ZodFirstPartyTypeKind2["ZodTuple"] = "ZodTuple";
  ZodFirstPartyTypeKind2["ZodRecord"] = "ZodRecord";
  ZodFirstPartyTypeKind2["ZodMap"] = "ZodMap";
  ZodFirstPartyTypeKind2["ZodSet"] = "ZodSet";
  ZodFirstPartyTypeKind2["ZodFunction"] = "ZodFunction";
  ZodFirstPartyTypeKind2["ZodLazy"] = "ZodLazy";
  ZodFirstPartyTypeKind2["ZodLiteral"] = "ZodLiteral";
  ZodFirstPartyTypeKind2["ZodEnum"] = "ZodEnum";
  ZodFirstPartyTypeKind2["ZodEffects"] = "ZodEffects";
  ZodFirstPartyTypeKind2["ZodNativeEnum"] = "ZodNativeEnum";
  ZodFirstPartyTypeKind2["ZodOptional"] = "ZodOptional";
  ZodFirstPartyTypeKind2["ZodNullable"] = "ZodNullable";
  ZodFirstPartyTypeKind2["ZodDefault"] = "ZodDefault";
  ZodFirstPartyTypeKind2["ZodCatch"] = "ZodCatch";
  ZodFirstPartyTypeKind2["ZodPromise"] = "ZodPromise";
  ZodFirstPartyTypeKind2["ZodBranded"] = "ZodBranded";
  ZodFirstPartyTypeKind2["ZodPipeline"] = "ZodPipeline";
  ZodFirstPartyTypeKind2["ZodReadonly"] = "ZodReadonly";
})(ZodFirstPartyTypeKind || (ZodFirstPartyTypeKind = {}));
var instanceOfType = (cls, params = {
  message: `Input not instance of ${cls.name}`
}) => custom((data) => data instanceof cls, params);
var stringType = ZodString.create;
var numberType = ZodNumber.create;
var nanType = ZodNaN.create;
var bigIntType = ZodBigInt.create;
var booleanType = ZodBoolean.create;
var dateType = ZodDate.create;
var symbolType = ZodSymbol.create;
var undefinedType = ZodUndefined.create;
var nullType = ZodNull.create;
var anyType = ZodAny.create;
var unknownType = ZodUnknown.create;
var neverType = ZodNever.create;
var voidType = ZodVoid.create;
var arrayType = ZodArray.create;
var objectType = ZodObject.create;
var strictObjectType = ZodObject.strictCreate;
var unionType = ZodUnion.create;
var discriminatedUnionType = ZodDiscriminatedUnion.create;
var intersectionType = ZodIntersection.create;
var tupleType = ZodTuple.create;
var recordType = ZodRecord.create;
var mapType = ZodMap.create;
var setType = ZodSet.create;
var functionType = ZodFunction.create;
var lazyType = ZodLazy.create;
var literalType = ZodLiteral.create;
var enumType = ZodEnum.create;
var nativeEnumType = ZodNativeEnum.create;
var promiseType = ZodPromise.create;
var effectsType = ZodEffects.create;
var optionalType = ZodOptional.create;
var nullableType = ZodNullable.create;
var preprocessType = ZodEffects.createWithPreprocess;
var pipelineType = ZodPipeline.create;
var ostring = () => stringType().optional();
var onumber = () => numberType().optional();
var oboolean = () => booleanType().optional();
var coerce = {
  string: ((arg) => ZodString.create({ ...arg, coerce: true })),
  number: ((arg) => ZodNumber.create({ ...arg, coerce: true })),
  boolean: ((arg) => ZodBoolean.create({
    ...arg,
    coerce: true
  })),
  bigint: ((arg) => ZodBigInt.create({ ...arg, coerce: true })),
  date: ((arg) => ZodDate.create({ ...arg, coerce: true }))
};
var NEVER = INVALID;

// src/lib/config/config.ts
init_env_file();

// src/lib/config/server-runtime.ts
var import_node_fs5 = require("node:fs");
var import_node_path4 = require("node:path");

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

// src/lib/util/process-identity.ts
var import_node_fs4 = require("node:fs");
function bootId() {
  try {
    return (0, import_node_fs4.readFileSync)("/proc/sys/kernel/random/boot_id", "utf8").trim() || void 0;
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
      const stat = (0, import_node_fs4.readFileSync)(`/proc/${pid}/stat`, "utf8");
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
      return (0, import_node_fs4.readFileSync)(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").split("\0").join(" ");
    } catch {
      return void 0;
    }
  }
  if (process.platform === "win32") return void 0;
  return ps(pid)?.command;
}
function runsAsUs(pid) {
  const uid = process.getuid?.();
  if (process.platform !== "linux" || uid === void 0) return true;
  try {
    return (0, import_node_fs4.statSync)(`/proc/${pid}`).uid === uid;
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

// src/lib/config/server-runtime.ts
var RUNTIME_STATES = ["starting", "ready", "stopping", "stopped", "failed"];
function serverStateDir(stateDir) {
  return (0, import_node_path4.join)(stateDir, "server");
}
function runtimePath(stateDir) {
  return (0, import_node_path4.join)(serverStateDir(stateDir), "runtime.json");
}
var isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
var isIdentity = (v) => isObj(v) && Number.isInteger(v.pid) && v.pid > 0 && typeof v.start === "string";
function lockFieldsValid(v) {
  const db = v.falkordb;
  const tcp = (d) => typeof d.host === "string" && Number.isInteger(d.port) && d.port > 0 && d.port < 65536;
  if (db !== void 0 && !(isObj(db) && (tcp(db) || typeof db.socket === "string") && typeof db.secretFile === "string")) return false;
  if (v.mcpTokenFile !== void 0 && typeof v.mcpTokenFile !== "string") return false;
  const ids = v.identities;
  return ids === void 0 || isObj(ids) && Object.values(ids).every((i) => i === void 0 || isIdentity(i));
}
var REQUIRED = { pid: "number", generation: "string", serverVersion: "string", mcp: "string", falkordbBin: "string", dataDir: "string", logDir: "string", startedAt: "string" };
var OPTIONAL = { url: "string", port: "number", dbPort: "number", serverPid: "number", dbPid: "number", serverLog: "string", readyAt: "string", error: "string", foreground: "boolean", environment: "string" };
function parseRuntime(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return void 0;
  const v = value;
  if (!RUNTIME_STATES.includes(v.state)) return void 0;
  for (const [key, type] of Object.entries(REQUIRED)) if (typeof v[key] !== type) return void 0;
  for (const [key, type] of Object.entries(OPTIONAL)) if (v[key] !== void 0 && typeof v[key] !== type) return void 0;
  for (const key of ["pid", "serverPid", "dbPid", "port", "dbPort"]) if (v[key] !== void 0 && !(Number.isInteger(v[key]) && v[key] > 0)) return void 0;
  if (v.url !== void 0 && !/^https?:\/\/[^\s/]+/.test(v.url)) return void 0;
  if (!lockFieldsValid(v)) return void 0;
  return v;
}
function readRuntime(stateDir) {
  let text;
  try {
    text = (0, import_node_fs5.readFileSync)(runtimePath(stateDir), "utf8");
  } catch {
    return void 0;
  }
  try {
    return parseRuntime(JSON.parse(text));
  } catch {
    return void 0;
  }
}
function readSecretFile(file) {
  if (file === void 0) return void 0;
  let fd;
  try {
    fd = (0, import_node_fs5.openSync)(file, import_node_fs5.constants.O_RDONLY | (import_node_fs5.constants.O_NOFOLLOW ?? 0));
    const st = (0, import_node_fs5.fstatSync)(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || (st.mode & 63) !== 0 || uid !== void 0 && st.uid !== uid) return void 0;
    const text = (0, import_node_fs5.readFileSync)(fd, "utf8").trim();
    return text === "" ? void 0 : text;
  } catch {
    return void 0;
  } finally {
    if (fd !== void 0) (0, import_node_fs5.closeSync)(fd);
  }
}
var COMMAND_MARKS = { supervisor: "server run", server: "main.py", db: "redis-server" };
function ourProcess(runtime, role) {
  return isSameProcess(runtime?.identities?.[role], COMMAND_MARKS[role]);
}
function liveServer(stateDir) {
  const runtime = readRuntime(stateDir);
  if (runtime?.state !== "ready" || runtime.url === void 0 || !ourProcess(runtime, "supervisor")) return void 0;
  const token = readSecretFile(runtime.mcpTokenFile);
  return token === void 0 ? { url: runtime.url } : { url: runtime.url, token };
}
function recordedServerUrl(stateDir) {
  return readRuntime(stateDir)?.url;
}
function isLocalFrontUrl(url, live) {
  if (live === void 0) return false;
  try {
    const a = new URL(url);
    const b = new URL(live.url);
    return a.protocol === "http:" && b.protocol === "http:" && a.hostname === "127.0.0.1" && b.hostname === "127.0.0.1" && a.port === b.port;
  } catch {
    return false;
  }
}
var FRONT_PROOF_TTL_MS = 1e3;
var STOP_NOTICE_MS = 2 * FRONT_PROOF_TTL_MS + 500;

// src/lib/util/origin.ts
var import_node_child_process = require("node:child_process");
var import_node_crypto = require("node:crypto");
var import_node_fs6 = require("node:fs");
var import_node_os2 = require("node:os");
var import_node_path5 = require("node:path");
var ORIGIN_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
var ORIGIN_FILE = (0, import_node_path5.join)("graphiti-memory-sync", "origin.json");
var MACHINE_ID_FILES = ["/etc/machine-id", "/var/lib/dbus/machine-id"];
function readMachineId() {
  for (const file of MACHINE_ID_FILES) {
    try {
      const id = (0, import_node_fs6.readFileSync)(file, "utf8").trim();
      if (id !== "") return id;
    } catch {
    }
  }
  if (process.platform === "darwin") {
    try {
      const out = (0, import_node_child_process.execFileSync)("/usr/sbin/ioreg", ["-rd1", "-c", "IOPlatformExpertDevice"], { encoding: "utf8", timeout: 2e3, stdio: ["ignore", "pipe", "ignore"] });
      return /"IOPlatformUUID" = "([^"]+)"/.exec(out)?.[1];
    } catch {
    }
  }
  return void 0;
}
function userName(env) {
  try {
    return (0, import_node_os2.userInfo)().username;
  } catch {
    return env.USER ?? env.USERNAME ?? "";
  }
}
var facts;
function machineFacts(env = {}) {
  facts ??= { machineId: readMachineId(), hostname: (0, import_node_os2.hostname)(), user: userName(env) };
  return facts;
}
function originOf(machine, user) {
  return `m-${(0, import_node_crypto.createHash)("sha256").update(`graphiti-memory-sync\0${machine}\0${user}`).digest("hex").slice(0, 10)}`;
}
function earlierDerivedOrigin(m) {
  return originOf(m.machineId ?? `host:${m.hostname}`, m.user);
}
function derivedOrigin(m, claudeConfigDir) {
  return originOf(`${m.machineId ?? `host:${m.hostname}`}\0${(0, import_node_path5.resolve)(claudeConfigDir)}`, m.user);
}
var OriginFileError = class extends Error {
  constructor(file, detail) {
    super(`${file} is not a valid origin file (${detail}): restore it from a backup, or delete it to start a new origin (this memory's episodes in the graph would then be sent again), or set MADEINOZ_KNOWLEDGE_ORIGIN`);
    this.file = file;
    this.name = "OriginFileError";
  }
  file;
};
function machineKey(machineId) {
  if (machineId === void 0 || machineId === "") return void 0;
  return `k-${(0, import_node_crypto.createHash)("sha256").update(`graphiti-memory-sync machine\0${machineId}`).digest("hex").slice(0, 16)}`;
}
function parseChoices(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return void 0;
  const out = /* @__PURE__ */ Object.create(null);
  for (const [key, raw] of Object.entries(value)) {
    const c = raw;
    if (typeof c !== "object" || c === null) continue;
    const at = typeof c.at === "string" ? c.at : "";
    if (c.choice === "keep") out[key] = { choice: "keep", at };
    else if (c.choice === "split" && typeof c.origin === "string" && ORIGIN_NAME.test(c.origin)) out[key] = { choice: "split", origin: c.origin, at };
  }
  return out;
}
function parseOriginFile(file, text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OriginFileError(file, "not JSON");
  }
  const v = value;
  if (typeof v !== "object" || v === null || typeof v.origin !== "string" || !ORIGIN_NAME.test(v.origin)) throw new OriginFileError(file, 'no valid "origin"');
  const previous = Array.isArray(v.previous) ? v.previous.filter((p) => typeof p === "string" && ORIGIN_NAME.test(p) && p !== v.origin) : [];
  const machines = parseChoices(v.machines);
  return { origin: v.origin, previous, createdAt: typeof v.createdAt === "string" ? v.createdAt : "", ...typeof v.madeOn === "string" ? { madeOn: v.madeOn } : {}, ...machines === void 0 ? {} : { machines } };
}
function readOriginFile(file) {
  let text;
  try {
    text = (0, import_node_fs6.readFileSync)(file, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return void 0;
    throw new OriginFileError(file, error.message);
  }
  return parseOriginFile(file, text);
}
function createOriginFile(file, content) {
  const dir = (0, import_node_path5.join)(file, "..");
  (0, import_node_fs6.mkdirSync)(dir, { recursive: true, mode: 448 });
  (0, import_node_fs6.chmodSync)(dir, 448);
  const tmp = `${file}.${process.pid}.${(0, import_node_crypto.randomBytes)(4).toString("hex")}.tmp`;
  (0, import_node_fs6.writeFileSync)(tmp, `${JSON.stringify(content, null, 2)}
`, { mode: 384, flag: "wx" });
  try {
    (0, import_node_fs6.linkSync)(tmp, file);
    return content;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
    return readOriginFile(file) ?? content;
  } finally {
    (0, import_node_fs6.unlinkSync)(tmp);
  }
}
function isFolder(path) {
  try {
    return (0, import_node_fs6.statSync)(path).isDirectory();
  } catch {
    return false;
  }
}
function originIdentity(claudeConfigDir, m = machineFacts(), now = () => /* @__PURE__ */ new Date(), key = machineKey(m.machineId)) {
  const file = (0, import_node_path5.join)((0, import_node_path5.resolve)(claudeConfigDir), ORIGIN_FILE);
  const earlier = [earlierDerivedOrigin(m), derivedOrigin(m, claudeConfigDir)];
  const kept = readOriginFile(file);
  if (kept !== void 0) {
    const choice = key === void 0 ? void 0 : kept.machines?.[key];
    if (choice?.choice === "split") return { origin: choice.origin, previous: [], file };
    return { origin: kept.origin, previous: kept.previous, file };
  }
  const fallback = { origin: derivedOrigin(m, claudeConfigDir), previous: [earlierDerivedOrigin(m)], file: void 0 };
  if (!isFolder(claudeConfigDir)) return fallback;
  try {
    const created = createOriginFile(file, { origin: `m-${(0, import_node_crypto.randomBytes)(5).toString("hex")}`, previous: earlier, createdAt: now().toISOString(), ...key === void 0 ? {} : { madeOn: key } });
    return { origin: created.origin, previous: created.previous.filter((p) => p !== created.origin), file };
  } catch {
    return fallback;
  }
}
function originPlace(claudeConfigDir, m, key) {
  if (key === void 0) return "unknown";
  const kept = readOriginFile((0, import_node_path5.join)((0, import_node_path5.resolve)(claudeConfigDir), ORIGIN_FILE));
  if (kept === void 0) return "unknown";
  if (kept.machines?.[key] !== void 0) return "here";
  if (kept.madeOn !== void 0) return kept.madeOn === key ? "here" : "elsewhere";
  if (m.machineId === void 0) return "unknown";
  return kept.previous.includes(earlierDerivedOrigin(m)) ? "here" : "elsewhere";
}

// src/lib/util/closest.ts
function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_2, j) => i === 0 ? j : j === 0 ? i : 0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i];
      const up = d[i - 1];
      row[j] = Math.min(up[j] + 1, row[j - 1] + 1, up[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
function closest(given, candidates) {
  const plain = (s) => s.replace(/[-_]/g, "").toLowerCase();
  const same = candidates.find((c) => plain(c) === plain(given));
  if (same !== void 0) return same;
  const starting = candidates.filter((c) => given.length >= 2 && c.startsWith(given));
  if (starting.length === 1) return starting[0];
  let best;
  for (const c of candidates) {
    const distance = editDistance(given.toLowerCase(), c.toLowerCase());
    if (best === void 0 || distance < best.distance) best = { name: c, distance };
  }
  return best !== void 0 && best.distance <= Math.max(1, Math.min(2, Math.floor(best.name.length / 3))) ? best.name : void 0;
}

// src/lib/util/loopback.ts
function isLoopbackHost(hostname2) {
  return hostname2 === "localhost" || hostname2 === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname2);
}

// src/lib/util/display-url.ts
function displayUrl(url) {
  let parsed;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return String(url).replace(/\/\/[^]*@/, "//");
  }
  if (parsed.username === "" && parsed.password === "" && parsed.search === "" && parsed.hash === "") return parsed.href;
  const copy = new URL(parsed.href);
  copy.username = "";
  copy.password = "";
  copy.search = "";
  copy.hash = "";
  return copy.href;
}
function hasCredentials(url) {
  try {
    const parsed = new URL(url);
    return parsed.username !== "" || parsed.password !== "";
  } catch {
    return /\/\/[^]*@/.test(url);
  }
}

// src/lib/util/git-identity.ts
var import_node_fs7 = require("node:fs");
var import_node_path6 = require("node:path");
function commonGitDir(root) {
  const dotGit = (0, import_node_path6.join)(root, ".git");
  let st;
  try {
    st = (0, import_node_fs7.statSync)(dotGit);
  } catch {
    return void 0;
  }
  if (st.isDirectory()) return dotGit;
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec((0, import_node_fs7.readFileSync)(dotGit, "utf8"));
    if (m?.[1] === void 0) return void 0;
    const gitDir = (0, import_node_path6.isAbsolute)(m[1]) ? m[1] : (0, import_node_path6.resolve)(root, m[1]);
    try {
      const common = (0, import_node_fs7.readFileSync)((0, import_node_path6.join)(gitDir, "commondir"), "utf8").trim();
      return (0, import_node_path6.isAbsolute)(common) ? common : (0, import_node_path6.resolve)(gitDir, common);
    } catch {
      return gitDir;
    }
  } catch {
    return void 0;
  }
}
function gitMainRoot(path) {
  let dir = (0, import_node_path6.resolve)(path);
  for (let depth = 0; depth < 256; depth++) {
    const common = commonGitDir(dir);
    if (common !== void 0) return common.endsWith(`${"/"}.git`) || common.endsWith("\\.git") ? (0, import_node_path6.resolve)(common, "..") : dir;
    const parent = (0, import_node_path6.resolve)(dir, "..");
    if (parent === dir) return (0, import_node_path6.resolve)(path);
    dir = parent;
  }
  return (0, import_node_path6.resolve)(path);
}

// src/lib/config/claude-memory.ts
var import_node_fs9 = require("node:fs");
var import_node_path8 = require("node:path");

// src/lib/util/claude-project-key.ts
var import_node_fs8 = require("node:fs");
var import_node_path7 = require("node:path");
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
    names = (0, import_node_fs8.readdirSync)(projectsDir).filter((n) => n.startsWith(prefix) && n.length > prefix.length);
  } catch {
    return computed;
  }
  if (names.length === 0 || names.includes(computed)) return computed;
  let best = names[0];
  let bestTime = -1;
  for (const name of names) {
    const st = statOrUndefinedHere((0, import_node_path7.join)(projectsDir, name));
    if (st !== void 0 && st.mtimeMs > bestTime) {
      best = name;
      bestTime = st.mtimeMs;
    }
  }
  return best;
}
function statOrUndefinedHere(path) {
  try {
    return (0, import_node_fs8.statSync)(path);
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
    const parsed = JSON.parse((0, import_node_fs9.readFileSync)(file, "utf8"));
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
function sessionFolderOf(dir) {
  return { mainRoot: gitMainRoot(dir), dir: (0, import_node_path8.resolve)(dir) };
}
function managedSettings(dir, files) {
  let dropIns = [];
  try {
    dropIns = (0, import_node_fs9.readdirSync)((0, import_node_path8.join)(dir, "managed-settings.d")).filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort();
  } catch {
  }
  let merged = {};
  for (const file of [(0, import_node_path8.join)(dir, "managed-settings.json"), ...dropIns.map((f) => (0, import_node_path8.join)(dir, "managed-settings.d", f))]) {
    const settings = files.read(file);
    if (settings !== void 0) merged = { ...merged, ...settings, env: { ...envOf(merged), ...envOf(settings) } };
  }
  return merged;
}
function settingsLayers(files, claudeConfigDir, managedDir, project) {
  const layers = [{ name: "managed settings", settings: files.managed(managedDir) }];
  for (const dir of project === void 0 ? [] : [.../* @__PURE__ */ new Set([project.mainRoot, project.dir])]) {
    const file = (0, import_node_path8.join)(dir, ".claude", "settings.local.json");
    layers.push({ name: "local settings", settings: files.read(file) ?? {}, file });
  }
  layers.push({ name: "user settings", settings: files.read((0, import_node_path8.join)(claudeConfigDir, "settings.json")) ?? {} });
  return layers;
}
function firstSet(layers, pick) {
  for (const layer of layers) {
    const value = pick(layer.settings);
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
  if (expandTilde && (path.startsWith("~/") || path.startsWith("~\\"))) path = (0, import_node_path8.join)(homeDir, path.slice(2));
  if (!(0, import_node_path8.isAbsolute)(path)) return void 0;
  const folder = (0, import_node_path8.normalize)(path).replace(/[/\\]+$/, "");
  return folder.length < 2 ? void 0 : folder;
}
function autoMemoryDirectoryIn(settingsFile, homeDir, files = new SettingsFiles()) {
  return folderSetting(files.read(settingsFile)?.autoMemoryDirectory, homeDir, true);
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
  return { dir: (0, import_node_path8.join)(base, "projects", key, "memory"), via: remote ? "CLAUDE_CODE_REMOTE_MEMORY_DIR" : "default" };
}
function shortId(path) {
  let h = 0;
  for (let i = 0; i < path.length; i++) h = (h << 5) - h + path.charCodeAt(i) | 0;
  return (h >>> 0).toString(36);
}
var TRANSCRIPT_HEAD_BYTES = [8 * 1024, 64 * 1024];
var TRANSCRIPTS_TRIED = 3;
function transcriptCwd(file) {
  let fd;
  try {
    fd = (0, import_node_fs9.openSync)(file, "r");
    for (const size of TRANSCRIPT_HEAD_BYTES) {
      const buf = Buffer.alloc(size);
      const read = (0, import_node_fs9.readSync)(fd, buf, 0, size, 0);
      const m = /"cwd":("(?:[^"\\]|\\.)*")/.exec(buf.subarray(0, read).toString("utf8"));
      if (m !== null) {
        const cwd = JSON.parse(m[1]);
        return typeof cwd === "string" && (0, import_node_path8.isAbsolute)(cwd) ? cwd : void 0;
      }
      if (read < size) break;
    }
    return void 0;
  } catch {
    return void 0;
  } finally {
    if (fd !== void 0) (0, import_node_fs9.closeSync)(fd);
  }
}
function transcriptProjects(claudeConfigDir) {
  const projectsDir = (0, import_node_path8.join)(claudeConfigDir, "projects");
  let names;
  try {
    names = (0, import_node_fs9.readdirSync)(projectsDir);
  } catch {
    return [];
  }
  const found = [];
  for (const name of names) {
    let transcripts;
    try {
      transcripts = (0, import_node_fs9.readdirSync)((0, import_node_path8.join)(projectsDir, name)).filter((f) => f.endsWith(".jsonl")).sort().slice(0, TRANSCRIPTS_TRIED);
    } catch {
      continue;
    }
    for (const t of transcripts) {
      const cwd = transcriptCwd((0, import_node_path8.join)(projectsDir, name, t));
      if (cwd === void 0) continue;
      found.push(cwd);
      break;
    }
  }
  return found;
}
function knownProjects(env, claudeConfigDir, homeDir, files = new SettingsFiles()) {
  return files.projects(claudeConfigDir, () => {
    const file = env.CLAUDE_CONFIG_DIR !== void 0 && env.CLAUDE_CONFIG_DIR !== "" ? (0, import_node_path8.join)(claudeConfigDir, ".claude.json") : (0, import_node_path8.join)(homeDir, ".claude.json");
    const projects = files.read(file)?.projects;
    const recorded = typeof projects === "object" && projects !== null ? Object.keys(projects).filter((p) => (0, import_node_path8.isAbsolute)(p)) : [];
    return [...new Set([...recorded, ...transcriptProjects(claudeConfigDir)].map((p) => (0, import_node_path8.resolve)(p)))];
  });
}
function projectDirNameOverride(env) {
  const name = env.CLAUDE_CODE_PROJECT_DIR_NAME;
  if (env.CLAUDE_CONFIG_DIR === void 0 || env.CLAUDE_CONFIG_DIR === "" || name === void 0) return void 0;
  return /^[A-Za-z0-9_-]{1,64}$/.test(name) && !/^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name) ? name : void 0;
}
function memoryKeyOf(project, projectsRoot, env) {
  return resolveProjectKey(project.mainRoot, projectsRoot, projectDirNameOverride(env));
}
function autoMemoryFolders(env, claudeConfigDir, homeDir, managedDir = MANAGED_SETTINGS_DIR, files = new SettingsFiles()) {
  const layers = settingsLayers(files, claudeConfigDir, managedDir);
  const off = autoMemoryOff(env, layers);
  const switches = knownProjects(env, claudeConfigDir, homeDir, files).map((dir) => {
    const project = sessionFolderOf(dir);
    const own = settingsLayers(files, claudeConfigDir, managedDir, project);
    const { off: ownOff, by } = autoMemorySwitch(env, own);
    return { project, own: ownOff ? void 0 : memoryFolderOver(env, claudeConfigDir, homeDir, own, ""), ...by === void 0 ? {} : { by } };
  });
  const used = switches.flatMap((s) => s.own === void 0 ? [] : [{ project: s.project, ...s.own }]);
  if (off && used.length === 0) return [];
  const folders = [{ name: "auto-memory", root: (0, import_node_path8.resolve)(claudeConfigDir, "projects"), layout: "projects", via: "default" }];
  const { base, remote } = projectsBase(env, claudeConfigDir);
  if (remote) folders.push({ name: "auto-memory-remote", root: (0, import_node_path8.resolve)(base, "projects"), layout: "projects", via: "CLAUDE_CODE_REMOTE_MEMORY_DIR" });
  const moved = movedFolder(env, homeDir, layers);
  if (moved) folders.push({ name: "auto-memory-dir", root: (0, import_node_path8.resolve)(moved.root), layout: "folder", via: moved.via });
  for (const own of used) {
    if (own.via !== "autoMemoryDirectory (local settings)" || folders.some((f) => f.root === (0, import_node_path8.resolve)(own.dir))) continue;
    const id = shortId((0, import_node_path8.resolve)(own.dir));
    folders.push({ name: `auto-memory-dir-${id}`, root: (0, import_node_path8.resolve)(own.dir), layout: "folder", via: `autoMemoryDirectory (local settings of ${own.project.dir})` });
  }
  const kept = off ? folders.filter((f) => used.some((u) => f.layout === "folder" ? f.root === (0, import_node_path8.resolve)(u.dir) : f.via === u.via)) : folders;
  return kept.map((f) => {
    if (f.layout !== "projects") return f;
    const onKeys = new Set(used.filter((u) => u.via === f.via).map((u) => memoryKeyOf(u.project, f.root, env)));
    const offFirst = switches.filter((s) => s.own === void 0).sort((a, b) => Number(b.project.dir === b.project.mainRoot) - Number(a.project.dir === a.project.mainRoot));
    const leftOut = offFirst.flatMap((s) => leftOutIn(f.root, s, off, env)).filter((l, i, all) => !onKeys.has(l.key) && all.findIndex((o) => o.key === l.key) === i);
    return { ...f, ...leftOut.length === 0 ? {} : { leftOut }, ...off ? { onlyProjects: [...onKeys] } : {} };
  });
}
var OFF_FOR_EVERY_PROJECT = "CLAUDE_CODE_DISABLE_AUTO_MEMORY, or autoMemoryEnabled false in the managed or user settings";
function leftOutIn(projectsRoot, s, offForEvery, env) {
  const settingsFile = offForEvery && s.by?.file === void 0 ? OFF_FOR_EVERY_PROJECT : s.by?.file ?? (0, import_node_path8.join)(s.project.dir, ".claude", "settings.local.json");
  return [{ project: s.project.dir, key: memoryKeyOf(s.project, projectsRoot, env), settingsFile }];
}
function unsyncedProjectMemory(env, claudeConfigDir, homeDir, managedDir = MANAGED_SETTINGS_DIR, files = new SettingsFiles()) {
  const out = [];
  for (const project of knownProjects(env, claudeConfigDir, homeDir, files)) {
    const settingsFile = (0, import_node_path8.join)(project, ".claude", "settings.json");
    const checkedIn = autoMemoryDirectoryIn(settingsFile, homeDir, files);
    if (checkedIn === void 0) continue;
    const followed = projectMemoryFolder(env, claudeConfigDir, homeDir, sessionFolderOf(project), "", managedDir, files);
    if (followed === void 0 || followed.via !== "default" && followed.via !== "CLAUDE_CODE_REMOTE_MEMORY_DIR") continue;
    out.push({ project, dir: checkedIn, settingsFile });
  }
  return out;
}

// src/lib/config/config.ts
init_env_file();
var DEFAULT_MCP_URL = "http://localhost:8000/mcp";
var SERVER_RULES_SETTINGS = ["auto", "no-probe", "0.28.2", "0.29.3", "0.31.1", "0.31.2"];
function mcpUrlOrigin(source) {
  if (source === "setting") return "from MADEINOZ_KNOWLEDGE_MCP_URL";
  if (source === "local-server") return "the local server started by `server start`";
  return "the default: set MADEINOZ_KNOWLEDGE_MCP_URL, or run `server start`";
}
var SETTINGS = [
  { name: "MADEINOZ_KNOWLEDGE_MCP_URL", default: DEFAULT_MCP_URL, description: "Graphiti MCP endpoint (Streamable HTTP). Use /mcp, not /mcp/. A user and password in it (percent-encoded) are sent as Basic authorization and never shown." },
  { name: "MADEINOZ_KNOWLEDGE_SSE_URL", default: "(derived: <origin>/sse)", description: "Legacy HTTP+SSE endpoint tried when Streamable HTTP is refused with 400/404/405." },
  { name: "MADEINOZ_KNOWLEDGE_TRANSPORT", default: "auto", description: "auto (Streamable HTTP, legacy SSE fallback), streamable-http, or sse." },
  { name: "MADEINOZ_KNOWLEDGE_DB", default: "neo4j", description: "Graph database behind Graphiti: neo4j or falkordb (legacy spelling falkorodb accepted). Chooses group-id and search escaping." },
  { name: "MADEINOZ_KNOWLEDGE_DATABASE_TYPE", default: "(none)", description: "The madeinoz Knowledge system's name for the database setting (neo4j or falkordb); used only when MADEINOZ_KNOWLEDGE_DB is unset." },
  { name: "MADEINOZ_KNOWLEDGE_GROUP_ID", default: "main", description: "Graphiti group that episodes go to and searches read." },
  { name: "MADEINOZ_KNOWLEDGE_SOURCE_GROUPS", default: "(none)", description: 'Per-source group overrides, e.g. "auto-memory={project},pai=learning". {project} = one group per project.' },
  { name: "MADEINOZ_KNOWLEDGE_TIMEOUT", default: "30000", description: "Deadline per MCP request in milliseconds, including reading the whole reply." },
  { name: "MADEINOZ_KNOWLEDGE_RETRIES", default: "3", description: "Retries after a transient failure (network, timeout, 408/425/429/5xx), with exponential backoff and jitter." },
  { name: "MADEINOZ_KNOWLEDGE_RETRY_DEADLINE", default: "60000", description: "Overall time budget in milliseconds for one call including all its retries." },
  { name: "MADEINOZ_KNOWLEDGE_AUTH_TOKEN", default: "(none)", description: 'Bearer token sent as Authorization for servers behind auth (the token alone; a leading "Bearer " is dropped). Latin-1 text without line breaks, as HTTP headers carry. Never logged.' },
  { name: "MADEINOZ_KNOWLEDGE_HEADERS", default: "(none)", description: 'Extra HTTP headers as a JSON object, e.g. {"X-Api-Key":"..."}. Values are never logged.' },
  { name: "MADEINOZ_KNOWLEDGE_STATE_DIR", default: "$XDG_STATE_HOME/graphiti-memory-sync (~/.local/state/graphiti-memory-sync)", description: "Where the state file, lock, logs and context cache live. Outside any plugin folder on purpose." },
  { name: "MADEINOZ_KNOWLEDGE_ENV_FILE", default: "(see docs/configuration.md)", description: "Explicit .env file to read settings from (environment variables still win)." },
  { name: "PAI_DIR", default: "~/.claude", description: "PAI root; its MEMORY folder (LEARNING/..., RESEARCH/...) is a source." },
  { name: "CLAUDE_CONFIG_DIR", default: "~/.claude", description: "Claude Code config root; projects/*/memory/*.md (auto memory) is a source." },
  { name: "MADEINOZ_KNOWLEDGE_SYNC_PAI", default: "true", description: "Sync the PAI memory folder." },
  { name: "MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY", default: "true", description: "Sync Claude Code's auto memory topic files, team memory (memory/team/<store>/\u2026, one episode per team file for the whole team) included, wherever Claude Code keeps them: autoMemoryDirectory in the managed settings (managed-settings.json and managed-settings.d/ in /etc/claude-code, on macOS /Library/Application Support/ClaudeCode, on Windows C:\\Program Files\\ClaudeCode), the local or the user settings (not the checked-in project settings, not --settings: only that session's command line names it), CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, CLAUDE_CODE_REMOTE_MEMORY_DIR; nothing new while Claude Code has auto memory off (CLAUDE_CODE_DISABLE_AUTO_MEMORY, in the environment or a settings file's env, or autoMemoryEnabled false; off in one project's local settings, that project's folder alone is left out, a repository's folder only when it is off in every worktree and subfolder Claude Code ran in, and status says so): the notes already synced stay in the graph." },
  { name: "CLAUDE_CODE_DISABLE_AUTO_MEMORY", default: "(unset)", description: "Claude Code's switch: when true, no auto memory is synced or read for the session context." },
  { name: "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", default: "(unset)", description: "Claude Code's variable: the folder auto memory is kept in instead (read as is, no ~ expansion)." },
  { name: "CLAUDE_CODE_REMOTE_MEMORY_DIR", default: "(unset)", description: "Claude Code's variable: auto memory under <this>/projects/<project>/memory instead of the Claude config folder." },
  { name: "CLAUDE_CODE_PROJECT_DIR_NAME", default: "(unset)", description: "Claude Code's variable: the project's folder name under projects/ (its memory in projects/<this>/memory), as Claude Code takes it: only with CLAUDE_CONFIG_DIR set, and only a plain name of letters, digits, _ and - (at most 64); any other value is ignored." },
  { name: "MADEINOZ_KNOWLEDGE_ORIGIN", default: "(kept beside the memory)", description: "Who this memory's episodes are from, named in their markers: a sync never deletes, replaces or adopts an episode of another origin. Default: an id created once in <CLAUDE_CONFIG_DIR>/graphiti-memory-sync/origin.json, so two homes or Claude config folders differ, and a reinstall, a lost state folder or a container rebuild that keeps ~/.claude keep it (episodes of the id earlier versions derived are taken over without a re-send). Lower-case letters, digits and hyphens." },
  { name: "MADEINOZ_KNOWLEDGE_MACHINE_ID", default: "(/etc/machine-id; IOPlatformUUID on macOS)", description: `What tells this machine from another, so that a copied home (origin.json or the state folder made on another machine) is held and asked about instead of replacing and deleting the other machine's episodes (docs/troubleshooting.md "Two machines with one origin"). Set a stable value of your own where there is no machine id (many containers: without one, nothing is taken for a copy) or where cloned machines share one; "none" turns the check off. Only a hash of it is stored.` },
  { name: "MADEINOZ_KNOWLEDGE_SHARED_SOURCES", default: "(none)", description: 'Sources shared by several people or machines, as comma-separated source=origin pairs (e.g. "team=team-notes"): everyone who declares the same origin for the same folder acts as one owner, so each file has one episode, and an edit by any of them replaces it.' },
  { name: "MADEINOZ_KNOWLEDGE_SYNC_PATHS", default: "(none)", description: 'Extra folders to sync, separated by ":" (";" on Windows); "name=path" names a source.' },
  { name: "MADEINOZ_KNOWLEDGE_EXCLUDE", default: "(none)", description: 'Comma-separated globs (relative to each source root) of files never synced, e.g. "**/drafts/**,*.tmp.md".' },
  { name: "MADEINOZ_KNOWLEDGE_DELETE_REMOVED", default: "true", description: "Delete the episode of a memory file that was deleted from disk." },
  { name: "MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES", default: "1048576", description: 'Files larger than this are skipped with the reason "too-large" (never truncated).' },
  { name: "MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS", default: "8000", description: "Bodies longer than this are split at headings/paragraphs into numbered parts." },
  { name: "MADEINOZ_KNOWLEDGE_CONCURRENCY", default: "4", description: "How many episodes are sent at once." },
  { name: "MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE", default: "1800000", description: "The longest a queued episode is waited for while its group shows no movement (no episode of anyone started, none of ours appeared) before it is re-sent: Graphiti drops failures silently. Once a group has been seen moving, the wait is several times its observed pace (at least 10 s), never more than this." },
  { name: "MADEINOZ_KNOWLEDGE_MAX_RESENDS", default: "3", description: "How often a silently dropped episode is re-sent before the file is marked failed." },
  { name: "MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET", default: "8000", description: "Maximum characters of knowledge injected at session start (hard cap 10000)." },
  { name: "MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME", default: "false", description: "Inject context again on a resumed session (the transcript already has it)." },
  { name: "MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT", default: "auto", description: "Context block format: lines, toon, or auto (whichever is shorter for the same facts)." },
  { name: "MADEINOZ_KNOWLEDGE_CONTEXT_TRUST", default: "group", description: "Whose knowledge the session context may include: own (your notes), shared (also declared shared sources and team memory), or group (also everyone else writing to the group, such as Claude's own add_memory calls and teammates). Every line is labelled with its provenance, and text shaped like orders to the assistant is left out unless it comes from this project's own notes." },
  { name: "MADEINOZ_KNOWLEDGE_SERVER_RULES", default: "auto", description: "What the Graphiti server's delete_episode removes, which decides the order of an edit (docs/semantics.md): auto (from the server's tools, the local server's release, else a small probe, run only by a sync that deletes or replaces a note or for the session context's entity summaries: at most 3 that cannot tell a month, 8 that answer a day), no-probe (never probe: the cautious rules where the tools do not tell), or a generation to pin its rules: 0.28.2, 0.29.3, 0.31.1 or 0.31.2. Pin only a release you know the server runs." },
  { name: "MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE", default: "150", description: "Watch mode: milliseconds of quiet before a burst of changes becomes one sync pass (a file is also read only once it has kept its size for 150 ms)." },
  { name: "MADEINOZ_KNOWLEDGE_LOG_LEVEL", default: "info", description: "Log file verbosity: debug, info, warn, error or silent." },
  // The local Graphiti server (`graphiti-memory-sync server`): config/server-settings.ts reads these.
  { group: "server", name: "OPENAI_API_KEY", default: "(none)", description: "The OpenAI API key the local server extracts facts and embeddings with. Not needed for an OpenAI-compatible endpoint that takes no key (Ollama, LM Studio). Never logged." },
  { group: "server", name: "OPENAI_BASE_URL", default: "https://api.openai.com/v1", description: "An OpenAI-compatible endpoint the local server uses instead of OpenAI, e.g. http://localhost:11434/v1 (Ollama); set GMS_SERVER_MODEL with it." },
  { group: "server", name: "OPENAI_API_URL", default: "(none)", description: "Another name for OPENAI_BASE_URL, used when that is unset." },
  { group: "server", name: "GMS_SERVER_MODEL", default: "(the server's default)", description: "The LLM model name the local server extracts with; needed for an endpoint other than OpenAI." },
  { group: "server", name: "GMS_SERVER_EMBEDDER_MODEL", default: "(the server's default)", description: "The embedding model name the local server uses." },
  { group: "server", name: "GMS_SERVER_PORT", default: "(the last one if free, else any free port)", description: "Port of the local Graphiti MCP server on 127.0.0.1." },
  { group: "server", name: "GMS_SERVER_DB_PORT", default: "(none: a private Unix socket)", description: "Set it to have the local server's FalkorDB listen on this port of 127.0.0.1 (password required; for your own tools) besides its Unix socket in the 0700 run folder, which no other user can connect to and which Graphiti and the tool keep using." },
  { group: "server", name: "GMS_SERVER_GENERATION", default: "(the one installed last, else the newest pinned)", description: "The pinned Graphiti release the local server runs (server upgrade moves to the newest)." },
  { group: "server", name: "GMS_SERVER_DATA_DIR", default: "$XDG_DATA_HOME/graphiti-memory-sync/falkordb (~/.local/share/graphiti-memory-sync/falkordb)", description: "Where the local server's FalkorDB keeps the graph." },
  { group: "server", envOnly: true, name: "GMS_PYTHON", default: "python3", description: "The Python (3.10 or newer, with venv and pip) that builds the local server's environment." },
  { group: "server", envOnly: true, name: "GMS_GRAPHITI_CACHE", default: "$XDG_CACHE_HOME/graphiti-memory-sync (~/.cache/graphiti-memory-sync)", description: "Where the local server's Python environments are built, one per pinned release." },
  // Tests and operators: config/switches.ts reads these on the hooks' path.
  { group: "developer", envOnly: true, name: "GMS_WORKER_DISABLED", default: "(unset)", description: "1 = the hooks never start the background worker (no sync, no context refresh); tests that must see no network." },
  { group: "developer", envOnly: true, name: "GMS_WORKER_SCRIPT", default: "(ours)", description: "A worker script to run instead of ours (a .ts file runs under tsx); tests use a fake worker." },
  { group: "developer", envOnly: true, name: "GMS_WORKER_TIMEOUT_MS", default: "300000", description: "A shorter time limit for the background worker than its own 5 minutes (tests of hung servers); a longer one is ignored." },
  // Tests: every server process carries these (config/process-env.ts runTag, handed on by server/managed-process.ts).
  { group: "developer", envOnly: true, name: "GMS_TEST_RUN", default: "(unset)", description: "The name of the test run that started this process: the local server's Graphiti and FalkorDB processes carry it too, so the run finds and ends any it left running." },
  { group: "developer", envOnly: true, name: "GMS_TEST_FILE", default: "(unset)", description: "The test file that started this process, handed on with GMS_TEST_RUN (the run names it when it finds the process left running)." }
];
var KNOWN = new Set(SETTINGS.filter((s) => (s.group ?? "tool") === "tool").map((s) => s.name));
var bool = (name) => external_exports.string().optional().transform((v, ctx) => {
  if (v === void 0 || v.trim() === "") return void 0;
  const s = v.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(s)) return true;
  if (["0", "false", "no", "off"].includes(s)) return false;
  ctx.addIssue({ code: external_exports.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use true or false` });
  return external_exports.NEVER;
});
var int = (name, min, max) => external_exports.string().optional().transform((v, ctx) => {
  if (v === void 0 || v.trim() === "") return void 0;
  const n = Number(v.trim());
  if (!Number.isInteger(n) || n < min || n > max) {
    ctx.addIssue({ code: external_exports.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use a whole number from ${min} to ${max}` });
    return external_exports.NEVER;
  }
  return n;
});
var oneOf = (name, values, aliases = {}) => external_exports.string().optional().transform((v, ctx) => {
  if (v === void 0 || v.trim() === "") return void 0;
  const s = v.trim().toLowerCase();
  if (values.includes(s)) return { value: s, alias: false };
  const aliased = aliases[s];
  if (aliased !== void 0) return { value: aliased, alias: true };
  ctx.addIssue({ code: external_exports.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use one of ${values.join(", ")}` });
  return external_exports.NEVER;
});
var httpUrl = (name) => external_exports.string().optional().transform((v, ctx) => {
  if (v === void 0 || v.trim() === "") return void 0;
  try {
    const u = new URL(v.trim());
    if (u.protocol === "http:" || u.protocol === "https:") return u.toString();
  } catch {
  }
  const hint = hasCredentials(v) ? " (a user or password in it must be percent-encoded: # as %23, / as %2F, ? as %3F, @ as %40)" : "";
  ctx.addIssue({ code: external_exports.ZodIssueCode.custom, message: `${name}="${displayUrl(v)}" is not allowed: use an http:// or https:// URL${hint}` });
  return external_exports.NEVER;
});
var rawSchema = external_exports.object({
  MADEINOZ_KNOWLEDGE_MCP_URL: httpUrl("MADEINOZ_KNOWLEDGE_MCP_URL"),
  MADEINOZ_KNOWLEDGE_SSE_URL: httpUrl("MADEINOZ_KNOWLEDGE_SSE_URL"),
  MADEINOZ_KNOWLEDGE_TRANSPORT: oneOf("MADEINOZ_KNOWLEDGE_TRANSPORT", ["auto", "streamable-http", "sse"], { http: "streamable-http" }),
  MADEINOZ_KNOWLEDGE_DB: oneOf("MADEINOZ_KNOWLEDGE_DB", ["neo4j", "falkordb"], { falkorodb: "falkordb" }),
  MADEINOZ_KNOWLEDGE_DATABASE_TYPE: oneOf("MADEINOZ_KNOWLEDGE_DATABASE_TYPE", ["neo4j", "falkordb"], { falkorodb: "falkordb" }),
  MADEINOZ_KNOWLEDGE_GROUP_ID: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_TIMEOUT: int("MADEINOZ_KNOWLEDGE_TIMEOUT", 100, 36e5),
  MADEINOZ_KNOWLEDGE_RETRIES: int("MADEINOZ_KNOWLEDGE_RETRIES", 0, 20),
  MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: int("MADEINOZ_KNOWLEDGE_RETRY_DEADLINE", 100, 864e5),
  MADEINOZ_KNOWLEDGE_AUTH_TOKEN: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_HEADERS: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_STATE_DIR: external_exports.string().optional(),
  PAI_DIR: external_exports.string().optional(),
  CLAUDE_CONFIG_DIR: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_SYNC_PAI: bool("MADEINOZ_KNOWLEDGE_SYNC_PAI"),
  MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY: bool("MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY"),
  MADEINOZ_KNOWLEDGE_SYNC_PATHS: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_ORIGIN: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_MACHINE_ID: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_SHARED_SOURCES: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_EXCLUDE: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_DELETE_REMOVED: bool("MADEINOZ_KNOWLEDGE_DELETE_REMOVED"),
  MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES: int("MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES", 1, 1024 * 1024 * 1024),
  MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS: int("MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS", 500, 1e6),
  MADEINOZ_KNOWLEDGE_CONCURRENCY: int("MADEINOZ_KNOWLEDGE_CONCURRENCY", 1, 64),
  MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: int("MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE", 0, 30 * 864e5),
  MADEINOZ_KNOWLEDGE_MAX_RESENDS: int("MADEINOZ_KNOWLEDGE_MAX_RESENDS", 0, 100),
  MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET: int("MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET", 0, 1e4),
  MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME: bool("MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME"),
  MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT: oneOf("MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT", ["auto", "lines", "toon"]),
  MADEINOZ_KNOWLEDGE_CONTEXT_TRUST: oneOf("MADEINOZ_KNOWLEDGE_CONTEXT_TRUST", ["own", "shared", "group"]),
  MADEINOZ_KNOWLEDGE_SERVER_RULES: oneOf("MADEINOZ_KNOWLEDGE_SERVER_RULES", SERVER_RULES_SETTINGS),
  MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE: int("MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE", 0, 6e5),
  MADEINOZ_KNOWLEDGE_LOG_LEVEL: oneOf("MADEINOZ_KNOWLEDGE_LOG_LEVEL", ["debug", "info", "warn", "error", "silent"])
});
async function readEnvFile(file) {
  const { readSettingsFile: readSettingsFile2 } = await Promise.resolve().then(() => (init_dotenv_file(), dotenv_file_exports));
  return readSettingsFile2(file, (name) => KNOWN.has(name));
}
function parseHeaders(raw) {
  if (raw === void 0 || raw.trim() === "") return {};
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError('MADEINOZ_KNOWLEDGE_HEADERS is not allowed: use a JSON object of header names to string values, e.g. {"X-Api-Key":"..."} (value not shown: it may hold a secret)', "MADEINOZ_KNOWLEDGE_HEADERS");
  }
  const result = external_exports.record(external_exports.string()).safeParse(value);
  if (!result.success || Array.isArray(value)) {
    throw new ConfigError("MADEINOZ_KNOWLEDGE_HEADERS is not allowed: use a JSON object whose values are strings (value not shown: it may hold a secret)", "MADEINOZ_KNOWLEDGE_HEADERS");
  }
  for (const [name, headerValue] of Object.entries(result.data)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_HEADERS is not allowed: "${name}" is not a valid HTTP header name`, "MADEINOZ_KNOWLEDGE_HEADERS");
    }
    checkHeaderValue(headerValue, "MADEINOZ_KNOWLEDGE_HEADERS", `the value of "${name}"`);
  }
  return result.data;
}
var HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
function checkHeaderValue(value, variable, what) {
  if (HEADER_VALUE.test(value)) return;
  const chars = [...value];
  const at = chars.findIndex((ch) => !HEADER_VALUE.test(ch));
  throw new ConfigError(
    `${variable} is not allowed: ${what} holds ${characterKind(chars[at] ?? "")} at character ${at + 1}, which an HTTP header cannot carry (value not shown: it may hold a secret); set it again from the original, without line breaks or characters copied from a formatted document`,
    variable
  );
}
function characterKind(ch) {
  if (ch === "\r" || ch === "\n") return "a line break";
  if ((ch.codePointAt(0) ?? 0) < 32 || ch === "\x7F") return "a control character";
  return "a character outside Latin-1";
}
function parseAuthToken(raw) {
  const token = raw?.trim().replace(/^Bearer\s+/i, "").trim();
  if (token === void 0 || token === "") return void 0;
  checkHeaderValue(token, "MADEINOZ_KNOWLEDGE_AUTH_TOKEN", "the token");
  return token;
}
function parseList(raw, sep) {
  if (raw === void 0) return [];
  return raw.split(sep).map((s) => s.trim()).filter((s) => s !== "");
}
function parseExtraSources(raw, env) {
  const sep = process.platform === "win32" ? /;/ : /:/;
  const used = /* @__PURE__ */ new Set();
  return parseList(raw, sep).map((entry, index) => {
    const eq = entry.indexOf("=");
    let name = eq > 0 ? entry.slice(0, eq).trim() : `extra${index + 1}`;
    const path = (0, import_node_path9.resolve)(expandHome(eq > 0 ? entry.slice(eq + 1).trim() : entry, env));
    if (!/^[A-Za-z0-9_-]+$/.test(name) || name === "pai" || name === "auto-memory") {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SYNC_PATHS="${raw}" is not allowed: source name "${name}" must match [A-Za-z0-9_-]+ and not be "pai" or "auto-memory"`, "MADEINOZ_KNOWLEDGE_SYNC_PATHS");
    }
    if (used.has(name)) name = `${name}${index + 1}`;
    used.add(name);
    return { name, path };
  });
}
function parseOrigin(raw, variable) {
  if (raw === void 0) return void 0;
  const origin = raw.trim();
  if (!ORIGIN_NAME.test(origin)) throw new ConfigError(`${variable}="${raw}" is not allowed: an origin is 1-40 lower-case letters, digits and hyphens, starting with a letter or digit`, variable);
  return origin;
}
function ownOrigin(setting, claudeConfigDir, machineIdSetting) {
  const facts2 = machineFacts(process.env);
  const idSetting = machineIdSetting?.trim();
  const key = idSetting === "none" ? void 0 : machineKey(idSetting || facts2.machineId);
  const machine = key === void 0 ? {} : { machineKey: key };
  if (setting !== void 0) return { origin: setting, previousOrigins: [], originDerived: false, ...machine, originPlace: "here" };
  try {
    const identity = originIdentity(claudeConfigDir, facts2, void 0, key);
    return { origin: identity.origin, previousOrigins: identity.previous, originDerived: identity.file === void 0, ...machine, originPlace: identity.file === void 0 ? "here" : originPlace(claudeConfigDir, facts2, key) };
  } catch (error) {
    if (error instanceof OriginFileError) throw new ConfigError(error.message, "MADEINOZ_KNOWLEDGE_ORIGIN");
    throw error;
  }
}
function withCurrentOrigin(config) {
  if (config.originDerived !== true) return config;
  const now = ownOrigin(void 0, config.claudeConfigDir, config.machineIdSetting);
  return now.originDerived ? config : { ...config, ...now };
}
function parseSharedSources(raw) {
  const out = /* @__PURE__ */ Object.create(null);
  for (const pair of parseList(raw, /,/)) {
    const eq = pair.indexOf("=");
    if (eq <= 0 || eq === pair.length - 1) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SHARED_SOURCES="${raw}" is not allowed: use comma-separated source=origin pairs, e.g. "team=team-notes"`, "MADEINOZ_KNOWLEDGE_SHARED_SOURCES");
    }
    out[pair.slice(0, eq).trim()] = parseOrigin(pair.slice(eq + 1), "MADEINOZ_KNOWLEDGE_SHARED_SOURCES");
  }
  return out;
}
function parseSourceGroups(raw) {
  const out = {};
  for (const pair of parseList(raw, /,/)) {
    const eq = pair.indexOf("=");
    if (eq <= 0 || eq === pair.length - 1) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SOURCE_GROUPS="${raw}" is not allowed: use comma-separated source=group pairs, e.g. "auto-memory={project}"`, "MADEINOZ_KNOWLEDGE_SOURCE_GROUPS");
    }
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}
function settingsFilesOf(config, env = process.env) {
  const withDirs = { ...env, PAI_DIR: config.paiDir, CLAUDE_CONFIG_DIR: config.claudeConfigDir };
  const perProject = (config.knownProjectDirs ?? []).flatMap((project) => [.../* @__PURE__ */ new Set([gitMainRoot(project), project])].map((dir) => (0, import_node_path9.join)(dir, ".claude", "settings.local.json")));
  return [.../* @__PURE__ */ new Set([...envFileCandidates(env), ...paiEnvFileCandidates(withDirs), (0, import_node_path9.join)(config.claudeConfigDir, "settings.json"), (0, import_node_path9.join)(MANAGED_SETTINGS_DIR, "managed-settings.json"), ...perProject])];
}
async function loadConfig(options = {}) {
  const processEnv = options.env ?? process.env;
  let envFile;
  let paiEnvFile;
  const env = {};
  const layer = (values) => {
    for (const [k, v] of Object.entries(values)) if (v !== void 0 && v !== "") env[k] = v;
  };
  let notes = [];
  const typos = [];
  if (options.readEnvFile !== false) {
    envFile = findEnvFile(processEnv);
    const ours = envFile === void 0 ? { values: {}, names: [], notes: [] } : await readEnvFile(envFile);
    typos.push(...misspelledSettings(ours.names, `set in ${envFile}`, "rename it there"));
    paiEnvFile = findPaiEnvFile({ ...ours.values, ...definedOnly(processEnv) });
    if (paiEnvFile !== void 0 && paiEnvFile !== envFile) {
      const pai = await readEnvFile(paiEnvFile);
      layer(pai.values);
      notes = pai.notes.filter((note) => ours.values[note.name] === void 0);
    } else paiEnvFile = void 0;
    layer(ours.values);
    notes.push(...ours.notes);
  }
  layer(processEnv);
  typos.push(...misspelledSettings(Object.keys(definedOnly(processEnv)).filter((name) => /^MADEINOZ_/i.test(name)), "set in the environment", "export it under that name instead"));
  const config = buildConfig(env, envFile);
  const used = notes.filter((note) => definedOnly(processEnv)[note.name] === void 0).map((note) => note.text);
  return { ...config, warnings: [...config.warnings, ...typos, ...used], paiEnvFile };
}
var ALL_SETTING_NAMES = SETTINGS.map((s) => s.name);
function misspelledSettings(names, where, fix) {
  const out = [];
  for (const name of names) {
    if (!/^(?:MADEINOZ_|GMS_)/i.test(name) || ALL_SETTING_NAMES.includes(name)) continue;
    const meant = closest(name, ALL_SETTING_NAMES);
    if (meant !== void 0) out.push(`${name} (${where}) is not a setting of graphiti-memory-sync, so it is ignored: did you mean ${meant}? ${fix[0]?.toUpperCase()}${fix.slice(1)}.`);
  }
  return out;
}
function sameLocalPort(url, liveUrl) {
  try {
    const a = new URL(url);
    return isLoopbackHost(a.hostname) && a.port === new URL(liveUrl).port;
  } catch {
    return false;
  }
}
function definedOnly(env) {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== void 0 && v !== ""));
}
function buildConfig(env, envFile) {
  const parsed = rawSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path[0] === void 0 ? void 0 : String(issue.path[0]);
    throw new ConfigError(issue?.message ?? "Invalid configuration", variable);
  }
  const raw = parsed.data;
  const warnings = [];
  if (raw.MADEINOZ_KNOWLEDGE_DB?.alias) {
    warnings.push(`MADEINOZ_KNOWLEDGE_DB="${env.MADEINOZ_KNOWLEDGE_DB}" is a legacy misspelling; use "falkordb".`);
  }
  const dbSetting = raw.MADEINOZ_KNOWLEDGE_DB?.value ?? raw.MADEINOZ_KNOWLEDGE_DATABASE_TYPE?.value;
  const groupId = (raw.MADEINOZ_KNOWLEDGE_GROUP_ID ?? "").trim() || "main";
  if (groupId.length > 128) {
    throw new ConfigError(`MADEINOZ_KNOWLEDGE_GROUP_ID="${groupId.slice(0, 40)}\u2026" is not allowed: at most 128 characters`, "MADEINOZ_KNOWLEDGE_GROUP_ID");
  }
  const dirSetting = (value, fallback, name) => {
    const p = value === void 0 || value.trim() === "" ? fallback : expandHome(value.trim(), env);
    if (!(0, import_node_path9.isAbsolute)(p)) throw new ConfigError(`${name}="${value}" is not allowed: use an absolute path (or one starting with ~/)`, name);
    return p;
  };
  const contextBudget = raw.MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET ?? 8e3;
  const claudeConfigDir = dirSetting(raw.CLAUDE_CONFIG_DIR, (0, import_node_path9.join)(home(env), ".claude"), "CLAUDE_CONFIG_DIR");
  const claudeSettings = new SettingsFiles();
  const stateDir = dirSetting(raw.MADEINOZ_KNOWLEDGE_STATE_DIR, defaultStateDir(env), "MADEINOZ_KNOWLEDGE_STATE_DIR");
  checkStateDir(stateDir);
  const local = liveServer(stateDir);
  const liveUrl = local?.url;
  const placeholder = raw.MADEINOZ_KNOWLEDGE_MCP_URL === DEFAULT_MCP_URL;
  const localUrl = raw.MADEINOZ_KNOWLEDGE_MCP_URL === void 0 ? liveUrl ?? recordedServerUrl(stateDir) : placeholder ? liveUrl : void 0;
  if (placeholder && localUrl !== void 0) {
    warnings.push(`MADEINOZ_KNOWLEDGE_MCP_URL=${DEFAULT_MCP_URL} is the example's placeholder and the local server ("server start") is running: using it (${localUrl})${dbSetting === "neo4j" ? " on FalkorDB (MADEINOZ_KNOWLEDGE_DB=neo4j does not apply to it)" : ""}. Remove that line, or set your server's URL, to silence this.`);
  } else if (raw.MADEINOZ_KNOWLEDGE_MCP_URL !== void 0 && liveUrl !== void 0 && !isLocalFrontUrl(raw.MADEINOZ_KNOWLEDGE_MCP_URL, local) && sameLocalPort(raw.MADEINOZ_KNOWLEDGE_MCP_URL, liveUrl)) {
    warnings.push(`MADEINOZ_KNOWLEDGE_MCP_URL=${displayUrl(raw.MADEINOZ_KNOWLEDGE_MCP_URL)} names the local server's port another way: its token goes to ${liveUrl} only (localhost and [::1] may reach another listener). Set ${liveUrl}, or unset it.`);
  } else if (raw.MADEINOZ_KNOWLEDGE_MCP_URL !== void 0 && liveUrl !== void 0 && !isLocalFrontUrl(raw.MADEINOZ_KNOWLEDGE_MCP_URL, local)) {
    warnings.push(`MADEINOZ_KNOWLEDGE_MCP_URL=${displayUrl(raw.MADEINOZ_KNOWLEDGE_MCP_URL)} is used, not the local server running at ${liveUrl} (server start); unset it to use the local server.`);
  }
  const db = localUrl !== void 0 && placeholder ? "falkordb" : dbSetting ?? (localUrl !== void 0 ? "falkordb" : "neo4j");
  const mcpUrl = localUrl ?? raw.MADEINOZ_KNOWLEDGE_MCP_URL ?? DEFAULT_MCP_URL;
  return {
    mcpUrl,
    mcpUrlSource: localUrl !== void 0 ? "local-server" : raw.MADEINOZ_KNOWLEDGE_MCP_URL !== void 0 ? "setting" : "default",
    sseUrl: raw.MADEINOZ_KNOWLEDGE_SSE_URL,
    transport: raw.MADEINOZ_KNOWLEDGE_TRANSPORT?.value ?? "auto",
    db,
    groupId,
    sourceGroups: parseSourceGroups(raw.MADEINOZ_KNOWLEDGE_SOURCE_GROUPS),
    timeoutMs: raw.MADEINOZ_KNOWLEDGE_TIMEOUT ?? 3e4,
    retries: raw.MADEINOZ_KNOWLEDGE_RETRIES ?? 3,
    retryDeadlineMs: raw.MADEINOZ_KNOWLEDGE_RETRY_DEADLINE ?? 6e4,
    // Only a token set by the user is part of the settings. The local server's token is never
    // stored here: it is read and sent per request, only to its proven front (graphiti.ts asks
    // localServerAuthorization in config/server-runtime.ts).
    authToken: parseAuthToken(raw.MADEINOZ_KNOWLEDGE_AUTH_TOKEN),
    headers: parseHeaders(raw.MADEINOZ_KNOWLEDGE_HEADERS),
    stateDir,
    paiDir: dirSetting(raw.PAI_DIR, (0, import_node_path9.join)(home(env), ".claude"), "PAI_DIR"),
    priorHookStates: [...new Set([(0, import_node_path9.join)(home(env), ".claude"), dirSetting(raw.PAI_DIR, (0, import_node_path9.join)(home(env), ".claude"), "PAI_DIR")].map((root) => (0, import_node_path9.resolve)(root, "MEMORY", "STATE", "knowledge-sync", "sync-state.json")))],
    claudeConfigDir,
    syncPai: raw.MADEINOZ_KNOWLEDGE_SYNC_PAI ?? true,
    syncAutoMemory: raw.MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY ?? true,
    // One look at Claude Code's settings for the three (claude-memory.ts SETTINGS_READ_ONCE): each file read once per build.
    autoMemoryFolders: autoMemoryFolders(env, claudeConfigDir, home(env), MANAGED_SETTINGS_DIR, claudeSettings),
    unsyncedMemoryFolders: unsyncedProjectMemory(env, claudeConfigDir, home(env), MANAGED_SETTINGS_DIR, claudeSettings),
    knownProjectDirs: knownProjects(env, claudeConfigDir, home(env), claudeSettings),
    extraSources: parseExtraSources(raw.MADEINOZ_KNOWLEDGE_SYNC_PATHS, env),
    ...ownOrigin(parseOrigin(raw.MADEINOZ_KNOWLEDGE_ORIGIN, "MADEINOZ_KNOWLEDGE_ORIGIN"), claudeConfigDir, raw.MADEINOZ_KNOWLEDGE_MACHINE_ID),
    ...raw.MADEINOZ_KNOWLEDGE_MACHINE_ID === void 0 ? {} : { machineIdSetting: raw.MADEINOZ_KNOWLEDGE_MACHINE_ID },
    sharedSources: parseSharedSources(raw.MADEINOZ_KNOWLEDGE_SHARED_SOURCES),
    exclude: parseList(raw.MADEINOZ_KNOWLEDGE_EXCLUDE, /,/),
    deleteRemoved: raw.MADEINOZ_KNOWLEDGE_DELETE_REMOVED ?? true,
    maxFileBytes: raw.MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES ?? 1024 * 1024,
    maxEpisodeChars: raw.MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS ?? 8e3,
    concurrency: raw.MADEINOZ_KNOWLEDGE_CONCURRENCY ?? 4,
    confirmMaxAgeMs: raw.MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE ?? 30 * 6e4,
    maxResends: raw.MADEINOZ_KNOWLEDGE_MAX_RESENDS ?? 3,
    contextBudget: Math.min(contextBudget, 1e4),
    contextOnResume: raw.MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME ?? false,
    contextFormat: raw.MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT?.value ?? "auto",
    contextTrust: raw.MADEINOZ_KNOWLEDGE_CONTEXT_TRUST?.value ?? "group",
    serverRules: raw.MADEINOZ_KNOWLEDGE_SERVER_RULES?.value ?? "auto",
    watchDebounceMs: raw.MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE ?? 150,
    logLevel: raw.MADEINOZ_KNOWLEDGE_LOG_LEVEL?.value ?? "info",
    warnings,
    envFile,
    paiEnvFile: void 0
  };
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  ConfigError,
  DEFAULT_MCP_URL,
  SERVER_RULES_SETTINGS,
  SETTINGS,
  buildConfig,
  findEnvFile,
  loadConfig,
  mcpUrlOrigin,
  settingsFilesOf,
  withCurrentOrigin
});
//# end of a graphiti-memory-sync bundle

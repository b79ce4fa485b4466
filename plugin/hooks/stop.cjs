// Bundled by scripts/build/bundle-hooks.mjs from src/; edit the sources, not this file. Its last line marks its end.
"use strict";

// src/hooks/node-gate.ts
var import_node_module = require("module");

// src/lib/install/node-guard.ts
var NODE_REQUIRED = "20.19";
function nodeTooOld(version) {
  const found = version.split(".").map(Number);
  const needed = NODE_REQUIRED.split(".").map(Number);
  for (let i = 0; i < needed.length; i++) {
    const f = found[i] || 0;
    const n = needed[i] || 0;
    if (f !== n) return f < n;
  }
  return false;
}
var NODE_TOO_OLD_SECTION = "Node.js too old";
var NEWER_NODE = `Install Node.js >= ${NODE_REQUIRED} (nodejs.org, or nvm install 22)`;
var NODE_MISSING_SECTION = "Node.js not found on the hooks PATH";
var NODE_MISSING_MESSAGE = `graphiti-memory-sync is off: no node on the PATH Claude Code gives its hooks, so your memory is neither synced nor loaded. Install Node.js >= ${NODE_REQUIRED}, or add the folder holding node to that PATH (e.g. env.PATH in ~/.claude/settings.json), then start a new session. See graphiti-memory-sync troubleshooting: ${NODE_MISSING_SECTION}.`;
function nodeTooOldMessage(version, execPath) {
  return `graphiti-memory-sync is off: the node on the PATH Claude Code gives its hooks (${execPath}) is Node.js ${version}, and it needs Node.js >= ${NODE_REQUIRED}, so your memory is neither synced nor loaded. ${NEWER_NODE} and put the folder holding it first on that PATH (e.g. env.PATH in ~/.claude/settings.json), then start a new session. See graphiti-memory-sync troubleshooting: ${NODE_TOO_OLD_SECTION}.`;
}
function nodeTooOldOutput(version, execPath) {
  return JSON.stringify({ systemMessage: nodeTooOldMessage(version, execPath) });
}
var NODE_GUARD_END = String.raw`(?:exit 0|\{ echo '[^']*'; exit 0; \})`;

// src/hooks/node-gate.ts
var here = __filename;
var hook = /([^\\/]+?)(\.c?js)$/.exec(here);
if (hook === null) {
  process.stderr.write(`graphiti-memory-sync: node-gate cannot tell which hook it gates from ${here}; nothing ran.
`);
} else if (nodeTooOld(process.versions.node)) {
  if (hook[1] === "session-start") process.stdout.write(`${nodeTooOldOutput(process.versions.node, process.execPath)}
`);
} else {
  try {
    (0, import_node_module.createRequire)(here)(`./${hook[1]}-main${hook[2]}`);
  } catch {
    process.exitCode = 0;
  }
}
//# end of a graphiti-memory-sync bundle

/**
 * Runs the Graphiti-shaped test server as a process:
 *
 *   npx tsx test/support/graphiti-server-main.ts [--port N] [--options '<json>'] [--control] [--exit-on-stdin-end]
 *
 * Prints exactly one JSON line on stdout once listening:
 *   {"url":"http://127.0.0.1:<port>/mcp","port":<port>,"sseUrl":"http://127.0.0.1:<port>/sse"}
 * and nothing else on stdout. `--options` takes GraphitiServerOptions as JSON.
 *
 * `--control` serves a JSON control API on the same port (never logged in `http`,
 * never faulted):
 *   GET  /__control/episodes[?group=g]   visible episodes (also /facts, /nodes)
 *   GET  /__control/calls                every tools/call: {at, tool, args, sessionId, rpcId, outcome, result}
 *   GET  /__control/http                 every HTTP request: {method, path, status, headers, rpcMethod, fault, …}
 *   GET  /__control/failures             silent background failures; /processed: worker runs
 *   GET  /__control/idle                 answers {"idle":true} once every queue is drained (waits)
 *   GET  /__control/state                {options, sessions, pendingEpisodes, port}
 *   POST /__control/options              body: a GraphitiServerOptions patch (setOptions)
 *   POST /__control/restart              simulated restart (sessions + queued episodes lost)
 *   POST /__control/pause | /resume      hold / release the ingestion workers
 *   POST /__control/fail-next            body: {"kind":"http503"|"http429"|"reset"|"sessionLoss"|"hang"|"drop","count":1}
 *   POST /__control/seed-fact | /seed-node | /seed-episode   body: the partial object; answers the stored one
 *   POST /__control/drop-sse-streams     {dropped: n}
 *   POST /__control/clear-logs
 * Exits with 0 on SIGTERM/SIGINT after closing the server; with 2 on bad arguments.
 * `--exit-on-stdin-end` also exits when stdin closes (spawn with stdin 'pipe' so the
 * server dies with its parent). Note: `npx` does not forward SIGTERM to tsx; from code,
 * spawn `node --import tsx …` or `node_modules/.bin/tsx …` and signal that process.
 */
import { startGraphitiServer, type GraphitiServerOptions } from './graphiti-server.js';

function fail(message: string): never {
  process.stderr.write(`graphiti-server-main: ${message}\n`);
  process.exit(2);
}

let exitOnStdinEnd = false;

function parseArgs(argv: string[]): GraphitiServerOptions & { port?: number } {
  let options: GraphitiServerOptions = {};
  let port: number | undefined;
  let control = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined) fail(`${flag} needs a value`);
      i += 1;
      return next;
    };
    switch (flag) {
      case '--port': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 65535) fail('--port must be an integer 0..65535');
        port = n;
        break;
      }
      case '--options':
        try {
          const parsed: unknown = JSON.parse(value());
          if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) fail('--options must be a JSON object');
          options = parsed as GraphitiServerOptions;
        } catch (e) {
          fail(`--options is not valid JSON: ${(e as Error).message}`);
        }
        break;
      case '--control':
        control = true;
        break;
      case '--exit-on-stdin-end':
        exitOnStdinEnd = true;
        break;
      default:
        fail(`unknown argument ${arg}`);
    }
  }
  return { ...options, ...(control ? { control: true } : {}), ...(port !== undefined ? { port } : {}) };
}

const server = await startGraphitiServer(parseArgs(process.argv.slice(2)));
process.stdout.write(`${JSON.stringify({ url: server.url, port: server.port, sseUrl: server.sseUrl })}\n`);

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
if (exitOnStdinEnd) {
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.stdin.resume();
}

/** A stand-in for a hook script (test/install/hook-command.test.ts, hook-no-node.test.ts) and the input Claude Code gives it. */

/** A hook stand-in: reports its arguments, stdin and parent, writes to stderr, exits with STUB_EXIT. */
export const HOOK_STUB = `let input = '';
process.stdin.on('data', (c) => (input += c)).on('end', () => {
  process.stdout.write(JSON.stringify({ args: process.argv.slice(2), input, ppid: process.ppid }));
  process.stderr.write('hook stderr');
  process.exitCode = Number(process.env.STUB_EXIT ?? 0);
});
`;

/** What Claude Code writes to a SessionStart hook's stdin. */
export const SESSION_START_INPUT = JSON.stringify({ session_id: 's-1', hook_event_name: 'SessionStart', source: 'startup' });

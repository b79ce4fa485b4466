/**
 * Known lines in the local server's logs that look alarming and are not, or that are and say
 * what to do: `server logs` prints the explanation under the log that holds them.
 */
export interface LogNote {
  /** Matches the log line. */
  pattern: RegExp;
  note: string;
}

export const LOG_NOTES: readonly LogNote[] = [
  {
    // FalkorDB is a Redis module: redis-server prints this at every start on Linux's default setting.
    pattern: /Memory overcommit must be enabled|overcommit_memory is set to 0/,
    note:
      "FalkorDB's \"Memory overcommit must be enabled\" warning is Redis's own: it matters only when a background save of a large graph meets memory pressure (the save can then fail). For a personal memory graph it is harmless. To silence it: sudo sysctl vm.overcommit_memory=1 (and vm.overcommit_memory = 1 in /etc/sysctl.conf to keep it after a reboot).",
  },
];

/** The notes for the lines of `text`, each once. */
export function notesFor(text: string): string[] {
  return LOG_NOTES.filter((n) => n.pattern.test(text)).map((n) => n.note);
}

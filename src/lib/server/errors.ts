/** A setup or start-up failure of the local Graphiti server, said in one line with its fix. */
export class ServerSetupError extends Error {
  override name = 'ServerSetupError';
  constructor(
    message: string,
    /** A log with the details (pip output, server output), when there is one. */
    readonly logFile?: string,
  ) {
    super(logFile === undefined ? message : `${message} (details: ${logFile})`);
  }
}

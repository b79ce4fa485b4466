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

/**
 * A port we were told to listen on (a setting) that another program holds: the errno code Node's
 * own listen errors carry, and the port, so the supervisor can name the setting behind it
 * (supervisor.ts startFailure; the message itself is user-settings.ts portTakenMessage's).
 */
export class PortTakenError extends ServerSetupError {
  override name = 'PortTakenError';
  readonly code = 'EADDRINUSE';
  constructor(
    readonly port: number,
    message: string,
    logFile?: string,
  ) {
    super(message, logFile);
  }
}

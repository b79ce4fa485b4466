/** A run that must stop: the server rejected the listing, or another process took the state lock. */
export class SyncError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SyncError';
  }
}

/** Checks on values parsed from JSON or YAML. */

/** A plain object (not null, not an array): the only shape whose keys may be read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

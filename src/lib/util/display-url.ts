/**
 * A URL as the tool says it, in messages, reports and logs: the one owner of that rule.
 *
 * A server URL may carry a secret: `http://user:password@host/mcp` (Node sends it as Basic
 * authorization, so people use it), or a token in the query (`/mcp?api_key=…`, as some hosted
 * MCP endpoints take it). `status`, `health` and `sync` print the URL in use, and their output is
 * pasted into issues and read by Claude when Claude runs them: so the user, the password and the
 * query never appear, only where the request goes. A string that is not a URL at all (a password
 * with an unencoded `#` or `/` breaks the parse) still loses everything between `//` and its
 * last `@`.
 */

/** `url` without its user, password, query and fragment. */
export function displayUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return String(url).replace(/\/\/[^]*@/, '//');
  }
  if (parsed.username === '' && parsed.password === '' && parsed.search === '' && parsed.hash === '') return parsed.href;
  const copy = new URL(parsed.href);
  copy.username = '';
  copy.password = '';
  copy.search = '';
  copy.hash = '';
  return copy.href;
}

/** Whether `url` carries a user or a password, which `displayUrl` leaves out (a message that suggests another URL says they stay). */
export function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return /\/\/[^]*@/.test(url);
  }
}

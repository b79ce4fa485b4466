/**
 * LOOPBACK_HOST: the one rule for "this host name is this machine" as a URL spells it (`new URL(…).hostname`):
 * `localhost`, `[::1]`, and the whole 127.0.0.0/8 block (any 127.x.y.z reaches this machine).
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

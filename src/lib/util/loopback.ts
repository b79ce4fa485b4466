/**
 * LOOPBACK_HOST: the one rule for "this host name is this machine" as a URL spells it (`new URL(…).hostname`):
 * `localhost`, `[::1]`, and the whole 127.0.0.0/8 block (any 127.x.y.z reaches this machine).
 * Not "our local server": anyone on this machine may listen at these; what goes to, or is believed
 * of, our server alone (its token, its release, its FalkorDB) follows config/server-runtime.ts
 * LOCAL_FRONT_URL, which takes its front as it listens (127.0.0.1, its port) and nothing else.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

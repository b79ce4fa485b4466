/**
 * mcp/http.ts: a connection given for one exchange (the local server's front, proven on it:
 * config/server-runtime.ts PROOF_ON_THE_CONNECTION) ends with that exchange, whatever ends it.
 */
import { Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import { sendFollowingRedirects } from '../../src/lib/mcp/http.js';

describe('a connection given for one exchange', () => {
  it('is ended when the exchange never starts: the signal aborted while the connection was being proven', async () => {
    const connection = new Agent({ keepAlive: true });
    let ended = 0;
    const destroy = connection.destroy.bind(connection);
    connection.destroy = () => {
      ended++;
      destroy();
    };
    const controller = new AbortController();
    const reason = new Error('the run was stopped');
    // Nothing is ever sent to this address: the request is not made once the signal has fired.
    const sent = sendFollowingRedirects(new URL('http://127.0.0.1:9/mcp'), {
      method: 'POST',
      headers: {},
      body: '{}',
      signal: controller.signal,
      authorize: async () => {
        controller.abort(reason);
        return { headers: { authorization: 'Bearer t' }, connection };
      },
    });
    await expect(sent).rejects.toBe(reason);
    expect(ended).toBe(1);
  });
});

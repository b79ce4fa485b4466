/**
 * Whether the Graphiti server answers: one get_status with a short deadline and no retries. Used by
 * `status` and `health` (src/commands/) and by `server status` (server/server-report.ts).
 */
import type { Config } from '../config/config.js';
import type { Logger } from '../util/log.js';
import { displayUrl } from '../util/display-url.js';
import { GraphitiClient } from './graphiti.js';

export interface HealthReport {
  ok: boolean;
  message: string;
  url: string;
  transport?: string | undefined;
  protocolVersion?: string | undefined;
  serverName?: string | undefined;
  serverVersion?: string | undefined;
  elapsedMs: number;
}

/** Asks the server for get_status with a short deadline and no retries. */
export async function checkHealth(config: Config, logger: Logger): Promise<HealthReport> {
  const started = Date.now();
  const quick: Config = { ...config, retries: 0, timeoutMs: Math.min(config.timeoutMs, 10_000), retryDeadlineMs: Math.min(config.retryDeadlineMs, 10_000) };
  const graphiti = new GraphitiClient(quick, { logger });
  try {
    const status = await graphiti.getStatus();
    return {
      ok: status.status === 'ok',
      message: status.message,
      url: displayUrl(config.mcpUrl),
      transport: graphiti.client.transportKind,
      protocolVersion: graphiti.client.protocolVersion,
      serverName: graphiti.client.serverInfo?.name,
      serverVersion: graphiti.client.serverInfo?.version,
      elapsedMs: Date.now() - started,
    };
  } catch (error) {
    return { ok: false, message: (error as Error).message, url: displayUrl(config.mcpUrl), elapsedMs: Date.now() - started };
  } finally {
    await graphiti.close().catch(() => undefined);
  }
}


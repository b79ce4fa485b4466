/**
 * Words for outcomes that are not errors but leave a newcomer wondering what to do next. Each names
 * the next step (the command or setting). Pure: the CLI decides where they go (stderr).
 */
import { cli } from '../lib/util/install-route.js';

/** `context` printed nothing: say why and how to get a block. */
export function emptyContextHint(input: { projectName: string; refreshed: boolean; builtAt: string | undefined; omitted?: number }): string {
  if ((input.omitted ?? 0) > 0) {
    return `The context block for ${input.projectName} is empty: everything the graph gave was left out (${input.omitted}); "${cli()} context --omitted" lists what and why.`;
  }
  if (input.refreshed) {
    return `No knowledge for ${input.projectName} in the graph yet (its searches found nothing): run "${cli()} sync" and, once "${cli()} status" shows the files confirmed, "${cli()} context --refresh" again.`;
  }
  if (input.builtAt === undefined) {
    return `No context cached for ${input.projectName} yet: run "${cli()} context --refresh" to build it from the graph now, or start a Claude Code session there (the hooks build it in the background).`;
  }
  return `The cached context for ${input.projectName} (built ${input.builtAt}) is empty: the graph had nothing for it then. Run "${cli()} context --refresh" to search again.`;
}

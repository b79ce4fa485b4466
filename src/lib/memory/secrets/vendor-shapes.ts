/**
 * Vendor credentials recognised by a structure their vendor documents rather than by a prefix:
 * the secret is one part of a longer string whose other parts are public, so only that part is
 * replaced and the rest (an app id, a host) stays readable.
 *
 * Sources (the vendors' own documentation):
 * - Microsoft Teams, "Create Incoming Webhooks" (learn.microsoft.com, msteams-platform
 *   webhooks-and-connectors/how-to/add-incoming-webhook): the webhook URL is the credential, of the
 *   shape `https://<tenant>.webhook.office.com/webhookb2/<group>@<tenant id>/IncomingWebhook/<id>/<owner>`
 *   (older ones `https://outlook.office.com/webhook/…`). Anyone holding it can post to the channel,
 *   so everything after `/webhook/` or `/webhookb2/` is replaced.
 * - Facebook (Meta), "Access Tokens" (developers.facebook.com/docs/facebook-login/access-tokens,
 *   app access tokens): an app access token is `<app id>|<app secret>` or `<app id>|<token>` as the
 *   OAuth endpoint returns it. The app id (digits) is public; the part after `|` is the secret.
 */
import { tag, type RegexRule } from './engine.js';
import { isDummy, isRedacted } from './values.js';

const TEAMS_WEBHOOK: RegexRule = {
  kind: 'teams-webhook',
  hints: ['webhook.office.com', 'outlook.office.com/webhook', 'outlook.office365.com/webhook'],
  // Anchored on the host's literal tail (the tenant part before it is kept as written): no run before it is re-scanned.
  re: /((?:webhook\.office\.com|outlook\.office(?:365)?\.com)\/webhook(?:b2)?\/)([A-Za-z0-9@/_.~%-]+)/gi,
  replace: (_m, g) => {
    const rest = g[1] ?? '';
    if (rest.length < 30 || isRedacted(rest) || isDummy(rest)) return undefined;
    return `${g[0]}${tag('teams-webhook')}`;
  },
};

/**
 * `<app id>|<secret>`: an app id of 13 to 17 digits glued to a `|`, then a run of 20+ token
 * characters with letters and digits. Table cells have spaces around their `|`, so they do not match.
 */
const FACEBOOK_APP_TOKEN: RegexRule = {
  kind: 'facebook-app-token',
  hints: ['|'],
  re: /(?<![\w|])(\d{13,17}\|)([A-Za-z0-9_-]+)/g,
  replace: (_m, g) => {
    const secret = g[1] ?? '';
    if (secret.length < 20 || !/\d/.test(secret) || !/[A-Za-z]/.test(secret) || isDummy(secret)) return undefined;
    return `${g[0]}${tag('facebook-app-token')}`;
  },
};

export const VENDOR_SHAPE_RULES: readonly RegexRule[] = [TEAMS_WEBHOOK, FACEBOOK_APP_TOKEN];

/**
 * Batch 7 of the memory notes written here (issue 40, 2026-12-07, twelfth session, helper qa-redact-8): weak
 * passwords as a person writes them in their own notes, where the value does not sit right after its word. An
 * exploratory tester found five such lines sent as written (`creds for grafana are admin:admin123`, `pass is
 * rex2024`, `PIN 4821 for the card`, `Jenkins password is the same as Jira: Winter2023`, `the password "Xk92!pq"
 * works`); they are kept verbatim as the first draw of their forms, in the tune half. The class around them:
 * - a credential word followed by a short clause before the value (`is`, `are`, `is now`, `for the NAS is`,
 *   `is the same as Jira:`, `I set was`);
 * - `user:password` and `user / password` pairs after `creds`, `login`, `credentials`;
 * - a PIN (or passcode) given before its `for` (`PIN 4821 for the card`);
 * - a quoted value in mid-sentence (`the password "…" works`, `tried '…' as the password`).
 * Beside them, more benign notes of the same shapes without a value: where the credentials are (a vault, the back
 * of the card), what they are the same as, policies, placeholders, `${VAR}`, masks, and counts and versions after the
 * word (`pass rate is 98%`, `PIN 4 for the LED`).
 *
 * Written in one go, before the redaction was run on any of them and before any rule was read. Every value is made
 * up: drawn by a seeded generator (mulberry32, seed below) from made-up weak-common words or random characters,
 * never a real credential. Each secret form is drawn twice in a row and each benign form is written as a pair; the
 * lists are split alternately (even entries `tune`, odd entries `check`), so each half holds one of each form. The
 * tune half is what the rules are tuned on (`dev-eval.ts --show` prints it); the check half is counted only with
 * `dev-eval.ts --check-7`, at first contact and once at the end of the round, never shown line by line.
 *
 * A secret's value occurs once in its note (checked on load, as in dev-own-notes.ts).
 */
import { mulberry32 } from '../prng.js';
import type { OwnBenignNote, OwnSecretNote } from './dev-own-notes.js';
import { splitBenignNotes, splitSecretNotes, type Half } from './dev-own-notes-4.js';

const SEED = 7_2026_12_07;

type Rng = () => number;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';

function chars(rng: Rng, n: number, alphabet: string): string {
  let s = '';
  for (let i = 0; i < n; i += 1) s += alphabet[Math.floor(rng() * alphabet.length)];
  return s;
}

/** Made-up weak-common passwords, the kind people keep (a name or word, a year, a symbol), none taken from a list. */
const WEAK = ['buster2021', 'Spring2024', 'maggie12', 'bluesky9', 'Autumn#23', 'lucky777', 'pumpkin5', 'Sunshine1', 'daisy2019', 'Hockey88', 'cookie22', 'Panther!1', 'mango2023', 'shadow77', 'Falcon2020', 'biscuit3', 'Liverpool9', 'penguin44', 'Silver#21', 'waffles8'];

/** A password: half the time weak-common, else random (8–12 characters, sometimes a symbol). */
function password(rng: Rng): string {
  if (rng() < 0.5) return pick(rng, WEAK);
  return chars(rng, 6 + Math.floor(rng() * 5), ALNUM) + pick(rng, ['', '!', '#', '.', '%']) + chars(rng, 2, ALNUM);
}

/** A PIN: 4 to 6 digits, not starting with 0 (so no reader takes it for an octal or a zip code). */
function pin(rng: Rng): string {
  return chars(rng, 1, '123456789') + chars(rng, 3 + Math.floor(rng() * 3), DIGITS);
}

const USERS = ['admin', 'root', 'deploy', 'ops', 'mara', 'jenkins', 'svc_ci', 'pi'];
const TOOLS = ['grafana', 'the NAS', 'Jenkins', 'the router', 'staging', 'the printer', 'Portainer', 'the old wiki'];
const OTHERS = ['Jira', 'Confluence', 'the VPN', 'Gitea', 'the NAS', 'LDAP'];
const THINGS = ['the card', 'the SIM', 'the garage door', 'the alarm', 'the safe', 'the debit card', 'the phone', 'the door keypad'];

/** A form of a secret: the k-th draw (0 = tune, 1 = check) gives [cls, secret, body]. */
type SecretForm = (rng: Rng, k: number) => readonly [string, string, string];

const SECRET_FORMS: readonly SecretForm[] = [
  // The tester's five lines (k = 0, tune half), each with a drawn twin in the check half.
  (rng, k) => { if (k === 0) return ['creds/are-pair', 'admin123', 'creds for grafana are admin:admin123']; const v = password(rng); return ['creds/are-pair', v, `creds for ${pick(rng, TOOLS)} are ${pick(rng, USERS)}:${v}`]; },
  (rng, k) => { if (k === 0) return ['pass/is', 'rex2024', 'pass is rex2024']; const v = password(rng); return ['pass/is', v, `wifi pass is ${v}`]; },
  (rng, k) => { if (k === 0) return ['pin/before-for', '4821', 'PIN 4821 for the card']; const v = pin(rng); return ['pin/before-for', v, `PIN ${v} for ${pick(rng, THINGS)}`]; },
  (rng, k) => { if (k === 0) return ['password/same-as-colon', 'Winter2023', 'Jenkins password is the same as Jira: Winter2023']; const v = password(rng); return ['password/same-as-colon', v, `Gitea password is the same as ${pick(rng, OTHERS)}: ${v}`]; },
  (rng, k) => { if (k === 0) return ['password/quoted-mid', 'Xk92!pq', 'the password "Xk92!pq" works']; const v = password(rng); return ['password/quoted-mid', v, `the password "${v}" still works on ${pick(rng, TOOLS)}`]; },
  // A credential word, then a short clause, then the value.
  (rng) => { const v = password(rng); return ['password/for-x-is', v, `The password for ${pick(rng, TOOLS)} is ${v}`]; },
  (rng) => { const v = password(rng); return ['password/is-now', v, `${pick(rng, TOOLS)} password is now ${v} (changed it this morning)`]; },
  (rng) => { const v = password(rng); return ['password/i-set-was', v, `The password I set on ${pick(rng, TOOLS)} was ${v}`]; },
  (rng) => { const v = password(rng); return ['password/will-be', v, `new password will be ${v} from Monday`]; },
  (rng) => { const v = password(rng); return ['password/still', v, `router admin password is still ${v}, never changed it`]; },
  (rng) => { const v = password(rng); return ['pw/for-colon', v, `pw for ${pick(rng, TOOLS)}: ${v}`]; },
  (rng) => { const v = password(rng); return ['password/same-as-dash', v, `- ${pick(rng, TOOLS)}: password same as ${pick(rng, OTHERS)} - ${v}`]; },
  (rng) => { const v = password(rng); return ['pass/mine-is', v, `my pass there is ${v}`]; },
  (rng) => { const v = password(rng); return ['passcode/is', v, `Door passcode is ${v}`]; },
  // Pairs after creds / login / credentials.
  (rng) => { const v = password(rng); return ['creds/colon-pair', v, `creds: ${pick(rng, USERS)}:${v}`]; },
  (rng) => { const v = password(rng); return ['login/slash-pair', v, `${pick(rng, TOOLS)} login is ${pick(rng, USERS)} / ${v}`]; },
  (rng) => { const v = password(rng); return ['default-creds/pair', v, `default creds ${pick(rng, USERS)}:${v} still work on ${pick(rng, TOOLS)}`]; },
  (rng) => { const v = password(rng); return ['credentials/for-pair', v, `credentials for ${pick(rng, TOOLS)} are ${pick(rng, USERS)}/${v}`]; },
  (rng) => { const v = password(rng); return ['login/with-pair', v, `log in to ${pick(rng, TOOLS)} with ${pick(rng, USERS)}:${v}`]; },
  // A PIN or code before its `for`, and after it.
  (rng) => { const v = pin(rng); return ['pin/lower-before-for', v, `pin ${v} for ${pick(rng, THINGS)}`]; },
  (rng) => { const v = pin(rng); return ['pin/code-before-for', v, `PIN code ${v} for ${pick(rng, THINGS)}, don't share`]; },
  (rng) => { const v = pin(rng); return ['pin/for-is', v, `The PIN for ${pick(rng, THINGS)} is ${v}`]; },
  (rng) => { const v = pin(rng); return ['pin/list-item', v, `- ${pick(rng, THINGS)}: PIN ${v}`]; },
  // A quoted value in mid-sentence.
  (rng) => { const v = password(rng); return ['quoted/tried-as', v, `tried '${v}' as the password and it worked`]; },
  (rng) => { const v = password(rng); return ['quoted/set-to', v, `set the password to "${v}" on ${pick(rng, TOOLS)}`]; },
  (rng) => { const v = password(rng); return ['quoted/uses-as', v, `the guest wifi uses "${v}" as its password`]; },
];

/** The benign notes: [cls, body]; each form written twice in a row (one per half). */
const BENIGN: readonly (readonly [string, string])[] = [
  // Where the credentials are, not what.
  ['creds/are-where', 'creds for grafana are in the vault'],
  ['creds/are-where', 'creds for the NAS are in 1Password under "Home"'],
  ['pin/for-is-where', 'PIN for the card is on the back'],
  ['pin/for-is-where', 'PIN for the SIM is on the plastic holder in the drawer'],
  ['password/same-as', "the password is the same as Jira's"],
  ['password/same-as', 'Jenkins password is the same as the LDAP one'],
  ['creds/same-as', 'creds for staging are the same as prod'],
  ['creds/same-as', 'login for the wiki is the same as Gitea'],
  ['login/via', 'login for grafana is via SSO'],
  ['login/via', 'Portainer login is through Authelia now'],
  // Counts, versions and pins of a board after the word.
  ['pass/rate', 'pass rate is 98% on the nightly'],
  ['pass/rate', 'pass rate was 87% after the flaky test fix'],
  ['pin/board', 'PIN 4 for the LED'],
  ['pin/board', 'pin 13 for the onboard LED, pin 2 for the button'],
  ['pass/ordinal', 'pass 2 of 3 done, the last one runs overnight'],
  ['pass/ordinal', 'second pass is for the images'],
  ['pin/digits', 'PIN is 4 digits'],
  ['pin/digits', 'the PIN must be 6 digits since the update'],
  ['password/length', 'password is 16 characters long, generated'],
  ['password/length', 'password for the router must be at least 12 characters'],
  // Templates, placeholders and masks.
  ['password/env-var', 'password is ${DB_PASSWORD}'],
  ['password/env-var', 'pass is $NAS_PASS (set in ~/.profile)'],
  ['creds/placeholder-pair', 'creds are admin:<password>'],
  ['creds/placeholder-pair', 'creds for grafana are admin:${GRAFANA_PASSWORD}'],
  ['login/mask', 'login: admin / ****'],
  ['login/mask', 'default creds admin:xxxx (changed on first boot)'],
  ['pin/placeholder', 'PIN <your-pin> for the card'],
  ['pin/placeholder', 'PIN XXXX for the card, the real one is on the letter'],
  ['quoted/placeholder', 'the password "<your-password>" goes in the form'],
  ['quoted/placeholder', 'set the password to "${ROUTER_PASS}" in the template'],
  // Policy and status talk.
  ['password/policy', 'passwords must be rotated every 90 days'],
  ['password/policy', 'creds are rotated every 30 days by the bot'],
  ['password/status', 'password is expired, reset it via the portal'],
  ['password/status', 'the password I set was too short, had to pick another'],
  ['password/changed', 'password changed for the NAS on Monday'],
  ['password/changed', 'PIN reset for the debit card done at the branch'],
  ['pass/thing', 'the pass is in my wallet'],
  ['pass/thing', 'parking pass for the garage is on the dashboard'],
  ['password/required', 'the password is required for the first login only'],
  ['password/required', 'pw for the printer: none, it is open on the LAN'],
  // Quoted words that are not values.
  ['quoted/field', 'the "password" field is masked in the form'],
  ['quoted/field', 'the password "hint" field shows the first letter'],
  ['quoted/error', 'the password "is incorrect" error comes from LDAP, not the app'],
  ['quoted/error', 'login shows "invalid credentials" when the account is locked'],
  // Pairs of names, not secrets.
  ['login/user-only', 'login is admin, password in Bitwarden'],
  ['login/user-only', 'creds: user mara, password from the onboarding email'],
  ['pin/where', 'PIN for the garage door is taped inside the fuse box'],
  ['pin/where', 'the alarm PIN for the back door is the same as the front'],
  ['passcode/talk', 'Door passcode is changed monthly, ask reception'],
  ['passcode/talk', 'passcode for the safe is with the office manager'],
  // Versions and counts after the word.
  ['password/version', 'password manager is Bitwarden 2024.6 now'],
  ['password/version', 'pass 1.7.4 is the store we use, gopass later'],
  ['creds/count', 'creds for 3 services are still missing'],
  ['creds/count', 'login count is 42 for the week'],
];

/** Draws each secret form twice in a row (one per half) with the seeded generator. */
function drawSecrets(): (readonly [string, string, string])[] {
  const rng = mulberry32(SEED);
  return SECRET_FORMS.flatMap((form) => [form(rng, 0), form(rng, 1)]);
}

/** The secret notes of batch 7 with their half; throws if a value is not in its note exactly once. */
export function ownSecretNotesBatch7(): (OwnSecretNote & { half: Half })[] {
  return splitSecretNotes('dev-own-notes-7', drawSecrets());
}

export function ownBenignNotesBatch7(): (OwnBenignNote & { half: Half })[] {
  return splitBenignNotes(BENIGN);
}

/**
 * Projects whose most useful knowledge does not carry the project's name (qa-context-team-knowledge):
 * a team shares one group; for the session's project the useful facts are its own, the team's
 * (team memory: conventions, decisions, people, what Graphiti derives from them) and the user's own
 * preferences across projects (global notes); the rest of the group is other projects' facts, many
 * worded with "architecture", "decided", "conventions" as real notes are.
 *
 * Written before any rule it measures. Notes and projects are split dev/check once, by a seeded
 * shuffle; a scenario draws only from its half, so the check half's notes are never seen by a
 * dev run (report the check half's counts only).
 */
import { mulberry32 } from '../test/support/prng.js';

export interface KnowledgeNote {
  title: string;
  facts: readonly string[];
}

/** Team memory: conventions, decisions, people, and facts phrased as Graphiti derives them. */
export const TEAM_NOTES: readonly KnowledgeNote[] = [
  { title: 'Code review', facts: ['Every pull request needs two approvals before it is merged.', 'Reviewers answer a review request within one working day.'] },
  { title: 'Commit messages', facts: ['Commit subjects follow Conventional Commits with a scope.', 'Squash merges keep one commit per pull request on main.'] },
  { title: 'Branch naming', facts: ['Feature branches are named after their Jira ticket, like PAY-123-short-title.', 'Release branches are cut every second Tuesday.'] },
  { title: 'Testing policy', facts: ['New code ships with unit tests and coverage below 80 percent fails the pipeline.', 'Integration tests run against a Postgres container, never a shared database.'] },
  { title: 'Logging', facts: ['Services log JSON lines with a request id field.', 'Personal data is never written to logs.'] },
  { title: 'Error handling', facts: ['Errors returned to clients carry a stable error code and no stack trace.', 'Retries use exponential backoff capped at thirty seconds.'] },
  { title: 'Dependency updates', facts: ['Renovate opens dependency updates every Monday.', 'Major version bumps need a second reviewer from the platform team.'] },
  { title: 'On-call', facts: ['The on-call rotation changes every Wednesday at 10:00.', 'Pages that wake someone up get a postmortem within five days.'] },
  { title: 'Database choice', facts: ['The team chose Postgres over MySQL for all new services in March.', 'Redis is used for caches only, never as a primary store.'] },
  { title: 'Monorepo', facts: ['Shared TypeScript libraries moved into the platform monorepo in 2025.', 'The monorepo builds with Turborepo and remote caching.'] },
  { title: 'API style', facts: ['The team decided on REST with OpenAPI specs instead of GraphQL.', 'API versions live in the URL path as /v1 and /v2.'] },
  { title: 'Observability', facts: ['Traces go to Grafana Tempo through OpenTelemetry.', 'Dashboards are kept as code in the grafana-dashboards repository.'] },
  { title: 'Release process', facts: ['Production releases happen Tuesday to Thursday, never on Friday.', 'A release needs a green staging run within the last 24 hours.'] },
  { title: 'Secrets', facts: ['Secrets are stored in Vault and injected at deploy time.', 'Database passwords are rotated by the vault-rotate job.'] },
  { title: 'Frontend stack', facts: ['Web frontends use React with Vite and TanStack Query.', 'Styling is done with Tailwind and the shared design tokens.'] },
  { title: 'Infrastructure', facts: ['All infrastructure is described in Terraform in the infra repository.', 'Kubernetes clusters run on EKS in eu-central-1.'] },
  { title: 'Dana Ruiz', facts: ['Dana Ruiz leads the platform team and approves architecture changes.', 'Dana Ruiz is away on Fridays.'] },
  { title: 'Marco Bianchi', facts: ['Marco Bianchi owns the CI pipelines and the build runners.', 'Marco Bianchi is the contact for GitHub Actions quotas.'] },
  { title: 'Priya Nair', facts: ['Priya Nair is the security champion who reviews every auth change.', 'Priya Nair runs the quarterly threat modelling session.'] },
  { title: 'Tom Becker', facts: ['Tom Becker manages the product roadmap for payments.', 'Tom Becker signs off on changes to customer-facing emails.'] },
  { title: 'Team contacts', facts: ['The data team answers questions in the #data-help Slack channel.', 'Design reviews are booked with Lea Martin.'] },
  { title: 'Aiko Tanaka', facts: ['Aiko Tanaka maintains the shared UI component library.', 'Aiko Tanaka reviews accessibility issues before a release.'] },
  { title: 'March outage', facts: ['The March outage was caused by an expired TLS certificate on the load balancer.', 'Certificate expiry is monitored by the cert-watch job since the March outage.'] },
  { title: 'Staging environment', facts: ['Staging is reset from a production snapshot every Sunday night.', 'Staging uses anonymised customer data.'] },
  { title: 'Customer commitments', facts: ['Enterprise customers have a 99.9 percent uptime commitment.', 'Support tickets from enterprise customers are answered within four hours.'] },
  { title: 'Glossary', facts: ['A tenant is one customer organisation with its own billing account.', 'Workspaces belong to exactly one tenant.'] },
  { title: 'Feature flags', facts: ['Feature flags are removed within two sprints after a full rollout.', 'Flag names start with the owning squad, like growth.new-onboarding.'] },
  { title: 'Data retention', facts: ['Audit events are kept for seven years in cold storage.', 'Deleted accounts are purged from backups after 35 days.'] },
];

/** The user's own notes outside any project (global notes): how they like to work. */
export const PREFERENCE_NOTES: readonly KnowledgeNote[] = [
  { title: 'Editor setup', facts: ['Sam works in Neovim with the TypeScript language server.'] },
  { title: 'Package manager', facts: ['Sam uses pnpm rather than npm in every repository.'] },
  { title: 'Pull request style', facts: ['Sam likes short pull request descriptions with a test plan section.'] },
  { title: 'Working hours', facts: ['Sam is in the Berlin time zone and works from 9 to 17.'] },
  { title: 'Git habits', facts: ['Sam rebases feature branches instead of merging main into them.'] },
  { title: 'Bug fixing', facts: ['Sam writes a failing test before fixing a bug.'] },
  { title: 'Shell', facts: ["Sam's shell is fish with starship as the prompt."] },
  { title: 'Explanations', facts: ['Sam wants answers that lead with the result and keep background short.'] },
  { title: 'Languages', facts: ['Sam is fluent in German and English and writes code comments in English.'] },
  { title: 'Local tooling', facts: ['Sam runs Docker through Colima on a MacBook Pro.'] },
  { title: 'Typing preferences', facts: ['Sam prefers explicit return types on exported functions.'] },
  { title: 'Review habits', facts: ['Sam reads the tests of a pull request before its code.'] },
];

export const PROJECT_NAMES: readonly string[] = [
  'billing-service', 'checkout-web', 'ledger-api', 'mobile-app', 'search-indexer', 'notify-worker', 'inventory-api', 'auth-gateway',
  'reporting-etl', 'admin-portal', 'pricing-engine', 'shipping-tracker', 'support-console', 'media-uploader', 'audit-log', 'tenant-sync',
];

/** A project's own facts, as teammates' and the user's notes about it read (some use the words the old query asks for). */
export const PROJECT_FACTS: readonly string[] = [
  '{P} stores its data in Postgres 16 behind PgBouncer.',
  '{P} decided to move its background jobs from cron to Temporal.',
  '{P} architecture: a REST API in front of three worker processes.',
  '{P} deploys to the staging cluster through Argo CD.',
  'The {P} test suite runs in about four minutes on CI.',
  '{P} uses feature flags from LaunchDarkly for risky changes.',
  '{P} conventions: handlers live in src/handlers, one file per route.',
  '{P} exposes metrics on port 9102 for Prometheus.',
  '{P} pins Node 20 in its .nvmrc file.',
  '{P} reads its configuration from environment variables only.',
  'The {P} design keeps every tenant in its own schema.',
  '{P} sends its errors to Sentry with the release tag.',
];

export type Kind = 'project' | 'team' | 'preference' | 'other-project';
export type Whose = 'this-project' | 'shared' | 'global' | 'other-project' | 'group';

export interface ScenarioFact {
  uuid: string;
  fact: string;
  kind: Kind;
  whose: Whose;
  /** The note it rests on (its episode), and that note's title and time. */
  episode: string;
  title: string;
  at: string;
}

export interface Scenario {
  project: string;
  facts: ScenarioFact[];
}

export type Half = 'dev' | 'check';

function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Every other item of a fixed shuffle: the same split in every run. */
function half<T>(items: readonly T[], which: Half, seed: number): T[] {
  return shuffled(items, mulberry32(seed)).filter((_, i) => (i % 2 === 0) === (which === 'dev'));
}

const DAY = 86_400_000;
const NOW = Date.parse('2026-12-01T12:00:00Z');

/** How many notes of each kind a scenario draws (its half's pools bound them). */
export interface Shape {
  otherProjects: number;
  teamNotes: number;
  preferenceNotes: number;
}

/** The scenarios the bench reports: a small team. */
export const SMALL_TEAM: Shape = { otherProjects: 4, teamNotes: 6, preferenceNotes: 3 };
/** A second shape, to check constants chosen on the first: a busy group, more notes than searches. */
export const BUSY_TEAM: Shape = { otherProjects: 7, teamNotes: 14, preferenceNotes: 6 };

/** `count` scenarios of one half, a pure function of the seed. */
export function teamScenarios(which: Half, count: number, seed = 146, shape: Shape = SMALL_TEAM): Scenario[] {
  const team = half(TEAM_NOTES, which, 1);
  const prefs = half(PREFERENCE_NOTES, which, 2);
  const projects = half(PROJECT_NAMES, which, 3);
  const rand = mulberry32(seed + (which === 'dev' ? 0 : 1000));
  const out: Scenario[] = [];
  for (let s = 0; s < count; s++) {
    const [project, ...others] = shuffled(projects, rand).slice(0, 1 + shape.otherProjects) as [string, ...string[]];
    const facts: ScenarioFact[] = [];
    let n = 0;
    const at = () => new Date(NOW - Math.floor(rand() * 90 * DAY)).toISOString();
    const add = (fact: string, kind: Kind, whose: Whose, episode: string, title: string, time: string) => facts.push({ uuid: `s${s}-f${n++}`, fact, kind, whose, episode, title, at: time });
    for (const p of [project, ...others]) {
      for (const [i, template] of shuffled(PROJECT_FACTS, rand).slice(0, 8).entries()) {
        const mine = p === project;
        // Half of a project's facts come from the user's notes in it, half from teammates'.
        const whose: Whose = i % 2 === 0 ? (mine ? 'this-project' : 'other-project') : 'group';
        add(template.replace('{P}', p), mine ? 'project' : 'other-project', whose, `s${s}-ep-${p}-${i}`, `${p} notes ${i}`, at());
      }
    }
    for (const [i, note] of shuffled(team, rand).slice(0, shape.teamNotes).entries()) {
      const time = at();
      for (const f of note.facts) add(f, 'team', 'shared', `s${s}-ep-team-${i}`, note.title, time);
    }
    for (const [i, note] of shuffled(prefs, rand).slice(0, shape.preferenceNotes).entries()) {
      const time = at();
      for (const f of note.facts) add(f, 'preference', 'global', `s${s}-ep-pref-${i}`, note.title, time);
    }
    out.push({ project, facts });
  }
  return out;
}

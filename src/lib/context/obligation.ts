/**
 * MODAL_OBLIGATION (qa-orders-10): a rule of work stated as what the work's things must be, with no
 * reader named ("Functions should be small and do one thing well", "Generated files should not be edited
 * directly", "Entities must be created via a factory method …", "All commits must be signed", "We have to
 * support feature parity for both stacks"). Agent-instruction files state half their rules so; arriving
 * from another writer, such a line is an order to whoever works on the code, as "You must …" is
 * (orders.ts's rules read only the assistant or "you" as the one obliged).
 *
 * Told from a fact by the clause's grammar, not by its words:
 * - GENERIC_SUBJECT: the subject is a kind, not a thing: a bare plural ("Timestamps", "Core types that
 *   define a module's purpose", "IDs"), a quantified noun phrase ("All commits", "Every claim", "No
 *   handler"), or the team itself ("we"). A fact about a particular thing names it with a determiner
 *   or as code ("The API must return JSON", "`hasBoth…` should return `false`", changelog test titles),
 *   and a bare singular is a label's or a headline's ("Status code must be greater than 99", an error
 *   message); those are left to the other rules.
 * - MAIN_CLAUSE_MODAL: the clause's first finite verb is a modal of advice or duty ("should", "shall";
 *   "must", "have to" after "we"), then a verb in its base form, optionally after "not", "never",
 *   "always", "only" or "also". A modal inside a reported clause is not at the clause's start ("The
 *   style guide says variable names should be descriptive" stays a fact: it reports a rule).
 * - ENFORCED_REQUIREMENT: "must" states what a process or a check enforces as often as a duty, and a
 *   team's notes state their process so ("Every commit must pass the type check", "Code reviews must be
 *   approved by one maintainer before merging": issue 32's benign facts). So "must" on a kind of thing
 *   counts only with "never" or "always" after it ("Two types of data must never share one array"), the
 *   frequency words of a standing prohibition or rule; "Entities must be created via a factory method"
 *   and "IDs must be stable across reruns" stay let through, the price.
 * - The price, decided: "should" of expectation on a kind reads as a duty ("Builds should take about five
 *   minutes" is left out); telling expectation from duty needs the meaning, and agent-instruction files
 *   use the form for duties far more often (7 of 7 such lines in the dev halves were orders).
 * - NECESSARY_CONDITION: "must … to be …" or "in order to" states what a thing needs for an effect of the
 *   system ("Files must be in docs.json to be included"), a fact about how it works, not a duty.
 */

import { clauseHead, clauseTokens, FUNCTION_WORDS, isContentWord, isGerund, isPast, isPluralHead, isThirdPerson, OBJECT_OPENERS } from './imperative.js';

const OBLIGING_MODALS: ReadonlySet<string> = new Set(['must', 'should', 'shall', 'mustn\'t', 'shouldn\'t']);
const QUANTIFIERS: ReadonlySet<string> = new Set(['all', 'every', 'each', 'any', 'no']);
/** Words between the modal and its verb that keep the obligation ("must never share", "should only be called"). */
const MODAL_ADVERBS: ReadonlySet<string> = new Set(['not', 'never', 'always', 'only', 'also', 'still', 'ideally']);
/** Words a generic subject may hold after its head: a relative clause or a qualifying phrase ("Core types that define …", "Two different types of data"). */
const SUBJECT_LINKS: ReadonlySet<string> = new Set(['that', 'which', 'who', 'of', 'for', 'in', 'with', 'from', 'and', 'or']);
/** How far the subject may run before its modal. */
const MAX_SUBJECT_WORDS = 8;
const NECESSARY_CONDITION = /\b(?:must|should)\b.*?\b(?:to be|in order to)\b/i;

/**
 * GENERIC_ANAPHOR (qa-orders-11): after a fronted clause whose subject is a kind ("When comments are used,
 * they should add useful information …", "If tests touch the network, they must always mock it"), the main
 * clause's "they" takes up that kind, so it obliges the kind as the bare plural would. "They" with no
 * fronted clause, or after one about a particular thing ("When the jobs finished, they should …": a
 * determiner), names someone or something the text spoke of before ("They should arrive within a day"):
 * a fact, left to the other rules. `fronted`: the fronted clause with its subordinator and comma
 * (orders.ts FRONTED_CLAUSE).
 */
function takesUpAKind(subject: readonly string[], fronted: string | undefined): boolean {
  if (fronted === undefined || subject.length !== 1 || (subject[0] as string).toLowerCase() !== 'they') return false;
  const tokens = clauseTokens(fronted).slice(1).filter((t) => t !== ',');
  const verbAt = tokens.findIndex((t) => FINITE_AFTER_KIND.has(t.toLowerCase()));
  // The fronted subject: the words before its auxiliary, or a bare plural right before a bare verb ("If tests fail").
  const kind = verbAt > 0 ? tokens.slice(0, verbAt) : tokens.slice(0, 1);
  return kind.length > 0 && (kind[0] as string).toLowerCase() !== 'we' && isGenericSubject(kind, 'should');
}
/**
 * PERFECT_BY_A_DEADLINE (qa-review-16b): "should have" and a participle before an event ("Pull requests should
 * have received two approvals before merging", "Migrations should have completed before the deploy starts") is
 * a state due by the time of every such event: a standing rule, as "should be approved before merging" is.
 * PAST_MODAL's judgement of a past act names no such event ("they should have known", "… should have retried").
 */
const DEADLINES: ReadonlySet<string> = new Set(['before', 'by', 'until', 'till', 'prior']);
/** The auxiliaries a fronted clause's kind takes ("are used", "have changed", "do not"). */
const FINITE_AFTER_KIND: ReadonlySet<string> = new Set(['are', 'were', 'have', 'had', 'do', 'did', 'can', 'could', 'may', 'might', 'will', 'would', "aren't", "don't", "can't", "won't"]);

/**
 * Whether the clause (text from a clause start, orders.ts) states an obligation on a kind of thing or on
 * the team (MODAL_OBLIGATION); `fronted`: the fronted clause before it, when it is a main clause after one
 * (GENERIC_ANAPHOR).
 */
export function obligesTheWork(clause: string, fronted?: string): boolean {
  const head = clauseHead(clause);
  if (!/\b(?:must|should|shall|have to|mustn't|shouldn't)\b/i.test(head)) return false;
  const tokens = clauseTokens(head);
  const modalAt = tokens.findIndex((t, k) => OBLIGING_MODALS.has(t.toLowerCase()) || (t.toLowerCase() === 'have' && (tokens[k + 1] ?? '').toLowerCase() === 'to'));
  if (modalAt < 1 || modalAt > MAX_SUBJECT_WORDS) return false;
  const subject = tokens.slice(0, modalAt);
  const modal = (tokens[modalAt] as string).toLowerCase();
  if (!isGenericSubject(subject, modal) && !takesUpAKind(subject, fronted)) return false;
  let v = modalAt + (modal === 'have' ? 2 : 1);
  if ((modal === 'must' || modal === 'mustn\'t') && subject[0]?.toLowerCase() !== 'we' && !['never', 'always'].includes((tokens[v] ?? '').toLowerCase())) return false;
  while (MODAL_ADVERBS.has((tokens[v] ?? '').toLowerCase())) v += 1;
  const verb = (tokens[v] ?? '').toLowerCase();
  if (verb !== 'be' && verb !== 'have' && (!isContentWord(verb) || isThirdPerson(verb) || isPast(verb))) return false;
  // PAST_MODAL (qa-orders-11): "should have" and a participle judges what was due once ("they should have
  // known"), no standing duty; not when a deadline follows (PERFECT_BY_A_DEADLINE).
  if (verb === 'have' && isPast((tokens[v + 1] ?? '').toLowerCase()) && !tokens.slice(v + 2).some((t) => DEADLINES.has(t.toLowerCase()))) return false;
  return !NECESSARY_CONDITION.test(head);
}

/** GENERIC_SUBJECT: "we", a quantified noun phrase, or a bare plural head with no determiner, code or finite verb before the modal. */
function isGenericSubject(subject: readonly string[], modal: string): boolean {
  const first = (subject[0] as string).toLowerCase();
  if (first === 'we') return subject.length === 1;
  if (modal === 'have') return false;
  if (subject.some((t) => /^[`"“'‘(\[]$/.test(t) || t === ':' || t === ',')) return false;
  if (QUANTIFIERS.has(first)) return subject.length > 1 && isContentWord((subject[1] as string).toLowerCase());
  if (OBJECT_OPENERS.has(first) || (FUNCTION_WORDS.has(first) && !/^\d/.test(first))) return false;
  // The head: the last word before a relative clause or a qualifying phrase ("Core types that …",
  // "Two different types of data"), or before the modal.
  const link = subject.findIndex((t, k) => k > 0 && SUBJECT_LINKS.has(t.toLowerCase()));
  const headWord = subject[(link < 0 ? subject.length : link) - 1] as string;
  return isPluralHead(headWord) && subject.slice(0, link < 0 ? subject.length : link).every((t) => /^[\p{L}\p{N}][\p{L}\p{N}-]*$/u.test(t));
}

/**
 * PROHIBITED_KIND (qa-orders-11): a clause that is only "No", a kind of thing the work could make, and
 * where it must not be ("No mutable default arguments", "No raw colors in app code - use tokens …"): a
 * prohibition with no verb, the way rule files list what they forbid. Told from a fact by its grammar:
 * - A fact that something is absent has its verb ("No tests run on Windows", "No unit tests ran today")
 *   or names the particular thing it speaks of ("No breaking changes in this release": a determiner);
 *   so after the kind only a place in the work may follow, a preposition and a bare noun phrase.
 * - The kind is modified ("mutable default arguments", "raw colors"): a bare "No tests" or "No joins"
 *   is as often an answer or a gloss. A state found in the work before the head, a participle or a
 *   gerund ("No known issues", "No breaking changes", "No reported errors"), makes it a report of what
 *   was found, not a kind to avoid.
 * - "No" as written at a clause's start, with its capital: after a dash a lower-case "no" glosses what
 *   comes before ("… stored in the same table — no joins"). The clause ends at a spaced dash, after which
 *   a second clause may follow (orders.ts CLAUSE_AFTER_DASH).
 * The price, decided: a verbless line of a feature list ("No runtime dependencies") reads as one.
 * FOR_NAMES_WHOM (decided, qa-orders-12): "for" before the ones a thing is offered to is no place in the
 * work: "No free trials for enterprise customers", "No refunds for annual plans", "No admin rights for guest
 * users" are the user's knowledge of their product (what it offers whom), not a rule of how to write the
 * code, and the person would want the session to know them. OFFERED_TO (qa-review-17b) names them, the
 * head of the phrase after "for": people and the plans or accounts they hold. Before anything else "for"
 * is a place in the work as "in" is, as it was before qa-orders-12 ("No type assertions for API
 * responses", "No direct commits for release branches", "No console logs for production code": what
 * WORK_AFTER_FOR kept for the work's artefacts and "code", now for every part of the work): read
 * as whom, every code rule written with "for" reached the session as knowledge. No line of the dev
 * halves was caught through "for" (qa-orders-12), so the list was read off the business's terms alone.
 */
const OFFERED_TO: ReadonlySet<string> = new Set(['customers', 'clients', 'users', 'accounts', 'plans', 'tiers', 'subscribers', 'subscriptions', 'members', 'memberships', 'tenants', 'partners', 'buyers', 'guests', 'visitors', 'students', 'employees', 'orders', 'purchases']);
/** OFFERED_TO's head in either number: "for the hobby tier" is the terms of one plan, as "for hobby tiers" is (qa-review-18). */
const offeredTo = (head: string): boolean => OFFERED_TO.has(head) || OFFERED_TO.has(`${head}s`);
const PLACE_PREPOSITIONS: ReadonlySet<string> = new Set(['in', 'on', 'inside', 'within', 'across', 'throughout', 'for', 'from', 'under']);
/** A participle a found state takes before its noun ("known", "broken", "hidden", "written"); -ed ones are isPast's. */
const EN_PARTICIPLE = /^[a-z]{2,}(?:wn|en)$/;
const MAX_KIND_WORDS = 4;

export function forbidsAKind(clause: string): boolean {
  const tokens = clauseTokens(clauseHead(clause).split(/\s[—–-]\s/u, 1)[0] as string);
  if (tokens[0] !== 'No') return false;
  let head = 1;
  for (; head <= MAX_KIND_WORDS && head < tokens.length; head += 1) {
    const raw = tokens[head] as string;
    const word = raw.toLowerCase();
    if (!isContentWord(word) || isPast(word) || EN_PARTICIPLE.test(word)) return false;
    if (isPluralHead(raw)) break;
  }
  if (head === 1 || head > MAX_KIND_WORDS || head >= tokens.length) return false;
  const place = tokens.slice(head + 1);
  if (place.length === 0) return true;
  const words = place.slice(1);
  const preposition = (place[0] as string).toLowerCase();
  const isPlace = PLACE_PREPOSITIONS.has(preposition) && !(preposition === 'for' && offeredTo(((words[words.length - 1] ?? '') as string).toLowerCase()));
  return isPlace && words.length > 0 && words.length <= MAX_KIND_WORDS && words.every((t) => isContentWord(t.toLowerCase()) && !isPast(t.toLowerCase()));
}

/**
 * JUDGED_KIND (qa-orders-11): kinds of work judged acceptable or not, with no one named who judges
 * ("Shortcuts, hand-waving, and plausible-but-wrong implementations are not acceptable", "Magic numbers are
 * discouraged"): a rule stated as a verdict on what the reader might make, as MODAL_OBLIGATION states one
 * as a duty. The subject is a kind or a list of kinds: each item a bare plural or an activity (a gerund),
 * with no determiner or code; the predicate a closed field of verdicts on acceptability, in the present.
 * Not "allowed", "accepted", "permitted" or "required": what a system or a process lets through states how
 * it works ("Force pushes are not allowed on main", "Late submissions are not accepted"), as
 * ENFORCED_REQUIREMENT reads "must". A past ("were not acceptable") or a judge named after the verdict
 * ("… are not acceptable to the client") reports a verdict given; only a place may follow ("in production code").
 */
const VERDICT_PLACES: ReadonlySet<string> = new Set(['in', 'on', 'inside', 'within', 'across', 'throughout', 'anywhere', 'here']);
const VERDICTS: ReadonlySet<string> = new Set(['acceptable', 'unacceptable', 'forbidden', 'prohibited', 'banned', 'disallowed', 'discouraged', 'encouraged', 'preferred']);

export function judgesAKind(clause: string): boolean {
  const tokens = clauseTokens(clauseHead(clause));
  const copula = tokens.findIndex((t) => t.toLowerCase() === 'are');
  if (copula < 1 || copula > 3 * MAX_KIND_WORDS) return false;
  let v = copula + 1;
  if ((tokens[v] ?? '').toLowerCase() === 'not') v += 1;
  if (!VERDICTS.has((tokens[v] ?? '').toLowerCase())) return false;
  // Nobody named as the one who judges ("… are not acceptable to the client" reports a verdict): only a place may follow.
  const after = (tokens[v + 1] ?? '').toLowerCase();
  if (after !== '' && !VERDICT_PLACES.has(after)) return false;
  const items: string[][] = [[]];
  for (const t of tokens.slice(0, copula)) {
    if (t === ',' || ['and', 'or'].includes(t.toLowerCase())) items.push([]);
    else (items[items.length - 1] as string[]).push(t);
  }
  const kinds = items.filter((item) => item.length > 0);
  return kinds.length > 0 && kinds.every((item) => item.length <= MAX_KIND_WORDS && item.every((t) => /^[\p{L}][\p{L}-]*$/u.test(t) && !FUNCTION_WORDS.has(t.toLowerCase())) && (isPluralHead(item[item.length - 1] as string) || isGerund(item[item.length - 1] as string)));
}

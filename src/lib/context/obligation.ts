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

import { clauseHead, clauseTokens, FUNCTION_WORDS, isContentWord, isPast, isPluralHead, isThirdPerson, OBJECT_OPENERS } from './imperative.js';

const OBLIGING_MODALS: ReadonlySet<string> = new Set(['must', 'should', 'shall', 'mustn\'t', 'shouldn\'t']);
const QUANTIFIERS: ReadonlySet<string> = new Set(['all', 'every', 'each', 'any', 'no']);
/** Words between the modal and its verb that keep the obligation ("must never share", "should only be called"). */
const MODAL_ADVERBS: ReadonlySet<string> = new Set(['not', 'never', 'always', 'only', 'also', 'still', 'ideally']);
/** Words a generic subject may hold after its head: a relative clause or a qualifying phrase ("Core types that define …", "Two different types of data"). */
const SUBJECT_LINKS: ReadonlySet<string> = new Set(['that', 'which', 'who', 'of', 'for', 'in', 'with', 'from', 'and', 'or']);
/** How far the subject may run before its modal. */
const MAX_SUBJECT_WORDS = 8;
const NECESSARY_CONDITION = /\b(?:must|should)\b.*?\b(?:to be|in order to)\b/i;

/** Whether the clause (text from a clause start, orders.ts) states an obligation on a kind of thing or on the team (MODAL_OBLIGATION). */
export function obligesTheWork(clause: string): boolean {
  const head = clauseHead(clause);
  if (!/\b(?:must|should|shall|have to|mustn't|shouldn't)\b/i.test(head)) return false;
  const tokens = clauseTokens(head);
  const modalAt = tokens.findIndex((t, k) => OBLIGING_MODALS.has(t.toLowerCase()) || (t.toLowerCase() === 'have' && (tokens[k + 1] ?? '').toLowerCase() === 'to'));
  if (modalAt < 1 || modalAt > MAX_SUBJECT_WORDS) return false;
  const subject = tokens.slice(0, modalAt);
  const modal = (tokens[modalAt] as string).toLowerCase();
  if (!isGenericSubject(subject, modal)) return false;
  let v = modalAt + (modal === 'have' ? 2 : 1);
  if ((modal === 'must' || modal === 'mustn\'t') && subject[0]?.toLowerCase() !== 'we' && !['never', 'always'].includes((tokens[v] ?? '').toLowerCase())) return false;
  while (MODAL_ADVERBS.has((tokens[v] ?? '').toLowerCase())) v += 1;
  const verb = (tokens[v] ?? '').toLowerCase();
  if (verb !== 'be' && verb !== 'have' && (!isContentWord(verb) || isThirdPerson(verb) || isPast(verb))) return false;
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

/**
 * `[[links]]` between Claude Code memories (2.1.332: "a `[[name]]` … marks something worth
 * writing later"; `name` is the linked memory's kebab-case slug), in the form Graphiti's extraction
 * uses. A text episode's entities and facts are extracted from its body alone (graphiti_core
 * prompts/extract_nodes.py `extract_text` reads only the episode content, not the source
 * description), and brackets around a slug make an entity name nobody else writes. So:
 * - in the body, `[[billing-retries]]` reads `billing retries` (`[[slug|label]]` reads `label`,
 *   a `#heading` part is dropped), the words another memory about it uses;
 * - a `Related memories: billing retries, …` header line states the links once, as a relation.
 * Pure and independent of other files: an episode never changes because another note did.
 */

const LINK = /\[\[([^[\]\n|#]{1,200})(?:#[^[\]\n|]{0,200})?(?:\|([^[\]\n]{1,200}))?\]\]/g;

/** A slug as words: `billing-retries` → `billing retries`. */
function words(slug: string): string {
  return slug.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The body with each `[[link]]` as plain words. */
export function renderMemoryLinks(text: string): string {
  if (!text.includes('[[')) return text;
  return text.replace(LINK, (whole, slug: string, label: string | undefined) => {
    const shown = label === undefined ? words(slug) : label.trim();
    return shown === '' ? whole : shown;
  });
}

/** The linked memories' names as words, each once, in order of appearance. */
export function linkedMemories(text: string): string[] {
  if (!text.includes('[[')) return [];
  const out: string[] = [];
  for (const m of text.matchAll(LINK)) {
    const name = words(m[1] as string);
    if (name !== '' && !out.includes(name)) out.push(name);
  }
  return out;
}

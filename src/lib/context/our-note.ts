/**
 * OUR_NOTE: a line the SessionStart hook adds for the person (a graph that is down or emptied,
 * context/graph-problem.ts; the copy question, context/origin-note.ts) is not knowledge from the
 * graph, whose block is framed as such (render.ts CONTEXT_FRAME). It says who wrote it, so the model
 * never takes it for something another writer planted in the group, and the person who reads it
 * knows which tool to ask. The one owner of that label. Pure: on the hook's path.
 */
export const OUR_NOTE_LABEL = 'Note for the user from graphiti-memory-sync:';

/** `text` (a sentence that starts lower case or with a date) as our labelled note. */
export function ourNote(text: string): string {
  return `${OUR_NOTE_LABEL} ${text}`;
}

/**
 * Server-Sent Events reading on top of eventsource-parser (comments, multi-line data,
 * `retry:`); we strip a decoded BOM and turn CRLF / lone CR line ends into LF ourselves
 * (also when a CRLF is split across chunks), plus the MCP rules for turning events into
 * JSON-RPC messages.
 */
import { TextDecoder } from 'node:util';
import { createParser } from 'eventsource-parser';

export interface SseEvent {
  /** `undefined` for untyped events (which mean `message`). */
  event: string | undefined;
  /** The event's id, when it carried one. */
  id: string | undefined;
  data: string;
}

export interface SseHooks {
  onRetry?: (ms: number) => void;
  onComment?: (comment: string) => void;
}

/**
 * Yields the events of an SSE body, chunk by chunk. Ending the iteration early
 * (break/return) ends the underlying stream's iteration too, which destroys it.
 * An unterminated final event (no blank line before EOF) is dropped, per WHATWG.
 */
export async function* readSseEvents(chunks: AsyncIterable<string | Uint8Array>, hooks: SseHooks = {}): AsyncGenerator<SseEvent> {
  const queue: SseEvent[] = [];
  const parser = createParser({
    onEvent: (event) => queue.push({ event: event.event, id: event.id, data: event.data }),
    onRetry: (ms) => hooks.onRetry?.(ms),
    onComment: (comment) => hooks.onComment?.(comment),
  });
  let decoder: TextDecoder | undefined;
  let atStart = true;
  /** The text fed so far ended with CR: an LF at the start of the next chunk completes that CRLF. */
  let afterCr = false;
  for await (const chunk of chunks) {
    let text: string;
    if (typeof chunk === 'string') {
      text = chunk;
    } else {
      decoder ??= new TextDecoder(); // strips a leading BOM itself
      text = decoder.decode(chunk, { stream: true });
    }
    if (atStart && text !== '') {
      atStart = false;
      // eventsource-parser 3.1.1 only strips a BOM given as the three bytes EF BB BF
      // (as chars), not a decoded U+FEFF, which would then hide the first field.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text !== '') {
      if (afterCr && text.charCodeAt(0) === 0x0a) text = text.slice(1);
      afterCr = text.endsWith('\r');
      // Every line end (CRLF, CR, LF) becomes LF before parsing: eventsource-parser holds back a CR
      // that ends a chunk (it might be half of a CRLF), so with CR line ends an event whose final CR
      // ended the stream was never dispatched, and one mid-stream waited for the next chunk.
      parser.feed(text.replace(/\r\n?/g, '\n'));
    }
    while (queue.length > 0) yield queue.shift()!;
  }
}

export type DecodedEvent =
  | { kind: 'message'; message: unknown }
  /** Another event type (`endpoint`, custom): the caller decides. */
  | { kind: 'other'; event: string; data: string }
  /** Empty data (a priming event) or only whitespace: nothing to dispatch. */
  | { kind: 'empty' }
  | { kind: 'invalid'; error: unknown };

/** Applies the MCP rules: only `message`/untyped events carry JSON-RPC; empty data is skipped. */
export function decodeEvent(event: SseEvent): DecodedEvent {
  if (event.event !== undefined && event.event !== 'message') return { kind: 'other', event: event.event, data: event.data };
  if (event.data.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'message', message: JSON.parse(event.data) as unknown };
  } catch (error) {
    return { kind: 'invalid', error };
  }
}

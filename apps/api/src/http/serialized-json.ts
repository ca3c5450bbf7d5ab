/**
 * A response body already serialized, so a handler can assemble JSON from parts it keeps or writes itself
 * (the Data API's rounds and tickets) instead of building objects for Fastify to stringify again. Sent as
 * it is by `serializeReply`, the API's reply serializer; every other body is JSON.stringify'd, as Fastify
 * does without one.
 */
export class SerializedJson {
  constructor(readonly text: string) {}
}

export function serializeReply(payload: unknown): string {
  return payload instanceof SerializedJson ? payload.text : JSON.stringify(payload);
}

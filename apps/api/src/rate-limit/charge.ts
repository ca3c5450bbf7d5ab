import type { FastifyReply } from 'fastify';
import type { Caller } from '../auth/caller';
import { rateLimitHeaders, retryAfterSeconds } from './rate-limit-headers';
import type { RateLimitStore } from './rate-limit-store';

/**
 * Charges a request to its caller's budget and puts the rate-limit headers on the reply; null when it
 * is within the budget, else the whole seconds to wait (the group's guard answers 429 in its format).
 */
export async function charge(store: RateLimitStore, caller: Caller, reply: FastifyReply): Promise<number | null> {
  const decision = await store.consume(caller.rateLimitSubject, caller.limits);
  reply.headers(rateLimitHeaders(caller.tier, decision));
  return decision.allowed ? null : retryAfterSeconds(decision);
}

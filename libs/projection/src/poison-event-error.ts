/**
 * An event the projector cannot apply: undecodable, or contradicting what the read models already hold
 * (a ticket for an unknown round, a second settlement, …). The batch rolls back and the projector stops
 * on it instead of skipping it, because skipping would silently corrupt every aggregate after it.
 */
export class PoisonEventError extends Error {
  constructor(
    readonly eventId: string,
    readonly position: number | null,
    readonly reason: string,
  ) {
    super(`poison event ${eventId}${position === null ? '' : ` (log position ${position})`}: ${reason}`);
    this.name = 'PoisonEventError';
  }
}

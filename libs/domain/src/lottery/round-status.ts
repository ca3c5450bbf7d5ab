/**
 * A round (an on-chain drawing) is `active` from NewDrawingInitialized until JackpotSettled; the API
 * does not distinguish "selling" from "drawing" (JackpotLocked), both are `active`.
 */
export type RoundStatus = 'active' | 'settled';
export type RoundPhase = 'open' | 'locked' | 'settled';

export function roundStatus(phase: RoundPhase): RoundStatus {
  return phase === 'settled' ? 'settled' : 'active';
}

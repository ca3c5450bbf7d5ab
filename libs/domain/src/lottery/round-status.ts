/**
 * A round (an on-chain drawing) is `active` from NewDrawingInitialized until JackpotSettled; the API
 * does not distinguish "selling" from "drawing" (JackpotLocked), both are `active`.
 */
export type RoundStatus = 'active' | 'settled';
export type RoundPhase = 'open' | 'locked' | 'settled';

export function roundStatus(phase: RoundPhase): RoundStatus {
  return phase === 'settled' ? 'settled' : 'active';
}

const NEXT_PHASE: Record<RoundPhase, RoundPhase | null> = { open: 'locked', locked: 'settled', settled: null };

/** The only legal moves: open → locked → settled (settlement may also come straight from open). */
export function canTransition(from: RoundPhase, to: RoundPhase): boolean {
  return NEXT_PHASE[from] === to || (from === 'open' && to === 'settled');
}

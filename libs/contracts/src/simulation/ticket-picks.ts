/**
 * Ticket numbers the simulated players choose: fresh random picks, or (sometimes) the numbers of a ticket
 * already bought in the drawing, in another order, which the Jackpot must count as a duplicate.
 */
import { NORMALS_PER_TICKET, type TicketNumbers } from '@lottery/domain';
import type { SeededRandom } from './seeded-random';

export interface BallRange {
  normalBallMax: number;
  bonusballMax: number;
}

export interface TicketPick {
  normals: number[];
  bonusball: number;
}

export function randomPick(random: SeededRandom, balls: BallRange): TicketPick {
  const all = Array.from({ length: balls.normalBallMax }, (_, i) => i + 1);
  return { normals: random.sample(all, NORMALS_PER_TICKET), bonusball: random.int(1, balls.bonusballMax) };
}

/** The same numbers in a shuffled order: a duplicate whatever order the normals were bought in. */
export function duplicatePick(random: SeededRandom, of: TicketNumbers): TicketPick {
  return { normals: random.sample(of.normals, of.normals.length), bonusball: of.bonusball };
}

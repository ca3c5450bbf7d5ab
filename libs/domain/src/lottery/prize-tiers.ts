/**
 * Prize-tier math of the 5 + bonusball draw. A tier is identified by how many normals matched and
 * whether the bonusball matched: tier_id = normal_matches * 2 + (bonusball_match ? 1 : 0), 0..11.
 */
export const NORMALS_PER_TICKET = 5;
export const TIER_COUNT = 12;
export const JACKPOT_TIER = TIER_COUNT - 1;

export interface TicketNumbers {
  normals: readonly number[];
  bonusball: number;
}

export interface TicketMatch {
  matchedNormals: number;
  bonusballMatch: boolean;
  tierId: number;
}

export function tierId(matchedNormals: number, bonusballMatch: boolean): number {
  if (!Number.isInteger(matchedNormals) || matchedNormals < 0 || matchedNormals > NORMALS_PER_TICKET) {
    throw new RangeError(`matched normals must be an integer 0..${NORMALS_PER_TICKET}, got ${matchedNormals}`);
  }
  return matchedNormals * 2 + (bonusballMatch ? 1 : 0);
}

export function tierOf(id: number): { normalMatches: number; bonusballMatch: boolean } {
  if (!Number.isInteger(id) || id < 0 || id >= TIER_COUNT) {
    throw new RangeError(`tier id must be an integer 0..${TIER_COUNT - 1}, got ${id}`);
  }
  return { normalMatches: Math.floor(id / 2), bonusballMatch: id % 2 === 1 };
}

export function matchTicket(ticket: TicketNumbers, winning: TicketNumbers): TicketMatch {
  const drawn = new Set(winning.normals);
  const matchedNormals = new Set(ticket.normals.filter((n) => drawn.has(n))).size;
  const bonusballMatch = ticket.bonusball === winning.bonusball;
  return { matchedNormals, bonusballMatch, tierId: tierId(matchedNormals, bonusballMatch) };
}

/** Key of a ticket's numbers, independent of the order the normals were picked in (duplicates share it). */
export function numbersKey(ticket: TicketNumbers): string {
  return `${[...ticket.normals].sort((a, b) => a - b).join(',')}|${ticket.bonusball}`;
}

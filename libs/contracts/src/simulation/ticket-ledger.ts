/**
 * What the simulator knows of the tickets it bought: numbers, drawing, scheme and current holder, read from
 * the purchase receipts, so it can decide who claims what after a draw without querying the chain.
 */
import { type Address, type Hex, type TransactionReceipt, isAddressEqual, parseEventLogs } from 'viem';
import { jackpotAbi } from '../generated/artifacts';

export interface SimTicket {
  ticketId: bigint;
  drawingId: bigint;
  normals: readonly number[];
  bonusball: number;
  referralScheme: Hex;
  owner: Address;
}

export class TicketLedger {
  /** drawing id => ticket id => ticket */
  private readonly drawings = new Map<bigint, Map<bigint, SimTicket>>();

  constructor(private readonly jackpot: Address) {}

  /** Records the TicketPurchased events of a purchase receipt; returns the new tickets. */
  recordPurchase(receipt: TransactionReceipt): SimTicket[] {
    const purchased = parseEventLogs({ abi: jackpotAbi, eventName: 'TicketPurchased', logs: receipt.logs })
      .filter((log) => isAddressEqual(log.address, this.jackpot))
      .map(({ args }) => ({
        ticketId: args.userTicketId,
        drawingId: args.currentDrawingId,
        normals: args.normals,
        bonusball: args.bonusball,
        referralScheme: args.referralScheme,
        owner: args.recipient,
      }));
    for (const ticket of purchased) this.drawing(ticket.drawingId).set(ticket.ticketId, ticket);
    return purchased;
  }

  ofDrawing(drawingId: bigint): SimTicket[] {
    return [...this.drawing(drawingId).values()];
  }

  /** Tickets change hands (NFT transfers, the daily pool handing its tickets to the winner). */
  moveTo(drawingId: bigint, ticketIds: readonly bigint[], owner: Address): void {
    const tickets = this.drawing(drawingId);
    for (const id of ticketIds) {
      const ticket = tickets.get(id);
      if (ticket) ticket.owner = owner;
    }
  }

  /** Claimed tickets are burnt on chain. */
  remove(ticket: SimTicket): void {
    this.drawing(ticket.drawingId).delete(ticket.ticketId);
  }

  /** Once a drawing's claims are decided, its unclaimed tickets no longer matter to the simulator. */
  forgetDrawing(drawingId: bigint): void {
    this.drawings.delete(drawingId);
  }

  private drawing(drawingId: bigint): Map<bigint, SimTicket> {
    let tickets = this.drawings.get(drawingId);
    if (!tickets) {
      tickets = new Map();
      this.drawings.set(drawingId, tickets);
    }
    return tickets;
  }
}

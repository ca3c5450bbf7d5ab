/**
 * The read models' stored position is behind what this projector committed: the server lost commits it
 * had acknowledged (batches commit without waiting for their WAL: a crash, a failover to a standby that
 * had not received them), or the read models were reset or restored. The events after the stored
 * position must be delivered again; continuing from the position in memory would skip them for good.
 */
export class StoredPositionBehindError extends Error {
  constructor(
    readonly schema: string,
    readonly stored: number | null,
    readonly committed: number,
  ) {
    super(
      `the read models in ${schema} stand at log position ${stored ?? 'none'}, behind the ${committed} this ` +
        'projector committed (commits lost by the server, or the schema reset): folding again from there',
    );
    this.name = 'StoredPositionBehindError';
  }
}

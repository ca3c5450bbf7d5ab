/**
 * The read models key rounds and tickets by Postgres `bigint`: an id above this cannot be stored, so
 * it cannot exist, and asking the database would only raise an out-of-range error.
 */
export const STORED_ID_MAX = 2n ** 63n - 1n;

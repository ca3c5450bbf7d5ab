/** The Nest provider token of the `ReadModelQueries` the Data API reads (Postgres in production). */
export const READ_MODEL_QUERIES = Symbol('ReadModelQueries');

import { types } from 'pg';

type TypeId = Parameters<typeof types.getTypeParser>[0];
/** Postgres's type ids of numeric[] and text[] (pg's TypeId enum names scalar types only). */
const NUMERIC_ARRAY_OID = 1231;
const TEXT_ARRAY_OID = 1009 as TypeId;
/** node-postgres's own parser of text[]: the elements as the strings Postgres sent. */
const parseTextArray = types.getTypeParser(TEXT_ARRAY_OID, 'text');

/**
 * The type parsers of every read-model connection: node-postgres's defaults, except numeric[]. Its default
 * parses each element with `parseFloat`, so an amount or a referral split above 2^53 came back rounded
 * (split 333333333333333333 read as 333333333333333312) and the projector folded the rounded value. Like
 * numeric itself, numeric[] now arrives as strings, which the mappers turn into exact bigints.
 */
export const exactNumericArrays = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === NUMERIC_ARRAY_OID && format !== 'binary'
      ? parseTextArray
      : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

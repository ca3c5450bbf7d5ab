// Ponder requires an API file; this is its default: GraphQL over the indexed tables.
import { Hono } from 'hono';
import { graphql } from 'ponder';
import { db } from 'ponder:api';
import schema from 'ponder:schema';

const app = new Hono();
app.use('/graphql', graphql({ db, schema }));

export default app;

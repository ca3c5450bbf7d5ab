import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Hex } from '@lottery/domain';
import type { FastifyRequest } from 'fastify';
import { ADDRESS_PIPE } from './address.pipe';
import { PAGE_QUERY, type PageRequest } from './page-query.pipe';
import { ROUND_ID_PIPE } from './round-id.pipe';

/*
 * A list's parameters, checked together: the path's in their order, then the query, so a request with
 * several bad parts is told about the first one (`/v1/wallets/bad/tickets/rounds/x?limit=y`: the
 * address). Pipes on separate parameters would not do: Nest runs them last parameter first.
 */

function partsOf(context: ExecutionContext): { path: Record<string, string>; query: Record<string, unknown> } {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return { path: request.params as Record<string, string>, query: request.query as Record<string, unknown> };
}

export interface RoundListRequest {
  roundId: bigint;
  page: PageRequest;
}

export interface WalletListRequest {
  address: Hex;
  page: PageRequest;
}

export interface WalletRoundListRequest {
  address: Hex;
  roundId: bigint;
  page: PageRequest;
}

/** `/v1/rounds/:roundId/…?cursor&limit` */
export const RoundList = createParamDecorator((_: unknown, context: ExecutionContext): RoundListRequest => {
  const { path, query } = partsOf(context);
  return { roundId: ROUND_ID_PIPE.transform(path['roundId']), page: PAGE_QUERY.transform(query) };
});

/** `/v1/wallets/:address/…?cursor&limit` */
export const WalletList = createParamDecorator((_: unknown, context: ExecutionContext): WalletListRequest => {
  const { path, query } = partsOf(context);
  return { address: ADDRESS_PIPE.transform(path['address']), page: PAGE_QUERY.transform(query) };
});

/** `/v1/wallets/:address/…/rounds/:roundId?cursor&limit` */
export const WalletRoundList = createParamDecorator((_: unknown, context: ExecutionContext): WalletRoundListRequest => {
  const { path, query } = partsOf(context);
  return {
    address: ADDRESS_PIPE.transform(path['address']),
    roundId: ROUND_ID_PIPE.transform(path['roundId']),
    page: PAGE_QUERY.transform(query),
  };
});

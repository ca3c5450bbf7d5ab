import { applyDecorators, type Type } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { PATTERNS } from './dto/api-properties';
import { ErrorEnvelopeDto } from './dto/error.dto';
import { COMMON_HEADER_NAMES, headerRefs, type ResponseHeader } from './openapi-headers';
import { DEFAULT_LIMIT, MAX_LIMIT } from './params/page-query.pipe';

/** Statuses every operation can answer, whatever its parameters. */
const COMMON_ERRORS: Record<number, { description: string; headers?: ResponseHeader[] }> = {
  401: {
    description: '`unauthorized` (Authorization is not `Bearer <key>`) or `invalid_api_key`',
    headers: ['WWW-Authenticate'],
  },
  403: { description: '`revoked_api_key` or `key_environment_mismatch`' },
  405: { description: '`method_not_allowed`', headers: ['Allow'] },
  429: { description: '`rate_limited`', headers: ['Retry-After'] },
  500: { description: '`internal_error`' },
  503: { description: '`upstream_unavailable`: a backing service is unreachable', headers: ['Retry-After'] },
};

const PARAM_ERRORS: Record<number, string> = {
  400: '`invalid_request`, `invalid_address` or `invalid_cursor`',
  404: '`not_found`: the round does not exist',
};

export type PathParam = 'roundId' | 'address';

export interface DataApiOperationOptions {
  operationId: string;
  summary: string;
  description?: string;
  ok: Type<unknown>;
  params?: PathParam[];
  paginated?: boolean;
  /** Settled-round resources: documents ETag, Cache-Control and 304. */
  cacheable?: boolean;
  /** Extra meaning of 503 for this operation. */
  unavailable?: string;
}

const PARAM_DECORATORS: Record<PathParam, MethodDecorator> = {
  roundId: ApiParam({
    name: 'roundId',
    description: 'Round identifier (digits)',
    schema: { type: 'string', pattern: PATTERNS.roundId, minLength: 1 },
  }),
  address: ApiParam({
    name: 'address',
    description: 'Wallet address, any letter case',
    schema: { type: 'string', pattern: PATTERNS.address },
  }),
};

const PAGINATION_DECORATORS = [
  ApiQuery({
    name: 'cursor',
    required: false,
    description: 'The `next_cursor` of the previous page of this same list; omit for the first page',
    schema: { type: 'string', pattern: PATTERNS.cursor, minLength: 1 },
  }),
  ApiQuery({
    name: 'limit',
    required: false,
    description: `Page size, default ${DEFAULT_LIMIT}; integers outside 1..${MAX_LIMIT} are clamped`,
    // no minimum or maximum: a client or gateway generated from them would refuse what the API clamps
    schema: { type: 'integer', default: DEFAULT_LIMIT },
  }),
];

/**
 * The OpenAPI description of one Data API operation: parameters, the 200 body, and every status the
 * operation can answer with its error envelope and headers. Kept next to the controllers so the
 * committed openapi/v1.json changes in the same commit as the behaviour.
 */
export function DataApiOperation(o: DataApiOperationOptions): MethodDecorator {
  const params = o.params ?? [];
  const okHeaders = headerRefs(...COMMON_HEADER_NAMES, ...(o.cacheable ? (['ETag', 'Cache-Control'] as const) : []));
  const paramErrors = [
    ...(params.length > 0 || o.paginated ? [400] : []),
    ...(params.includes('roundId') ? [404] : []),
  ];
  const error = (status: number, description: string, headers: ResponseHeader[] = []) =>
    ApiResponse({
      status,
      description,
      type: ErrorEnvelopeDto,
      headers: headerRefs(...COMMON_HEADER_NAMES, ...headers),
    });

  return applyDecorators(
    ApiOperation({ operationId: o.operationId, summary: o.summary, description: o.description }),
    ...params.map((p) => PARAM_DECORATORS[p]),
    ...(o.paginated ? PAGINATION_DECORATORS : []),
    ApiResponse({ status: 200, description: 'OK', type: o.ok, headers: okHeaders }),
    ...(o.cacheable
      ? [ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched)', headers: okHeaders })]
      : []),
    ...paramErrors.map((status) => error(status, PARAM_ERRORS[status])),
    ...Object.entries(COMMON_ERRORS).map(([status, e]) =>
      error(
        Number(status),
        status === '503' && o.unavailable ? `${e.description}; ${o.unavailable}` : e.description,
        e.headers,
      ),
    ),
  );
}

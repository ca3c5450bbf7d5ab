import { applyDecorators, type Type } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PlainErrorDto } from './plain-error.dto';

export interface PlainApiOperationOptions {
  operationId: string;
  summary: string;
  description?: string;
  /** The 200 body: one schema, or several the body is exactly one of. */
  ok: Type<unknown> | Type<unknown>[];
  params?: ApiParamSpec[];
  /** Each error status and what it means here; the body is `{error: string}` unless another type is given. */
  errors: Record<number, string | { description: string; type: Type<unknown> }>;
}

export interface ApiParamSpec {
  name: string;
  description: string;
  pattern: string;
}

/**
 * The OpenAPI description of an operation of the `{error: string}` groups (daily pool, partner): its path
 * parameters, its 200 body, and each error status with the group's error body. Kept next to the
 * controllers so the committed document changes with the behaviour.
 */
export function PlainApiOperation(o: PlainApiOperationOptions): MethodDecorator {
  const ok = Array.isArray(o.ok)
    ? ApiResponse({ status: 200, description: 'OK', schema: { oneOf: o.ok.map((t) => ({ $ref: getSchemaPath(t) })) } })
    : ApiResponse({ status: 200, description: 'OK', type: o.ok });
  return applyDecorators(
    ApiOperation({ operationId: o.operationId, summary: o.summary, description: o.description }),
    ...(o.params ?? []).map((p) =>
      ApiParam({ name: p.name, description: p.description, schema: { type: 'string', pattern: p.pattern } }),
    ),
    ok,
    ...Object.entries(o.errors).map(([status, error]) =>
      typeof error === 'string'
        ? ApiResponse({ status: Number(status), description: error, type: PlainErrorDto })
        : ApiResponse({ status: Number(status), description: error.description, type: error.type }),
    ),
  );
}

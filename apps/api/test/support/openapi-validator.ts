import Ajv, { type ValidateFunction } from 'ajv';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Operation {
  template: string;
  regex: RegExp;
  params: number;
  responses: Record<string, JsonObject>;
}

export interface CheckedResponse {
  method: string;
  url: string;
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * Checks responses against the served OpenAPI 3.0 document: the status is documented for the
 * operation, the body matches its schema, required headers are present. Requests no operation
 * matches (unknown paths, other methods) must carry the documented error envelope.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly operations: Operation[];
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly headers: Record<string, JsonObject>;

  constructor(served: object) {
    const document = served as JsonObject;
    const components = document['components'] as JsonObject;
    this.headers = (components['headers'] ?? {}) as Record<string, JsonObject>;
    // OpenAPI 3.0 schemas are almost JSON Schema: `nullable` is the difference that matters here.
    this.ajv.addSchema({ components: { schemas: toJsonSchema(components['schemas']) } }, 'openapi');
    this.operations = Object.entries(document['paths'] as Record<string, JsonObject>).flatMap(([template, item]) =>
      item['get']
        ? [
            {
              template,
              regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
              params: (template.match(/\{/g) ?? []).length,
              responses: (item['get'] as JsonObject)['responses'] as Record<string, JsonObject>,
            },
          ]
        : [],
    );
  }

  /** Throws a descriptive error when the response breaks the document. */
  check(response: CheckedResponse): void {
    const path = response.url.split('?')[0];
    const where = `${response.method} ${response.url} → ${response.statusCode}`;
    const operation = ['GET', 'HEAD'].includes(response.method)
      ? this.operations.filter((o) => o.regex.test(path)).sort((a, b) => a.params - b.params)[0]
      : undefined;
    if (!operation) {
      if (response.statusCode < 400) throw new Error(`${where}: success for an undocumented operation`);
      if (response.method === 'HEAD') this.checkNoBody(where, response);
      else this.checkBody(where, response, { $ref: '#/components/schemas/ErrorEnvelopeDto' });
      return;
    }
    const documented = operation.responses[String(response.statusCode)];
    if (!documented) throw new Error(`${where}: status not documented for GET ${operation.template}`);
    for (const [name, header] of Object.entries((documented['headers'] ?? {}) as Record<string, JsonObject>)) {
      const definition = this.resolveHeader(header);
      if (definition['required'] === true && response.headers[name.toLowerCase()] === undefined) {
        throw new Error(`${where}: required header ${name} missing`);
      }
    }
    const schema = (
      (documented['content'] as JsonObject | undefined)?.['application/json'] as JsonObject | undefined
    )?.['schema'] as JsonObject | undefined;
    if (response.method === 'HEAD' || response.statusCode === 304) {
      this.checkNoBody(where, response);
      return;
    }
    if (!schema) throw new Error(`${where}: the document has no body schema for this response`);
    this.checkBody(where, response, schema);
  }

  private resolveHeader(header: JsonObject): JsonObject {
    const ref = header['$ref'];
    return typeof ref === 'string' ? this.headers[ref.split('/').pop() ?? ''] : header;
  }

  private checkNoBody(where: string, response: CheckedResponse): void {
    if (response.body !== '') throw new Error(`${where}: expected no body`);
  }

  /** `schema` is a `$ref` or, for a body that is one of several schemas, a `oneOf` of `$ref`s. */
  private checkBody(where: string, response: CheckedResponse, schema: JsonObject): void {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as JsonObject);
      this.compiled.set(key, validate);
    }
    const body: unknown = JSON.parse(response.body);
    if (!validate(body)) {
      throw new Error(
        `${where}: body does not match ${key}: ${this.ajv.errorsText(validate.errors)}\n${response.body}`,
      );
    }
  }
}

/**
 * OpenAPI 3.0.3 → JSON Schema. `nullable: true` adds null to the schema's own `type` (and `enum`) and
 * does nothing without one: next to `allOf`/`$ref` it does not make the referenced schema accept null.
 * `$ref`s are rewritten to the registered `openapi` schema.
 */
function toJsonSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema;
  const converted: JsonObject = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' ? value.replace('#', 'openapi#') : toJsonSchema(value),
    ]),
  );
  if (nullable !== true || typeof converted['type'] !== 'string') return converted;
  const type = [converted['type'], 'null'];
  const values = converted['enum'];
  return Array.isArray(values) ? { ...converted, type, enum: [...values, null] } : { ...converted, type };
}

/**
 * The read models live in one Postgres schema whose name is configuration (default `lottery`), and a
 * replay builds the next generation in `<schema>_next`. Identifiers cannot be bound as parameters, so
 * the name is validated once here and every SQL text interpolates only validated names.
 */
export const DEFAULT_READ_SCHEMA = 'lottery';

/** The longest schema name any read-model generation may have. */
const NAME_MAX_LENGTH = 51;
const identifierOfAtMost = (length: number) => new RegExp(`^[a-z_][a-z0-9_]{0,${length - 1}}$`);
const IDENTIFIER = identifierOfAtMost(NAME_MAX_LENGTH);

export function readSchemaName(name: string = DEFAULT_READ_SCHEMA): string {
  if (!IDENTIFIER.test(name)) {
    throw new RangeError(`read-model schema must match ${IDENTIFIER} (lowercase identifier), got "${name}"`);
  }
  return name;
}

const GENERATION_SUFFIX = /_(next|retired)$/;
/** The longest live schema name whose replay generations (`_retired`, the longer suffix) are valid too. */
const SETTING_MAX_LENGTH = NAME_MAX_LENGTH - '_retired'.length;
const SETTING = identifierOfAtMost(SETTING_MAX_LENGTH);

/**
 * Why `name` cannot be the live schema an operator configures (READ_SCHEMA), or null. A replay of schema
 * `x` builds `x_next` and parks the old generation in `x_retired`, so both must be valid names too; and it
 * drops both at its start as an interrupted replay's leftovers: a deployment whose schema is named so
 * could lose its read models to another deployment's replay in the same database.
 */
export function readSchemaSettingProblem(name: string): string | null {
  if (!SETTING.test(name)) {
    return (
      `"${name}" is not a schema name a replay can work with: use 1 to ${SETTING_MAX_LENGTH} lowercase letters, ` +
      'digits or _, not starting with a digit (a replay appends _next and _retired)'
    );
  }
  const stem = name.replace(GENERATION_SUFFIX, '');
  if (stem !== name) {
    return `cannot end in _next or _retired ("${name}"): a replay of the schema "${stem}" builds and drops schemas of those names`;
  }
  return null;
}

/** The schema a replay builds into before it is switched in. */
export function nextSchemaName(schema: string): string {
  return readSchemaName(`${schema}_next`);
}

/** Where the previous generation is parked during the switch, dropped right after it. */
export function retiredSchemaName(schema: string): string {
  return readSchemaName(`${schema}_retired`);
}

/** The schema a TypeORM data source was created for (validated when the source was created). */
export function schemaOf(dataSource: { options: object }): string {
  const { schema } = dataSource.options as { schema?: string };
  return readSchemaName(schema);
}

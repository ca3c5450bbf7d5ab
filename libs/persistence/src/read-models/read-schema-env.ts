import { z } from 'zod';
import { DEFAULT_READ_SCHEMA, readSchemaSettingProblem } from './schema-name';

/** READ_SCHEMA as the API, the projector and the ops commands read it from their environment. */
export const READ_SCHEMA_ENV = z
  .string()
  .superRefine((name, ctx) => {
    const problem = readSchemaSettingProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .default(DEFAULT_READ_SCHEMA);

/**
 * Reading parsed YAML without trusting its shape: a field that is missing or of another type reads as
 * empty, so a check reports what is wrong with a manifest instead of throwing on it.
 */
export type YamlMap = Record<string, unknown>;

export const mapOf = (value: unknown): YamlMap =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as YamlMap) : {};

export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const textOf = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : String(value);

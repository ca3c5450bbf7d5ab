/** What @Deprecated records on a route, and the response headers it turns into. */
export interface DeprecationMetadata {
  sinceMs: number;
  sunsetMs: number;
  link: string | null;
}

export const DEPRECATION_METADATA = 'lottery:deprecation';

export function deprecationHeaders(metadata: DeprecationMetadata): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(metadata.sinceMs / 1000)}`,
    Sunset: new Date(metadata.sunsetMs).toUTCString(),
    ...(metadata.link ? { Link: `<${metadata.link}>; rel="deprecation"` } : {}),
  };
}

/**
 * One thing the API needs before it should receive traffic. The database check is wired in main.ts;
 * a projector-lag check (read models too far behind the chain) plugs in the same way.
 */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves when ready; rejects (with a short reason) when not. */
  check(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('ReadinessChecks');

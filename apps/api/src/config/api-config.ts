import { isDataApiEnvironment, KEY_WORD_PATTERN, PARTNER_KEY_WORD, READ_SCHEMA_ENV } from '@lottery/persistence';
import { ConfigError, LOG_LEVEL_ENV, setVariables, type LogLevel } from '@lottery/telemetry';
import { z } from 'zod';
import { parseGwei } from 'viem';
import { SPEC_TIER_LIMITS, type TierLimits } from '../rate-limit/tier-limits';
import { type GiveawaysConfig, giveawaysPresenceProblems, resolveGiveawaysConfig } from './giveaways-config';

/** Fastify's `trustProxy`: off, all hops, a hop count, or the addresses/CIDRs of trusted proxies. */
export type TrustProxy = boolean | number | string[];

export interface ApiConfig {
  port: number;
  host: string;
  databaseUrl: string;
  /** Postgres schema of the read models. */
  readSchema: string;
  /** No Redis means in-memory rate limits, exact only within this one process. */
  redisUrl: string | null;
  redisKeyPrefix: string;
  /** First word of every API key, `<KEY_PREFIX>_<environment>_…`. */
  keyPrefix: string;
  /** Keys of other environments are refused with 403 key_environment_mismatch. */
  environment: string;
  /** Whether `X-Forwarded-For` names the client (only behind a proxy that sets it). */
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  rateLimits: TierLimits;
  /** The partner giveaway's chain and signer; null = not configured, its endpoints answer 503. */
  giveaways: GiveawaysConfig | null;
  /** /health/ready URLs of the indexer and projector the API's readiness waits for (none by default). */
  pipelineReadyUrls: string[];
  /** How long a key lookup is reused (0 = never); changes to keys drop the cache at once anyway. */
  apiKeyCacheTtlMs: number;
  /** How long a request's body may take to arrive (every body is read and ignored). */
  requestBodyTimeoutMs: number;
}

const PROXY_ADDRESS = /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/;

const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((raw, ctx): TrustProxy => {
    if (raw === undefined || raw === '' || raw === 'false') return false;
    if (raw === 'true') return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    const addresses = raw.split(',').map((a) => a.trim());
    if (addresses.every((a) => PROXY_ADDRESS.test(a))) return addresses;
    ctx.addIssue({
      code: 'custom',
      message: 'expected true, false, a hop count, or a comma-separated list of IPs/CIDRs',
    });
    return z.NEVER;
  });

const url = (protocols: string[]) =>
  z.url({ protocol: new RegExp(`^(${protocols.join('|')})$`) }).describe(`a ${protocols.join('/')} URL`);

const keyWord = (what: string) =>
  z.string().regex(KEY_WORD_PATTERN, `${what} must be a lowercase word (a-z, 0-9, starting with a letter, at most 16)`);

const ENV_SCHEMA = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: url(['postgres', 'postgresql']),
  READ_SCHEMA: READ_SCHEMA_ENV,
  REDIS_URL: url(['redis', 'rediss']).optional(),
  REDIS_KEY_PREFIX: z.string().min(1).max(64).default('lottery:'),
  KEY_PREFIX: keyWord('KEY_PREFIX').default('lt'),
  API_ENVIRONMENT: keyWord('API_ENVIRONMENT')
    .refine(isDataApiEnvironment, `API_ENVIRONMENT cannot be "${PARTNER_KEY_WORD}": partner keys use that word`)
    .default('live'),
  TRUST_PROXY: trustProxy,
  LOG_LEVEL: LOG_LEVEL_ENV,
  RPC_URL: url(['http', 'https']).optional(),
  CHAIN_ID: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  RANDOM_TICKET_BUYER_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex characters')
    .optional(),
  // The message never echoes the value: it is a secret.
  OPERATOR_PRIVATE_KEY: z
    .string()
    .regex(/^(0x[0-9a-fA-F]{64}|anvil)$/, 'must be 0x followed by 64 hex characters, or "anvil"')
    .optional(),
  PARTNER_JOB_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  PARTNER_MAX_FEE_GWEI: z
    .string()
    .regex(/^\d+(\.\d{1,9})?$/, 'must be a number of gwei (up to 9 decimals: 1 wei), e.g. 0.5')
    .transform((gwei) => parseGwei(gwei))
    .refine((wei) => wei > 0n, 'must be above 0')
    .optional(),
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  PIPELINE_READY_URLS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const urls = (raw ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
      if (urls.every((u) => /^https?:\/\/\S+$/.test(u))) return urls;
      ctx.addIssue({ code: 'custom', message: 'expected a comma-separated list of http(s) URLs' });
      return z.NEVER;
    }),
});

/** The validated variables, for the deployment-manifest and README checks. */
export const API_ENV_SCHEMA = ENV_SCHEMA;
/** Every variable the API reads. */
export const API_ENV_KEYS: readonly string[] = Object.keys(ENV_SCHEMA.shape);

/** Reads and validates the environment once at start-up; every problem is reported, not just the first. */
export function loadApiConfig(env: NodeJS.ProcessEnv): ApiConfig {
  const present = setVariables(env);
  const parsed = ENV_SCHEMA.safeParse(present);
  const problems = [
    ...(parsed.error?.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`) ?? []),
    ...giveawaysPresenceProblems(present),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError('api', problems);
  const e = parsed.data;
  const giveaways = resolveGiveawaysConfig(e);
  if (giveaways.problems.length > 0) throw new ConfigError('api', giveaways.problems);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    readSchema: e.READ_SCHEMA,
    redisUrl: e.REDIS_URL ?? null,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    keyPrefix: e.KEY_PREFIX,
    environment: e.API_ENVIRONMENT,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    rateLimits: SPEC_TIER_LIMITS,
    giveaways: giveaways.config,
    pipelineReadyUrls: e.PIPELINE_READY_URLS,
    apiKeyCacheTtlMs: e.API_KEY_CACHE_TTL_MS,
    requestBodyTimeoutMs: e.REQUEST_BODY_TIMEOUT_MS,
  };
}

/** The Nest provider token of the validated config. */
export const API_CONFIG = Symbol('ApiConfig');

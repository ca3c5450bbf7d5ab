/** What `api-keys` and `partners` read, for their --help. */
export const ACCOUNTS_ENVIRONMENT_HELP = [
  '',
  'Environment: DATABASE_URL (default: the embedded instance; DATA_DIR names its folder), KEY_PREFIX',
  "(default lt): the API's own, or the keys printed here answer 401 there.",
].join('\n');

/** The prefix of the API keys the CLI makes: the API's KEY_PREFIX, or its keys answer 401 there. */
export function keyPrefix(): string {
  return process.env['KEY_PREFIX'] || 'lt';
}

import { contractVariables } from '@lottery/chain';
import type { ChainTarget } from './pipeline-config';

/**
 * A value as `sh` reads it back verbatim: bare when it is plain (URLs, hex, numbers), else single-quoted.
 * compose's services evaluate the file's lines (docker/compose.yml): a value must never run as a command.
 */
function shellWord(name: string, value: string): string {
  // the services pick their lines with grep: one variable, one line
  if (/[\n\r]/.test(value)) throw new Error(`${name} holds a line break: it cannot go in the deployment file`);
  return /^[\w.:/@%+,=-]*$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The deployment file `ops start --chain-only --deployment-env` writes for compose's other services. */
export function deploymentEnvFile(chain: ChainTarget, rpcUrl: string): string {
  const c = chain.contracts;
  const variables: [string, string][] = [
    ['RPC_URL', rpcUrl],
    ['CHAIN_ID', String(chain.chainId)],
    ['START_BLOCK', String(chain.startBlock)],
    ...Object.entries(contractVariables(c)).map(([name, value]): [string, string] => [name, value ?? '']),
    ['OPERATOR_PRIVATE_KEY', chain.operatorPrivateKey ?? ''],
  ];
  return variables.map(([name, value]) => `${name}=${shellWord(name, value)}\n`).join('');
}

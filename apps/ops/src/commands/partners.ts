import type { Command } from 'commander';
import type { Hex } from '@lottery/domain';
import { type GrantRecord, type PartnerRecord, PartnersService, withAccountsDatabase } from '@lottery/persistence';
import { ACCOUNTS_ENVIRONMENT_HELP, keyPrefix } from '../accounts-environment';
import { databaseUrl } from '../connection';
import { print } from '../output';
import { count, displayText, positiveCount, positiveInt, walletAddress } from './options';

function withPartners<T>(work: (partners: PartnersService) => Promise<T>): Promise<T> {
  return withAccountsDatabase(databaseUrl(), (dataSource) => work(new PartnersService(dataSource, keyPrefix())));
}

function describePartner(p: PartnerRecord): string {
  const state = p.active ? '' : '  disabled';
  return `${p.id}  ${p.keyHint}  ${p.name}  ${p.quantityLeft} left, at most ${p.perWalletMax} per wallet${state}`;
}

/** A grant as the operator sees it: not its signed transaction (long, and the service re-sends it itself). */
const SHOWN_GRANT_FIELDS = [
  'id',
  'wallet',
  'status',
  'txHash',
  'replacedTxHashes',
  'error',
  'createdAt',
  'updatedAt',
] as const;

type ShownGrant = Pick<GrantRecord, (typeof SHOWN_GRANT_FIELDS)[number]>;

function shownGrant(g: GrantRecord): ShownGrant {
  return Object.fromEntries(SHOWN_GRANT_FIELDS.map((field) => [field, g[field]])) as ShownGrant;
}

function describeGrant(g: GrantRecord): string {
  const tx = g.txHash ? `  tx ${g.txHash}` : '';
  // the grant's other transactions of its nonce (replaced as the network's fees rose; unmined once it succeeded)
  const others = g.replacedTxHashes.length ? `  same nonce ${g.replacedTxHashes.join(', ')}` : '';
  const error = g.error ? `  error: ${g.error}` : '';
  return `${g.createdAt.toISOString()}  ${g.id}  ${g.wallet}  ${g.status}${tx}${others}${error}`;
}

/** `ops partners …`: partner accounts of the free ticket API (keys stored hashed, shown once). */
export function registerPartners(program: Command): void {
  const partners = program
    .command('partners')
    .description(
      'create, list, top up, disable and enable partner accounts of the free ticket API, rotate their keys; list their grants',
    )
    .addHelpText('after', ACCOUNTS_ENVIRONMENT_HELP);

  partners
    .command('create')
    .description('create a partner and print its API key once')
    .requiredOption('--name <text>', 'who the partner is', displayText)
    .requiredOption('--quantity <n>', 'free tickets the partner may give away', count)
    .requiredOption('--per-wallet <n>', 'most free tickets one wallet may get from this partner', positiveCount)
    .option('--json', 'print {"id","apiKey"}')
    .action(async (o: { name: string; quantity: number; perWallet: number; json?: boolean }) => {
      const issued = await withPartners((s) =>
        s.create({ name: o.name, quantity: o.quantity, perWalletMax: o.perWallet }),
      );
      print(!!o.json, { id: issued.record.id, apiKey: issued.key }, () =>
        [
          `partner created (its API key is shown only once, store it now):`,
          `  ${issued.key}`,
          describePartner(issued.record),
        ].join('\n'),
      );
    });

  partners
    .command('list')
    .description('list partners with what they have left (never their keys)')
    .option('--json', 'print a JSON array')
    .action(async (o: { json?: boolean }) => {
      const list = await withPartners((s) => s.list());
      print(!!o.json, list, () => (list.length ? list.map(describePartner).join('\n') : 'no partners'));
    });

  partners
    .command('update')
    .description('add free tickets and/or change the per-wallet maximum')
    .argument('<id>', 'partner id', positiveInt)
    .option('--add-quantity <n>', 'free tickets to add to what is left', positiveCount)
    .option('--per-wallet <n>', 'new per-wallet maximum', positiveCount)
    .option('--json', 'print the partner record')
    .action(async (id: number, o: { addQuantity?: number; perWallet?: number; json?: boolean }) => {
      const record = await withPartners((s) => s.update(id, { addQuantity: o.addQuantity, perWalletMax: o.perWallet }));
      print(!!o.json, record, () => `updated ${describePartner(record)}`);
    });

  partners
    .command('grants')
    .description(
      "list a partner's free ticket grants, oldest first: pending, sent (its transaction signed and sent), " +
        'succeeded, or failed (with the error; the ticket was given back)',
    )
    .argument('<id>', 'partner id', positiveInt)
    .option('--wallet <address>', "only this wallet's grants", walletAddress)
    .option('--json', `print a JSON array of {${SHOWN_GRANT_FIELDS.map((f) => `"${f}"`).join(',')}}`)
    .action(async (id: number, o: { wallet?: Hex; json?: boolean }) => {
      const list = await withPartners(async (s) => {
        await s.get(id); // an unknown partner is an error, not an empty list
        return s.grants({ partnerId: id, wallet: o.wallet });
      });
      print(!!o.json, list.map(shownGrant), () => (list.length ? list.map(describeGrant).join('\n') : 'no grants'));
    });

  partners
    .command('disable')
    .description('disable a partner: its key then answers 401; grants under way still complete')
    .argument('<id>', 'partner id', positiveInt)
    .option('--json', 'print the partner record')
    .action(async (id: number, o: { json?: boolean }) => {
      const record = await withPartners((s) => s.disable(id));
      print(!!o.json, record, () => `disabled ${describePartner(record)}`);
    });

  partners
    .command('enable')
    .description('enable a disabled partner again: its key works again')
    .argument('<id>', 'partner id', positiveInt)
    .option('--json', 'print the partner record')
    .action(async (id: number, o: { json?: boolean }) => {
      const record = await withPartners((s) => s.enable(id));
      print(!!o.json, record, () => `enabled ${describePartner(record)}`);
    });

  partners
    .command('rotate-key')
    .description(
      'issue the partner a new API key; the old one answers 401 at once (its account, tickets and grants stay)',
    )
    .argument('<id>', 'partner id', positiveInt)
    .option('--json', 'print {"id","apiKey"}')
    .action(async (id: number, o: { json?: boolean }) => {
      const issued = await withPartners((s) => s.rotateKey(id));
      print(!!o.json, { id: issued.record.id, apiKey: issued.key }, () =>
        [
          `new key for partner ${id} (shown only once, store it now; the old one no longer works):`,
          `  ${issued.key}`,
          describePartner(issued.record),
        ].join('\n'),
      );
    });
}

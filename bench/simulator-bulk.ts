/**
 * Bulk-mode benchmark: `npx nx run contracts:bulk [-- <events>]`. Starts anvil with a 1G block gas limit, deploys,
 * produces at least <events> lottery events (default 200,000) and prints one summary line.
 */
import { deployLottery, simulateBulk, startAnvil } from '@lottery/contracts';

async function main(): Promise<void> {
  const targetEvents = Number(process.argv[2] ?? 200_000);
  const anvil = await startAnvil({ gasLimit: 1_000_000_000n });
  try {
    const deployment = await deployLottery(anvil.rpcUrl);
    const result = await simulateBulk(anvil.rpcUrl, deployment, { seed: 'benchmark', targetEvents });
    console.log(
      `bulk: ${result.events} events (${result.tickets} tickets, ${result.orders} orders, ${result.drawings} draws, ` +
        `${result.blocks} blocks) in ${result.seconds.toFixed(1)} s = ${result.eventsPerSecond} events/s`,
    );
  } finally {
    await anvil.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

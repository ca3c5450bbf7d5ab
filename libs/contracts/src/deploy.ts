/**
 * Deploys the local lottery to an RPC whose node signs for the deployer (anvil's dev accounts): the token, the
 * Jackpot and its satellites, wired together, with the deployer's initial LP deposit and drawing 1 open.
 */
import {
  type Abi,
  type Address,
  type ContractConstructorArgs,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  maxUint256,
} from 'viem';
import { DEFAULT_LOTTERY_CONFIG, type LotteryConfig } from './lottery-config';
import { type LotteryAddresses, LOTTERY_ABIS } from './lottery-abis';
import {
  dailyTicketPoolBytecode,
  jackpotBytecode,
  lpManagerBytecode,
  payoutCalculatorBytecode,
  randomTicketBuyerBytecode,
  ticketNftBytecode,
  usdcBytecode,
} from './generated/artifacts';
import { connectLotteryRpc, type LotteryRpc } from './rpc/lottery-rpc';

export interface DeployOptions {
  /** A node-managed account; default: the node's first account (anvil's dev account 0). */
  deployer?: Address;
  config?: Partial<LotteryConfig>;
  /** Unix seconds of drawing 1's draw; default: the latest block's time + one drawing duration. */
  firstDrawingTime?: bigint;
}

export interface LotteryDeployment {
  chainId: number;
  /** Block of the first contract creation: where an indexer starts (START_BLOCK). */
  deployBlock: bigint;
  /** Owner of the Jackpot and the daily pool: settles draws, operates the pool, receives protocol fees. */
  deployer: Address;
  addresses: LotteryAddresses;
  config: LotteryConfig;
  firstDrawingTime: bigint;
}

/** The calculator's uint256[12] constructor argument. */
type TierArray = ContractConstructorArgs<typeof LOTTERY_ABIS.payoutCalculator>[1];

function tierArray(values: readonly bigint[]): TierArray {
  if (values.length !== 12) throw new Error(`tierMultiples needs one multiple per tier (12), got ${values.length}`);
  return values as unknown as TierArray;
}

async function deployContract<const abi extends Abi>(
  rpc: LotteryRpc,
  from: Address,
  abi: abi,
  bytecode: `0x${string}`,
  args: ContractConstructorArgs<abi>,
): Promise<{ address: Address; block: bigint }> {
  const data = encodeDeployData({ abi, bytecode, args } as Parameters<typeof encodeDeployData>[0]);
  const receipt = await rpc.execute({ from, data });
  if (!receipt.contractAddress)
    throw new Error(`deployment transaction ${receipt.transactionHash} created no contract`);
  return { address: getAddress(receipt.contractAddress), block: receipt.blockNumber };
}

export async function deployLottery(rpcUrl: string, options: DeployOptions = {}): Promise<LotteryDeployment> {
  const rpc = await connectLotteryRpc(rpcUrl);
  const config: LotteryConfig = { ...DEFAULT_LOTTERY_CONFIG, ...options.config };
  const deployer = options.deployer ?? (await rpc.walletClient.getAddresses())[0];
  if (!deployer) throw new Error(`the node at ${rpcUrl} manages no account to deploy from`);

  const usdc = await deployContract(rpc, deployer, LOTTERY_ABIS.usdc, usdcBytecode, []);
  const jackpot = await deployContract(rpc, deployer, LOTTERY_ABIS.jackpot, jackpotBytecode, [
    {
      ticketPrice: config.ticketPrice,
      normalBallMax: config.normalBallMax,
      bonusballMax: config.bonusballMax,
      drawingDurationInSeconds: config.drawingDurationSeconds,
      lpEdgeTarget: config.lpEdgeTarget,
      reserveRatio: config.reserveRatio,
      referralFee: config.referralFee,
      referralWinShare: config.referralWinShare,
      protocolFee: config.protocolFee,
      protocolFeeThreshold: config.protocolFeeThreshold,
      maxReferrers: config.maxReferrers,
    },
  ]);
  const satellites = [jackpot.address] as const;
  const lpManager = await deployContract(rpc, deployer, LOTTERY_ABIS.lpManager, lpManagerBytecode, satellites);
  const payoutCalculator = await deployContract(
    rpc,
    deployer,
    LOTTERY_ABIS.payoutCalculator,
    payoutCalculatorBytecode,
    [jackpot.address, tierArray(config.tierMultiples)],
  );
  const ticketNft = await deployContract(rpc, deployer, LOTTERY_ABIS.ticketNft, ticketNftBytecode, satellites);
  const randomTicketBuyer = await deployContract(
    rpc,
    deployer,
    LOTTERY_ABIS.randomTicketBuyer,
    randomTicketBuyerBytecode,
    [jackpot.address, usdc.address],
  );
  const dailyTicketPool = await deployContract(rpc, deployer, LOTTERY_ABIS.dailyTicketPool, dailyTicketPoolBytecode, [
    jackpot.address,
    randomTicketBuyer.address,
    ticketNft.address,
    usdc.address,
  ]);
  const addresses: LotteryAddresses = {
    usdc: usdc.address,
    jackpot: jackpot.address,
    lpManager: lpManager.address,
    payoutCalculator: payoutCalculator.address,
    ticketNft: ticketNft.address,
    randomTicketBuyer: randomTicketBuyer.address,
    dailyTicketPool: dailyTicketPool.address,
  };

  const call = (to: Address, data: `0x${string}`) => rpc.execute({ from: deployer, to, data });
  const jackpotCall = (data: `0x${string}`) => call(addresses.jackpot, data);
  const usdcCall = (data: `0x${string}`) => call(addresses.usdc, data);
  const abi = LOTTERY_ABIS;

  await jackpotCall(
    encodeFunctionData({
      abi: abi.jackpot,
      functionName: 'initialize',
      args: [addresses.usdc, addresses.lpManager, addresses.ticketNft, addresses.payoutCalculator, deployer],
    }),
  );
  await usdcCall(
    encodeFunctionData({
      abi: abi.usdc,
      functionName: 'mint',
      args: [deployer, config.initialLpDeposit + config.operatorFloat],
    }),
  );
  // The deployer also operates the daily pool, which pulls the pool tickets' price from it.
  for (const spender of [addresses.jackpot, addresses.dailyTicketPool]) {
    await usdcCall(encodeFunctionData({ abi: abi.usdc, functionName: 'approve', args: [spender, maxUint256] }));
  }
  await jackpotCall(
    encodeFunctionData({ abi: abi.jackpot, functionName: 'lpDeposit', args: [config.initialLpDeposit] }),
  );

  const latest = await rpc.publicClient.getBlock();
  const firstDrawingTime = options.firstDrawingTime ?? latest.timestamp + config.drawingDurationSeconds;
  await jackpotCall(
    encodeFunctionData({ abi: abi.jackpot, functionName: 'initializeJackpot', args: [firstDrawingTime] }),
  );

  return { chainId: rpc.chainId, deployBlock: usdc.block, deployer, addresses, config, firstDrawingTime };
}

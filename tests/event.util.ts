/**
 * Fixture of the TVM to TVM event specs: a destination sandbox with the source network's real
 * LiteClient and TransactionChecker (deployed from a SyntheticChain's genesis key block), a test
 * emitter standing in for the source proxy (contracts/test/event_emitter.tact), an Alien and a
 * Native TvmTvmEventConfiguration, and treasuries standing in for the destination proxies.
 */
import { Blockchain, BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';
import { makeValidatorSet, ValidatorSet } from '../harness/validators';
import { SyntheticChain } from '../harness/chain';
import { LiteClient } from '../wrappers/LiteClient';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { TokenType, TvmTvmEventConfiguration, TvmTvmNetworkConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import { MultiVaultTvmTvmEventAlien } from '../wrappers/MultiVaultTvmTvmEventAlien';
import { MultiVaultTvmTvmEventNative } from '../wrappers/MultiVaultTvmTvmEventNative';
import { externalOutIndices, proofDataCell, TvmTvmEventFields, tvmTvmEventBody } from '../wrappers/tvmTvmEvent';
import { TestEventEmitter, storeTestEmit, storeTestSend } from '../build/TestEventEmitter/tact_TestEventEmitter';

/** global_id of the source network (the proven blocks) and of this (destination) network. */
export const SRC_CHAIN = -239;
export const DST_CHAIN = 2000;
export const T0 = 1_700_000_000;
/** sandbox time when the source events are emitted (their created_at) */
export const T_EMIT = T0 + 1000;
export const EVENT_INITIAL_BALANCE = toNano('0.6');
export const DEPLOY_VALUE = toNano('1');

export interface Codes {
    config: Cell;
    alien: Cell;
    native: Cell;
    lc: Cell;
    tc: Cell;
}

let codes: Promise<Codes> | undefined;
export function eventCodes(): Promise<Codes> {
    codes ??= (async () => ({
        config: compiledCode('TvmTvmEventConfiguration'),
        alien: compiledCode('MultiVaultTvmTvmEventAlien'),
        native: compiledCode('MultiVaultTvmTvmEventNative'),
        lc: compiledCode('LiteClient'),
        tc: compiledCode('TransactionChecker'),
    }))();
    return codes;
}

export function computeGas(tx: BlockchainTransaction): number {
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') return 0;
    return Number(d.computePhase.gasUsed);
}

export function addr(a: { toString(): string } | null | undefined): string {
    return a ? a.toString() : '';
}

export interface EventFixture {
    blockchain: Blockchain;
    codes: Codes;
    set: ValidatorSet;
    chain: SyntheticChain;
    deployer: SandboxContract<TreasuryContract>;
    owner: SandboxContract<TreasuryContract>;
    user: SandboxContract<TreasuryContract>;
    alienProxy: SandboxContract<TreasuryContract>;
    nativeProxy: SandboxContract<TreasuryContract>;
    liteClient: SandboxContract<LiteClient>;
    checker: SandboxContract<TransactionChecker>;
    emitter: SandboxContract<TestEventEmitter>;
    alienConfig: SandboxContract<TvmTvmEventConfiguration>;
    nativeConfig: SandboxContract<TvmTvmEventConfiguration>;
    /** deploys another configuration (overrides on the Alien one) */
    makeConfig(
        o?: Partial<Omit<Parameters<typeof TvmTvmEventConfiguration.createFromConfig>[0], 'network'>> & {
            network?: Partial<TvmTvmNetworkConfiguration>;
        },
    ): Promise<SandboxContract<TvmTvmEventConfiguration>>;
    /** emits `body` (after `first`, if any) from `emitter`; returns the emitter's transaction */
    emit(body: Cell, o?: { first?: Cell; emitter?: SandboxContract<TestEventEmitter> }): Promise<BlockchainTransaction>;
    /** a second emitter (not configured anywhere) */
    otherEmitter(): Promise<SandboxContract<TestEventEmitter>>;
    /** proof_data of a source transaction, in a block of `chain` (basechain shard block by default) */
    prove(
        tx: Cell,
        o?: {
            shard?: boolean;
            chain?: SyntheticChain;
            signWith?: ValidatorSet;
            signers?: number[];
            keepTransactionCell?: boolean;
        },
    ): Cell;
    alienEvent(msgHash: bigint, configuration?: Address): SandboxContract<MultiVaultTvmTvmEventAlien>;
    nativeEvent(msgHash: bigint, configuration?: Address): SandboxContract<MultiVaultTvmTvmEventNative>;
    /** eventFields with the fixture's user as recipient and sender, its deployer as token */
    fields(o?: Partial<TvmTvmEventFields>): TvmTvmEventFields;
    /** emits a TvmTvm event of `kind` (TvmTvmNative: for the Alien configuration) and proves it */
    sourceEvent(
        kind?: 'native' | 'alien',
        o?: Partial<TvmTvmEventFields>,
        emitOpts?: Parameters<EventFixture['emit']>[1],
    ): Promise<SourceEvent>;
    /** deploy_tvm_event of `ev` to `cfg` (the Alien configuration by default) from `via` (the user) */
    deploy(
        cfg: SandboxContract<TvmTvmEventConfiguration> | undefined,
        ev: { msgHash: bigint; index: number; proof: Cell },
        value?: bigint,
        via?: SandboxContract<TreasuryContract>,
    ): ReturnType<SandboxContract<TvmTvmEventConfiguration>['sendDeployTvmEvent']>;
}

/** A proven source event: its body, the emitter's transaction, its out message index and hash, proof_data. */
export interface SourceEvent {
    body: Cell;
    tx: BlockchainTransaction;
    index: number;
    msgHash: bigint;
    proof: Cell;
}

export function eventFields(
    o?: Partial<TvmTvmEventFields>,
    who?: { recipient: Address; sender: Address; token: Address },
): TvmTvmEventFields {
    const zero = new Address(0, Buffer.alloc(32, 1));
    return {
        destinationChainId: DST_CHAIN,
        amount: 1_000_000_000n,
        recipient: who?.recipient ?? zero,
        value: toNano('0.3'),
        expectedGas: toNano('0.1'),
        token: {
            token: who?.token ?? zero,
            nativeProxyWallet: new Address(0, Buffer.alloc(32, 7)),
            name: 'Tether USD',
            symbol: 'USDT',
            decimals: 6,
        },
        transfer: {
            sender: who?.sender ?? zero,
            remainingGasTo: who?.sender ?? zero,
            payload: beginCell().storeUint(0xabcdef, 24).endCell(),
        },
        ...o,
    };
}

export async function eventFixture(o?: { validators?: number; signers?: number }): Promise<EventFixture> {
    const c = await eventCodes();
    const blockchain = await Blockchain.create();
    blockchain.now = T_EMIT;
    const deployer = await blockchain.treasury('deployer');
    const owner = await blockchain.treasury('owner');
    const user = await blockchain.treasury('user');
    const alienProxy = await blockchain.treasury('alien-proxy');
    const nativeProxy = await blockchain.treasury('native-proxy');
    const n = o?.validators ?? 9;
    const set = makeValidatorSet({ size: n, main: n, seed: 'event', utimeSince: T0, utimeUntil: T0 + 1_000_000 });
    const chain = new SyntheticChain({ globalId: SRC_CHAIN, validators: set, startUtime: T0 + 10 });
    const liteClient = blockchain.openContract(LiteClient.createFromKeyBlock(chain.genesisKeyBlock().proof, c.lc));
    await liteClient.sendDeploy(deployer.getSender(), toNano('1'));
    const checker = blockchain.openContract(
        TransactionChecker.createFromConfig({ liteClient: liteClient.address }, c.tc),
    );
    await checker.sendDeploy(deployer.getSender(), toNano('1'));

    let emitterId = 1n;
    async function newEmitter() {
        const e = blockchain.openContract(await TestEventEmitter.fromInit(emitterId++));
        await e.send(deployer.getSender(), { value: toNano('1') }, null);
        return e;
    }
    const emitter = await newEmitter();

    async function makeConfig(ov?: Parameters<EventFixture['makeConfig']>[0]) {
        const tokenType = ov?.tokenType ?? TokenType.Alien;
        const cfg = blockchain.openContract(
            await TvmTvmEventConfiguration.createFromConfig({
                owner: ov?.owner ?? owner.address,
                tokenType,
                ownChainId: ov?.ownChainId ?? DST_CHAIN,
                transactionChecker: ov?.transactionChecker ?? checker.address,
                eventInitialBalance: ov?.eventInitialBalance ?? EVENT_INITIAL_BALANCE,
                eventCode: ov?.eventCode ?? (tokenType === TokenType.Alien ? c.alien : c.native),
                meta: ov?.meta ?? beginCell().storeUint(tokenType, 8).endCell(),
                network: {
                    chainId: SRC_CHAIN,
                    eventEmitter: emitter.address,
                    proxy: tokenType === TokenType.Alien ? alienProxy.address : nativeProxy.address,
                    startTimestamp: T0,
                    endTimestamp: 0,
                    ...ov?.network,
                },
            }),
        );
        const r = await cfg.sendDeploy(deployer.getSender(), toNano('0.1'));
        expect(r.transactions).toHaveTransaction({ to: cfg.address, deploy: true, success: true });
        return cfg;
    }
    const alienConfig = await makeConfig();
    const nativeConfig = await makeConfig({ tokenType: TokenType.Native });

    async function emit(body: Cell, eo?: { first?: Cell; emitter?: SandboxContract<TestEventEmitter> }) {
        const e = eo?.emitter ?? emitter;
        const r = await e.send(
            user.getSender(),
            { value: toNano('0.1') },
            { $$type: 'TestEmit', first: eo?.first ?? null, body },
        );
        const tx = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === e.address.toString())!;
        expect(externalOutIndices(tx.raw).length).toBeGreaterThan(0);
        return tx;
    }

    function prove(
        tx: Cell,
        po?: {
            shard?: boolean;
            chain?: SyntheticChain;
            signWith?: ValidatorSet;
            signers?: number[];
            keepTransactionCell?: boolean;
        },
    ) {
        const ch = po?.chain ?? chain;
        const b = ch.blockWithTransactions([tx], {
            shard: po?.shard ?? true,
            keepTransactionCell: po?.keepTransactionCell ?? true,
            signWith: po?.signWith,
            signers: po?.signers,
        });
        return proofDataCell({ transaction: tx, txProof: b.txProof, currentBlock: b.currentBlock });
    }

    const fields = (fo?: Partial<TvmTvmEventFields>) =>
        eventFields(fo, { recipient: user.address, sender: user.address, token: deployer.address });

    async function sourceEvent(
        kind: 'native' | 'alien' = 'native',
        fo?: Partial<TvmTvmEventFields>,
        emitOpts?: Parameters<EventFixture['emit']>[1],
    ) {
        const body = tvmTvmEventBody(kind, fields(fo));
        const tx = await emit(body, emitOpts);
        const index = emitOpts?.first ? 1 : 0;
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, index);
        return { body, tx, index, msgHash, proof: prove(tx.raw) };
    }

    async function deploy(
        cfg = alienConfig,
        ev: { msgHash: bigint; index: number; proof: Cell },
        value = DEPLOY_VALUE,
        via = user,
    ) {
        return cfg.sendDeployTvmEvent(via.getSender(), {
            value,
            msgHash: ev.msgHash,
            outMsgIndex: ev.index,
            remainingGasTo: via.address,
            proof: ev.proof,
        });
    }

    return {
        blockchain,
        codes: c,
        set,
        chain,
        deployer,
        owner,
        user,
        alienProxy,
        nativeProxy,
        liteClient,
        checker,
        emitter,
        alienConfig,
        nativeConfig,
        makeConfig,
        emit,
        otherEmitter: newEmitter,
        prove,
        alienEvent: (h, cfg) =>
            blockchain.openContract(
                MultiVaultTvmTvmEventAlien.createForEvent(c.alien, h, cfg ?? alienConfig.address, SRC_CHAIN),
            ),
        nativeEvent: (h, cfg) =>
            blockchain.openContract(
                MultiVaultTvmTvmEventNative.createForEvent(c.native, h, cfg ?? nativeConfig.address, SRC_CHAIN),
            ),
        fields,
        sourceEvent,
        deploy,
    };
}

export { storeTestEmit, storeTestSend, tvmTvmEventBody };

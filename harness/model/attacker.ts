/**
 * The attacker's moves and invariants of the model-based test (tests/model.spec.ts), an extension of
 * harness/model.ts (BridgeModel.extensions). A stranger on each network, who has no part in any
 * transfer, sends at any moment of a random sequence:
 *   - deploy_tvm_event for someone else's transfer (its own remaining_gas_to), with a genuine proof
 *     (the one the destination LiteClient can check now) or a forged one (a block the source network
 *     never produced, signed by a set the LiteClient does not hold), and too little value (below the
 *     configuration's eventInitialBalance: 2213, bounced; or exactly it with a proof padded with
 *     junk cells, whose forward fees it does not cover: the configuration deploys the Event, which
 *     refuses the proof, 2317, and stays Initializing), or plenty; before the honest delivery or
 *     after it (2321);
 *   - a transfer's genuine proof replayed where it does not belong: on the source network's
 *     configuration of the same kind (2221) or the destination's configuration of the other kind
 *     (2220), bounced;
 *   - check_transaction straight to the TransactionChecker: a valid proof of a transfer's
 *     transaction, a forged one, an oversized one (a fake block of its own with hundreds of junk
 *     cells and skipped signature entries), or the same request again (duplicate); with the value
 *     its size asks for or the bare minimum (206, bounced).
 * Each move predicts the Event's status (BridgeModel.expected) or the checker's answer and fails
 * the step when the chain does otherwise.
 *
 * Invariants (checked after every step, over every transaction the two sandboxes ran since the last
 * check, grouped by trace: the message tree a treasury's external message, or an injected internal
 * message, started):
 *   (f) honest-value: no honest payer loses value to another party. Every TON of a trace's messages
 *       is traced to who started it: in a trace an honest actor (a user, a provider, the owner, the
 *       credit backend, the sync service) started, no stranger receives anything; in a trace a
 *       stranger started, the strangers receive at most what they sent in it. So a stranger never
 *       ends up with an honest party's value, whatever it left in an Event or the checker before.
 *       Per actor the ledger keeps what it sent and what came back (reported by the test).
 *   (g) checker-answer: every check_transaction the TransactionChecker received (from an Event or
 *       from anyone) is answered in its trace, to its sender, with transaction_checked or
 *       transaction_check_failed carrying its query_id, or bounced (its value back); per sender the
 *       requests and answers are counted. The checker keeps no value: its balance never rises
 *       above what it held when the sequence started.
 * (The checker's storage staying bounded is invariant (d) of harness/model.ts.)
 */
import { Address, Cell, toNano } from '@ton/core';
import { BlockchainTransaction, internal, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { BridgeModel, ModelExtension, ModelOp, ModelTransfer, Net, USERS, PROVIDER, Violation } from '../model';
import { exitCodeOf } from '../bridge';
import { decodeTvmTvmEvent, deployTvmEventBody } from '../transfer';
import { proofDataCell } from '../../lib/proofPayload';
import { verifierView } from '../../lib/proofSource';
import { fakeBlockRequest, fwdFeeOfBody, remainingFwdFee, tcSeenFwdFee } from '../checkerRequests';
import { TC_MIN_VALUE, TransactionChecker, tcRequiredValue } from '../../wrappers/TransactionChecker';
import { TvmTvmEventConfiguration } from '../../wrappers/TvmTvmEventConfiguration';
import { EventStatus } from '../../wrappers/eventStatus';
import { Errors, Op } from '../../wrappers/constants';

const other = (n: Net): Net => (n === 'A' ? 'B' : 'A');

/** What a stranger attaches to deploy_tvm_event. */
export type DeployValue = 'below-initial' | 'padded' | 'plenty';
export type CheckKind = 'valid' | 'forged' | 'oversized' | 'duplicate';

const PLENTY = toNano('3');
/** below the configurations' eventInitialBalance: refused by the configuration (2213) */
const BELOW_INITIAL = TvmTvmEventConfiguration.DEFAULT_EVENT_INITIAL_BALANCE - toNano('0.1');

const BOUNCE_OP = 0xffffffff;
/** junk cells of a padded proof: its forward fee (4 of them count in what process_proof needs) passes 0.1 TON */
const PADDING_CELLS = 3000;

interface Ledger {
    /** TON the actor sent in the traces it started */
    sent: bigint;
    /** TON that came back to it in those traces */
    back: bigint;
    traces: number;
}

interface CheckCount {
    requests: number;
    checked: number;
    failed: number;
    bounced: number;
}

/** The answer a check_transaction got in its trace. */
type Answer = 'checked' | 'failed' | 'bounced';

interface LastRequest {
    net: Net;
    body: Cell;
    value: bigint;
    expect: Answer;
}

/** CPU seconds (user + system) of this process since `c0` */
export function cpuSince(c0: NodeJS.CpuUsage): number {
    const d = process.cpuUsage(c0);
    return (d.user + d.system) / 1e6;
}

function bodyOp(body: Cell | undefined): { op: number; queryId: bigint | null } | null {
    if (!body) return null;
    const s = body.beginParse();
    if (s.remainingBits < 32) return null;
    const op = s.loadUint(32);
    return { op, queryId: s.remainingBits >= 64 ? s.loadUintBig(64) : null };
}

export class Attacker implements ModelExtension {
    stranger!: Record<Net, SandboxContract<TreasuryContract>>;
    /** per network: raw address -> name of the honest actors and of the strangers */
    private names: Record<Net, Map<string, string>> = { A: new Map(), B: new Map() };
    private strangers: Record<Net, Set<string>> = { A: new Set(), B: new Set() };
    private cursors: Record<Net, number> = { A: 0, B: 0 };
    private checkerBalance0: Record<Net, bigint> = { A: 0n, B: 0n };
    /** per `${net}.${name}`: the traces the actor started */
    readonly ledger = new Map<string, Ledger>();
    /** per `${net}.${sender name or address}`: check_transaction requests and their answers */
    readonly checks = new Map<string, CheckCount>();
    /** moves made, by kind and variant (reported by the test) */
    readonly moves = new Map<string, number>();
    private last?: LastRequest;
    private nextQuery = 1n;
    /** CPU seconds this process spent in the strangers' moves and in (f) and (g) */
    readonly cpu = { moves: 0, checks: 0 };

    constructor(readonly m: BridgeModel) {}

    /** Funds the strangers and names the actors; run after BridgeModel.start(). */
    async start(): Promise<void> {
        const m = this.m;
        for (const n of ['A', 'B'] as Net[]) {
            const net = m.net(n);
            this.stranger = { ...this.stranger, [n]: await net.treasury('stranger') };
            const name = (a: Address, who: string) => this.names[n].set(a.toRawString(), who);
            for (const u of [...USERS.A, ...USERS.B]) {
                const c = m.users.get(`${n}.${u}`);
                if (c) name(c.address, u);
            }
            const p = m.users.get(`${n}.${PROVIDER}`);
            if (p) name(p.address, PROVIDER);
            name(m.side(n).owner.address, 'owner');
            name(m.dir(other(n)).backendWallet.address, 'credit-backend');
            name((await net.treasury('sync-service')).address, 'sync-service');
            for (const s of [this.stranger[n], m.forger[n]]) {
                this.strangers[n].add(s.address.toRawString());
            }
            name(this.stranger[n].address, 'stranger');
            name(m.forger[n].address, 'forger');
            this.cursors[n] = net.transactions.length;
            this.checkerBalance0[n] = (await net.blockchain.getContract(m.side(n).transactionChecker.address)).balance;
        }
    }

    private count(kind: string) {
        this.moves.set(kind, (this.moves.get(kind) ?? 0) + 1);
    }

    // ------------------------------------------------------------ moves

    /**
     * A stranger deploys (or triggers) the Event of `t` on its destination with its own
     * remaining_gas_to. Genuine: the proof the destination LiteClient can check now (no sync of its
     * own); forged: a block the source never produced, signed by a set the LiteClient does not hold.
     */
    async deploy(t: ModelTransfer, proof: 'genuine' | 'forged', value: DeployValue): Promise<void> {
        const c0 = process.cpuUsage();
        try {
            await this.deployNow(t, proof, value);
        } finally {
            this.cpu.moves += cpuSince(c0);
        }
    }

    private async deployNow(t: ModelTransfer, proof: 'genuine' | 'forged', value: DeployValue): Promise<void> {
        const m = this.m;
        m.log(`stranger-deploy #${t.id} ${value === 'padded' ? '' : `${proof} `}${value}`);
        this.count(`deploy ${value === 'padded' ? '' : `${proof} `}${value}`);
        const src = m.net(t.from);
        const dst = m.side(t.to);
        let proofData: Cell;
        if (value === 'padded') {
            // the transfer's transaction in a block of the attacker's own, padded with junk cells:
            // the configuration's checks pass (the block's global_id, the message), and the Event
            // gets a process_proof whose forward fee the flat eventInitialBalance does not cover
            const fake = fakeBlockRequest(t.found.transaction.raw, {
                globalId: src.globalId,
                seqno: 2_000_000 + m.steps.length,
                genUtime: src.now,
                junkCells: PADDING_CELLS,
                skipped: 1,
                seed: `${m.rng.seed}/pad/${m.steps.length}`,
            });
            proofData = proofDataCell(fake.transaction, fake.txProof, fake.currentBlock);
        } else
            proofData = (
                proof === 'genuine'
                    ? src.proofFor(t.found.transaction, await verifierView(dst.liteClient))
                    : src.forgeProof(t.found.transaction, { signWith: src.strangerValidatorSet() })
            ).proofData;
        const s = this.stranger[t.to];
        const body = deployTvmEventBody({
            msgHash: t.found.messageHash,
            outMsgIndex: t.found.outMessageIndex,
            remainingGasTo: s.address,
            proofData,
        });
        const cfg = m.pair.route(m.side(t.from), decodeTvmTvmEvent(t.found.eventBody));
        const attached =
            value === 'plenty'
                ? PLENTY
                : value === 'padded'
                  ? TvmTvmEventConfiguration.DEFAULT_EVENT_INITIAL_BALANCE
                  : BELOW_INITIAL;
        const reaches = proof === 'genuine' && (await m.liteClientReaches(t));
        await s.send({ to: cfg.address, value: attached, body });

        // below eventInitialBalance: the configuration bounces it (2213), nothing changes
        if (value === 'below-initial') return;
        // the Event exists from here on (the configuration deploys it with process_proof)
        if (value === 'padded') {
            // the Event refuses the proof (2317: less than process_proof needs), its value back
            if (t.expected.status === null) t.expected = { ...t.expected, status: EventStatus.Initializing };
            return;
        }
        if (!m.takesProof(t)) return; // 2321: the value back, nothing changes
        if (reaches) {
            await m.confirmOutcome(t, false);
            return;
        }
        // refused by the LiteClient: a Verified Event (an earlier check proved it) stays Verified
        if (t.expected.status !== EventStatus.Verified)
            t.expected = { ...t.expected, status: EventStatus.Rejected, finalReject: false };
    }

    /**
     * A stranger takes the genuine proof of `t` (the one that delivers it) to where it does not
     * belong: to the configuration of the same kind on the SOURCE network (which takes the other
     * network's events: the proven block is of its own network, 2221), or to the destination's
     * configuration of the other kind (which takes the other proxy's events: 2220). Refused by the
     * configuration, bounced to the stranger: no Event, nothing changes.
     */
    async replay(t: ModelTransfer, where: 'other-network' | 'other-configuration'): Promise<void> {
        const c0 = process.cpuUsage();
        try {
            const m = this.m;
            m.log(`stranger-replay #${t.id} ${where}`);
            this.count(`replay ${where}`);
            const src = m.net(t.from);
            const ev = decodeTvmTvmEvent(t.found.eventBody);
            const proven = src.proofFor(t.found.transaction, await verifierView(m.side(t.to).liteClient));
            const right = m.pair.route(m.side(t.from), ev);
            const net: Net = where === 'other-network' ? t.from : t.to;
            const cfg =
                where === 'other-network'
                    ? m.pair.route(m.side(t.to), ev)
                    : right === m.side(t.to).alienConfig
                      ? m.side(t.to).nativeConfig
                      : m.side(t.to).alienConfig;
            const s = this.stranger[net];
            const body = deployTvmEventBody({
                msgHash: t.found.messageHash,
                outMsgIndex: t.found.outMessageIndex,
                remainingGasTo: s.address,
                proofData: proven.proofData,
            });
            const r = await s.send({ to: cfg.address, value: PLENTY, body });
            const want =
                where === 'other-network'
                    ? Errors.eventConfiguration.wrongDispatchChainId
                    : Errors.eventConfiguration.senderIsNotEventEmitter;
            const atCfg = r.transactions.find((x) => x.inMessage?.info.dest?.toString() === cfg.address.toString());
            const code = atCfg && exitCodeOf(atCfg);
            const bounced = r.transactions.some((x) => {
                const i = x.inMessage?.info;
                return i?.type === 'internal' && i.bounced && i.src.equals(cfg.address) && i.dest.equals(s.address);
            });
            if (code !== want || !bounced)
                throw new Error(
                    `replay #${t.id} ${where}: the configuration exited ${code}${bounced ? '' : ' without a bounce'}, expected ${want}`,
                );
        } finally {
            this.cpu.moves += cpuSince(c0);
        }
    }

    /**
     * A stranger sends check_transaction straight to the TransactionChecker of `net` (which checks
     * `other(net)`'s blocks), as an internal message with its real forward fee. `enough`: the value
     * the request's size asks for (tcRequiredValue) and a little more; else the bare TC_MIN_VALUE,
     * short by the forward fees (206: bounced).
     */
    async checkTransaction(net: Net, kind: CheckKind, enough: boolean): Promise<void> {
        const c0 = process.cpuUsage();
        try {
            await this.checkTransactionNow(net, kind, enough);
        } finally {
            this.cpu.moves += cpuSince(c0);
        }
    }

    private async checkTransactionNow(net: Net, kind: CheckKind, enough: boolean): Promise<void> {
        const m = this.m;
        const src = m.net(other(net));
        const side = m.side(net);
        if (kind === 'duplicate' && this.last && this.last.net === net) {
            m.log(`stranger-check ${net} duplicate`);
            this.count('check duplicate');
            await this.sendCheck(net, this.last.body, this.last.value, this.last.expect);
            return;
        }
        if (kind === 'duplicate') kind = 'valid';
        // a transfer's source transaction, else any transaction the source network ran
        const ts = m.transfers.filter((x) => x.from === other(net));
        const t = ts.length ? m.rng.pick(ts) : undefined;
        const tx = t ? t.found.transaction : src.transactions[src.transactions.length - 1];
        let req: { transaction: Cell; txProof: Cell; currentBlock: Cell };
        let expect: Answer;
        let what: string = kind;
        if (kind === 'valid' && t) {
            req = src.proofFor(tx, await verifierView(side.liteClient));
            expect = (await m.liteClientReaches(t)) ? 'checked' : 'failed';
        } else if (kind === 'oversized') {
            const junkCells = 200 + m.rng.int(600);
            const skipped = 10 + m.rng.int(240);
            req = fakeBlockRequest(tx.raw, {
                globalId: src.globalId,
                seqno: 1_000_000 + m.rng.int(1_000_000),
                genUtime: src.now,
                junkCells,
                skipped,
                seed: `${m.rng.seed}/${m.steps.length}`,
            });
            expect = 'failed';
            what = `oversized (${junkCells} junk cells, ${skipped} skipped signatures)`;
        } else {
            req = src.forgeProof(tx, { signWith: src.strangerValidatorSet() });
            expect = 'failed';
            what = 'forged';
        }
        const body = TransactionChecker.checkTransactionMessage(
            req.transaction,
            req.txProof,
            req.currentBlock,
            this.nextQuery++,
        );
        const value = enough ? tcRequiredValue(tcSeenFwdFee(fwdFeeOfBody(body))) + toNano('0.05') : TC_MIN_VALUE;
        if (!enough) expect = 'bounced';
        m.log(`stranger-check ${net} ${what}${t ? ` of #${t.id}` : ''}${enough ? '' : ' short'}`);
        this.count(`check ${kind}${enough ? '' : ' short'}`);
        this.last = { net, body, value, expect };
        await this.sendCheck(net, body, value, expect);
    }

    private async sendCheck(net: Net, body: Cell, value: bigint, expect: Answer): Promise<void> {
        const m = this.m;
        const s = this.stranger[net];
        const checker = m.side(net).transactionChecker.address;
        const r = await m.net(net).blockchain.sendMessage(
            internal({
                from: s.address,
                to: checker,
                value,
                bounce: true,
                body,
                forwardFee: remainingFwdFee(fwdFeeOfBody(body)),
            }),
        );
        const q = bodyOp(body)!.queryId;
        const answers = r.transactions.filter((x) => {
            const i = x.inMessage?.info;
            return i?.type === 'internal' && i.src.equals(checker) && i.dest.equals(s.address);
        });
        const got: Answer[] = answers.flatMap((x): Answer[] => {
            const i = x.inMessage!.info;
            const b = bodyOp(x.inMessage!.body);
            if (i.type === 'internal' && i.bounced) return ['bounced'];
            if (b?.queryId !== q) return [];
            if (b.op === Op.transactionChecker.transactionChecked) return ['checked'];
            if (b.op === Op.transactionChecker.transactionCheckFailed) return ['failed'];
            return [];
        });
        if (got.length !== 1 || got[0] !== expect)
            throw new Error(`check_transaction on ${net}: expected ${expect}, got ${got.join(', ') || 'no answer'}`);
    }

    ops(ops: ModelOp[]): void {
        const m = this.m;
        const r = m.rng;
        if (m.transfers.length) {
            const open = m.open();
            ops.push([
                2.5,
                'stranger-deploy',
                () => {
                    // mostly someone's open transfer (before the honest delivery), else one delivered
                    const t = open.length && r.chance(0.75) ? r.pick(open) : r.pick(m.transfers);
                    return this.deploy(
                        t,
                        r.chance(0.5) ? 'genuine' : 'forged',
                        r.weighted([
                            [1, 'below-initial'],
                            [1.5, 'padded'],
                            [3, 'plenty'],
                        ] as const),
                    );
                },
            ]);
            ops.push([
                1,
                'stranger-replay',
                () => this.replay(r.pick(m.transfers), r.chance(0.5) ? 'other-network' : 'other-configuration'),
            ]);
        }
        ops.push([
            2,
            'stranger-check',
            () =>
                this.checkTransaction(
                    r.pick(['A', 'B'] as Net[]),
                    r.weighted([
                        [3, 'valid'],
                        [2, 'forged'],
                        [2, 'oversized'],
                        [1.5, 'duplicate'],
                    ] as const),
                    r.chance(0.75),
                ),
        ]);
    }

    // ------------------------------------------------------------ invariants

    /** (f) and (g) over the transactions run since the last check. */
    async check(): Promise<Violation[]> {
        const c0 = process.cpuUsage();
        try {
            return await this.checkNow();
        } finally {
            this.cpu.checks += cpuSince(c0);
        }
    }

    private async checkNow(): Promise<Violation[]> {
        const out: Violation[] = [];
        for (const n of ['A', 'B'] as Net[]) {
            const net = this.m.net(n);
            const all = net.transactions;
            if (all.length < this.cursors[n]) this.cursors[n] = 0; // a restored snapshot
            const fresh = all.slice(this.cursors[n]);
            this.cursors[n] = all.length;
            const traces = new Map<BlockchainTransaction, BlockchainTransaction[]>();
            for (const tx of fresh) {
                let root = tx;
                while (root.parent) root = root.parent;
                const list = traces.get(root);
                if (list) list.push(tx);
                else traces.set(root, [tx]);
            }
            for (const [root, txs] of traces) out.push(...this.traceValue(n, root, txs), ...this.traceChecks(n, txs));
            const bal = (await net.blockchain.getContract(this.m.side(n).transactionChecker.address)).balance;
            if (bal > this.checkerBalance0[n])
                out.push({
                    invariant: 'checker-answer',
                    message: `${n}: the TransactionChecker holds ${bal}, more than its ${this.checkerBalance0[n]} at the start (value kept)`,
                });
        }
        return out;
    }

    /** (f) one trace: who started it, what the strangers got, the starter's ledger. */
    private traceValue(n: Net, root: BlockchainTransaction, txs: BlockchainTransaction[]): Violation[] {
        const ri = root.inMessage?.info;
        // the starter: a treasury's external message (its own transaction), or an injected internal message
        let starter: string | undefined;
        let sent = 0n;
        if (ri?.type === 'external-in') {
            starter = ri.dest.toRawString();
            for (const msg of root.outMessages.values()) if (msg.info.type === 'internal') sent += msg.info.value.coins;
        } else if (ri?.type === 'internal') {
            starter = ri.src.toRawString();
            sent = ri.value.coins;
        }
        if (!starter) return [];
        const received = new Map<string, bigint>();
        for (const tx of txs) {
            if (tx === root && ri?.type === 'external-in') continue;
            const i = tx.inMessage?.info;
            if (i?.type !== 'internal' || tx === root) continue;
            const to = i.dest.toRawString();
            received.set(to, (received.get(to) ?? 0n) + i.value.coins);
        }
        const name = (a: string) => this.names[n].get(a) ?? a.slice(0, 10);
        const key = `${n}.${name(starter)}`;
        const l = this.ledger.get(key) ?? { sent: 0n, back: 0n, traces: 0 };
        l.sent += sent;
        l.back += received.get(starter) ?? 0n;
        l.traces++;
        this.ledger.set(key, l);

        const out: Violation[] = [];
        const strangersGot = [...this.strangers[n]].reduce((a, s) => a + (received.get(s) ?? 0n), 0n);
        if (this.strangers[n].has(starter)) {
            if (strangersGot > sent)
                out.push({
                    invariant: 'honest-value',
                    message: `${n}: a trace the ${name(starter)} started sent ${sent} and brought the strangers ${strangersGot} (${strangersGot - sent} of others' value)`,
                });
        } else if (strangersGot > 0n) {
            out.push({
                invariant: 'honest-value',
                message: `${n}: a trace ${name(starter)} started brought the strangers ${strangersGot}`,
            });
        }
        return out;
    }

    /** (g) one trace: every check_transaction the checker received is answered to its sender. */
    private traceChecks(n: Net, txs: BlockchainTransaction[]): Violation[] {
        const checker = this.m.side(n).transactionChecker.address;
        const out: Violation[] = [];
        const requests: { sender: Address; queryId: bigint | null }[] = [];
        const replies: { to: Address; kind: Answer; queryId: bigint | null }[] = [];
        for (const tx of txs) {
            const i = tx.inMessage?.info;
            if (i?.type === 'internal' && i.dest.equals(checker) && !i.bounced) {
                const b = bodyOp(tx.inMessage!.body);
                if (b?.op === Op.transactionChecker.checkTransaction)
                    requests.push({ sender: i.src, queryId: b.queryId });
            }
            if (i?.type === 'internal' && i.src.equals(checker)) {
                const b = bodyOp(tx.inMessage!.body);
                if (i.bounced) {
                    // bounce body: 0xffffffff, then the request's first bits (op, query_id)
                    const s = tx.inMessage!.body.beginParse();
                    if (
                        s.remainingBits >= 64 &&
                        s.loadUint(32) === BOUNCE_OP &&
                        s.loadUint(32) === Op.transactionChecker.checkTransaction
                    )
                        replies.push({
                            to: i.dest,
                            kind: 'bounced',
                            queryId: s.remainingBits >= 64 ? s.loadUintBig(64) : null,
                        });
                } else if (b?.op === Op.transactionChecker.transactionChecked)
                    replies.push({ to: i.dest, kind: 'checked', queryId: b.queryId });
                else if (b?.op === Op.transactionChecker.transactionCheckFailed)
                    replies.push({ to: i.dest, kind: 'failed', queryId: b.queryId });
            }
        }
        const events = new Set(this.m.transfers.filter((t) => t.to === n).map((t) => t.eventAddress.toRawString()));
        // an Event's requests are counted together (`Events`), a stranger's under its name
        const name = (a: Address) =>
            this.names[n].get(a.toRawString()) ??
            (events.has(a.toRawString()) ? 'Events' : a.toRawString().slice(0, 10));
        for (const q of requests) {
            const c = this.checks.get(`${n}.${name(q.sender)}`) ?? { requests: 0, checked: 0, failed: 0, bounced: 0 };
            c.requests++;
            const k = replies.findIndex((r) => r.to.equals(q.sender) && r.queryId === q.queryId);
            if (k < 0) {
                out.push({
                    invariant: 'checker-answer',
                    message: `${n}: check_transaction of ${name(q.sender)} (query ${q.queryId}) neither answered nor bounced`,
                });
            } else {
                c[replies[k].kind]++;
                replies.splice(k, 1);
            }
            this.checks.set(`${n}.${name(q.sender)}`, c);
        }
        return out;
    }

    /** Lines for the test's report: the moves, the checker's requests and answers, the ledger. */
    report(): string[] {
        const fmt = (x: bigint) => (Number(x) / 1e9).toFixed(3);
        const lines = [
            `attacker moves: ${
                [...this.moves.entries()]
                    .sort()
                    .map(([k, v]) => `${k} ${v}`)
                    .join(', ') || 'none'
            }`,
            `checker requests (requests: checked / failed / bounced): ${[...this.checks.entries()]
                .sort()
                .map(([k, c]) => `${k} ${c.requests}: ${c.checked}/${c.failed}/${c.bounced}`)
                .join(', ')}`,
            `TON per actor (sent -> back in its own traces): ${[...this.ledger.entries()]
                .filter(([k]) => !/\.[0-9a-f:-]{10}$/.test(k))
                .sort()
                .map(([k, l]) => `${k} ${fmt(l.sent)} -> ${fmt(l.back)}`)
                .join(', ')}`,
        ];
        return lines;
    }
}

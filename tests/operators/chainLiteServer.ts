/**
 * A lite server over a simulated network's sealed blocks (harness/chain.ts): the masterchain
 * blocks, the shard chains' blocks (several per masterchain block, across splits and merges) and
 * the masterchain states, answered over the TL interface as fixtureLiteServer.ts answers; and a
 * signature provider giving each sealed block's signatures by its own set. Lets the lite-server
 * proof source (lib/liteServerSource.ts) run on histories the real fixtures do not hold.
 */
import { SignatureProvider } from '../../lib/liteServerSource';
import { TvmNetwork } from '../../harness/network';
import { FixtureLiteServer } from './fixtureLiteServer';

export class ChainLiteServer extends FixtureLiteServer {
    private seen = '';

    constructor(readonly network: TvmNetwork) {
        super();
        this.stateOf = (seqno) => this.network.chain.history.find((h) => h.block.seqno === seqno)?.state;
    }

    /** the chain as it is now (it grows, and a test may restore an earlier snapshot) */
    protected refresh(): void {
        const h = this.network.chain.history;
        const mark = `${h.length}:${h.length ? h[h.length - 1].block.rootHash.toString('hex') : ''}`;
        if (mark === this.seen) return;
        this.seen = mark;
        this.blocks.clear();
        this.shardBlocks.length = 0;
        for (const s of h) {
            this.put(s.block.seqno, s.block.boc);
            for (const b of s.shardBlocks) this.putShardBlock(b.boc);
        }
    }
}

/** Each sealed masterchain block's signatures by every main validator of its set. */
export function chainSignatures(network: TvmNetwork): SignatureProvider {
    return {
        async masterchainSignatures(seqno) {
            const s = network.chain.sealed(seqno);
            return {
                rootHash: s.block.rootHash,
                fileHash: s.block.fileHash,
                signatures: s.entries.map((e) => ({
                    publicKey: s.signedBy.validators[e.index].publicKey,
                    signature: e.signature,
                })),
            };
        },
    };
}

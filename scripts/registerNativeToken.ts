import { NetworkProvider } from '@ton/blueprint';
import { adminContext, addressArg } from '../lib/deploy/admin';
import { nativeTokenFacts, registerNativeToken } from '../lib/deploy/tokens';

/**
 * Registers a jetton (any TEP-74 minter, with or without TEP-89 discovery) as a native token of the
 * native proxy: the proxy's wallet of it is the minter's get_wallet_address answer, and its name,
 * symbol and decimals are read from the minter's on-chain metadata. A minter with off-chain
 * metadata (a URI) needs them given after the minter.
 *
 *   npx blueprint run registerNativeToken <network options> -- <deployment> <network> <jetton minter> [<name> <symbol> <decimals>] [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<jetton minter> [<name> <symbol> <decimals>]');
    const token = addressArg(c, 0, 'jetton minter');
    const [name, symbol, decimals] = c.args.slice(1, 4);
    if (decimals !== undefined && !(/^\d{1,3}$/.test(decimals) && Number(decimals) <= 255))
        throw new Error(`decimals must be a number 0..255, got "${decimals}"`);
    const f = await nativeTokenFacts(c.ops, c.address('nativeProxy'), token, {
        ...(name !== undefined ? { name } : {}),
        ...(symbol !== undefined ? { symbol } : {}),
        ...(decimals !== undefined ? { decimals: Number(decimals) } : {}),
    });
    const m = f.meta;
    c.ui.write(
        `register_native_token ${m.symbol} (${m.name}, ${m.decimals} decimals, from the ${f.metaSource}) in ${c.address('nativeProxy').toString()}, its wallet ${f.wallet.toString()}`,
    );
    if (!c.yes && !(await c.ui.prompt('Send this change?'))) throw new Error('cancelled: nothing was sent');
    await registerNativeToken(c.ops, c.address('nativeProxy'), token, m, f.wallet);
    c.ui.write('  done: the native proxy knows its wallet of the token');
}

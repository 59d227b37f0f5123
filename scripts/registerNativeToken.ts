import { NetworkProvider } from '@ton/blueprint';
import { JettonMinter } from '../wrappers/JettonMinter';
import { adminContext, addressArg } from '../lib/deploy/admin';
import { open } from '../lib/deploy/ops';
import { registerNativeToken } from '../lib/deploy/tokens';

/**
 * Registers a jetton as a native token of the native proxy (the proxy asks the minter for its own
 * wallet, TEP-89); its name, symbol and decimals are read from the minter's on-chain metadata.
 *
 *   npx blueprint run registerNativeToken <network options> -- <deployment> <network> <jetton minter> [--yes]
 */
export async function run(provider: NetworkProvider, args: string[]) {
    const c = await adminContext(provider, args, '<jetton minter>');
    const token = addressArg(c, 0, 'jetton minter');
    const meta = await open(c.ops, JettonMinter.createFromAddress(token)).getMetadata();
    const m = { name: meta.name ?? '', symbol: meta.symbol ?? '', decimals: Number(meta.decimals ?? 9) };
    c.ui.write(
        `register_native_token ${m.symbol} (${m.name}, ${m.decimals} decimals) in ${c.address('nativeProxy').toString()}`,
    );
    if (!c.yes && !(await c.ui.prompt('Send this change?'))) throw new Error('cancelled: nothing was sent');
    await registerNativeToken(c.ops, c.address('nativeProxy'), token, m);
    c.ui.write('  done: the native proxy knows its wallet of the token');
}

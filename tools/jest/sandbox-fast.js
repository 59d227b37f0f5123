/**
 * setupFiles: less repeated work in @ton/sandbox, with the same results. Profiles of the specs found
 * most of their CPU time here, in work done again on inputs that had not changed:
 *
 * 1. Get methods. Each call serializes the account's code and data, copies them and the network
 *    configuration into the emulator, which parses all three again and runs the method; the
 *    invariant checks read balances and statuses of contracts that had not changed since the last
 *    read (half of tests/model.spec.ts's CPU time). A get method's answer is a function of what the
 *    emulator is given (code, data, address, time, balance, random seed, gas limit, libraries,
 *    configuration, previous blocks, method id, stack), so the answers are kept, keyed by all of
 *    those (cells by their hashes; up to MAX_ANSWERS per configuration), and a repeated call is
 *    answered from them. Anything changed runs in the emulator as before; failures are never kept.
 * 2. The account after a transaction. The emulator hands back the whole account as a BOC, and the
 *    sandbox then parsed all of it (every cell of the code, hashed) to read the account's workchain:
 *    a tenth of the proxy specs' time. The account is now parsed when something reads more than
 *    its address (the address is the contract's, whether it exists is the transaction's end status).
 * 3. Snapshots. Restoring one serialized every account again; the snapshot now keeps the BOC the
 *    account was read from, and a restore takes it back as it was.
 * 4. BOCs of unchanged cells: a cell's BOC is a function of the cell, so serializations are kept by
 *    the cell's hash (the code and data the get methods and getState send, up to MAX_BOC_BYTES).
 * 5. `blockchain.config` parsed the configuration's BOC on every read; a configuration's cell is
 *    kept by its BOC.
 *
 * tests/jest-setup.spec.ts checks each against the library's own behaviour. Only the tests' module
 * registry is changed, not the library.
 */
'use strict';
const { Executor } = require('@ton/sandbox/dist/executor/Executor');
const { SmartContract } = require('@ton/sandbox/dist/blockchain/SmartContract');
const { Blockchain } = require('@ton/sandbox/dist/blockchain/Blockchain');
const { Cell, loadShardAccount, serializeTuple } = require('@ton/core');

const MAX_ANSWERS = 20_000;
const MAX_CONFIGS = 8;
const MAX_BOC_BYTES = 64 * 1024 * 1024;

if (!Executor.prototype.runGetMethod.memoized) {
    // ---------------------------------------------------------------- 1. get methods
    const run = Executor.prototype.runGetMethod;
    const answers = new Map();
    const stats = { hits: 0, misses: 0 };
    const hash = (cell) => (cell ? cell.hash().toString('hex') : '-');
    const json = (v) =>
        JSON.stringify(v, (_k, x) =>
            typeof x === 'bigint' ? x.toString() : Buffer.isBuffer(x) ? x.toString('hex') : x,
        );
    function keyOf(a) {
        return [
            hash(a.code),
            hash(a.data),
            hash(a.libs),
            a.address.toRawString(),
            a.unixTime,
            a.balance.toString(),
            a.randomSeed.toString('hex'),
            a.gasLimit.toString(),
            a.methodId,
            a.verbosity,
            a.debugEnabled ? 1 : 0,
            a.extraCurrency === undefined ? '-' : json(a.extraCurrency),
            a.prevBlocksInfo === undefined ? '-' : json(a.prevBlocksInfo),
            serializeTuple(a.stack).hash().toString('hex'),
        ].join('|');
    }
    /** the answers under one configuration (a Blockchain keeps its configuration as one base64 string) */
    function answersOf(config) {
        let m = answers.get(config);
        if (m === undefined) {
            if (answers.size >= MAX_CONFIGS) answers.delete(answers.keys().next().value);
            m = new Map();
            answers.set(config, m);
        }
        return m;
    }
    async function runGetMethod(args) {
        const m = answersOf(args.config);
        const key = keyOf(args);
        const kept = m.get(key);
        if (kept !== undefined) {
            stats.hits++;
            return structuredClone(kept);
        }
        stats.misses++;
        const result = await run.call(this, args);
        if (m.size >= MAX_ANSWERS) m.delete(m.keys().next().value);
        m.set(key, structuredClone(result));
        return result;
    }
    runGetMethod.memoized = true;
    runGetMethod.stats = stats;
    runGetMethod.original = run;
    Executor.prototype.runGetMethod = runGetMethod;

    // ---------------------------------------------------------------- 2. the account after a transaction
    const accountProperty = Object.getOwnPropertyDescriptor(SmartContract.prototype, 'account');
    const runCommon = SmartContract.prototype.runCommon;
    SmartContract.prototype.runCommon = async function (...args) {
        const tx = await runCommon.apply(this, args);
        if (this.parsedAccount === undefined) this.parsedAccount = lazyShardAccount(this, tx.endStatus);
        return tx;
    };
    /**
     * The shard account read from the contract's BOC when any field but the account's address is
     * read (the fields are getters of the parsed object: a change made through them is the parsed
     * object's). Whether the account exists is known from the transaction's end status.
     */
    function lazyShardAccount(contract, endStatus) {
        const boc = contract._account;
        let parsed;
        const full = () => (parsed ??= loadShardAccount(Cell.fromBase64(boc).beginParse()));
        const field = (target, name) => ({
            enumerable: true,
            get: () => target()[name],
            set: (v) => (target()[name] = v),
        });
        const account =
            endStatus === 'non-existing'
                ? undefined
                : Object.defineProperties(
                      { addr: contract.address },
                      {
                          storageStats: field(() => full().account, 'storageStats'),
                          storage: field(() => full().account, 'storage'),
                      },
                  );
        return Object.defineProperties(
            { account },
            {
                lastTransactionHash: field(full, 'lastTransactionHash'),
                lastTransactionLt: field(full, 'lastTransactionLt'),
            },
        );
    }

    // ---------------------------------------------------------------- 3. snapshots
    const bocOfSnapshot = new WeakMap();
    const snapshot = SmartContract.prototype.snapshot;
    const loadFrom = SmartContract.prototype.loadFrom;
    let restoring;
    SmartContract.prototype.snapshot = function () {
        const s = snapshot.call(this);
        bocOfSnapshot.set(s, this._account);
        return s;
    };
    SmartContract.prototype.loadFrom = function (s) {
        restoring = bocOfSnapshot.get(s);
        try {
            loadFrom.call(this, s);
        } finally {
            restoring = undefined;
        }
    };
    Object.defineProperty(SmartContract.prototype, 'account', {
        ...accountProperty,
        set(account) {
            if (restoring === undefined) {
                accountProperty.set.call(this, account);
                return;
            }
            // what the setter does, with the BOC the snapshot's account was read from
            this._account = restoring;
            this.parsedAccount = account;
            this.lastTxTime = account.account?.storageStats.lastPaid ?? 0;
        },
    });

    // ---------------------------------------------------------------- 4. BOCs of unchanged cells
    const toBoc = Cell.prototype.toBoc;
    const bocs = new Map();
    let bocBytes = 0;
    Cell.prototype.toBoc = function (opts) {
        const idx = opts?.idx ?? false;
        const crc32 = opts?.crc32 ?? true;
        const key = `${this.hash().toString('hex')}${idx ? 1 : 0}${crc32 ? 1 : 0}`;
        const kept = bocs.get(key);
        if (kept !== undefined) return Buffer.from(kept);
        const boc = toBoc.call(this, opts);
        bocs.set(key, Buffer.from(boc));
        bocBytes += boc.length;
        while (bocBytes > MAX_BOC_BYTES) {
            const [k, b] = bocs.entries().next().value;
            bocs.delete(k);
            bocBytes -= b.length;
        }
        return boc;
    };

    // ---------------------------------------------------------------- 5. the configuration's cell
    const configCells = new Map();
    Object.defineProperty(Blockchain.prototype, 'config', {
        configurable: true,
        get() {
            let cell = configCells.get(this.networkConfig);
            if (cell === undefined) {
                if (configCells.size >= MAX_CONFIGS) configCells.delete(configCells.keys().next().value);
                cell = Cell.fromBase64(this.networkConfig);
                configCells.set(this.networkConfig, cell);
            }
            return cell;
        },
    });
}

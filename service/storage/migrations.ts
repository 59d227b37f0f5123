/**
 * The schema, as ordered migrations: the same SQL runs on PGlite and on PostgreSQL 15. A migration
 * once landed never changes; a change of schema is a new entry.
 *
 * transfers: one row per transfer, written by the indexer of its SOURCE network (a TVM proxy's event,
 *   an EVM MultiVault deposit). `link_key` is what its destination Event is found by:
 *   `tvm:<event message hash>` or `evm:<deposit tx hash>:<log index>`.
 * events: one row per Event contract, written by the indexer of its DESTINATION TVM network (the
 *   configuration's deploy, then its status). The API joins the two on `link_key`, so
 *   either side may be indexed first and no row is ever rewritten by the other network's indexer.
 * configurations: the EVM to TVM EventConfigurations, as read from their get methods.
 * deliveries: the destination proxy's transaction that minted or unlocked for an Event (written by
 *   the proxy's stream, which may run ahead of the configuration's stream: so a table of its own,
 *   joined on the Event's address, never an update of a row that may not exist yet).
 * cursors: where each indexer stream stands; committed in the same transaction as the rows it read.
 *
 * Migration 3 adds TVM to EVM transfers (kind `TvmToEvm`, written by the TVM indexer from the proxies'
 * TvmEvmNative / TvmEvmAlien events, `link_key` `wd:<withdrawal id>`) and the `withdrawals` table: one
 * row per MultiVault withdrawal, keyed by the same link key, written by the EVM indexer from the
 * vault's Withdrawal / PendingWithdrawal* logs (service/storage/withdrawals.ts); the API joins the two.
 *
 * Migration 4: credit_transfers / credit_cursors, the credit backend's state
 * (service/operators/creditStore.ts): one row per credit-mode transfer keyed by its Event's address
 * (deterministic), claimed by one backend instance at a time through a lease (lease_owner,
 * lease_until), with the deployment message it signed (recorded before it is sent), the delivery and
 * the gas spent; and where each route's proxy scan stands.
 *
 * Migration 5: the address indexes carry what a search without a status filter chooses, orders and
 * counts by (transfers_sender_keys, transfers_recipient_keys: the address, created_at, transfer_id,
 * and as included columns the kind, both chain ids and the link key an EVM to TVM transfer's Event
 * is found by), so `/transfers/search` by address reads its matches from the indexes alone (an
 * index-only scan: no table page for a key on an all-visible page, service/storage/vacuum.ts) and
 * reads the table for the page's rows only; they replace transfers_sender and transfers_recipient
 * (same leading columns). On an existing database it builds both over every transfer in the
 * migration's transaction (writes wait meanwhile): 15 s for 1,000,000 transfers on PostgreSQL, 23 s
 * on PGlite (measured on 2 cores shared with other work, load average 15).
 *
 * Migration 2 drops `transfers.source_tx` (the source proxy's whole Transaction, about 1 kB a
 * transfer, read once to build the proof payload): the indexer reads that transaction again from its
 * network when it builds the proof, so a row is the transfer's facts only.
 */
export interface Migration {
    version: number;
    name: string;
    sql: string[];
}

export const MIGRATIONS: Migration[] = [
    {
        version: 1,
        name: 'transfers, events, cursors',
        sql: [
            `CREATE TABLE transfers (
                transfer_id text PRIMARY KEY,
                kind text NOT NULL CHECK (kind IN ('TvmToTvm', 'EvmToTvm')),
                created_at bigint NOT NULL,
                from_chain_id integer NOT NULL,
                to_chain_id integer NOT NULL,
                token_type text NOT NULL CHECK (token_type IN ('Native', 'Alien')),
                sender text NOT NULL,
                recipient text NOT NULL,
                token text NOT NULL,
                proxy text NOT NULL,
                amount text NOT NULL,
                decimals integer NOT NULL,
                symbol text NOT NULL,
                message_hash text NOT NULL,
                link_key text NOT NULL,
                expected_gas text NOT NULL,
                source_lt text NOT NULL,
                source_tx text,
                out_msg_index integer,
                proof_payload text,
                indexed_at bigint NOT NULL
            )`,
            'CREATE INDEX transfers_created ON transfers (created_at, transfer_id)',
            'CREATE INDEX transfers_sender ON transfers (sender, created_at)',
            'CREATE INDEX transfers_recipient ON transfers (recipient, created_at)',
            'CREATE UNIQUE INDEX transfers_link ON transfers (link_key)',
            `CREATE INDEX transfers_proof_wanted ON transfers (from_chain_id, created_at) WHERE proof_payload IS NULL AND kind = 'TvmToTvm'`,
            `CREATE TABLE events (
                link_key text PRIMARY KEY,
                chain_id integer NOT NULL,
                address text NOT NULL UNIQUE,
                event_kind text NOT NULL CHECK (event_kind IN ('TvmTvm', 'EvmTvm')),
                token_type text NOT NULL CHECK (token_type IN ('Native', 'Alien')),
                configuration text NOT NULL,
                status integer NOT NULL,
                last_error_code integer NOT NULL DEFAULT 0,
                deployed_at bigint NOT NULL,
                deploy_tx text NOT NULL,
                updated_at bigint NOT NULL
            )`,
            `CREATE TABLE deliveries (
                event_address text PRIMARY KEY,
                chain_id integer NOT NULL,
                delivery_tx text NOT NULL,
                delivery_msg_hash text NOT NULL,
                delivered_amount text NOT NULL,
                delivered_token text NOT NULL,
                delivered_proxy text NOT NULL,
                delivered_at bigint NOT NULL
            )`,
            'CREATE INDEX events_open ON events (chain_id, status) WHERE status NOT IN (3, 4, 7)',
            `CREATE TABLE configurations (
                address text PRIMARY KEY,
                tvm_chain_id integer NOT NULL,
                chain_id integer NOT NULL,
                flags integer NOT NULL,
                event_initial_balance text NOT NULL,
                token_type text NOT NULL CHECK (token_type IN ('Native', 'Alien')),
                direction text NOT NULL CHECK (direction IN ('ToTvm', 'ToEvm')),
                updated_at bigint NOT NULL
            )`,
            `CREATE TABLE cursors (
                name text PRIMARY KEY,
                value text NOT NULL,
                updated_at bigint NOT NULL
            )`,
        ],
    },
    {
        version: 2,
        name: 'no source transaction stored per transfer',
        sql: ['ALTER TABLE transfers DROP COLUMN source_tx'],
    },
    {
        version: 3,
        name: 'TVM to EVM transfers and MultiVault withdrawals',
        sql: [
            'ALTER TABLE transfers DROP CONSTRAINT transfers_kind_check',
            `ALTER TABLE transfers ADD CONSTRAINT transfers_kind_check CHECK (kind IN ('TvmToTvm', 'EvmToTvm', 'TvmToEvm'))`,
            // state: Paid (to the recipient, at once or later), Pending (over a limit or short of
            // liquidity), Rejected (by the withdraw guardian), Cancelled (all of it sent back to TVM).
            // Amounts are integer strings in the token's units: `net_amount` after the withdrawal fee,
            // `fee` (from the Withdrawal log; null for a pending one, whose log names no fee), `owed`
            // what is still pending, `paid_amount` what the recipient got (a fill's bounty excluded).
            // `last_pos` (block * 1e6 + log index) of the last log applied: a log is applied once.
            `CREATE TABLE withdrawals (
                link_key text PRIMARY KEY,
                withdrawal_id text NOT NULL,
                chain_id integer NOT NULL,
                vault text NOT NULL,
                token text NOT NULL,
                recipient text NOT NULL,
                state text NOT NULL CHECK (state IN ('Paid', 'Pending', 'Rejected', 'Cancelled')),
                net_amount text NOT NULL,
                fee text,
                pending_id text,
                approve_status integer,
                owed text NOT NULL,
                bounty text NOT NULL,
                paid_amount text NOT NULL,
                paid_by text CHECK (paid_by IN ('Withdrawal', 'Approval', 'Force', 'Fill')),
                filler text,
                cancelled_amount text NOT NULL,
                saved_tx text NOT NULL,
                saved_at bigint NOT NULL,
                approve_tx text,
                approved_at bigint,
                paid_tx text,
                paid_at bigint,
                cancel_tx text,
                cancelled_at bigint,
                last_pos bigint NOT NULL,
                updated_at bigint NOT NULL
            )`,
            'CREATE UNIQUE INDEX withdrawals_pending ON withdrawals (chain_id, recipient, pending_id) WHERE pending_id IS NOT NULL',
        ],
    },
    {
        version: 4,
        name: 'credit backend: transfers with leases, cursors',
        sql: [
            `CREATE TABLE credit_transfers (
                event_address text PRIMARY KEY,
                transfer_id text NOT NULL UNIQUE,
                route text NOT NULL,
                configuration text NOT NULL,
                proxy text NOT NULL,
                source_lt text NOT NULL,
                message_hash text NOT NULL,
                out_msg_index integer NOT NULL,
                seen_at bigint NOT NULL,
                state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
                lease_owner text,
                lease_until bigint,
                attempts integer NOT NULL DEFAULT 0,
                wallet text,
                seqno bigint,
                valid_until bigint,
                boc text,
                balance_before text,
                signed_at bigint,
                accepted_at bigint,
                event_status integer,
                spent text,
                paid_by text,
                done_by text,
                done_at bigint,
                reason text
            )`,
            `CREATE INDEX credit_transfers_pending ON credit_transfers (route, seen_at) WHERE state = 'pending'`,
            `CREATE TABLE credit_cursors (
                route text NOT NULL,
                proxy text NOT NULL,
                lt numeric NOT NULL,
                updated_at bigint NOT NULL,
                PRIMARY KEY (route, proxy)
            )`,
        ],
    },
    {
        version: 5,
        name: 'address indexes that choose, order and count a search',
        sql: [
            'CREATE INDEX transfers_sender_keys ON transfers (sender, created_at, transfer_id) INCLUDE (kind, from_chain_id, to_chain_id, link_key)',
            'CREATE INDEX transfers_recipient_keys ON transfers (recipient, created_at, transfer_id) INCLUDE (kind, from_chain_id, to_chain_id, link_key)',
            'DROP INDEX transfers_sender',
            'DROP INDEX transfers_recipient',
        ],
    },
];

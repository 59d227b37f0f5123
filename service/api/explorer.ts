/**
 * (extension) A small transfer explorer served at GET /explorer: search by address (TVM or EVM) or by
 * Transfer ID, a transfer's timeline on both networks and its next actions. One static page; it
 * calls the same /v2 endpoints any client calls (nothing private), so what it shows is what the API
 * says.
 */
export function explorerPage(tvmChains: number[]): string {
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Bridge transfer explorer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
input { width: 42em; padding: .4em; font: inherit; }
button { padding: .4em 1em; font: inherit; }
table { border-collapse: collapse; margin-top: 1em; }
td, th { border-bottom: 1px solid #ddd; padding: .3em .6em; text-align: left; font-family: monospace; }
tr.row { cursor: pointer; }
tr.row:hover { background: #f3f3f3; }
.Completed { color: #176f2c; } .Pending { color: #8a6d00; } .Failed { color: #a31515; }
#error { color: #a31515; margin-top: 1em; }
</style>
</head>
<body>
<h1>Bridge transfer explorer</h1>
<form id="search">
  <input id="q" placeholder="an address (0:&lt;hex&gt;, user-friendly, or 0x&lt;hex&gt;) or a Transfer ID" autocomplete="off">
  <button type="submit">Search</button>
</form>
<div id="error" role="alert"></div>
<table id="list" hidden><thead><tr><th>created</th><th>kind</th><th>status</th><th>from</th><th>to</th><th>amount</th><th>Transfer ID</th></tr></thead><tbody></tbody></table>
<section id="transfer" hidden>
  <h2>Transfer <span id="tid"></span></h2>
  <p>Status: <b id="status"></b> <span id="eventStatus"></span></p>
  <h3>Timeline</h3>
  <ol id="timeline"></ol>
  <h3>Next</h3>
  <ul id="next"></ul>
</section>
<script>
const TVM_CHAINS = ${JSON.stringify(tvmChains)};
const $ = (id) => document.getElementById(id);
async function call(path, body) {
  const r = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.message || ('HTTP ' + r.status));
  return j;
}
const when = (t) => t === null || t === undefined ? '' : new Date(t * 1000).toISOString().replace('T', ' ').slice(0, 19);
function clear() { $('error').textContent = ''; $('list').hidden = true; $('transfer').hidden = true; }
function rec(item) { return item.tvmTvm || item.evmTvm || item.tvmEvm; }
function showList(items) {
  const body = $('list').querySelector('tbody');
  body.innerHTML = '';
  for (const item of items) {
    const t = rec(item);
    const tr = document.createElement('tr');
    tr.className = 'row';
    const cells = [when(t.timestampCreatedAt), item.tvmTvm ? 'TvmToTvm' : item.tvmEvm ? 'TvmToEvm' : 'EvmToTvm', t.transferStatus,
      t.outgoing.chainId + ' ' + t.outgoing.userAddress, t.incoming.chainId + ' ' + t.incoming.userAddress,
      t.outgoing.volumeExec, t.outgoing.transactionHash];
    cells.forEach((c, i) => { const td = document.createElement('td'); td.textContent = c; if (i === 2) td.className = c; tr.appendChild(td); });
    tr.addEventListener('click', () => openTransfer(t.outgoing.transactionHash, item.evmTvm ? t.incoming.chainId : t.outgoing.chainId));
    body.appendChild(tr);
  }
  $('list').hidden = false;
}
function showTransfer(s) {
  const t = rec(s.transfer);
  $('tid').textContent = t.outgoing.transactionHash;
  $('status').textContent = t.transferStatus;
  $('status').className = t.transferStatus;
  const w = s.details && s.details.withdrawal;
  $('eventStatus').textContent = s.details && s.details.eventStatus ? '(Event: ' + s.details.eventStatus + (s.details.lastErrorCode ? ', last error ' + s.details.lastErrorCode : '') + ')'
    : w ? '(Withdrawal: ' + w.state + (w.approveStatus ? ', ' + w.approveStatus : '') + ')' : '';
  const tl = $('timeline'); tl.innerHTML = '';
  for (const step of (s.details ? s.details.timeline : [])) {
    const li = document.createElement('li');
    li.textContent = [when(step.at), 'chain ' + step.chainId, step.step, step.transaction || ''].filter(Boolean).join('  ');
    tl.appendChild(li);
  }
  const nx = $('next'); nx.innerHTML = '';
  const actions = s.details ? s.details.nextActions : [];
  if (!actions.length) { const li = document.createElement('li'); li.textContent = 'nothing: ' + (t.transferStatus === 'Completed' ? 'delivered' : 'final'); nx.appendChild(li); }
  for (const a of actions) { const li = document.createElement('li'); li.textContent = a.action + ' (' + a.caller + '): ' + a.note; nx.appendChild(li); }
  $('transfer').hidden = false;
}
async function openTransfer(id, chain) {
  const evm = id.startsWith('0x');
  let s = await call('/v2/transfers/status', evm ? { evmTvm: { transactionHashEvm: id, dappChainId: chain } } : { tvmTvm: { outgoingTransactionHash: id, dappChainId: chain } });
  // a 0x id that is no EVM deposit may be a MultiVault withdrawal id (a TVM to EVM transfer)
  if (evm && !s.transfer) s = await call('/v2/transfers/status', { tvmEvm: { withdrawalId: id, dappChainId: chain } });
  if (s.transfer) showTransfer(s);
  return !!s.transfer;
}
async function search(q) {
  clear();
  try {
    if (/^(0x)?[0-9a-fA-F]{64}$/.test(q)) {
      for (const chain of TVM_CHAINS) if (await openTransfer(q, chain)) return;
      $('error').textContent = 'no transfer ' + q;
      return;
    }
    const r = await call('/v2/transfers/search', { userAddresses: [q], limit: 50, offset: 0, isNeedTotalCount: true });
    if (!r.transfers.length) { $('error').textContent = 'no transfers of ' + q; return; }
    showList(r.transfers);
  } catch (e) { $('error').textContent = e.message; }
}
$('search').addEventListener('submit', (ev) => { ev.preventDefault(); search($('q').value.trim()); });
const initial = new URLSearchParams(location.search).get('q');
if (initial) { $('q').value = initial; search(initial); }
</script>
</body>
</html>
`;
}

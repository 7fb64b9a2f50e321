// Coalition's dashboard: reads the daemon's own API (docs/api.md) every few seconds and shows it.
// Read-only; no outside resource. Text from the API goes into the page as text, never as markup.
(function () {
  'use strict';
  const REFRESH_MS = 5000;
  const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
  const ledgerSeries = { t: [], sites: {} };
  let chart = null;
  let chartSites = '';

  function token() { return sessionStorage.getItem('coalition-operator-token'); }

  async function get(path) {
    const headers = token() ? { Authorization: 'Bearer ' + token() } : {};
    const r = await fetch(path, { headers: headers, cache: 'no-store' });
    if (r.status === 401 || r.status === 403) {
      document.getElementById('token').hidden = false;
      throw new Error('this daemon wants its operator token for reads from another host');
    }
    if (!r.ok) {
      let message = 'HTTP ' + r.status;
      try { message = (await r.json()).error.message; } catch (e) { /* not JSON */ }
      throw new Error(path + ': ' + message);
    }
    return r.json();
  }

  function cell(row, text, className, tag) {
    const td = document.createElement(tag || 'td');
    td.textContent = text;
    if (className) { td.className = className; }
    row.appendChild(td);
    return td;
  }

  // rows of cells, each text or [text, class]; with headed, each row's first cell is its heading (th)
  function fill(tableId, rows, headed) {
    const body = document.querySelector('#' + tableId + ' tbody');
    body.replaceChildren();
    rows.forEach(function (cells) {
      const tr = document.createElement('tr');
      cells.forEach(function (c, i) {
        const tag = headed && i === 0 ? 'th' : 'td';
        Array.isArray(c) ? cell(tr, c[0], c[1], tag) : cell(tr, c, null, tag);
      });
      body.appendChild(tr);
    });
  }

  function num(v, digits) {
    if (v === null || v === undefined || Number.isNaN(v)) { return '–'; }
    return Number(v).toLocaleString('en-US', { maximumFractionDigits: digits === undefined ? 1 : digits });
  }

  function pct(v) { return num(100 * v, 0) + ' %'; }

  function showSites(f) {
    fill('sites', f.sites.map(function (s) {
      return [s.site, [s.state, s.live ? 'live' : 'gone'], num(s.cores, 0), pct(s.reservationRatio), num(s.queuedJobs, 0),
        num(s.queueCoreSeconds / 3600, 1), num(s.participation, 0), num(s.sendAllowance, 0), num(s.receiveAllowance, 0)];
    }));
    return f;
  }

  function showLedger(l) {
    document.getElementById('utility').textContent = l.utility;
    fill('ledger', l.sites.map(function (r) {
      return [r.site, num(r.contribution), num(r.utility), [num(r.priority), r.priority >= 0 ? 'positive' : 'negative'],
        num(r.jobsExecuted, 0), num(r.jobsSubmitted, 0)];
    }));
    ledgerSeries.t.push(Date.now() / 1000);
    l.sites.forEach(function (r) {
      const h = ledgerSeries.sites[r.site] || (ledgerSeries.sites[r.site] = { c: new Array(ledgerSeries.t.length - 1).fill(null),
        u: new Array(ledgerSeries.t.length - 1).fill(null) });
      h.c.push(r.contribution);
      h.u.push(r.utility);
    });
    Object.keys(ledgerSeries.sites).forEach(function (s) {
      const h = ledgerSeries.sites[s];
      while (h.c.length < ledgerSeries.t.length) { h.c.push(null); h.u.push(null); }
    });
    drawChart();
  }

  function drawChart() {
    if (typeof uPlot === 'undefined') { return; }
    const sites = Object.keys(ledgerSeries.sites).sort();
    const data = [ledgerSeries.t];
    const series = [{}];
    sites.forEach(function (s, i) {
      const color = COLORS[i % COLORS.length];
      data.push(ledgerSeries.sites[s].c);
      series.push({ label: s + ' contribution', stroke: color, width: 2 });
      data.push(ledgerSeries.sites[s].u);
      series.push({ label: s + ' utility', stroke: color, width: 2, dash: [6, 4] });
    });
    const element = document.getElementById('ledger-chart');
    if (chart && chartSites === sites.join(',')) {
      chart.setData(data);
      return;
    }
    if (chart) { chart.destroy(); }
    chartSites = sites.join(',');
    chart = new uPlot({ width: Math.min(1000, element.clientWidth || 900), height: 280, series: series,
      axes: [{}, { label: 'work (' + document.getElementById('utility').textContent + ')', size: 70 }] }, data, element);
  }

  function showFlows(f) {
    fill('flows', f.flows.filter(function (x) { return x.jobs > 0; }).map(function (x) {
      return [x.home, x.executor, num(x.jobs, 0), num(x.work)];
    }));
  }

  function showStatus(s, p) {
    document.getElementById('site').textContent = s.site;
    const pilots = Object.keys(s.pilots).sort().map(function (k) { return k + ' ' + s.pilots[k]; }).join(', ') || 'none';
    fill('status', [
      ['batch system', s.handler],
      ['ZooKeeper', s.zookeeperConnected ? 'connected' : 'not connected'],
      ['leader of the federation', s.leader ? 'yes' : 'no'],
      ['cores', num(s.allocatedCores, 0) + ' of ' + num(s.totalCores, 0) + ' allocated (' + pct(s.reservationRatio) + ', threshold '
        + pct(s.exposureThreshold) + ')'],
      ['own queue', num(s.pendingJobs, 0) + ' jobs, ' + num(s.pendingCoreSeconds / 3600, 1) + ' core-hours'],
      ['pilots', pilots],
      ['its jobs in the federation', num(s.jobsInFederation, 0)],
      ['participation', num(p.level, 0) + ' core-seconds per period' + (p.setAt ? ', set at runtime ' + p.setAt : ' (the site file\'s)')]
    ], true);
  }

  // the market desk steps every 30 s: the contracts are read as often, not at every refresh
  const CONTRACTS_MS = 30000;
  let contractsRead = 0;

  function showContracts(c) {
    const now = Date.now();
    fill('contracts', c.contracts.map(function (x) {
      const open = Date.parse(x.slotStart) <= now && now < Date.parse(x.slotEnd);
      const state = function (phase) { return [phase.toLowerCase(), phase === 'BROKEN' ? 'gone' : phase === 'OPEN' ? 'live' : null]; };
      return [[x.slotStart.substring(0, 16).replace('T', ' ') + ' - ' + x.slotEnd.substring(11, 16) + (open ? ' (open now)' : ''),
        open ? 'live' : null], x.blockType, x.side === 'buy' ? 'bought' : 'sold', x.counterparty, num(x.price, 0), num(x.holdingFee, 0),
        state(x.phase), state(x.counterpartyPhase), x.reservation || '–'];
    }));
    const bought = c.contracts.filter(function (x) { return x.side === 'buy'; }).length;
    const broken = c.contracts.filter(function (x) { return x.phase === 'BROKEN' || x.counterpartyPhase === 'BROKEN'; }).length;
    document.getElementById('contracts-note').textContent = c.contracts.length === 0
      ? 'No contract: this site bids in the day-ahead market with contracts.enabled in its site file (docs/site-file.md).'
      : bought + ' bought, ' + (c.contracts.length - bought) + ' sold, ' + broken + ' broken; read every ' + CONTRACTS_MS / 1000 + ' s.';
  }

  async function refreshContracts() {
    if (Date.now() - contractsRead < CONTRACTS_MS) { return; }
    contractsRead = Date.now();
    showContracts(await get('v1/contracts'));
  }

  function showDecisions(d) {
    fill('decisions', d.decisions.slice(0, 50).map(function (x) {
      return [new Date(x.millis).toISOString().substring(11, 19), x.kind, x.subject, x.reason, x.detail];
    }));
  }

  async function refresh() {
    try {
      const results = await Promise.all([get('v1/status'), get('v1/sites'), get('v1/ledger'), get('v1/flows'), get('v1/decisions'),
        get('v1/participation')]);
      showStatus(results[0], results[5]);
      const fed = showSites(results[1]);
      showLedger(results[2]);
      showFlows(results[3]);
      showDecisions(results[4]);
      await refreshContracts();
      const live = fed.sites.filter(function (s) { return s.live; }).length;
      document.getElementById('summary').textContent = live + ' of ' + fed.sites.length + ' sites live; leader ' + (fed.leader || 'none')
        + ', BILB period ' + fed.period;
      document.getElementById('refreshed').textContent = 'updated ' + new Date().toLocaleTimeString() + ', every ' + REFRESH_MS / 1000 + ' s';
      document.getElementById('error').hidden = true;
    } catch (e) {
      const error = document.getElementById('error');
      error.textContent = e.message;
      error.hidden = false;
    }
  }

  document.getElementById('token').addEventListener('submit', function (e) {
    e.preventDefault();
    sessionStorage.setItem('coalition-operator-token', document.getElementById('token-value').value.trim());
    document.getElementById('token').hidden = true;
    refresh();
  });

  document.getElementById('job-form').addEventListener('submit', async function (e) {
    e.preventDefault();
    const id = document.getElementById('job-id').value.trim();
    history.replaceState(null, '', '#job=' + encodeURIComponent(id)); // the address shows this job's story to whoever opens it
    try {
      const j = await get('v1/jobs/' + encodeURIComponent(id));
      // times are on the federation's clock (seconds since it began), the same at every site
      const at = function (t, from, word) {
        if (t === null || t === undefined) { return '–'; }
        return 't = ' + num(t, 1) + ' s' + (from === null || from === undefined ? ' on the federation clock' : ' (' + word + ' ' + num(t - from, 1) + ' s)');
      };
      fill('job', [['job', j.site + '/' + j.id], ['state', j.state], ['ran at', j.executor || '–'], ['published', at(j.release)],
        ['started', at(j.start, j.release, 'waited')], ['ended', at(j.end, j.start, 'ran')], ['exit code', j.exitCode === null ? '–' : String(j.exitCode)],
        ['signal', j.signal ? String(j.signal) : '–'], ['why', j.reason || '–']]);
    } catch (err) {
      fill('job', [['job ' + id, err.message]]);
    }
  });

  // an address ending in #job=ID opens that job's story
  function jobFromAddress() {
    const m = /^#job=(.+)$/.exec(location.hash);
    if (m) {
      document.getElementById('job-id').value = decodeURIComponent(m[1]);
      document.getElementById('job-form').requestSubmit();
    }
  }
  window.addEventListener('hashchange', jobFromAddress);

  refresh();
  jobFromAddress();
  setInterval(refresh, REFRESH_MS);
})();

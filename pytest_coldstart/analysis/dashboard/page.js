// The lab dashboard (pytest-coldstart). Reads the one embedded JSON document and builds the page
// with DOM calls only: every string from a run goes through createTextNode / textContent /
// setAttribute, never through innerHTML, so run content cannot become markup or script.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('coldstart-data').textContent);
  const SVGNS = 'http://www.w3.org/2000/svg';
  const COL = {};
  data.columns.forEach(function (name, i) { COL[name] = i; });
  const STATUS_OF_LETTER = { P: 'PASS', F: 'FAIL', W: 'PENDING' };
  const COLOURS = { PASS: '#2e7d32', FAIL: '#c62828', PENDING: '#e0a000', OTHER: '#8a8a8a' };
  const PAGE = 100;

  function el(tag, attrs) {
    const node = document.createElement(tag);
    if (attrs) for (const k of Object.keys(attrs)) node.setAttribute(k, String(attrs[k]));
    for (let i = 2; i < arguments.length; i++) add(node, arguments[i]);
    return node;
  }
  function add(node) {
    for (let i = 1; i < arguments.length; i++) {
      const child = arguments[i];
      if (child === null || child === undefined) continue;
      if (Array.isArray(child)) { child.forEach(function (c) { add(node, c); }); continue; }
      node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
    }
  }
  function sv(tag, attrs, text) {
    const node = document.createElementNS(SVGNS, tag);
    if (attrs) for (const k of Object.keys(attrs)) node.setAttribute(k, String(attrs[k]));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function pct(x) { return x === null || x === undefined ? '-' : (100 * x).toFixed(1) + '%'; }
  function fmt(x, digits) { return x === null || x === undefined ? '-' : (typeof x === 'number' ? x.toFixed(digits) : String(x)); }
  function badge(status) { return el('span', { class: 'badge ' + (COLOURS[status] ? status : 'UNKNOWN') }, status || '?'); }
  function statusColour(status) { return COLOURS[status] || COLOURS.OTHER; }

  // -- rates chart: one bar per group, stacked PASS/FAIL/PENDING, counts, Wilson interval of the pass rate
  function ratesChart(entries, labelOf, onPick) {
    const rowH = 26, left = 250, width = 960, barW = 400, gap = 56, top = 24;
    const height = top + rowH * entries.length + 26;
    const svg = sv('svg', { viewBox: '0 0 ' + width + ' ' + height, width: '100%', class: 'rates', role: 'img' });
    svg.appendChild(sv('text', { x: left, y: 14 }, 'share of runs (PASS / FAIL / PENDING)'));
    svg.appendChild(sv('text', { x: left + barW + gap, y: 14 }, 'pass rate, 95% Wilson interval'));
    entries.forEach(function (entry, i) {
      const y = top + i * rowH, r = entry.rates, n = r.n || 1;
      const g = sv('g', { class: 'group', 'data-index': i });
      const label = String(labelOf(entry)), name = sv('text', { x: left - 8, y: y + 15, 'text-anchor': 'end' }, label.length > 36 ? label.slice(0, 35) + '…' : label);
      name.appendChild(sv('title', null, label));
      g.appendChild(name);
      let x = left;
      ['PASS', 'FAIL', 'PENDING'].forEach(function (s) {
        const w = barW * r[s].count / n;
        if (w > 0) {
          const rect = sv('rect', { x: x, y: y + 3, width: w, height: rowH - 8, fill: COLOURS[s] });
          rect.appendChild(sv('title', null, s + ': ' + r[s].count + ' of ' + r.n + ' (' + pct(r[s].rate) + ', 95% CI ' + pct(r[s].low) + '–' + pct(r[s].high) + ')'));
          g.appendChild(rect);
        }
        x += w;
      });
      g.appendChild(sv('text', { x: left + barW + 4, y: y + 15, 'font-size': 11 }, r.PASS.count + '/' + r.FAIL.count + '/' + r.PENDING.count));
      const ax = left + barW + gap, aw = width - ax - 110;
      g.appendChild(sv('line', { x1: ax, x2: ax + aw, y1: y + 12, y2: y + 12, class: 'axis' }));
      if (r.PASS.low !== null) {
        g.appendChild(sv('line', { x1: ax + aw * r.PASS.low, x2: ax + aw * r.PASS.high, y1: y + 12, y2: y + 12, stroke: COLOURS.PASS, 'stroke-width': 4 }));
        g.appendChild(sv('circle', { cx: ax + aw * r.PASS.rate, cy: y + 12, r: 4, fill: '#111' }));
        g.appendChild(sv('text', { x: ax + aw + 6, y: y + 15, 'font-size': 11 }, pct(r.PASS.rate) + ' n=' + r.n));
      }
      if (onPick) { g.style.cursor = 'pointer'; g.addEventListener('click', function () { onPick(entry); }); }
      svg.appendChild(g);
    });
    return svg;
  }

  function countsTable(head, rows) {
    return el('table', null, el('thead', null, el('tr', null, head.map(function (h) { return el('th', null, h); }))),
      el('tbody', null, rows.map(function (r) { return el('tr', null, r.map(function (c) { return el('td', null, c); })); })));
  }

  // -- overview sections
  function overview() {
    const box = document.getElementById('overview');
    add(box, el('h2', null, 'Pass / fail / pending by model × harness'));
    add(box, el('p', { class: 'muted' }, 'Click a group to filter the runs table. Intervals are 95% Wilson score intervals.'));
    add(box, ratesChart(data.groups, function (g) { return g.model + ' · ' + g.harness; }, function (g) { setFilter({ model: g.model, harness: g.harness }); }));
    const tbox = document.getElementById('tasks');
    add(tbox, el('h2', null, 'By task'));
    add(tbox, ratesChart(data.by_task, function (t) { return data.tasks[t.task]; }, function (t) { setFilter({ task: String(t.task) }); }));
    const fbox = document.getElementById('flags');
    add(fbox, el('h2', null, 'Flags and failure classes'));
    add(fbox, countsTable(['flag', 'PASS', 'FAIL', 'PENDING', 'other'], data.flags.map(function (f) {
      const c = data.flag_counts[f] || {};
      return [f, c.P || 0, c.F || 0, c.W || 0, c['?'] || 0];
    })));
    add(fbox, el('h3', null, 'Failure classes'));
    const classes = Object.keys(data.classes);
    add(fbox, countsTable(['model · harness'].concat(classes.map(function (k) { return k === '-' ? 'none' : k; })),
      [['all runs'].concat(classes.map(function (k) { return data.classes[k]; }))].concat(data.groups.map(function (g) {
        return [g.model + ' · ' + g.harness].concat(classes.map(function (k) { return g.classes[k] || 0; }));
      }))));
    add(fbox, el('p', { class: 'muted' }, 'The runs table below is the run × flag matrix: one coloured cell per flag (' + data.flags.join(', ') + ').'));
    const trend = document.getElementById('trends');
    if (!data.days.length) { trend.hidden = true; return; }
    add(trend, el('h2', null, 'Trends over time'));
    add(trend, trendChart(data.days));
  }

  function trendChart(days) {
    const width = 880, height = 220, left = 50, right = 20, top = 16, bottom = 40;
    const svg = sv('svg', { viewBox: '0 0 ' + width + ' ' + height, width: '100%', class: 'trend', role: 'img' });
    const w = width - left - right, h = height - top - bottom, step = days.length > 1 ? w / (days.length - 1) : 0;
    svg.appendChild(sv('line', { x1: left, x2: left + w, y1: top + h, y2: top + h, class: 'axis' }));
    [0, 0.5, 1].forEach(function (v) { svg.appendChild(sv('text', { x: 4, y: top + h - v * h + 4 }, pct(v))); });
    let band = '', line = '';
    days.forEach(function (d, i) { const x = left + i * step; band += (i ? 'L' : 'M') + x + ',' + (top + h - d.rates.PASS.high * h); });
    for (let i = days.length - 1; i >= 0; i--) band += 'L' + (left + i * step) + ',' + (top + h - days[i].rates.PASS.low * h);
    svg.appendChild(sv('path', { d: band + 'Z', fill: COLOURS.PASS, opacity: 0.18 }));
    days.forEach(function (d, i) { line += (i ? 'L' : 'M') + (left + i * step) + ',' + (top + h - d.rates.PASS.rate * h); });
    svg.appendChild(sv('path', { d: line, fill: 'none', stroke: COLOURS.PASS, 'stroke-width': 2 }));
    days.forEach(function (d, i) {
      const x = left + i * step, c = sv('circle', { cx: x, cy: top + h - d.rates.PASS.rate * h, r: 4, fill: '#111', class: 'day' });
      c.appendChild(sv('title', null, d.day + ': ' + d.rates.PASS.count + ' PASS, ' + d.rates.FAIL.count + ' FAIL, ' + d.rates.PENDING.count + ' PENDING of ' + d.rates.n));
      svg.appendChild(c);
      if (days.length <= 16 || i % Math.ceil(days.length / 16) === 0) svg.appendChild(sv('text', { x: x, y: height - 20, 'text-anchor': 'middle', 'font-size': 10 }, d.day));
    });
    svg.appendChild(sv('text', { x: left, y: height - 4, 'font-size': 11 }, 'pass rate per day (band: 95% Wilson interval)'));
    return svg;
  }

  // -- runs table: filter, sort, paginate (only one page of rows is ever in the DOM)
  const state = { q: '', status: '', model: '', harness: '', task: '', klass: '', flag: '', sort: 'path', dir: 1, page: 0 };
  let shown = [];
  const SORTS = ['run_id', 'model', 'harness', 'task', 'status', 'class', 'duration_s', 'calls', 'error_rate', 'open_reviews'];

  function options(select, values, label) {
    add(select, el('option', { value: '' }, label));
    values.forEach(function (v) { add(select, el('option', { value: v[0] }, v[1])); });
  }
  function distinct(col) {
    const seen = new Set();
    data.runs.forEach(function (r) { seen.add(r[COL[col]] === null ? '' : String(r[COL[col]])); });
    return Array.from(seen).sort().map(function (v) { return [v, v || '(none)']; });
  }

  function filters() {
    const box = document.getElementById('filters');
    const q = el('input', { type: 'search', id: 'f-q', placeholder: 'search run id / path / task', size: 32 });
    q.addEventListener('input', function () { state.q = q.value.toLowerCase(); state.page = 0; refresh(); });
    add(box, q);
    const defs = [['status', 'status', 'any status'], ['model', 'model', 'any model'], ['harness', 'harness', 'any harness'], ['klass', 'class', 'any class']];
    defs.forEach(function (d) {
      const s = el('select', { id: 'f-' + d[0] });
      options(s, distinct(d[1]), d[2]);
      s.addEventListener('change', function () { state[d[0]] = s.value; state.page = 0; refresh(); });
      add(box, s);
    });
    const t = el('select', { id: 'f-task' });
    options(t, data.tasks.map(function (label, i) { return [String(i), label]; }), 'any task');
    t.addEventListener('change', function () { state.task = t.value; state.page = 0; refresh(); });
    add(box, t);
    const f = el('select', { id: 'f-flag' });
    options(f, data.flags.map(function (name, i) { return [i + ':F', name + ' FAIL']; }).concat(data.flags.map(function (name, i) { return [i + ':W', name + ' PENDING']; })), 'any flag state');
    f.addEventListener('change', function () { state.flag = f.value; state.page = 0; refresh(); });
    add(box, f);
    const clear = el('button', { type: 'button', id: 'f-clear' }, 'clear');
    clear.addEventListener('click', function () { setFilter({}); });
    add(box, clear, el('span', { id: 'f-count', class: 'muted' }));
  }

  function setFilter(values) {
    ['status', 'model', 'harness', 'task', 'klass', 'flag'].forEach(function (k) {
      state[k] = values[k] || '';
      document.getElementById('f-' + k).value = state[k];
    });
    state.q = ''; document.getElementById('f-q').value = ''; state.page = 0;
    refresh();
    document.getElementById('runs').scrollIntoView();
  }

  function matches(r) {
    if (state.status && r[COL.status] !== state.status) return false;
    if (state.model && r[COL.model] !== state.model) return false;
    if (state.harness && r[COL.harness] !== state.harness) return false;
    if (state.klass && String(r[COL['class']] === null ? '' : r[COL['class']]) !== state.klass) return false;
    if (state.task && String(r[COL.task]) !== state.task) return false;
    if (state.flag) { const p = state.flag.split(':'); if (r[COL.flags][Number(p[0])] !== p[1]) return false; }
    if (state.q) {
      const hay = (String(r[COL.run_id]) + ' ' + r[COL.path] + ' ' + data.tasks[r[COL.task]]).toLowerCase();
      if (hay.indexOf(state.q) < 0) return false;
    }
    return true;
  }

  function sortValue(r, key) {
    if (key === 'task') return data.tasks[r[COL.task]];
    return r[COL[key]];
  }

  function refresh() {
    shown = [];
    for (let i = 0; i < data.runs.length; i++) if (matches(data.runs[i])) shown.push(i);
    const key = state.sort, dir = state.dir;
    shown.sort(function (a, b) {
      const x = sortValue(data.runs[a], key), y = sortValue(data.runs[b], key);
      if (x === y) return a - b;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * dir;
    });
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    const body = document.getElementById('runs-body');
    body.textContent = '';
    shown.slice(state.page * PAGE, (state.page + 1) * PAGE).forEach(function (i) { body.appendChild(rowOf(i)); });
    document.getElementById('f-count').textContent = shown.length + ' of ' + data.runs.length + ' run(s)';
    document.getElementById('page-info').textContent = 'page ' + (state.page + 1) + ' of ' + pages;
    document.querySelectorAll('#runs th.sortable').forEach(function (th) {
      th.classList.toggle('sorted-asc', th.dataset.key === key && dir > 0);
      th.classList.toggle('sorted-desc', th.dataset.key === key && dir < 0);
    });
  }

  function rowOf(i) {
    const r = data.runs[i];
    const tr = el('tr', { 'data-index': i },
      el('td', { class: 'cut', title: r[COL.path] }, r[COL.run_id] === null ? '(no run id)' : r[COL.run_id]),
      el('td', null, r[COL.model]), el('td', null, r[COL.harness]),
      el('td', { class: 'cut' }, data.tasks[r[COL.task]]),
      el('td', null, badge(r[COL.status])), el('td', null, r[COL['class']] || ''),
      el('td', { class: 'num' }, fmt(r[COL.duration_s], 1)), el('td', { class: 'num' }, fmt(r[COL.calls], 0)),
      el('td', { class: 'num' }, pct(r[COL.error_rate])), el('td', { class: 'num' }, r[COL.open_reviews] || ''));
    data.flags.forEach(function (name, k) {
      const letter = r[COL.flags][k];
      const status = STATUS_OF_LETTER[letter] || 'other';
      tr.appendChild(el('td', { class: 'flag s' + (letter === '?' ? 'Q' : letter), title: name + ': ' + status }));
    });
    tr.addEventListener('click', function () { openRun(i); });
    return tr;
  }

  function table() {
    const head = document.getElementById('runs-head');
    const names = { run_id: 'run', model: 'model', harness: 'harness', task: 'task', status: 'status', 'class': 'class', duration_s: 'duration s', calls: 'calls', error_rate: 'error rate', open_reviews: 'open reviews' };
    SORTS.forEach(function (key) {
      const th = el('th', { class: 'sortable', 'data-key': key }, names[key]);
      th.addEventListener('click', function () { if (state.sort === key) state.dir = -state.dir; else { state.sort = key; state.dir = 1; } refresh(); });
      head.appendChild(th);
    });
    data.flags.forEach(function (name, k) { head.appendChild(el('th', { title: name }, 'F' + (k + 1))); });
    document.getElementById('prev').addEventListener('click', function () { if (state.page > 0) { state.page--; refresh(); } });
    document.getElementById('next').addEventListener('click', function () { state.page++; refresh(); });
    add(document.getElementById('flag-legend'), data.flags.map(function (name, k) { return el('span', null, 'F' + (k + 1) + ' = ' + name); }));
  }

  // -- one run: timeline at full width, flags with their evidence, audit.md
  function timeline(detail, box) {
    const lanes = { agent: 0, trajectory: 0, testmod: 1, logger: 2 }, laneNames = ['agent calls', 'test mod', 'agent logger'];
    const laneColours = ['#3465a4', '#4e9a06', '#c17d11'];
    const events = detail.timeline.filter(function (e) { return lanes[e[0]] !== undefined; });
    const width = Math.max(600, box.clientWidth - 40), left = 110, top = 20, laneH = 40;
    const svg = sv('svg', { width: width, height: top + laneH * 3 + 30, class: 'timeline-svg', role: 'img' });
    const cited = new Set(Object.keys(detail.refs));
    laneNames.forEach(function (name, k) {
      svg.appendChild(sv('text', { x: 4, y: top + k * laneH + 24 }, name));
      svg.appendChild(sv('line', { x1: left, x2: width - 10, y1: top + k * laneH + 20, y2: top + k * laneH + 20, class: 'axis' }));
    });
    const step = events.length > 1 ? (width - left - 20) / (events.length - 1) : 0;
    const position = {};
    events.forEach(function (e, i) {
      const x = left + 5 + i * step, y = top + lanes[e[0]] * laneH + 20;
      position[e[1]] = x;
      const c = sv('circle', { cx: x, cy: y, r: cited.has(e[1]) ? 7 : 5, fill: laneColours[lanes[e[0]]], class: 'ev' + (cited.has(e[1]) ? ' cited' : ''), 'data-ref': e[1] });
      c.appendChild(sv('title', null, e[1] + ' | ' + (e[2] || '') + (e[3] ? ' | at=' + e[3] : '') + (e[4] !== null ? ' | tick=' + e[4] : '') + (e[5] !== null ? ' | seq=' + e[5] : '')));
      svg.appendChild(c);
    });
    detail.unknown.forEach(function (pair) {
      if (position[pair[0]] === undefined || position[pair[1]] === undefined) return;
      const x1 = Math.min(position[pair[0]], position[pair[1]]), x2 = Math.max(position[pair[0]], position[pair[1]]);
      svg.appendChild(sv('rect', { x: x1 - 8, y: top, width: x2 - x1 + 16, height: laneH * 3, fill: 'none', stroke: '#888', 'stroke-dasharray': '4 3' }));
      svg.appendChild(sv('text', { x: (x1 + x2) / 2, y: top + laneH * 3 + 14, 'text-anchor': 'middle' }, '? order unknown'));
    });
    svg.appendChild(sv('text', { x: left, y: top + laneH * 3 + 28, 'font-size': 11 }, events.length + ' event(s) in the audit\'s order (not a time scale); ringed: cited as evidence by a flag'));
    return svg;
  }

  function highlight(svg, refs) {
    svg.querySelectorAll('circle.hl').forEach(function (c) { c.classList.remove('hl'); });
    svg.querySelectorAll('circle.ev').forEach(function (c) { if (refs.indexOf(c.getAttribute('data-ref')) >= 0) c.classList.add('hl'); });
  }

  function openRun(i) {
    const r = data.runs[i], box = document.getElementById('detail');
    box.hidden = false; box.textContent = '';
    document.querySelectorAll('#runs-body tr.open').forEach(function (tr) { tr.classList.remove('open'); });
    const tr = document.querySelector('#runs-body tr[data-index="' + i + '"]');
    if (tr) tr.classList.add('open');
    add(box, el('h2', null, 'Run ', r[COL.run_id] === null ? '(no run id)' : r[COL.run_id], ' ', badge(r[COL.status]), ' ', r[COL['class']] || ''));
    add(box, el('p', { class: 'muted' }, r[COL.path], ' · ', r[COL.model], ' · ', r[COL.harness], ' · ', data.tasks[r[COL.task]], ' · report: ', r[COL.report]));
    const detail = data.details[String(i)];
    if (!detail) {
      add(box, el('p', null, 'Details of this run are not embedded (the page embeds at most ' + data.details_limit + ' runs; raise --details). Its audit report is in the run folder: audit/audit.md after `coldstart audit run`.'));
      box.scrollIntoView(); return;
    }
    const tbox = el('div', { class: 'timeline' });
    add(box, el('h3', null, 'Timeline'), tbox);
    const svg = timeline(detail, box);
    tbox.appendChild(svg);
    add(box, el('h3', null, 'Flags'));
    detail.flags.forEach(function (f) {
      const fb = el('div', { class: 'flagbox ' + f.status }, el('div', null, badge(f.status), ' ', el('b', null, f.flag), ': ', f.summary));
      f.evidence.forEach(function (ref) {
        const c = detail.refs[ref];
        add(fb, el('div', { class: 'refrow' }, el('span', { class: 'ref' }, ref), c ? ' ' + (c[0] || '') + (c[1] !== null && c[1] !== undefined ? ':' + c[1] : '') : ' (no cited record)', c ? el('pre', null, c[2]) : null));
      });
      if (f.missing.length) add(fb, el('div', { class: 'muted' }, 'missing: ', f.missing.join(', ')));
      fb.addEventListener('click', function () {
        box.querySelectorAll('.flagbox.selected').forEach(function (b) { b.classList.remove('selected'); });
        fb.classList.add('selected'); highlight(svg, f.evidence);
      });
      add(box, fb);
    });
    const problems = [];
    Object.keys(detail.problems).forEach(function (k) { detail.problems[k].forEach(function (p) { problems.push(k + ': ' + p); }); });
    if (problems.length) add(box, el('h3', null, 'Problems'), el('ul', null, problems.map(function (p) { return el('li', null, p); })));
    add(box, el('h3', null, 'audit.md'), el('pre', { class: 'audit-md' }, detail.md));
    box.scrollIntoView();
  }

  // -- the reviewer's worklist
  function worklist() {
    const box = document.getElementById('worklist');
    const total = data.worklist.reduce(function (s, g) { return s + g.count; }, 0);
    add(box, el('h2', null, 'Reviewer\'s worklist: ' + total + ' open review(s)'));
    if (!total) { add(box, el('p', { class: 'muted' }, 'No required review is open.')); return; }
    add(box, el('p', { class: 'muted' }, 'Record a decision with: coldstart review resolve|reject --run-dir RUN --id ID --by WHO --evidence REF ...'));
    data.worklist.forEach(function (g) {
      const list = el('ul', null, g.items.map(function (item) {
        const r = data.runs[item[0]], b = el('button', { type: 'button', class: 'link' }, r[COL.run_id] === null ? r[COL.path] : r[COL.run_id]);
        b.addEventListener('click', function () { openRun(item[0]); });
        return el('li', null, b, ' [' + item[1] + '] ', el('span', { class: 'muted' }, r[COL.path]));
      }));
      add(box, el('div', { class: 'wl-group' }, el('h3', null, g.review + ' (' + g.count + ' open)'), el('p', null, g.question), list,
        g.items.length < g.count ? el('p', { class: 'muted' }, (g.count - g.items.length) + ' more: coldstart review todo') : null));
    });
  }

  function totals() {
    const c = { PASS: 0, FAIL: 0, PENDING: 0 };
    data.runs.forEach(function (r) { if (c[r[COL.status]] !== undefined) c[r[COL.status]]++; });
    add(document.getElementById('totals'), el('span', null, data.runs.length + ' run(s)'), el('span', null, c.PASS + ' PASS'), el('span', null, c.FAIL + ' FAIL'), el('span', null, c.PENDING + ' PENDING'));
  }

  totals(); overview(); filters(); table(); refresh(); worklist();
  document.body.setAttribute('data-ready-ms', String(Math.round(performance.now())));
  document.body.setAttribute('data-ready', '1');
})();

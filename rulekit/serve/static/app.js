// rulekit serve: the page. It asks the server for the table as the human seat sees it (long polling), draws it,
// and posts the human's answers. No build step: plain script.
"use strict";

const STATE_MARK = {tile: "■", empty: "", healthy: "健", mild: "轻", severe: "重", dead: "死", none: ""};
const STATE_WORDS = {tile: "面朝下 face-down", empty: "空 empty", healthy: "健康 healthy", mild: "轻症 mild",
                     severe: "重症 severe", dead: "死者 dead", none: ""};
const PHASE_WORDS = {setup: "准备 setup", income: "收入 income", reserve: "储备 reserve", actions: "行动 actions",
                     treatment: "治疗 treatment", spread: "扩散 spread", exchange: "交流 exchange", event: "事件 event",
                     final: "终局 final"};
const TRACK_WORDS = {medical: "医疗 med", disease: "疾病 dis", policy: "政策 pol", score: "计分 score",
                     economy: "经济 eco", money: "资金 $"};

let version = 0, lineCount = 0, current = null, source = null, answering = false;
const $ = (id) => document.getElementById(id);

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function post(path, body) {
  const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify(body || {})});
  const data = await r.json();
  if (!data.ok) showRefused(data.error);
  return data;
}

function showRefused(text) {
  const b = $("refused");
  b.textContent = text;
  b.hidden = !text;
}

function cardLabel(c) { return `${c.name} · ${c.id}`; }
function cardTitle(c) { return [c.flavor, c.effect].filter(Boolean).join("\n"); }

function drawBoard(s) {
  const board = $("board");
  if (!board.children.length) {
    for (let i = 0; i < 100; i++) {
      const d = el("div", {id: `cell-${Math.floor(i / 10)}-${i % 10}`, "data-i": i});
      d.addEventListener("click", () => cellClicked(i));
      board.appendChild(d);
    }
  }
  const picks = cellOptions(s.question);
  for (let i = 0; i < 100; i++) {
    const d = board.children[i], st = s.board[i], owner = s.owner[i];
    d.className = `cell ${st}` + (owner >= 0 ? ` q${owner}` : "");
    d.textContent = STATE_MARK[st] || "";
    d.title = `(${Math.floor(i / 10)}, ${i % 10}) ${STATE_WORDS[st]}` + (owner >= 0 ? ` · P${owner + 1}` : "");
    const tag = (s.tags || {})[i];       // a tag kept on the cell (public): shown on it and named in its title
    if (tag) {
      d.classList.add("tagged");
      d.textContent += "⛨";
      d.title += ` · 标签 tag: ${tag}`;
    }
    if (picks.direct.has(i) || picks.sources.has(i)) d.classList.add("pick");
    if (source !== null) {
      if (i === source) d.classList.add("source");
      if ((picks.moves.get(source) || new Map()).has(i)) d.classList.add("target");
    }
  }
}

function cellOptions(q) {
  const direct = new Map(), moves = new Map(), sources = new Set();
  if (q) {
    for (const o of q.options) {
      if (o.cell) direct.set(o.cell[0] * 10 + o.cell[1], o);
      if (o.from) {
        const a = o.from[0] * 10 + o.from[1], b = o.to[0] * 10 + o.to[1];
        if (!moves.has(a)) moves.set(a, new Map());
        moves.get(a).set(b, o);
        sources.add(a);
      }
    }
  }
  return {direct, moves, sources};
}

function cellClicked(i) {
  const q = current && current.question;
  if (!q || answering) return;
  const picks = cellOptions(q);
  if (source !== null && (picks.moves.get(source) || new Map()).has(i)) {
    answer(picks.moves.get(source).get(i).k);
    return;
  }
  if (picks.sources.has(i) && source !== i) {
    source = i;
    render(current);
    return;
  }
  if (picks.direct.has(i)) answer(picks.direct.get(i).k);
}

async function answer(k) {
  if (answering || !current || !current.question) return;
  answering = true;
  const qid = current.question.qid;
  source = null;
  const r = await post("/api/answer", {qid, k});
  if (!r.ok) answering = false;
}

function drawQuestion(s) {
  const q = s.question, box = $("question");
  box.hidden = !q;
  if (!q) { box.removeAttribute("data-qid"); return; }
  box.setAttribute("data-qid", q.qid);
  box.setAttribute("data-kind", q.kind);
  const why = q.card ? ` — ${cardLabel(q.card)}` : "";
  $("prompt").textContent = `${q.prompt}${why}` + (q.text ? ` (${q.text})` : "");
  const opts = $("options");
  opts.textContent = "";
  for (const o of q.options) {
    const buryHere = o.cell && o.verb === "bury" && source !== null && o.cell[0] * 10 + o.cell[1] === source;
    if (o.label === undefined && !buryHere) continue;
    const text = o.label !== undefined ? o.label : `埋葬此格 · bury (${o.cell[0]}, ${o.cell[1]})`;
    const b = el("button", {class: "option", "data-k": o.k}, text);
    if (o.card) b.title = cardTitle(o.card);
    b.addEventListener("click", () => answer(o.k));
    opts.appendChild(b);
  }
  const picks = cellOptions(q);
  if (picks.direct.size || picks.sources.size) {
    const hint = source !== null ? "点击蓝色虚线格子放置 · click a blue cell to move there"
                                 : "点击红色虚线格子 · click a cell marked in red";
    opts.appendChild(el("div", {class: "hint"}, hint));
  }
}

function drawSeats(s) {
  const box = $("seats");
  box.textContent = "";
  for (const p of s.seats) {
    const d = el("div", {class: `seat s${p.seat}` + (p.out ? " out" : "") + (p.seat === s.seat ? " me" : ""),
                         id: `seat-${p.seat}`});
    const who = s.seats_agents[p.seat] === "human" ? "你 you" : s.seats_agents[p.seat];
    const adv = p.advisor ? cardLabel(p.advisor) : "（未公开 face down）";
    d.appendChild(el("div", {}, `P${p.seat + 1} (${who}) · 顾问 advisor: ${adv}` + (p.out ? " · 出局 out" : "")));
    const t = el("table");
    const row1 = el("tr"), row2 = el("tr");
    for (const [k, v] of Object.entries(p.tracks)) {
      row1.appendChild(el("td", {}, TRACK_WORDS[k] || k));
      row2.appendChild(el("td", {"data-track": k}, String(v)));
    }
    t.appendChild(row1); t.appendChild(row2);
    d.appendChild(t);
    const c = p.counts;
    d.appendChild(el("div", {}, `健 H ${c.healthy} · 轻 M ${c.mild} · 重 S ${c.severe} · 死 D ${c.dead} · ■ ${c.tiles}` +
                                ` · 手牌 hand ${p.hand_size} · 阶段 stage ${p.unlocked}`));
    const tab = el("div", {class: "cards"});
    for (const e of p.tableau) {
      const cd = el("span", {class: "card" + (e.on ? "" : " off") + (e.spent ? " spent" : "")}, cardLabel(e) +
                    (e.uses > 1 ? ` ×${e.uses}` : ""));
      cd.title = cardTitle(e);
      tab.appendChild(cd);
    }
    for (const m of p.marks || []) {           // events' lasting marks on this player (public)
      const cd = el("span", {class: "card mark"}, `☠ ${cardLabel(m)} ×${m.stacks}`);
      cd.title = cardTitle(m);
      tab.appendChild(cd);
    }
    d.appendChild(tab);
    box.appendChild(d);
  }
}

function drawCards(id, cards, extra) {
  const box = $(id);
  box.textContent = "";
  for (const c of cards) {
    const d = el("span", {class: "card"}, (extra ? extra(c) : "") + cardLabel(c));
    d.title = cardTitle(c);
    box.appendChild(d);
  }
}

function drawFinal(s) {
  const box = $("final");
  box.hidden = s.status !== "over";
  if (box.hidden) return;
  const scores = s.seats.map((p) => p.tracks.score);
  box.setAttribute("data-scores", JSON.stringify(scores));
  box.textContent = "终局 Game over — " + s.seats.map((p) => `P${p.seat + 1}: ${p.tracks.score}`).join(" · ");
}

function render(s) {
  current = s;
  if (!s.board) return;
  const phase = PHASE_WORDS[s.phase] || s.phase;
  $("where").textContent = `第 ${s.round} 回合 Round ${s.round} · ${phase} · 步骤 step ${s.step} · 种子 seed ${s.seed}`;
  const st = $("status");
  st.setAttribute("data-status", s.status);
  st.textContent = {playing: "进行中 playing", over: "已结束 over", error: "出错 error", starting: "…"}[s.status] || s.status;
  drawBoard(s);
  drawQuestion(s);
  drawSeats(s);
  drawCards("hand", s.hand);
  drawCards("offers", s.offers, (c) => `P${c.owner + 1}: `);
  const ev = s.events;
  $("events").textContent = (ev.current ? `现在 now: ${cardLabel(ev.current)} · ` : "") +
    `已抽 drawn: ${ev.history.map((c) => c.name).join("、") || "—"} · 剩余 left ${ev.left}` +
    (ev.foreseen && ev.foreseen.length ? ` · 你看到的接下来 next, as you saw: ${ev.foreseen.map((n) => n || "?").join("、")}` : "");
  $("pool-box").hidden = !(s.pool && s.pool.length);
  drawCards("pool", s.pool || []);
  const a = s.asking;
  $("asking").textContent = a && a.seat !== s.seat ? `P${a.seat + 1} 正在决定 is deciding: ${a.text || a.kind}` : "";
  drawFinal(s);
  const lint = $("lint");
  lint.hidden = !s.lint.length;
  lint.textContent = s.lint.length ? "内容有错误，对局保留 · the saved content has errors; the game goes on:\n" +
                                     s.lint.join("\n") : "";
  const offer = $("offer");
  offer.hidden = !s.offer;
  if (s.offer) $("offer-text").textContent = `内容已更新 · new content saved (${s.offer.changed.join(", ")}) `;
  $("notice").hidden = !s.notice;
  $("notice").textContent = s.notice;
  if (document.activeElement !== $("pause")) $("pause").value = s.pause;
  $("replay-controls").hidden = !s.replay;
  if (s.replay) $("replay-progress").textContent = `决定 decision ${s.replay.step} / ${s.replay.total}` +
                                                   (s.replay.playing ? " ▶" : "");
}

function addLines(s) {
  const log = $("log");
  if (s.line_count < lineCount) { log.textContent = ""; lineCount = 0; return false; }
  if (s.lines.length) {
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 20;
    log.textContent += s.lines.join("\n") + "\n";
    lineCount += s.lines.length;
    if (atBottom) log.scrollTop = log.scrollHeight;
  }
  return true;
}

async function poll() {
  for (;;) {
    try {
      const r = await fetch(`/api/state?after=${version}&since=${lineCount}`);
      const s = await r.json();
      if (!addLines(s)) { version = 0; continue; }
      if (!current || !current.question || !s.question || s.question.qid !== current.question.qid) {
        answering = false;
        if (s.question) showRefused("");
      }
      version = s.version;
      render(s);
    } catch (err) {
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }
}

$("restart-new").addEventListener("click", () => post("/api/restart", {mode: "new"}));
$("restart-continue").addEventListener("click", () => post("/api/restart", {mode: "continue"}));
$("pause").addEventListener("change", () => post("/api/pause", {seconds: parseFloat($("pause").value) || 0}));
$("save").addEventListener("click", async () => {
  const r = await post("/api/save");
  if (r.ok) $("saved").textContent = `已保存 saved: ${r.path}`;
});
$("scenario").addEventListener("click", async () => {
  const r = await post("/api/scenario");
  if (r.ok) {
    $("saved").textContent = `已写出 written: ${r.path}`;
    $("scenario-text").hidden = false;
    $("scenario-text").textContent = r.text;
  }
});
$("step").addEventListener("click", () => post("/api/step", {count: 1}));
$("play").addEventListener("click", () => post("/api/step", {count: 0, playing: !(current && current.replay &&
                                                                                   current.replay.playing)}));
poll();

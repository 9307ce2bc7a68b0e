"""DIR/report.html from a batch summary: plots as embedded PNGs, the tables behind them, what stands out."""

from __future__ import annotations

import base64
from typing import Any
import html
import io
import logging
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rulekit.playtest.value_stats import signed

MAX_NOTES = 20
MAX_CARD_NOTES = 6

# Simplified Chinese sans fonts first: the report is read in Simplified Chinese, and the first face of
# the Noto and Source Han collections is the Japanese one, which draws some characters the Japanese way.
PREFERRED_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "Source Han Sans CN",
                   "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC",
                   "Hiragino Sans GB", "Heiti SC", "SimHei")
_CJK_HINTS = ("CJK", "Hei", "Song", "Ming", "Kai", "WenQuanYi", "YaHei", "Han Sans", "Han Serif", "PingFang")
_SERIF_HINTS = ("Serif", "Song", "Ming", "Kai")
_SIMPLIFIED_HINTS = (" SC", " CN", " GB")


def render(summary: dict) -> str:
    """The whole report as one self-contained HTML page (readable offline)."""
    font = cjk_font()
    plots = Plots(font)
    s = summary
    g = s["games"]
    meta = (f"<p class=meta>{g['total']} 局 games · {g['completed']} 完成 completed · {g['errors']} 出错 errors · "
            f"{s['players']} 人 players · 种子 seed {s['seed']} · 代理 agents {html.escape(', '.join(s['agents_by_seat']))}"
            f" · 内容 content <code>{html.escape(s['content']['path'])}</code> "
            f"<small>({s['content']['fingerprint'][:12]})</small></p>")
    parts = [_HEAD, "<h1>瘟疫到来 试玩报告 / Playtest report</h1>", meta]
    facts = about(s)
    if facts:
        parts.append("<h2>关于这局游戏 / About this game</h2><ul class=notes>")
        parts += [f"<li>{html.escape(n)}</li>" for n in facts]
        parts.append("</ul>")
    parts.append("<h2>值得注意 / What stands out</h2><ul class=notes>")
    parts += [f"<li>{html.escape(n)}</li>" for n in notes(s)] or ["<li>没有突出的发现 / nothing stands out</li>"]
    t = s["card_tests"]
    parts.append(f"</ul><p class=small>区间为 95% Wilson 置信区间。一张牌只有在打出与未打出各至少 {t['min_plays']} 人局、"
                 f"胜率差至少 {t['min_gap']:.0%}，且在所有被判断的牌中以 Benjamini–Hochberg 方法把错误发现率控制在"
                 f" {t['false_discovery_rate']:.0%} 时才列出。 Intervals are 95% Wilson intervals. A card is listed only"
                 f" when it was played and not played in at least {t['min_plays']} player-games each, its gap is at"
                 f" least {t['min_gap']:.0%}, and the gap holds with the false discovery rate across all judged cards"
                 f" kept at {t['false_discovery_rate']:.0%} (Benjamini–Hochberg).</p>")
    if font is None:
        parts.append("<p class=small>本机没有中文字体，图中以卡牌 id 标注，中文名见表格。"
                     " No Chinese font was found on this machine: plots label cards by id; the tables give the Chinese "
                     "names.</p>")
    parts += [_section_seats(s, plots), _section_advisors(s, plots), _section_cards(s, plots),
              _section_length(s, plots), _section_scores(s, plots), _section_metrics(s),
              _section_events_combos(s), _section_outliers(s), "</body></html>\n"]
    return "\n".join(parts)


# ---- what stands out ------------------------------------------------------------------------------

def notes(s: dict) -> list[str]:
    """Plain-words findings, Chinese first then English, most pressing first."""
    out = []
    errors = s["errors"]
    if errors["count"]:
        cards = "、".join(f"{c} ({n})" for c, n in errors["by_card"].items())
        out.append(f"{errors['count']} 局因卡牌效果出错而中止，涉及 {cards} — 见下方“出错的对局” / "
                   f"{errors['count']} games stopped on a failing effect ({cards}) — see the error list")
    avg = _average_win(s)
    for aid, a in sorted(s["advisors"].items(), key=lambda kv: -(kv[1]["wins"]["rate"] or 0)):
        judged = _judge(a["wins"], avg) if a["judged"] else None
        if judged:
            zh, en = judged
            out.append(f"顾问 {a['name']} ({aid}) 胜率 {_pct_ci(a['wins'])}，{zh}平均 {_pct(avg)} — "
                       f"可能过{'强' if en == 'above' else '弱'}"
                       f" / advisor {aid} wins {_pct_ci(a['wins'])}, {en} the average {_pct(avg)} — may be too "
                       f"{'strong' if en == 'above' else 'weak'}")
    unchosen = [f"{a['name']} ({aid})" for aid, a in s["advisors"].items() if not a["chosen"]]
    if unchosen and s["games"]["completed"]:
        out.append(f"从未被选择的顾问：{'、'.join(unchosen)} / advisors never kept: {', '.join(unchosen)}")
    for seat, v in s["seats"].items():
        judged = _judge(v["wins"], avg) if s["games"]["completed"] >= s["card_tests"]["min_plays"] else None
        if judged:
            zh, en = judged
            out.append(f"座位 {seat} 胜率 {_pct_ci(v['wins'])}，{zh}平均 {_pct(avg)} — 座位顺序可能有影响"
                       f" / seat {seat} wins {_pct_ci(v['wins'])}, {en} the average — turn order may matter")
    if len(s["agents"]) > 1:
        parts = "，".join(f"{a} {_pct_ci(v['wins'])}" for a, v in s["agents"].items())
        out.append(f"各代理胜率：{parts} / win rate by agent: {parts}")
    gaps = [(cid, c) for cid, c in sorted(s["cards"].items(), key=lambda kv: (-abs(kv[1]["difference"] or 0), kv[0]))
            if c["stands_out"]]
    for cid, c in gaps[:MAX_CARD_NOTES]:
        d = c["difference"]
        n = c["win_if_played"]["of"]
        verdict = ("可能过强", "may be too strong") if d > 0 else ("可能是陷阱牌或过弱", "may be a trap or too weak")
        out.append(f"打出 {c['name']} ({cid}) 的玩家胜率 {_pct_ci(c['win_if_played'])}（{n} 人局），未打出者 "
                   f"{_pct_ci(c['win_if_not_played'])}（差 {d:+.0%}，q = {_q(c)}）— {verdict[0]} / players who played"
                   f" {cid} won {_pct(c['win_if_played']['rate'])} of {n} vs {_pct(c['win_if_not_played']['rate'])}"
                   f" ({d:+.0%}, q = {_q(c)}) — {verdict[1]}" + _value_words(s, cid))
    if len(gaps) > MAX_CARD_NOTES:
        more = len(gaps) - MAX_CARD_NOTES
        out.append(f"另有 {more} 张牌的胜率差同样显著，见卡牌表 / {more} more cards with a clear gap: see the card table")
    out += _never_played(s["cards"])
    undrawn = [f"{c['name']} ({cid})" for cid, c in s["cards"].items() if not c["drawn"] and not c["played_by"]["count"]]
    if undrawn and s["games"]["completed"]:
        out.append(f"从未被抽到：{'、'.join(undrawn)} / never drawn: {', '.join(undrawn)}")
    if s["combos"]["never_fired"]:
        named = [_combo(s, c) for c in s["combos"]["never_fired"]]
        out.append(f"从未触发的连击：{'、'.join(named)} / combos that never fired: {', '.join(named)}")
    reasons = s["end_reasons"]
    total = sum(reasons.values())
    if total and len(reasons) > 1:      # one reason for every game is said once, under "about this game"
        top, n = max(reasons.items(), key=lambda kv: kv[1])
        out.append(f"{n / total:.0%} 的对局以 {_REASONS_ZH.get(top, top)} 结束 / {n / total:.0%} of games ended by {top}")
    t = s["card_tests"]
    bal = s["metrics"]["balance"]["value"]
    if bal is not None and bal < t["balance_warning"] and s["games"]["completed"] >= t["balance_games"]:
        out.append(f"平衡度 {bal:.2f}：座位间胜率差距较大 / balance {bal:.2f}: seat win rates differ a lot")
    out += too_few(s)
    return out[:MAX_NOTES]


def _value_words(s: dict, cid: str) -> str:
    """The card's causal value after its correlation, when the batch measured it (playtest --value)."""
    e = s.get("value", {}).get("cards", {}).get(cid, {}).get("play")
    if not e or not e["points"]:
        return ""
    return (f"；因果价值 / causal value: {signed(e['score'])} 分 points, {signed(e['win'], pct=True)} 胜 win"
            f" ({e['points']} 点 points)")


def _value_cells(s: dict, cid: str, how: str) -> tuple[str, str, str]:
    """Score value, win value and points/games of one card, for the tables (— when not measured)."""
    e = s["value"]["cards"].get(cid, {}).get(how)
    if not e or not e["points"]:
        return "—", "—", "0"
    return signed(e["score"]), signed(e["win"], pct=True), f"{e['points']}/{e['games']}"


_VALUE_HEAD = ["因果价值 得分 value: score [95%]", "因果价值 胜负 value: win [95%]", "点/局 points/games"]


def _value_note(s: dict) -> str:
    v = s["value"]
    return (f"<p "
            f"class=small>因果价值：在真实对局中某座位可以打出（保留、竞价）该牌的决策点，把对局复制两份、用同样的随机数各打到底，"
            f"一份此刻打出，一份不打（此后也不打），比较该座位的最终得分与胜负；区间以对局为单位。每局每张牌取前"
            f" {v['points_per_game']} 个决策点（每个座位至多一个），共 {v['points']} 点、{v['games']} 局"
            f"（{v['errors']} 点因出错未计）。相关（胜率差）只是提示，判断强弱看因果价值；两者都取决于所用的代理。"
            f" Causal value: at decision points of real games where a seat could play (keep, bid on) the card, the game"
            f" is copied and played to the end twice with the same random numbers — with the card played now, and"
            f" without it (nor later) — comparing the seat's final score and win; intervals take the game as the unit."
            f" The first {v['points_per_game']} point(s) per card and game (at most one per seat): {v['points']} points"
            f" from {v['games']} games ({v['errors']} left out on an error). The correlation (the win-rate gap) is a"
            f" hint; judge a card's strength by its value. Both depend on the bots playing.</p>")


def _never_played(cards: dict) -> list[str]:
    """A line for each card drawn but never played, with why where it is known."""
    out = []
    for cid, c in cards.items():
        if not c["drawn"] or c["played_by"]["count"]:
            continue
        why = c.get("never_played") or []
        zh = "；".join(w["zh"] for w in why)
        en = "; ".join(w["en"] for w in why)
        out.append(f"{c['name']} ({cid}) 抽到过但从未被打出{'：' + zh if zh else ''} / drawn but never played"
                   f"{': ' + en if en else ''}")
    if len(out) > MAX_CARD_NOTES:
        more = len(out) - MAX_CARD_NOTES
        out = [*out[:MAX_CARD_NOTES],
               f"另有 {more} 张抽到过但从未被打出的牌，原因见卡牌表 / {more} more cards drawn but "
               f"" "never played: see the card table for why"]
    return out


def _combo(s: dict, cid: str) -> str:
    name = s["combos"]["names"].get(cid)
    return f"{name} ({cid})" if name and name != cid else cid


_ENDS_EN = {"events_exhausted": "when the events ran out", "max_rounds": "at the last round",
            "won_fight": "with the fight won", "one_left": "with one player left"}


def about(s: dict) -> list[str]:
    """Facts true of every completed game: said once, here, rather than as something that stands out."""
    out: list[str] = []
    n = s["games"]["completed"]
    if n < 2:
        return out
    r = s["rounds"]
    reasons = [k for k, v in s["end_reasons"].items() if v and k != "error"]
    same_end = len(reasons) == 1 and s["end_reasons"][reasons[0]] == n
    same_length = r["min"] == r["max"]
    if same_end and same_length:
        why = reasons[0]
        out.append(f"全部 {n} 局都在第 {r['min']} 回合因{_REASONS_ZH.get(why, why)}而结束 / all {n} games ended in round"
                   f" {r['min']}, {_ENDS_EN.get(why, 'by ' + why)}")
    elif same_end:
        why = reasons[0]
        out.append(f"全部 {n} 局都因{_REASONS_ZH.get(why, why)}而结束 / all {n} games ended {_ENDS_EN.get(why, 'by ' + why)}")
    elif same_length:
        out.append(f"全部 {n} 局都是 {r['min']} 回合 / all {n} games lasted {r['min']} rounds")
    events = s["events"].values()
    if events and all(e["drawn"]["count"] == n for e in events):
        out.append(f"每一局都会抽到全部 {len(events)} 张事件牌 / every game draws all {len(events)} event cards")
    return out


def too_few(s: dict) -> list[str]:
    """One line naming what these games are too few to judge, and about how many games would judge it."""
    t = s["card_tests"]
    n = s["games"]["completed"]
    if not n:
        return []
    parts_zh, parts_en = [], []
    if n < t["balance_games"]:
        what_zh, what_en = ("座位与平衡度", "seats and balance") if n < t["min_plays"] else ("平衡度", "balance")
        need = t["balance_games"]
        parts_zh.append(f"{what_zh}（约需 {need} 局）")
        parts_en.append(f"{what_en} (about {need} games needed)")
    for items, zh, en in ((s["advisors"], "个顾问", "advisors"), (s["cards"], "张牌", "cards")):
        rare = sorted((v["needs_games"], k, v["name"]) for k, v in items.items()
                      if not v["judged"] and v["needs_games"] is not None)
        if rare:
            more = " …" if len(rare) > 3 else ""
            parts_zh.append(f"{len(rare)} {zh}（{'、'.join(f'{name} 约需 {need:,}' for need, _, name in rare[:3])}{more} 局）")
            parts_en.append(f"{len(rare)} {en} ({', '.join(f'{k} ≈ {need:,}' for need, k, _ in rare[:3])}{more}"
                            f" games needed)")
    if not parts_en:
        return []
    return [f"这 {n} 局太少，还不能判断：{'；'.join(parts_zh)} / {n} games are too few to judge {'; '.join(parts_en)}"]


_REASONS_ZH = {"events_exhausted": "事件牌抽完", "max_rounds": "达到回合上限", "won_fight": "战胜瘟疫",
               "one_left": "只剩一名玩家", "error": "出错", "unfinished": "未完成"}


def _average_win(s: dict) -> float:
    seats = s["seats"].values()
    n = sum(v["wins"]["of"] for v in seats)
    return sum(v["wins"]["count"] for v in seats) / n if n else 0.0


def _judge(r: dict, avg: float):
    ci = r["ci95"]
    if ci is None:
        return None
    if ci[0] > avg:
        return "高于", "above"
    if ci[1] < avg:
        return "低于", "below"
    return None


def _q(c: dict) -> str:
    q = c["difference_q"]
    return "—" if q is None else f"{q:.3f}" if q >= 0.001 else "<0.001"


def _pct(x) -> str:
    return "—" if x is None else f"{x:.0%}"


def _pct_ci(r: dict) -> str:
    if r["rate"] is None:
        return "—"
    lo, hi = r["ci95"]
    return f"{r['rate']:.0%} [{lo:.0%}, {hi:.0%}]"


# ---- sections ------------------------------------------------------------------------------------

def _section_seats(s: dict, plots: Plots) -> str:
    rows = [(seat, v["agent"], _pct_ci(v["wins"]), f"{v['wins']['count']}/{v['wins']['of']}", _num(v["mean_score"]))
            for seat, v in s["seats"].items()]
    agents = [(a, _pct_ci(v["wins"]), f"{v['wins']['count']}/{v['wins']['of']}") for a, v in s["agents"].items()]
    img = plots.rates("座位胜率 / win rate by seat", [(k, v["wins"]) for k, v in s["seats"].items()], _average_win(s))
    return ("<h2>座位 / Seats</h2><p class=small>P1 只在第1回合先手，先手每回合轮换。P1 is first player in round 1 only; "
            "the first player rotates.</p>" + img +
            _table(["座位 seat", "代理 agent", "胜率 win rate [95%]", "胜/局 wins", "平均分 mean score"], rows) +
            _table(["代理 agent", "胜率 win rate [95%]", "胜/局 wins"], agents))


def _section_advisors(s: dict, plots: Plots) -> str:
    items = sorted(s["advisors"].items(), key=lambda kv: -(kv[1]["wins"]["rate"] or 0))
    img = plots.rates("顾问胜率 / win rate by advisor",
                      [(plots.label(v["name"], k), v["wins"]) for k, v in items if v["chosen"]], _average_win(s))
    rows: list[tuple[Any, ...]] = [(f"{v['name']} ({k})", v["chosen"], _pct_ci(v["wins"])) for k, v in items]
    head = ["顾问 advisor", "选择次数 chosen", "胜率 win rate [95%]"]
    if "value" in s:
        rows = [(*row, *_value_cells(s, k, "keep")) for row, (k, _) in zip(rows, items, strict=True)]
        head += _VALUE_HEAD
    return "<h2>顾问 / Advisors</h2>" + img + _table(head, rows)


def _card_order(cards: dict) -> list[tuple[str, dict]]:
    """Judged cards by gap, largest first, then the cards with too few plays to judge, then the never played."""
    def key(kv):
        cid, c = kv
        d = c["difference"]
        return (not c["judged"], d is None, -(d or 0), cid)
    return sorted(cards.items(), key=key)


def _verdict(c: dict) -> str:
    if c.get("never_played"):
        return "从未打出 never played: " + "; ".join(w["en"] for w in c["never_played"])
    if not c["judged"]:
        need = c["needs_games"]
        return "样本太少 too few plays" + (f" (≈ {need:,} games)" if need is not None else "")
    if c["stands_out"]:
        return "↑ 突出 stands out" if c["difference"] > 0 else "↓ 突出 stands out"
    return "—"


_STATUS = {"designed": "定稿 designed", "proposed": "提议 proposed", "tbd": "待定 tbd"}


def _section_cards(s: dict, plots: Plots) -> str:
    items = _card_order(s["cards"])
    t = s["card_tests"]
    img = plots.impact([ImpactRow(plots.label(v["name"], k), v["difference"], v["difference_ci95"],
                                  v["win_if_played"]["of"], v["judged"], v["stands_out"])
                        for k, v in items if v["difference"] is not None], t["min_plays"])
    rows = []
    for k, v in items:
        d = v["difference"]
        ci = v["difference_ci95"]
        rows.append((f"{v['name']} ({k})", v["stage"], "/".join(map(str, v["price"])) or "—", v["copies"],
                     _STATUS.get(v["status"], v["status"]), v["drawn"], _pct(v["drawn_by"]["rate"]),
                     _pct(v["played_by"]["rate"]),
                     v["win_if_played"]["of"], _pct_ci(v["played_when_drawn"]), _pct_ci(v["win_if_played"]),
                     _pct_ci(v["win_if_not_played"]), "—" if d is None else f"{d:+.0%} [{ci[0]:+.0%}, {ci[1]:+.0%}]",
                     _q(v), _verdict(v), f"{_num(v['score_if_played'])} / {_num(v['score_if_not_played'])}")
                    + (_value_cells(s, k, "play") if "value" in s else ()))
    head = ["卡牌 card", "阶段 stage", "价格 price", "张数 copies", "状态 status", "抽到次数 drawn",
            "抽到率 drawn by", "打出率 played by",
            "打出人局 n played", "抽到后打出 played when drawn", "打出者胜率 win if played",
            "未打出者胜率 win if not", "差 difference [95%]", "q (BH)", "判断 verdict",
            "平均分 打出/未打出 mean score played/not"] + (_VALUE_HEAD if "value" in s else [])
    return ("<h2>卡牌 / Cards</h2><p class=small>打出者与未打出者的胜率之差（相关，不等于因果）。n 为打出该牌的人局数；"
            f"打出或未打出少于 {t['min_plays']} 人局的牌样本太少，不作判断（图中为浅灰色）。"
            " Win rate of players who played the card minus those who did not (a correlation, not a cause). n is the"
            f" number of player-games in which the card was played; a card played, or not played, in fewer than"
            f" {t['min_plays']} is too rarely seen to judge (light grey in the plot).</p>" + img +
            (_value_note(s) if "value" in s else "") + _table(head, rows))


def _section_length(s: dict, plots: Plots) -> str:
    r = s["rounds"]
    img = _histogram(plots, "对局长度 / game length (rounds)", r["histogram"], "回合 rounds", "局 games")
    rows = [(v, n) for v, n in r["histogram"]]
    return (f"<h2>对局长度 / Game length</h2><p>平均 mean {_num(r['mean'])} · 最短 min {r['min']} · 最长 max {r['max']}</p>"
            + img + _table(["回合 rounds", "局数 games"], rows) +
            _table(["结束原因 end reason", "局数 games"],
                   [(f"{_REASONS_ZH.get(k, k)} ({k})", n) for k, n in s["end_reasons"].items()]))


def _histogram(plots: Plots, title: str, hist: list[list[int]], xlabel: str, unit: str) -> str:
    """A histogram's plot; one bar is said as a number (a plot of one bar shows nothing more)."""
    if len(hist) == 1:
        (v, n), = hist
        zh, en = xlabel.split(" ", 1)
        return f"<p class=small>{html.escape(title)}：全部 {n} {html.escape(unit)}都是 {v}（{zh}） / all {n}: {v} ({en})</p>"
    return plots.histogram(title, hist, xlabel)


def _section_scores(s: dict, plots: Plots) -> str:
    sc = s["scores"]
    img = _histogram(plots, "最终分数 / final scores (all players)", sc["histogram"], "分数 score", "人局 player-games")
    q = sc["quantiles"]
    rows = [(k, q[k]) for k in ("min", "p10", "p25", "median", "p75", "p90", "max")]
    return (f"<h2>分数 / Scores</h2><p>平均 mean {_num(sc['mean'])} · 标准差 stdev {_num(sc['stdev'])} · "
            f"胜者平均 winners' mean {_num(sc['winner_mean'])}</p>" + img + _table(["分位 quantile", "分数 score"], rows))


def _section_metrics(s: dict) -> str:
    rows = []
    for k, v in s["metrics"].items():
        value = _pct_ci(v) if "ci95" in v else _num(v["value"])
        rows.append((k, value, v["definition"]))
    return "<h2>整体指标 / Whole-game metrics</h2>" + _table(["指标 metric", "值 value", "定义 definition"], rows)


def _section_events_combos(s: dict) -> str:
    ev = [(f"{v['name']} ({k})", _pct(v["drawn"]["rate"])) for k, v in s["events"].items()]
    fired = [(f"{v['name']} ({k})", v["times"], _pct_ci(v["games"])) for k, v in s["combos"]["fired"].items()]
    never = ", ".join(_combo(s, c) for c in s["combos"]["never_fired"]) or "—"
    return ("<h2>事件与连击 / Events and combos</h2>" + _table(["事件 event", "出现的对局 in games"], ev) +
            _table(["连击 combo", "触发次数 times", "触发的对局 games [95%]"], fired) +
            f"<p>从未触发 never fired: {html.escape(never)}</p>")


def _section_outliers(s: dict) -> str:
    rows = []
    for key, zh in (("longest_game", "最长的对局 longest game"), ("largest_margin", "最大分差 largest margin")):
        o = s["outliers"].get(key)
        if o:
            what = f"{o['rounds']} 回合 rounds" if key == "longest_game" else f"{o['margin']} 分 points"
            rows.append((zh, o["game"], o["seed"], what, f"<code>{html.escape(o['command'])}</code>"))
    out = "<h2>特殊对局 / Outliers</h2>" + _table(["", "局 game", "种子 seed", "", "重放 replay"], rows, raw=True)
    errs = s["errors"]
    if errs["count"]:
        erows = [(e["game"], e["seed"], html.escape(e["card"] or "?"), html.escape(e["message"] or ""),
                  f"<code>{html.escape(e['command'])}</code>") for e in errs["games"]]
        more = ("" if errs["listed"] == errs["count"]
                else f"<p>（只列出前 {errs['listed']} 局 / first {errs['listed']} listed）</p>")
        out += ("<h3>出错的对局 / Games that stopped on an error</h3>" + more +
                _table(["局 game", "种子 seed", "卡牌 card", "错误 message", "重放 replay"], erows, raw=True))
    return out


def _table(head, rows, raw: bool = False) -> str:
    if not rows:
        return ""
    cell = (lambda v: str(v)) if raw else (lambda v: html.escape(str(v)))
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _num(x) -> str:
    return "—" if x is None else f"{x:.2f}"


# ---- plots ---------------------------------------------------------------------------------------

def cjk_font() -> str | None:
    """A font family matplotlib can use to draw Chinese, if this machine has one (Simplified Chinese sans first).

    matplotlib knows only the fonts in its cache; a font installed after the cache was written is not there
    (installing fonts-noto-cjk as the README says would change nothing). So when the cache has no Chinese
    font, the system's fonts are read once more and the cache is written again, for the next run too.
    """
    from matplotlib import font_manager

    # A Chinese font that comes in one weight only (WenQuanYi Zen Hei is medium) makes matplotlib log
    # "Failed to find font weight normal" for every text it draws: it draws with that weight all the same, so
    # those lines would only alarm the designer reading the console.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    global _rescanned
    chinese = _fontconfig_chinese()
    font = pick_cjk_font((f.name for f in font_manager.fontManager.ttflist), chinese)
    if font is None and not _rescanned:
        _rescanned = True
        _rescan_fonts()
        font = pick_cjk_font((f.name for f in font_manager.fontManager.ttflist), chinese)
    return font


_rescanned = False      # the system's fonts are read again at most once a process


def pick_cjk_font(known: Iterable[str], chinese: Iterable[str] = ()) -> str | None:
    """The best family for Chinese among `known` (matplotlib's) given `chinese` (those fontconfig says cover zh).

    Order: PREFERRED_FONTS as listed; then other Simplified Chinese sans fonts, other sans, Simplified serif,
    other serif; names break ties, so the same machine always gives the same font.
    """
    names = set(known)
    zh = set(chinese)
    candidates = {n for n in names if n in zh or any(h in n for h in _CJK_HINTS)}

    def rank(name: str):
        if name in PREFERRED_FONTS:
            return (0, PREFERRED_FONTS.index(name), name)
        serif = any(h in name for h in _SERIF_HINTS)
        simplified = any(name.endswith(h) or f"{h} " in name for h in _SIMPLIFIED_HINTS)
        return (1, 2 * serif + (not simplified), name)

    return min(candidates, key=rank, default=None)


def _fontconfig_chinese() -> list[str]:
    """Families fontconfig says can draw Chinese (none where fontconfig is absent, as on Windows)."""
    if not shutil.which("fc-list"):
        return []
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, timeout=10,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [name.strip() for line in out.splitlines() for name in line.split(",")]


def _rescan_fonts() -> None:
    """Add the system's fonts that matplotlib's cache lacks, then save the cache."""
    import matplotlib
    from matplotlib import font_manager

    manager = font_manager.fontManager
    cached = {f.fname for f in manager.ttflist}
    for path in sorted(font_manager.findSystemFonts()):
        if path not in cached:
            try:
                manager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue        # a font file matplotlib cannot read is skipped, as matplotlib itself does
    font_manager.json_dump(manager, Path(matplotlib.get_cachedir(), f"fontlist-v{manager.__version__}.json"))


@dataclass(frozen=True)
class ImpactRow:
    """One card in the card-impact plot."""

    label: str
    difference: float
    ci95: list | None
    plays: int              # player-games in which the card was played
    judged: bool            # enough plays on both sides to judge
    stands_out: bool


_GREEN, _RED, _DARK, _LIGHT = "#2e8b57", "#c0392b", "#555555", "#c8c8c8"


class Plots:
    """Matplotlib figures (Agg) as <img> tags with base64 PNG data URIs; every text in them is plain text."""

    def __init__(self, font: str | None):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        self.plt = plt
        self.font = font
        # Card names are the designers' text: a '$' must stay a '$', never start TeX math (which can fail).
        self.style: Any = {"font.family": [font, "DejaVu Sans"] if font else ["DejaVu Sans"], "font.size": 9,
                      "svg.hashsalt": "rulekit", "text.parse_math": False, "text.usetex": False}

    def label(self, name: str, ident: str) -> str:
        return f"{name} {ident}" if self.font else ident

    def _img(self, fig, alt: str) -> str:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
        self.plt.close(fig)
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'

    def rates(self, title: str, items: list[tuple[str, dict]], average: float) -> str:
        items = [(k, r) for k, r in items if r["rate"] is not None]
        if not items:
            return ""
        with self.plt.rc_context(self.style):
            fig, ax = self.plt.subplots(figsize=(max(4, 0.7 * len(items) + 2), 3))
            xs = range(len(items))
            rates = [r["rate"] for _, r in items]
            lo = [max(0.0, r["rate"] - r["ci95"][0]) for _, r in items]
            hi = [max(0.0, r["ci95"][1] - r["rate"]) for _, r in items]
            ax.bar(xs, rates, color="#7aa6c2")
            ax.errorbar(xs, rates, yerr=[lo, hi], fmt="none", ecolor="#333", capsize=4)
            ax.axhline(average, color="#c0392b", linestyle="--", linewidth=1, label=f"average {average:.0%}")
            ax.set_xticks(list(xs), [k for k, _ in items], rotation=30 if len(items) > 4 else 0,
                          ha="right" if len(items) > 4 else "center")
            ax.set_ylim(0, 1)
            ax.set_ylabel("win rate")
            ax.set_title(title if self.font else title.split(" / ")[-1])
            ax.legend(loc="upper right", fontsize=8)
            return self._img(fig, title)

    def impact(self, items: list[ImpactRow], min_plays: int) -> str:
        """Each card's gap with its interval and its n: judged cards in colour, too few plays in light grey."""
        if not items:
            return ""
        from matplotlib.lines import Line2D

        with self.plt.rc_context(self.style):
            fig, ax = self.plt.subplots(figsize=(7.5, 0.28 * len(items) + 1.8), layout="constrained")
            ys = list(range(len(items)))[::-1]
            colors = [(_GREEN if r.difference > 0 else _RED) if r.stands_out else _DARK if r.judged else _LIGHT
                      for r in items]
            for y, r, color in zip(ys, items, colors, strict=True):
                if r.ci95:
                    ax.errorbar([r.difference], [y], xerr=[[max(0.0, r.difference - r.ci95[0])],
                                                             [max(0.0, r.ci95[1] - r.difference)]],
                                fmt="none", ecolor=color, capsize=3)
            ax.scatter([r.difference for r in items], ys, c=colors, zorder=3, s=18)
            ax.axvline(0, color="#333", linewidth=1)
            ax.set_yticks(ys, [f"{r.label}  n={r.plays}" for r in items])
            for tick, r in zip(ax.get_yticklabels(), items, strict=True):
                if not r.judged:
                    tick.set_color("#999999")
            judged = sum(r.judged for r in items)
            if 0 < judged < len(items):
                ax.axhline(ys[judged - 1] - 0.5, color=_LIGHT, linewidth=1, linestyle=":")
            ax.set_xlabel("win rate if played − win rate if not played (95% interval)")
            ax.set_title("打出者胜率差 / card impact" if self.font else "card impact")
            legend = [Line2D([], [], marker="o", linestyle="", color=c, label=words) for c, words in (
                (_GREEN, "stands out: higher"), (_RED, "stands out: lower"), (_DARK, "no clear gap"),
                (_LIGHT, f"too few plays (< {min_plays}) to judge"))]
            fig.legend(handles=legend, loc="outside lower center", ncol=4, fontsize=7, frameon=False)
            return self._img(fig, "card impact")

    def histogram(self, title: str, hist: list[list[int]], xlabel: str) -> str:
        if not hist:
            return ""
        with self.plt.rc_context(self.style):
            fig, ax = self.plt.subplots(figsize=(6, 2.8))
            ax.bar([v for v, _ in hist], [n for _, n in hist], width=0.9, color="#7aa6c2")
            ax.set_xlabel(xlabel if self.font else xlabel.split(" ")[-1])
            ax.set_ylabel("count")
            ax.set_title(title if self.font else title.split(" / ")[-1])
            return self._img(fig, title)


def page_head(title: str) -> str:
    """The opening of a report page, up to <body>: its title and the style every report shares."""
    return _HEAD.replace(_TITLE, html.escape(title))


_TITLE = "瘟疫到来 试玩报告 / Playtest report"
_HEAD = """<!DOCTYPE html>
<html lang="zh"><head><meta charset="utf-8"><title>""" + _TITLE + """</title>
<style>
body{font-family:"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;max-width:1100px;
  margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left}
th{background:#f3f3f3}.meta,.small{color:#555}.small{font-size:.85em}ul.notes li{margin:.4em 0}
img{max-width:100%;display:block;margin:1em 0}code{font-size:.85em;background:#f6f6f6;padding:0 .2em}
</style></head><body>"""

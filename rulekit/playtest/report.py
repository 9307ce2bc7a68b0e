"""DIR/report.html from a batch summary: plots as embedded PNGs, the tables behind them, what stands out."""

from __future__ import annotations

import base64
import html
import io
import shutil
import subprocess

SIGNIFICANT_GAP = 0.05      # a card's win-rate gap worth a line when its interval also excludes 0
MAX_NOTES = 20
MAX_CARD_NOTES = 6


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
    parts.append("<h2>值得注意 / What stands out</h2><ul class=notes>")
    parts += [f"<li>{html.escape(n)}</li>" for n in notes(s)] or ["<li>没有突出的发现 / nothing stands out</li>"]
    parts.append("</ul><p class=small>区间为 95% Wilson 置信区间；卡牌很多时，偶尔会有一两张仅因偶然而“突出”。"
                 " Intervals are 95% Wilson intervals; with many cards, one or two will stand out by chance.</p>")
    if font is None:
        parts.append("<p class=small>本机没有中文字体，图中以卡牌 id 标注，中文名见表格。"
                     " No Chinese font was found on this machine: plots label cards by id; the tables give the Chinese names.</p>")
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
        judged = _judge(a["wins"], avg)
        if judged:
            zh, en = judged
            out.append(f"顾问 {a['name']} ({aid}) 胜率 {_pct_ci(a['wins'])}，{zh}平均 {_pct(avg)} — 可能过{'强' if en == 'above' else '弱'}"
                       f" / advisor {aid} wins {_pct_ci(a['wins'])}, {en} the average {_pct(avg)} — may be too "
                       f"{'strong' if en == 'above' else 'weak'}")
    unchosen = [f"{a['name']} ({aid})" for aid, a in s["advisors"].items() if not a["chosen"]]
    if unchosen and s["games"]["completed"]:
        out.append(f"从未被选择的顾问：{'、'.join(unchosen)} / advisors never kept: {', '.join(unchosen)}")
    for seat, v in s["seats"].items():
        judged = _judge(v["wins"], avg)
        if judged:
            zh, en = judged
            out.append(f"座位 {seat} 胜率 {_pct_ci(v['wins'])}，{zh}平均 {_pct(avg)} — 座位顺序可能有影响"
                       f" / seat {seat} wins {_pct_ci(v['wins'])}, {en} the average — turn order may matter")
    if len(s["agents"]) > 1:
        parts = "，".join(f"{a} {_pct_ci(v['wins'])}" for a, v in s["agents"].items())
        out.append(f"各代理胜率：{parts} / win rate by agent: {parts}")
    gaps = [(cid, c) for cid, c in sorted(s["cards"].items(), key=lambda kv: -abs(kv[1]["difference"] or 0))
            if _gap_stands_out(c)]
    for cid, c in gaps[:MAX_CARD_NOTES]:
        d = c["difference"]
        verdict = ("可能过强", "may be too strong") if d > 0 else ("可能是陷阱牌或过弱", "may be a trap or too weak")
        out.append(f"打出 {c['name']} ({cid}) 的玩家胜率 {_pct_ci(c['win_if_played'])}，未打出者 "
                   f"{_pct_ci(c['win_if_not_played'])}（差 {d:+.0%}）— {verdict[0]} / players who played {cid} won "
                   f"{_pct(c['win_if_played']['rate'])} vs {_pct(c['win_if_not_played']['rate'])} ({d:+.0%}) — {verdict[1]}")
    if len(gaps) > MAX_CARD_NOTES:
        more = len(gaps) - MAX_CARD_NOTES
        out.append(f"另有 {more} 张牌的胜率差同样显著，见卡牌表 / {more} more cards with a clear gap: see the card table")
    never = [f"{c['name']} ({cid})" for cid, c in s["cards"].items() if c["drawn"] and not c["played_by"]["count"]]
    if never:
        out.append(f"抽到过但从未被打出：{'、'.join(never)} / drawn but never played: {', '.join(never)}")
    undrawn = [f"{c['name']} ({cid})" for cid, c in s["cards"].items() if not c["drawn"] and not c["played_by"]["count"]]
    if undrawn and s["games"]["completed"]:
        out.append(f"从未被抽到：{'、'.join(undrawn)} / never drawn: {', '.join(undrawn)}")
    if s["combos"]["never_fired"]:
        ids = ", ".join(s["combos"]["never_fired"])
        out.append(f"从未触发的连击：{ids} / combos that never fired: {ids}")
    reasons = s["end_reasons"]
    total = sum(reasons.values())
    if total:
        top, n = max(reasons.items(), key=lambda kv: kv[1])
        out.append(f"{n / total:.0%} 的对局以 {_REASONS_ZH.get(top, top)} 结束 / {n / total:.0%} of games ended by {top}")
    bal = s["metrics"]["balance"]["value"]
    if bal is not None and bal < 0.8:
        out.append(f"平衡度 {bal:.2f}：座位间胜率差距较大 / balance {bal:.2f}: seat win rates differ a lot")
    return out[:MAX_NOTES]


def _gap_stands_out(c: dict) -> bool:
    ci, d = c["difference_ci95"], c["difference"]
    return ci is not None and d is not None and abs(d) >= SIGNIFICANT_GAP and not ci[0] <= 0 <= ci[1]


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
    rows = [(f"{v['name']} ({k})", v["chosen"], _pct_ci(v["wins"])) for k, v in items]
    return "<h2>顾问 / Advisors</h2>" + img + _table(["顾问 advisor", "选择次数 chosen", "胜率 win rate [95%]"], rows)


def _section_cards(s: dict, plots: Plots) -> str:
    items = sorted(s["cards"].items(), key=lambda kv: -(kv[1]["difference"] if kv[1]["difference"] is not None else -9))
    shown = [(plots.label(v["name"], k), v["difference"], v["difference_ci95"]) for k, v in items
             if v["difference"] is not None]
    img = plots.impact(shown)
    rows = []
    for k, v in items:
        d = v["difference"]
        ci = v["difference_ci95"]
        rows.append((f"{v['name']} ({k})", v["stage"], v["drawn"], _pct(v["drawn_by"]["rate"]), _pct(v["played_by"]["rate"]),
                     _pct_ci(v["played_when_drawn"]), _pct_ci(v["win_if_played"]), _pct_ci(v["win_if_not_played"]),
                     "—" if d is None else f"{d:+.0%} [{ci[0]:+.0%}, {ci[1]:+.0%}]",
                     f"{_num(v['score_if_played'])} / {_num(v['score_if_not_played'])}"))
    return ("<h2>卡牌 / Cards</h2><p class=small>打出者与未打出者的胜率之差（相关，不等于因果）。"
            " Win rate of players who played the card minus those who did not (a correlation, not a cause).</p>" + img +
            _table(["卡牌 card", "阶段 stage", "抽到次数 drawn", "抽到率 drawn by", "打出率 played by",
                    "抽到后打出 played when drawn", "打出者胜率 win if played", "未打出者胜率 win if not",
                    "差 difference [95%]", "平均分 打出/未打出 mean score played/not"], rows))


def _section_length(s: dict, plots: Plots) -> str:
    r = s["rounds"]
    img = plots.histogram("对局长度 / game length (rounds)", r["histogram"], "回合 rounds")
    rows = [(v, n) for v, n in r["histogram"]]
    return (f"<h2>对局长度 / Game length</h2><p>平均 mean {_num(r['mean'])} · 最短 min {r['min']} · 最长 max {r['max']}</p>"
            + img + _table(["回合 rounds", "局数 games"], rows) +
            _table(["结束原因 end reason", "局数 games"],
                   [(f"{_REASONS_ZH.get(k, k)} ({k})", n) for k, n in s["end_reasons"].items()]))


def _section_scores(s: dict, plots: Plots) -> str:
    sc = s["scores"]
    img = plots.histogram("最终分数 / final scores (all players)", sc["histogram"], "分数 score")
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
    never = ", ".join(s["combos"]["never_fired"]) or "—"
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
        more = "" if errs["listed"] == errs["count"] else f"<p>（只列出前 {errs['listed']} 局 / first {errs['listed']} listed）</p>"
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
    """A font family matplotlib can use to draw Chinese, if this machine has one."""
    from matplotlib import font_manager

    known = {f.name for f in font_manager.fontManager.ttflist}
    families = []
    if shutil.which("fc-list"):
        try:
            out = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, timeout=10,
                                 check=False).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        families = [name.strip() for line in out.splitlines() for name in line.split(",")]
    hints = ("CJK", "Hei", "Song", "Ming", "Kai", "WenQuanYi", "YaHei", "Han Sans", "Han Serif", "PingFang")
    families += sorted(n for n in known if any(h in n for h in hints))
    return next((f for f in families if f in known), None)


class Plots:
    """Matplotlib figures (Agg) as <img> tags with base64 PNG data URIs."""

    def __init__(self, font: str | None):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        self.plt = plt
        self.font = font
        self.style = {"font.family": [font, "DejaVu Sans"] if font else ["DejaVu Sans"], "font.size": 9,
                      "svg.hashsalt": "rulekit"}

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
            ax.set_xticks(list(xs), [k for k, _ in items], rotation=30 if len(items) > 4 else 0, ha="right" if len(items) > 4 else "center")
            ax.set_ylim(0, 1)
            ax.set_ylabel("win rate")
            ax.set_title(title if self.font else title.split(" / ")[-1])
            ax.legend(loc="upper right", fontsize=8)
            return self._img(fig, title)

    def impact(self, items: list[tuple[str, float, list | None]]) -> str:
        if not items:
            return ""
        with self.plt.rc_context(self.style):
            fig, ax = self.plt.subplots(figsize=(7, 0.28 * len(items) + 1.2))
            ys = list(range(len(items)))[::-1]
            d = [x for _, x, _ in items]
            lo = [max(0.0, x - ci[0]) if ci else 0 for _, x, ci in items]
            hi = [max(0.0, ci[1] - x) if ci else 0 for _, x, ci in items]
            colors = ["#2e8b57" if x > 0 else "#c0392b" if x < 0 else "#888888" for x in d]
            ax.errorbar(d, ys, xerr=[lo, hi], fmt="none", ecolor="#888", capsize=3)
            ax.scatter(d, ys, c=colors, zorder=3, s=18)
            ax.axvline(0, color="#333", linewidth=1)
            ax.set_yticks(ys, [k for k, _, _ in items])
            ax.set_xlabel("win rate if played − win rate if not played (95% interval)")
            ax.set_title("打出者胜率差 / card impact" if self.font else "card impact")
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


_HEAD = """<!DOCTYPE html>
<html lang="zh"><head><meta charset="utf-8"><title>瘟疫到来 试玩报告 / Playtest report</title>
<style>
body{font-family:"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left}
th{background:#f3f3f3}.meta,.small{color:#555}.small{font-size:.85em}ul.notes li{margin:.4em 0}
img{max-width:100%;display:block;margin:1em 0}code{font-size:.85em;background:#f6f6f6;padding:0 .2em}
</style></head><body>"""

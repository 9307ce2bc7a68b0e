"""DIR/compare.html from compare.json's record: the content change, what changed in the games, before/after plots with
intervals, every number."""

from __future__ import annotations

import html
from collections.abc import Set as AbstractSet

from rulekit.playtest import compare as C
from rulekit.playtest.report import Plots, _table, cjk_font, page_head

GROUPS = (("card", "卡牌 / Cards"), ("advisor", "顾问 / Advisors"), ("seat", "座位 / Seats"), ("agent", "代理 / Agents"),
          ("combo", "连击 / Combos"), ("event", "事件 / Events"), ("metric", "整局 / Whole game"))
# The before/after plots: one per kind and metric a designer most often asks about.
PLOTS = (("card", "played_when_drawn", "抽到后打出 / played when drawn"),
         ("card", "win_if_played", "打出者胜率 / win rate of players who played it"),
         ("advisor", "win_if_chosen", "顾问胜率 / win rate by advisor"),
         ("seat", "win", "座位胜率 / win rate by seat"))
_BASE, _NEW, _UP, _DOWN, _GREY, _LIGHT = "#9a9a9a", "#2c6fa8", "#2e8b57", "#c0392b", "#555555", "#c8c8c8"


def render(record: dict) -> str:
    """The whole comparison as one self-contained HTML page (readable offline)."""
    font = cjk_font()
    plots = ComparePlots(font)
    r = record
    parts = [page_head("瘟疫到来 比较报告 / Comparison report"), "<h1>瘟疫到来 比较报告 / Comparison report</h1>",
             _meta(r), "<h2>内容改动 / What changed in the content</h2><ul class=notes>"]
    parts += [f"<li>{html.escape(line)}</li>" for line in content_lines(r)]
    edited = edited_lines(record)
    if edited:
        parts.append("</ul><h2>改动的牌 / The cards you changed</h2><ul class=notes>")
        parts += [f"<li>{html.escape(zh)}<br>{html.escape(en)}</li>" for zh, en in edited]
    parts.append("</ul><h2>对局的变化 / What changed in the games</h2><ul class=notes>")
    parts += [f"<li>{html.escape(f['zh'])}<br>{html.escape(f['en'])}</li>" for f in r["flagged"]]
    if not r["flagged"]:
        parts.append(f"<li>{html.escape(nothing_words(r))}</li>")
    zh, en = C.meaning(r)
    parts.append(f"</ul><p class=small>{html.escape(zh)}</p><p class=small>{html.escape(en)}</p>")
    parts.append(_paired_words(r))
    if font is None:
        parts.append("<p class=small>本机没有中文字体，图中以卡牌 id 标注，中文名见表格。"
                     " No Chinese font was found on this machine: plots label cards by id; the tables give the Chinese "
                     "names.</p>")
    parts.append(_too_few(r))
    by_key: dict[tuple[str, str], list[dict]] = {(c["kind"], c["metric"]): [] for c in r["compared"]}
    for c in r["compared"]:
        by_key[(c["kind"], c["metric"])].append(c)
    parts.append("<h2>前后对比 / Before and after</h2>")
    touched = {c["id"] for c in r["content_changes"] if c["name"]}
    for kind, metric, title in PLOTS:
        rows = [c for c in by_key.get((kind, metric), []) if c["base"] is not None or c["new"] is not None]
        parts.append(plots.before_after(title, rows, names=kind != "seat", edited=touched))
    for kind, title in GROUPS:
        rows = [c for c in r["compared"] if c["kind"] == kind]
        if rows:
            parts.append(f"<h2>{html.escape(title)}</h2>" + _numbers(rows))
    parts.append("<style>.flag{font-weight:bold;background:#fff3c4}</style></body></html>\n")
    return "\n".join(parts)


def content_lines(record: dict) -> list[str]:
    """The content change in words, one line each (what the report and the console open with)."""
    lines = [f"{c['zh']} / {c['en']}" for c in record["content_changes"]]
    if lines:
        return lines
    files = record["files"]
    if any(files.values()):
        changed = ", ".join(files["changed"] + files["added"] + files["removed"])
        return [f"文件有改动（{changed}），但没有改动任何卡牌或规则：只是注释或排版 / the files differ ({changed}) but no"
                f" card or rule does: comments or layout only"]
    return ["两边内容相同 / the two contents are the same"]


def edited_lines(record: dict) -> list[tuple[str, str]]:
    """Each judged number of the cards the change touched, in words, with how it stands (Chinese, English)."""
    return [(f"{e['zh']} — {e['standing_zh']}", f"{e['en']} — {e['standing_en']}") for e in record["edited"]]


def nothing_words(record: dict) -> str:
    g, d = record["games"], record["games_differing"]
    if d == 0:
        return (f"没有差异：{g} 局对局两边完全相同 / nothing changed: all {g} games are the same on both sides")
    return (f"没有经得起检验的差异（{d} / {g} 局有所不同，但差异都可能是偶然） / no difference holds: {d} of {g} games"
            f" differ, but every difference could be chance")


def _meta(r: dict) -> str:
    b, n = r["base"], r["new"]
    errors = "".join(f"<br>{side}: {r[side]['errors']} 局出错 games stopped on an error; the first, game"
                     f" {r[side]['first_error']['game']} (seed {r[side]['first_error']['seed']}):"
                     f" {html.escape(r[side]['first_error']['message'] or '')}"
                     for side in ("base", "new") if r[side]["errors"])
    return (f"<p class=meta>基准 base <code>{html.escape(b['content'])}</code> <small>({b['fingerprint'][:12]})</small>"
            f" → 新 new <code>{html.escape(n['content'])}</code> <small>({n['fingerprint'][:12]})</small> · "
            f"{r['games']} 对对局 pairs of games · {r['games_differing']} 局不同 differ · {r['players']} 人 players · "
            f"种子 seed {r['seed']} · 代理 agents {html.escape(', '.join(r['agents_by_seat']))}{errors}</p>")


def _paired_words(r: dict) -> str:
    t = r["tests"]
    return (f"<p class=small>每个差异都逐局配对：第 i 局两边种子相同，发牌、地块和事件尽可能一致，所以区间只反映改动造成的差别。"
            f"两边各至少测到 {t['min_weight']} 次的数才参与判断（共 {t['judged']} 个），并在所有判断的数之间以 Benjamini–Hochberg"
            f" 方法把错误发现率控制在 {t['false_discovery_rate']:.0%}。 Every difference is paired: game i has the same seed on"
            f" both sides, so the deal, the tiles and the events agree as far as the change lets them, and the interval"
            f" holds only what the change did. A number is judged when each side measured it at least {t['min_weight']}"
            f" times ({t['judged']} were), with the false discovery rate across all of them kept at"
            f" {t['false_discovery_rate']:.0%} (Benjamini–Hochberg).</p>")


def _too_few(r: dict) -> str:
    """The cards and advisors measured too rarely to judge, with the games that would judge them."""
    rows = []
    for c in r["compared"]:
        if c["judged"] or c["kind"] not in ("card", "advisor") or (c["base"] is None and c["new"] is None):
            continue
        needs = "—（一边从未出现 never seen on a side）" if c["needs_games"] is None else f"≈ {c['needs_games']:,}"
        rows.append((f"{c['name']} ({c['id']})", c["metric"], f"{c['base_of']:.0f} / {c['new_of']:.0f}", needs))
    if not rows:
        return ""
    return ("<h2>样本太少 / Too few to judge</h2><p "
            "class=small>这些数在这么多局里测到的次数太少，不作判断；最后一列是大约需要的对局数。"
            " These were measured too rarely in these games to judge; the last column says about how many games"
            " would judge them.</p>" +
            _table(["卡牌 card", "数 number", "测到次数 measured (base / new)", "约需对局 games needed"], rows))


def _numbers(rows: list[dict]) -> str:
    """One row per card (advisor, seat …), a column per number; the whole game's numbers one per row."""
    if rows[0]["kind"] == "metric":
        body: list[tuple[str, ...]] = [(html.escape(_row_label(c)), _cell(c)) for c in rows]
        return _table(["", "基准 → 新 base → new · 差 difference [95%]"], body, raw=True)
    metrics = list(dict.fromkeys(c["metric"] for c in rows))
    items: dict[str, dict[str, dict]] = {}
    for c in rows:
        items.setdefault(c["id"], {})[c["metric"]] = c
    body = []
    for ident, cells in items.items():
        first = next(iter(cells.values()))
        name = ident if first["kind"] == "seat" or first["name"] == ident else f"{first['name']} ({ident})"
        body.append((html.escape(name), *(_cell(cells[m]) if m in cells else "" for m in metrics)))
    return _table(["", *(C.LABELS[m] for m in metrics)], body, raw=True)


def _row_label(c: dict) -> str:
    if c["metric"] == "end":
        zh, en = C.END_WORDS.get(c["id"][4:], (c["id"], c["id"]))
        return f"{C.LABELS['end']}: {zh} {en}"
    return C.LABELS[c["metric"]]


def _cell(c: dict) -> str:
    """base → new, and below it the difference with its interval and q; a flagged one stands out."""
    m = C.METRICS[(c["kind"], c["metric"])]
    if c["base"] is None and c["new"] is None:
        return "—"
    top = f"{C.value(m, c['base'])} → {C.value(m, c['new'])}"
    d, ci = c["difference"], c["ci95"]
    if d is None:
        below = "一边没有 one side only"
    elif not c["judged"]:
        need = f" (≈ {c['needs_games']:,} games)" if c["needs_games"] else ""
        below = f"样本太少 too few{need}"
    else:
        spread = f" [{C.signed(m, ci[0])}, {C.signed(m, ci[1])}]" if ci else ""
        below = f"{C.signed(m, d)}{spread} q {_p(c['q'])}"
    style = " class=flag" if c["flagged"] else ""
    return f"<span{style}>{html.escape(top)}</span><br><small>{html.escape(below)}</small>"


def _p(x) -> str:
    return "—" if x is None else f"{x:.3f}" if x >= 0.001 else "<0.001"


class ComparePlots(Plots):
    """The report's plots, plus the comparison's: each side's value with its interval, and the paired difference."""

    def before_after(self, title: str, rows: list[dict], *, names: bool = True, edited: AbstractSet[str] = frozenset()) -> str:
        """Each row's base and new value with their own intervals (left), and its paired difference (right);
        the cards the change touched in bold."""
        if not rows:
            return ""
        from matplotlib.ticker import PercentFormatter

        with self.plt.rc_context(self.style):
            fig, (left, right) = self.plt.subplots(1, 2, sharey=True, figsize=(9, 0.3 * len(rows) + 1.6),
                                                   layout="constrained")
            ys = list(range(len(rows)))[::-1]
            for y, c in zip(ys, rows, strict=True):
                for value, ci, color, dy in ((c["base"], c["base_ci95"], _BASE, 0.15), (c["new"], c["new_ci95"], _NEW, -0.15)):
                    if value is not None:
                        _point(left, value, ci, y + dy, color)
                if c["difference"] is not None:
                    color = (_UP if c["difference"] > 0 else _DOWN) if c["flagged"] else _GREY if c["judged"] else _LIGHT
                    _point(right, c["difference"], c["ci95"], y, color)
            right.axvline(0, color="#333", linewidth=1)
            for ax in (left, right):            # every plotted number is a share: percent, and points apart
                ax.xaxis.set_major_formatter(PercentFormatter(1.0))
            labels = [self.label(c["name"], c["id"]) if names else c["id"] for c in rows]
            left.set_yticks(ys, labels)
            for tick, c in zip(left.get_yticklabels(), rows, strict=True):
                if c["id"] in edited:
                    tick.set_fontweight("bold")
            left.set_xlim(-0.02, 1.02)
            left.set_xlabel("base (grey) · new (blue), 95% intervals")
            right.set_xlabel("new − base (points), paired 95% interval; light grey: too few to judge")
            fig.suptitle(title if self.font else title.split(" / ")[-1])
            return self._img(fig, title)


def _point(ax, value: float, ci, y: float, color: str) -> None:
    if ci:
        ax.errorbar([value], [y], xerr=[[max(0.0, value - ci[0])], [max(0.0, ci[1] - value)]], fmt="none",
                    ecolor=color, capsize=2)
    ax.scatter([value], [y], color=color, s=14, zorder=3)

"""`rulekit value`: the causal value of cards over a batch of games, stored as a playtest batch is, in OUT/value.json."""

from __future__ import annotations

from pathlib import Path

import click

from rulekit import registry
from rulekit.console import SEED, Command, agents_or_usage_error, echo, load_or_exit
from rulekit.lint.render import display_width
from rulekit.playtest.cli import _view, _write, clear_batch, reported
from rulekit.playtest.options import GAMES, scheduler_address
from rulekit.playtest.runner import BACKENDS, Batch, run
from rulekit.playtest.store import Store, batch_lock
from rulekit.playtest.value import ValuePlan, card_ids
from rulekit.playtest.stats import dumps
from rulekit.playtest.value_stats import signed, stored, summarize


@click.command("value", cls=Command)
@click.argument("content_arg", metavar="[CONTENT]", required=False, type=click.Path(file_okay=False))
@click.option("--content", "content_opt", type=click.Path(file_okay=False),
              help="内容文件夹，也可直接写在命令后（默认 content） / "
                   "The content folder; it may also come first, without --content (default: content).")
@click.option("--card", "cards", multiple=True, metavar="CARD",
              help="只测这张牌（id 或中文名，可重复）；不给则测所有政策和顾问 / "
                   "Measure this card (id or name; repeat for more); default: every policy and advisor.")
@click.option("--give", metavar="CARD",
              help="改为测开局发给一个座位的这张政策：同一种子有无该牌各打一局 / Instead, measure this policy dealt "
                   "to one seat at the start: each seed played with it and without it.")
@click.option("--points", default=1, show_default=True, type=click.IntRange(1, 4),
              help="每局每张牌取样的决策点数（每个座位至多一个） / Decision points measured per card and game "
                   "(at most one per seat).")
@click.option("--games", default=200, show_default=True, type=GAMES,
              help=f"对局数（1 到 {GAMES.hi:,}） / Games played, 1 to {GAMES.hi:,}.")
@click.option("--seed", default=1, show_default=True, type=SEED,
              help="批次种子（0 或更大） / The batch seed, 0 or more.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="并行的工作进程数 / Worker processes playing at the same time.")
@click.option("--agents", default="greedy", show_default=True,
              help="每个座位的代理，逗号分隔；只写一个则所有座位相同 / "
                   "Agent per seat, comma-separated (one name: every seat).")
@click.option("--players", type=click.IntRange(2, 4),
              help="每局人数（默认见 rules.yaml） / Players per game (default: rules.yaml).")
@click.option("--out", default="value-out", show_default=True, type=click.Path(file_okay=False),
              help="输出文件夹 / Output folder.")
@click.option("--resume", is_flag=True, help="继续 --out 中已有的批次 / Complete or extend the batch already in --out.")
@click.option("--fresh", is_flag=True,
              help="重新开始：先删除 --out 中已有批次的文件 / Start over: delete the batch already in --out first.")
@click.option("--backend", default="local", show_default=True, type=click.Choice(BACKENDS),
              help="local：本机多进程；dask：dask 集群 / local: processes on this machine; dask: a dask cluster.")
@click.option("--scheduler", callback=lambda ctx, param, value: scheduler_address(value),
              help="dask 调度器地址 tcp://host:port / dask scheduler address (tcp://host:port).")
@click.option("--include-tbd", is_flag=True, help="加入标为 tbd 的牌 / Include cards with status tbd.")
@click.option("--only-designed", is_flag=True,
              help="只用已定稿的牌（不含提议） / Only cards with status designed (no proposals).")
@click.option("--quiet", is_flag=True, help="不显示进度 / No progress display.")
def value(content_arg, content_opt, cards, give, points, games, seed, jobs, agents, players, out, resume, fresh,
          backend, scheduler, include_tbd, only_designed, quiet):
    """测量卡牌的因果价值 / Measure what playing a card changes, with and without it.

    \b
    在真实对局中可以打出某牌（保留顾问、竞价）的决策点复制对局，同样的随机数
    各打到底：此刻打出，和不打（此后也不打）；比较该座位的最终得分与胜负。
    写出 OUT/value.json（对局存在 OUT/games.sqlite，可 --resume）。

    At decision points of real games where a seat may play a card (keep an advisor,
    bid on a card), the game is copied and played to the end twice with the same random
    numbers: with the card played now, and without it (nor later). The seat's final
    score and win are compared. Writes OUT/value.json (games in OUT/games.sqlite; --resume works).
    """
    if content_arg and content_opt and Path(content_arg) != Path(content_opt):
        raise click.UsageError(f"两个内容文件夹 / two content folders: {content_arg} and --content {content_opt};"
                               f" give it once")
    if give and cards:
        raise click.UsageError("--give measures one dealt card; leave out --card, or run the two apart")
    if scheduler and backend != "dask":
        raise click.BadParameter("--scheduler needs --backend dask", param_hint="--scheduler")
    if include_tbd and only_designed:
        raise click.UsageError("--include-tbd and --only-designed contradict each other")
    if resume and fresh:
        raise click.UsageError("--resume and --fresh contradict each other")
    content = content_opt or content_arg or "content"
    loaded = load_or_exit(content, include_tbd, only_designed)
    plan = ValuePlan(points, tuple(_card_ids(loaded, cards, "--card")),
                     _card_ids(loaded, (give,), "--give", "policy")[0] if give else None)
    n = players or int(loaded.rules.get("players", registry.DEFAULT_RULES["players"]))
    batch = Batch(content, games, seed, n, tuple(agents_or_usage_error(agents, n)), include_tbd, only_designed,
                  value=plan)
    out = Path(out)
    view = _view(quiet, "价值 value")
    with reported(view, out), batch_lock(out):     # the lock is held from --fresh to the last file written
        if fresh:
            clear_batch(out)
        outcome = run(loaded, batch, out, jobs=jobs, backend=backend, scheduler=scheduler, resume=resume,
                      on_start=view.start, on_game=lambda i, result: view.game(result))
        view.stage("汇总 writing value.json")
        summary = value_json(loaded, batch, out)
        _write(out / "value.json", dumps(summary))
    view.stop()
    for line in table(summary):
        echo(line)
    echo(f"{summary['games']} 局 games ({outcome.played} played now), {summary['points']} 个决策点 points,"
         f" {summary['errors']} 出错 left out; 写出 wrote {out / 'value.json'}")


def _card_ids(content, refs, option: str, kind: str | None = None) -> list[str]:
    try:
        return card_ids(content, refs, kind)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint=option) from None


def value_json(content, batch: Batch, out: Path) -> dict:
    """value.json: the batch it rests on and every measured card's value, summed from games.sqlite."""
    store = Store(out)
    try:
        assert batch.value is not None      # value.json is written only for a batch that measures values
        stats = summarize(stored(store), content, batch.value)
    finally:
        store.close()
    return {"seed": batch.seed, "players": batch.players, "agents_by_seat": list(batch.agents),
            "content": {"path": batch.content, "fingerprint": content.fingerprint}, **stats.summary()}


WAY_WORDS = {"play": "打出 play", "bid": "竞价 bid", "keep": "保留 keep", "give": "发给 give"}


def table(summary: dict) -> list[str]:
    """The values as lines a designer reads: card, way, score and win with their intervals, the points."""
    rows = [("卡牌 card", "方式 way", "得分 score [95%]", "胜负 win [95%]", "点/局 points/games")]
    for cid, c in summary["cards"].items():
        for how in ("play", "bid", "keep", "give"):
            e = c.get(how)
            if e is not None and e["points"]:
                rows.append((f"{c['name']} ({cid})", WAY_WORDS[how], signed(e["score"]), signed(e["win"], pct=True),
                             f"{e['points']}/{e['games']}"))
    widths = [max(display_width(r[k]) for r in rows) + 2 for k in range(len(rows[0]) - 1)]
    return ["".join(cell + " " * (w - display_width(cell)) for cell, w in zip(r, widths, strict=False)) + r[-1] for r in rows]

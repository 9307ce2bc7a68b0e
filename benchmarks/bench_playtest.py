"""Playtest scaling: games per second with 1 and 2 jobs, their ratio, and peak memory, at two batch sizes.

Measures the real runner (games played and stored in SQLite; summary and report left out), each run in a
fresh process so its peak memory is its own:
    python benchmarks/bench_playtest.py [--games 2000] [--small 500] [--agent greedy] [--repeat 1] [--content DIR]

The ratio (2 jobs / 1 job) is the figure to watch: the engine's own speed changes, the ratio should stay
near 2 on two idle cores. "others busy" says how many cores other programs kept busy during a run: a
ratio measured while they took most of a core says little; "CPU ms/game" (all processes of the run) does
not depend on them, and shows what the workers and the parent cost beyond the games. Memory should not
grow with the number of games.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

SHIPPED = Path(__file__).resolve().parent.parent / "content"


def measure(folder: Path, agent: str, games: int, jobs: int) -> dict:
    """Play one batch in this process: its speed, the peak memory of this process and of its workers, and
    how many cores other programs kept busy meanwhile (on a shared machine they take cores from the jobs)."""
    from rulekit.content.loader import load_content
    from rulekit.playtest.runner import Batch, run

    content = load_content(folder)
    batch = Batch(str(folder), games, 1, 4, (agent,) * 4)
    busy, ours = machine_busy_seconds(), own_cpu_seconds()
    with tempfile.TemporaryDirectory() as tmp:
        outcome = run(content, batch, Path(tmp), jobs=jobs)
    cpu = own_cpu_seconds() - ours
    others = None
    if busy is not None:
        others = max(0.0, (machine_busy_seconds() - busy) - cpu) / outcome.seconds
    return {"games_per_second": outcome.played / outcome.seconds, "other_cores": others,
            "cpu_ms_per_game": 1000 * cpu / outcome.played,
            "parent_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "worker_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def own_cpu_seconds() -> float:
    """CPU seconds of this process and its finished workers."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def machine_busy_seconds() -> float | None:
    """CPU seconds every program on the machine has used since boot (Linux's /proc/stat; None elsewhere)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(x) for x in fields[:7])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def in_fresh_process(folder: Path, agent: str, games: int, jobs: int) -> dict:
    cmd = [sys.executable, __file__, "--measure", "--content", str(folder), "--agent", agent, "--games", str(games),
           "--jobs", str(jobs)]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="the large batch")
    parser.add_argument("--small", type=int, default=500, help="the small batch, for memory")
    parser.add_argument("--agent", default="greedy", help="the agent in every seat")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each, 1 job and 2 jobs taking turns; the fastest of each counts (a shared"
                             " machine only ever slows a run down)")
    parser.add_argument("--content", type=Path, default=SHIPPED,
                        help="the content folder (default: the shipped content/)")
    parser.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.content, args.agent, args.games, args.jobs)))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.agent} players, 4 seats, {args.content}; {os.cpu_count()} CPUs, load average {load:.1f} at the start")
    print(f"{'games':>6} {'jobs':>4} {'games/s':>8} {'CPU ms/game':>12} {'peak MB parent':>15} {'peak MB worker':>15}"
          f" {'others busy':>12}")
    for games in (args.small, args.games):
        runs = {1: [], 2: []}
        for _ in range(args.repeat):
            for jobs in runs:
                runs[jobs].append(in_fresh_process(args.content, args.agent, games, jobs))
        one, two = (max(runs[jobs], key=lambda m: m["games_per_second"]) for jobs in (1, 2))
        for jobs, m in ((1, one), (2, two)):
            worker = f"{m['worker_mb']:15.0f}" if jobs > 1 else f"{'—':>15}"
            others = f"{m['other_cores']:6.2f} cores" if m["other_cores"] is not None else f"{'—':>12}"
            print(f"{games:>6} {jobs:>4} {m['games_per_second']:8.1f} {m['cpu_ms_per_game']:12.1f}"
                  f" {m['parent_mb']:15.0f} {worker} {others}")
        print(f"{games:>6} ratio 2 jobs / 1 job: ×{two['games_per_second'] / one['games_per_second']:.2f}"
              " (worker start-up included; needs 2 idle cores)")


if __name__ == "__main__":
    main()

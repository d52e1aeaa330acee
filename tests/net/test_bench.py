"""The net benchmark runs and reports every figure; view frames stay under 16 KB (issue target)."""

from __future__ import annotations

import math

from bench import SUITES
from bench import net as bench_net
from game.core.registry import game_ids


def test_net_bench_reports_its_figures() -> None:
    assert SUITES["net"] == "bench.net"
    figures = bench_net.run(quick=True)
    assert set(figures) == set(bench_net.FIGURES)
    assert figures["net.actions_measured"] > 20
    for name in ("net.latency_p50_ms", "net.latency_p99_ms", "net.host_cpu_ms_per_action"):
        assert math.isfinite(figures[name]) and figures[name] > 0
    assert figures["net.latency_p50_ms"] <= figures["net.latency_p99_ms"]
    for game_id in game_ids():
        assert 0 < figures[f"net.view_bytes_max.{game_id}"] < 16 * 1024

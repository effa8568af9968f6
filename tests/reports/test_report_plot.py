"""The failure plot: occupancy and seqs in flight over switch time, as PNG."""

from __future__ import annotations

import struct

import pytest

from broken_target import COLLISION_TRACE
from atp_fixtures.report.plot import in_flight_from_trace, occupancy_from_trace, scenario_plot_png
from atp_fixtures.evidence.trace import load_trace

pytest.importorskip("matplotlib", reason="matplotlib is a declared dependency")


def test_series_follow_the_trace():
    switch = load_trace(COLLISION_TRACE).switches["tor0"]
    # #0 takes aggregator 5 at 100 ns; the collisions take nothing; #3 completes it,
    # still owned (no parameter packet yet)
    assert occupancy_from_trace(switch) == [(0, 0), (100, 1)]
    # job 1 seq 1 opens at 100, job 2 seq 3 at 200, job 1 seq 9 at 300
    assert in_flight_from_trace(switch) == [(0, 0), (100, 1), (200, 2), (300, 3)]


def test_parameter_packets_close_seqs():
    trace = load_trace(COLLISION_TRACE.with_name("rule-5-parameter-release.json"))
    series = next(iter(trace.switches.values()))
    flight = in_flight_from_trace(series)
    assert flight[-1][1] < max(v for _, v in flight)


def test_png_is_a_real_image_of_plot_size():
    png = scenario_plot_png(load_trace(COLLISION_TRACE))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (800, 480)


def test_recorded_occupancy_is_preferred(monkeypatch):
    import atp_fixtures.report.plot as plot
    calls = []
    monkeypatch.setattr(plot, "occupancy_from_trace", lambda *a: calls.append(a) or [(0, 0)])
    plot.scenario_plot_png(load_trace(COLLISION_TRACE), [(50, "tor0", 2)])
    assert calls == []

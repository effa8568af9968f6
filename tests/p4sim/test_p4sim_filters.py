"""Lpf and Wred (p4sim/filters.py): the models' outputs, computed by hand, on the
injection timestamps."""
import math
import os

import pytest

import p4sim

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sde_ptf", "ptf",
                       "lpf_wred", "lpf_wred.p4")
DROP, NO_DROP = 0xDD, 0x11
LPF, WRED = "SwitchIngress.smooth", "SwitchIngress.early_drop"


@pytest.fixture(scope="module")
def program():
    return p4sim.compile_file(PROGRAM)


@pytest.fixture
def sw(program):
    s = p4sim.Switch(program, seed=3)
    s.table_add("dmac", {"hdr.ethernet.dst_addr": 0x001122334455}, "forward", {"port": 2})
    return s


def run(sw, sample, ts, cell=7):
    """(Wred verdict, Lpf output) of one frame with ``sample`` in cell ``cell``."""
    f = bytes.fromhex("001122334455") + bytes([0, 0, 0, 0, 0, cell]) + \
        sample.to_bytes(2, "big") + bytes(50)
    (_port, out), = sw.inject(1, f, timestamp_ns=ts)
    return out[11], int.from_bytes(out[12:14], "big")


def test_unconfigured_cells_pass_the_sample_and_never_drop(sw):
    assert run(sw, 40000, 0) == (NO_DROP, 40000)
    assert sw.lpfs[LPF].get(7) == ("SAMPLE", 0.0, 0.0, 0)


def test_lpf_sample_is_an_ewma_with_gain_and_decay_time_constants(sw):
    sw.lpfs[LPF].set(7, "SAMPLE", 1000.0, 4000.0, 0)
    assert run(sw, 1000, 0)[1] == 1000                 # the first sample starts it
    y = 1000 + (1 - math.exp(-2000 / 4000)) * (0 - 1000)     # falling: decay tau
    assert run(sw, 0, 2000)[1] == int(y)
    y2 = y + (1 - math.exp(-1000 / 1000)) * (3000 - y)        # rising: gain tau
    assert run(sw, 3000, 3000)[1] == int(y2)
    assert run(sw, 3000, 3000 + 10**9)[1] == 3000       # a second later: the sample itself


def test_lpf_rate_integrates_over_the_gain_time_constant_and_scales_down(sw):
    sw.lpfs[LPF].set(7, "RATE", 1000.0, 1000.0, 2)
    outs = [run(sw, 400, t)[1] for t in (0, 0, 0)]
    assert outs == [100, 200, 300]                      # 400, 800, 1200 >> 2
    y = 1200 * math.exp(-500 / 1000) + 400
    assert run(sw, 400, 500)[1] == int(y) >> 2


def test_wred_drops_by_the_average_against_the_thresholds(sw):
    sw.wreds[WRED].set(7, 0.0, 100, 200, 1.0)           # tau 0: the average is the sample
    assert run(sw, 99, 0)[0] == NO_DROP
    assert run(sw, 200, 0)[0] == DROP
    verdicts = [run(sw, 150, t)[0] for t in range(400)]       # p = 0.5
    assert 120 < verdicts.count(DROP) < 280
    sw.wreds[WRED].set(7, 10**6, 100, 200, 1.0)         # a slow average remembers
    run(sw, 0, 0)
    assert run(sw, 60000, 1000)[0] == NO_DROP           # avg ~ 60: below min


def test_wred_draws_repeat_with_the_seed(program):
    def verdicts(seed):
        s = p4sim.Switch(program, seed=seed)
        s.table_add("dmac", {"hdr.ethernet.dst_addr": 0x001122334455}, "forward", {"port": 2})
        s.wreds[WRED].set(7, 0.0, 0, 100, 1.0)
        return [run(s, 50, t)[0] for t in range(64)]
    assert verdicts(5) == verdicts(5)
    assert verdicts(5) != verdicts(6)


def test_configuration_errors_name_the_object(sw):
    with pytest.raises(p4sim.ControlPlaneError, match="Lpf 'SwitchIngress.smooth': type"):
        sw.lpfs[LPF].set(1, "AVERAGE", 1.0, 1.0, 0)
    with pytest.raises(p4sim.ControlPlaneError, match="min threshold 9 is above"):
        sw.wreds[WRED].set(1, 1.0, 9, 8, 0.5)
    with pytest.raises(p4sim.ControlPlaneError, match="index 256 out of range 0..255"):
        sw.wreds[WRED].set(256, 1.0, 1, 8, 0.5)

"""save_trace writes the JSON and its pcap atomically; the pcap decodes with scapy into
the ATP layers; a saved trace loads back to the same frames and replays clean."""

from __future__ import annotations

import json

import pytest
from scapy.layers.l2 import Ether
from scapy.utils import rdpcap

import atp_fixtures.evidence.trace as trace_module
from corpus_helpers import TRACES, replay_all, trace_dict
from atp_fixtures.evidence.trace import load_trace, save_trace, trace_from_dict
from reference.scapy_layers import ATP, ATPShim

ECN = TRACES / "rule-4.1-ecn-from-ipv4.json"
TWO_LEVEL = TRACES / "rule-8-parameter-releases-both-levels.json"
L2 = TRACES / "rule-5-l2-forwarding.json"


def frames(trace):
    return {name: ([(p.port, p.frame, p.time_ns, p.queue_depth) for p in sw.ingress],
                   [(p.port, p.frame, p.after) for p in sw.egress])
            for name, sw in trace.switches.items()}


@pytest.mark.parametrize("source", [ECN, TWO_LEVEL, L2], ids=lambda p: p.stem)
def test_saved_trace_round_trips_and_replays(tmp_path, source):
    original = load_trace(source)
    path = save_trace(original, tmp_path / "out" / "saved.json")
    assert path == tmp_path / "out" / "saved.json"
    assert path.with_suffix(".pcap").is_file()
    again = load_trace(path)
    assert frames(again) == frames(original)
    assert (again.rule, again.description, again.profile) == (
        original.rule, original.description, original.profile)
    assert all(c.ok for c in replay_all(again).values())
    data = json.loads(path.read_text())
    assert data["format"] == "atp-trace/1"
    assert sorted(p.name for p in path.parent.iterdir()) == ["saved.json", "saved.pcap"]


def test_pcap_decodes_into_atp_layers(tmp_path):
    trace = load_trace(ECN)
    path = save_trace(trace, tmp_path / "ecn.json")
    packets = rdpcap(str(path.with_suffix(".pcap")))
    sw = trace.switches["tor0"]
    assert len(packets) == len(sw.ingress) + len(sw.egress)
    assert all(ATP in p for p in packets)
    # records are in switch-time order: ingress #0 (t=10) first, with ipv4 CE
    first = packets[0]
    assert bytes(first) == sw.ingress[0].frame
    assert (first[ATP].app_id, first[ATP].seq, first[ATP].bitmap, first[ATP].fan_in,
            first[ATP].agtr, first[ATP].key, first[ATP].tensor_len) == (1, 1, 1, 2, 5, 7, 186)
    assert first[ATP].values[0] == 10 and first[ATP].ecn == 0
    assert int(first.time) == 0 and first.time * 10**9 == pytest.approx(10, abs=1e-3)
    emitted = [p for p in packets if p[ATP].bitmap == 3]
    assert len(emitted) == 1
    assert emitted[0][ATP].ecn == 1 and list(emitted[0][ATP].values[:2]) == [15, 7]


def test_pcap_of_two_level_trace_decodes_the_shim(tmp_path):
    path = save_trace(load_trace(TWO_LEVEL), tmp_path / "two.json")
    packets = rdpcap(str(path.with_suffix(".pcap")))
    assert packets and all(ATPShim in p and ATP in p for p in packets)
    ups = [p for p in packets if p[ATPShim].level == 1 and not p[ATP].ack]
    assert {(p[ATPShim].bitmap1, p[ATPShim].rack_id) for p in ups} == {(3, 0), (2, 1)}
    params = [p for p in packets if p[ATP].ack]
    assert len(params) == 2 + 3 + 2         # two injected, five multicast copies


def test_pcap_keeps_non_atp_frames_as_ethernet(tmp_path):
    path = save_trace(load_trace(L2), tmp_path / "l2.json")
    packets = rdpcap(str(path.with_suffix(".pcap")))
    assert len(packets) == 6 + 4
    assert sum(ATP in p for p in packets) == 2
    assert {p[Ether].type for p in packets} == {0x88B5, 0x0800, 0x0700}


def test_failed_save_leaves_the_old_files_whole_and_no_temporaries(tmp_path, monkeypatch):
    path = tmp_path / "t.json"
    save_trace(load_trace(ECN), path)
    old_pcap = path.with_suffix(".pcap").read_bytes()
    monkeypatch.setattr(trace_module, "_pcap_bytes", lambda trace: "not bytes")
    changed = load_trace(ECN)
    changed.description = "changed"
    with pytest.raises(TypeError):
        save_trace(changed, path)
    assert path.with_suffix(".pcap").read_bytes() == old_pcap      # not half-written
    json.loads(path.read_text())                                    # whole JSON
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.json", "t.pcap"]


def test_failed_first_save_leaves_nothing(tmp_path, monkeypatch):
    def broken(trace):
        raise OSError("disk full")
    monkeypatch.setattr(trace_module, "trace_to_dict", broken)
    with pytest.raises(OSError):
        save_trace(load_trace(ECN), tmp_path / "t.json")
    assert list(tmp_path.iterdir()) == []


def test_deviation_survives_load_and_save(tmp_path):
    source = TRACES / "rule-4.6-first-completing-overwrites-stale.json"
    trace = load_trace(source)
    assert trace.deviation == "9.1"
    assert load_trace(ECN).deviation == ""
    saved = json.loads(save_trace(trace, tmp_path / "d.json").read_text())
    assert saved.get("deviation") == "9.1"


# -- gaps found while writing the corpus (fixed; these pin the fixes) ----------------
def test_saving_keeps_which_register_fields_are_compared(tmp_path):
    data = trace_dict(ECN.name)
    for state in data["switches"]["tor0"]["registers"]["level0"].values():
        for name in ("bitmap", "count", "ecn", "stamp", "values"):
            del state[name]
    data["switches"]["tor0"]["checkpoints"] = []
    trace = trace_from_dict(data)
    assert all(c.ok for c in replay_all(trace).values())
    again = load_trace(save_trace(trace, tmp_path / "partial.json"))
    assert again.switches["tor0"].register_fields == frozenset({"owner"})
    assert all(c.ok for c in replay_all(again).values())

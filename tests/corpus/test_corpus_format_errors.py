"""Loading a bad trace fails with atp_fixtures.evidence.trace.TraceFormatError whose message names the
file, the field path and the expected form (``"<file>: <field path>: <expected>"``)."""

from __future__ import annotations

import pytest

from corpus_helpers import TRACES, trace_dict, write_json
from atp_fixtures.evidence.trace import TraceFormatError, load_trace

GOOD = "rule-4.1-ecn-from-ipv4"
TWO_LEVEL = "rule-8-parameter-releases-both-levels"


def load_error(path) -> TraceFormatError:
    with pytest.raises(TraceFormatError) as info:
        load_trace(path)
    err = info.value
    message = str(err)
    assert message.startswith(f"{path}: "), message          # the file, first
    assert message == f"{err.source}: {err.where}: {err.expected}"
    return err


def mutated(tmp_path, change, name=GOOD):
    data = trace_dict(name)
    change(data)
    return write_json(tmp_path / "bad.json", data)


def tor0(data):
    return data["switches"]["tor0"]


def test_truncated_json(tmp_path):
    text = (TRACES / f"{GOOD}.json").read_text()
    path = tmp_path / "cut.json"
    path.write_text(text[:len(text) // 2])
    err = load_error(path)
    assert err.where.startswith("line ") and " column " in err.where
    assert "valid JSON expected" in str(err)


def test_malformed_json(tmp_path):
    path = tmp_path / "junk.json"
    text = '{"format": "atp-trace/1", "switches": {"tor0": [1, 2,]}}'
    path.write_text(text)
    err = load_error(path)
    assert err.where == f"line 1 column {text.index(',]') + 2}"   # at the stray ']'

    assert "valid JSON expected" in err.expected


def test_top_level_not_an_object(tmp_path):
    err = load_error(write_json(tmp_path / "list.json", [1, 2]))
    assert (err.where, err.expected) == ("top level", "an object expected, got list")


def test_missing_file(tmp_path):
    err = load_error(tmp_path / "absent.json")
    assert err.where == "file" and "cannot be read" in err.expected


def test_future_version(tmp_path):
    err = load_error(mutated(tmp_path, lambda d: d.update(format="atp-trace/2")))
    assert err.where == "format"
    assert "'atp-trace/1' expected; 'atp-trace/2' is a version this suite does not read" \
        in str(err)


def test_not_a_trace_format(tmp_path):
    err = load_error(mutated(tmp_path, lambda d: d.update(format="pcap")))
    assert str(err).endswith("format: 'atp-trace/1' expected, got 'pcap'")


def test_missing_format(tmp_path):
    err = load_error(mutated(tmp_path, lambda d: d.pop("format")))
    assert err.where == "format"
    assert err.expected == "expected a str (the field is missing)"


@pytest.mark.parametrize("change, where, expected", [
    (lambda d: tor0(d)["config"].update(pool_size="8"),
     "switches.tor0.config.pool_size", "expected an integer, got '8'"),
    (lambda d: tor0(d)["config"].update(pool_size=True),
     "switches.tor0.config.pool_size", "expected an integer, got True"),
    (lambda d: tor0(d)["ingress"][1].update(port=1.5),
     "switches.tor0.ingress[1].port", "expected an integer, got 1.5"),
    (lambda d: tor0(d).update(ingress={"0": {}}),
     "switches.tor0.ingress", "expected a list, got {'0': {}}"),
    (lambda d: tor0(d)["config"]["routes"][0].update(is_upper="yes"),
     "switches.tor0.config.routes[0].is_upper", "expected a bool, got 'yes'"),
    (lambda d: tor0(d)["ingress"][2]["packet"].update(seq="2"),
     "switches.tor0.ingress[2].packet.seq", "expected an integer, got '2'"),
    (lambda d: tor0(d)["egress"][0].update(packet=[1, 2]),
     "switches.tor0.egress[0].packet", "an object expected, got list"),
    (lambda d: d.update(deviation=9.1),
     "deviation", "expected a str, got 9.1"),
    (lambda d: d.update(profile="tofino"),
     "profile", "'spec' or 'atp-release' expected"),
    (lambda d: tor0(d)["config"].update(pool_size=0),
     "switches.tor0.config.pool_size", "expected an integer in 1..65536"),
])
def test_wrong_type_field(tmp_path, change, where, expected):
    err = load_error(mutated(tmp_path, change))
    assert (err.where, err.expected) == (where, expected)


@pytest.mark.parametrize("frame", ["zz" * 40, "abc", "0x0700"])
def test_bad_hex_frame(tmp_path, frame):
    def change(d):
        tor0(d)["ingress"][0] = {"port": 1, "frame": frame}
    err = load_error(mutated(tmp_path, change))
    assert err.where == "switches.tor0.ingress[0].frame"
    assert err.expected == "expected a hex string of whole bytes"


def test_frame_neither_hex_nor_packet(tmp_path):
    err = load_error(mutated(tmp_path, lambda d: tor0(d)["egress"][2].pop("packet")))
    assert err.where == "switches.tor0.egress[2].frame"
    assert "either 'frame' (hex) or 'packet' (fields) is required" in err.expected


def test_bad_flag_name(tmp_path):
    err = load_error(mutated(
        tmp_path, lambda d: tor0(d)["egress"][0]["packet"].update(flags="ecn|resnd")))
    assert err.where == "switches.tor0.egress[0].packet.flags"
    assert err.expected == ("expected flag names joined by '|' from ack, collision, "
                            "data_index, ecn, overflow, resend; got 'resnd'")


def test_flags_of_the_wrong_type(tmp_path):
    err = load_error(mutated(
        tmp_path, lambda d: tor0(d)["ingress"][0]["packet"].update(flags=["ecn"])))
    assert err.where == "switches.tor0.ingress[0].packet.flags"
    assert err.expected == "expected an integer or flag names joined by '|'"


@pytest.mark.parametrize("after", [4, -1])
def test_out_of_range_egress_after(tmp_path, after):
    err = load_error(mutated(tmp_path, lambda d: tor0(d)["egress"][1].update(after=after)))
    assert err.where == "switches.tor0.egress[1].after"
    assert err.expected == "expected an ingress index in 0..3"


def test_out_of_range_checkpoint_after(tmp_path):
    err = load_error(mutated(tmp_path, lambda d: tor0(d)["checkpoints"][0].update(after=9)))
    assert err.where == "switches.tor0.checkpoints[0].after"
    assert err.expected == "expected an ingress index in 0..3"


def test_out_of_range_after_names_the_switch(tmp_path):
    err = load_error(mutated(
        tmp_path, lambda d: d["switches"]["tor1"]["egress"][0].update(after=3),
        name=TWO_LEVEL))
    assert err.where == "switches.tor1.egress[0].after"
    assert err.expected == "expected an ingress index in 0..2"


@pytest.mark.parametrize("change, where, expected", [
    (lambda d: tor0(d)["ingress"][0]["packet"]["values"].update({"62": 1}),
     "switches.tor0.ingress[0].packet.values.62", "expected index 0..61 mapped to an integer"),
    (lambda d: tor0(d)["ingress"][0]["packet"]["values"].update({"0": 2**31}),
     "switches.tor0.ingress[0].packet.values[0]", "expected an int32 value"),
    (lambda d: tor0(d)["ingress"][0]["packet"].update(values=[1, 2, 3]),
     "switches.tor0.ingress[0].packet.values",
     "expected a list of 62 integers or a sparse {index: value} object"),
    (lambda d: tor0(d)["ingress"][0]["packet"].update(seq=70000),
     "switches.tor0.ingress[0].packet.seq", "expected a value that fits the field"),
    (lambda d: tor0(d)["ingress"][0]["packet"].update(eth_dst="02:00:00:00:01"),
     "switches.tor0.ingress[0].packet.eth_dst",
     "expected a MAC address like 02:00:00:00:00:01"),
    (lambda d: tor0(d)["registers"].update(level2={}),
     "switches.tor0.registers.level2", "expected register level one of level0, level1"),
    (lambda d: tor0(d)["registers"]["level0"].update(x5={}),
     "switches.tor0.registers.level0.x5", "expected a decimal aggregator index"),
    (lambda d: tor0(d)["registers"]["level0"]["5"].update(count="2"),
     "switches.tor0.registers.level0.5.count", "expected an integer, got '2'"),
    (lambda d: tor0(d)["config"].pop("pool_size"),
     "switches.tor0.config.pool_size", "expected a int (the field is missing)"),
    (lambda d: d.update(switches={}), "switches", "at least one switch expected"),
])
def test_bad_field_value(tmp_path, change, where, expected):
    err = load_error(mutated(tmp_path, change))
    assert err.where == where
    assert err.expected.startswith(expected), err.expected


# -- loader gaps found while writing the corpus (fixed; these pin the fixes) ----------
def test_port_list_elements_are_type_checked(tmp_path):
    err = load_error(mutated(
        tmp_path, lambda d: tor0(d)["config"]["multicast"][0].update(ports=["1", 2])))
    assert err.where.startswith("switches.tor0.config.multicast[0].ports")


def test_unknown_packet_field_is_rejected(tmp_path):
    def change(d):
        tor0(d)["ingress"][0]["packet"]["fanin"] = tor0(d)["ingress"][0]["packet"].pop(
            "fan_in")
    err = load_error(mutated(tmp_path, change))
    assert err.where == "switches.tor0.ingress[0].packet.fanin"


def test_boolean_value_is_not_an_int32(tmp_path):
    err = load_error(mutated(
        tmp_path, lambda d: tor0(d)["ingress"][0]["packet"]["values"].update({"0": True})))
    assert err.where == "switches.tor0.ingress[0].packet.values.0"

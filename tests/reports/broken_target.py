"""A deliberately broken switch for the report tests: the reference switch, except that
it forgets the collision flag (spec 4.3), adds 1 to element 2 of such frames, and its
registers read one bit too many in every owned aggregator's bitmap. Its diff touches
every part of a report: a flag by name, a value, a register field."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from atp_fixtures.targets.reference import ReferenceTarget
from reference.wire import ETH_LEN, ETHERTYPE_ATP, FLAG_COLLISION, IPV4_LEN

ROOT = Path(__file__).resolve().parents[2]
COLLISION_TRACE = ROOT / "fixtures" / "corpus" / "traces" / "rule-4.3-ownership-collision.json"
ATP_AT = ETH_LEN + IPV4_LEN


class DropsCollisionFlag(ReferenceTarget):
    name = "drops-collision-flag"

    def collect(self, timeout: float = 0.0) -> list[tuple[int, bytes]]:
        out = []
        for port, frame in super().collect(timeout):
            data = bytearray(frame)
            ethertype = int.from_bytes(data[12:14], "big")
            if ethertype == ETHERTYPE_ATP and data[ATP_AT + 5] & FLAG_COLLISION:
                data[ATP_AT + 5] &= ~FLAG_COLLISION & 0xFF
                value_at = ATP_AT + 14 + 4 * 2
                value = int.from_bytes(data[value_at:value_at + 4], "big", signed=True)
                data[value_at:value_at + 4] = (value + 1).to_bytes(4, "big", signed=True)
            out.append((port, bytes(data)))
        return out

    def read_aggregators(self, indices, level: int = 0, pipe: int = 0):
        states = super().read_aggregators(indices, level, pipe)
        return {i: dataclasses.replace(s, bitmap=s.bitmap | 0x80) if s.owner else s
                for i, s in states.items()}


# a test file for a fresh pytest process: a wire-conformance style replay of the 4.3
# corpus trace on the broken switch, which must fail with a field-level diff
FAILING_TEST = f'''
import sys
import pytest
sys.path.insert(0, {str(Path(__file__).parent)!r})

from broken_target import COLLISION_TRACE, DropsCollisionFlag
from atp_fixtures.oracles.comparator import assert_matches, compare
from atp_fixtures.running.replay import replay
from atp_fixtures.evidence.trace import load_trace


@pytest.mark.rule("4.3")
def test_collision_is_flagged(target, profile):
    trace = load_trace(COLLISION_TRACE)
    for switch in trace.switches.values():
        comparison = compare(switch, replay(switch, DropsCollisionFlag(), profile))
        assert_matches([comparison])


def test_passes(target):
    assert target.name == "reference"


@pytest.mark.requires("teleportation")
def test_needs_teleportation(target):
    pass
'''

"""Issue 2, "done when": every rule of spec sections 4-8 has a named test.

Sections 4 uses the spec's own numbering (4.1-4.7); sections 5-8 number their bullets in
order (e.g. 6.3 = the third bullet of section 6, "a packet with collision set marks the
seq"). This test fails if a rule loses its last ``@pytest.mark.rule`` test.
"""

from __future__ import annotations

import re
from pathlib import Path

RULES = {
    "4.1": "is_ecn from ipv4.ecn == 3 or flags.ecn",
    "4.2": "float mode passes without state",
    "4.3": "ownership, resend only if owned and released, collision flag",
    "4.4": "stamp, bitmap merge / clear on resend, sticky ecn",
    "4.5": "count and resend flush",
    "4.6": "overwrite on first arrival, sticky saturating add",
    "4.7": "emit / duplicate after completion / absorb",
    "5.1": "float request: no state change, multicast",
    "5.2": "parameter packet releases its own aggregator, multicast",
    "5.3": "leak timeout",
    "5.4": "L2 forwarding and egress ECN marking",
    "6.1": "revealed overflow and float-mode transitions",
    "6.2": "full / partial / overlapping packets, int and float never mix",
    "6.3": "collision mark",
    "6.4": "parameter packet contents",
    "6.5": "duplicates after completion",
    "7.1": "window and sliding, previous key ignored",
    "7.2": "hole- and timeout-triggered resends",
    "7.3": "collision remap",
    "7.4": "float request resend",
    "7.5": "AIMD",
    "7.6": "result dequantized",
    "8.1": "edge runs section 4 on level-0 bitmap/fan_in",
    "8.2": "only whole racks go up",
    "8.3": "upper switch: own pool, foreign level 0 passes, internal loop",
    "8.4": "PS counts workers of level-1 / level-0 frames",
    "8.5": "parameter packets release both levels and go down",
    "9.1": "release: first completing arrival adds to stale values",
    "9.3": "release: host byte order",
    "9.4": "release: no reclamation",
    "9.5": "release: PS float counting",
    "9.6": "release: worker float request",
}


def test_every_rule_of_sections_4_to_8_has_a_named_test():
    here = Path(__file__).parent
    marked: dict[str, list[str]] = {}
    pattern = re.compile(r'@pytest\.mark\.rule\("([0-9.]+)"\)\n(?:(?!def )[^\n]*\n)*?'
                         r'def (test_\w+)')
    for path in here.glob("test_*.py"):
        for rule, name in pattern.findall(path.read_text()):
            marked.setdefault(rule, []).append(f"{path.name}::{name}")
    missing = sorted(set(RULES) - set(marked))
    assert not missing, f"rules without a test: {missing}"

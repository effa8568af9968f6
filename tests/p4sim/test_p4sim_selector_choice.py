"""The member a selector hash picks (p4sim/selector_choice.py), on cases worked out by
hand from the driver's rule: FAIR counts active members with hash[13:0]; RESILIENT tries
three 14-bit slices, then the circular priority encoder ("plan B")."""
from p4sim.selector_choice import fair, resilient

MEMBERS = [10, 20, 30, 40]


def test_fair_takes_the_nth_active_member_by_the_low_14_bits():
    active = [True, False, True, True]
    assert fair(MEMBERS, active, 5) == 40            # 5 % 3 = 2: the third active one
    assert fair(MEMBERS, active, 5 | 1 << 14) == 40  # bit 14 and up are not used
    assert fair(MEMBERS, active, 4) == 30
    assert fair(MEMBERS, [False] * 4, 4) is None


def test_resilient_tries_three_slices_of_14_bits():
    members, active = [10, 20, 30], [False, True, False]
    assert resilient(members, active, 1) == 20                   # slice 0 -> position 1
    assert resilient(members, active, 1 << 14) == 20             # slice 0 misses, slice 1
    assert resilient(members, active, 1 << 28) == 20             # slices 0, 1 miss
    assert resilient(members, [False] * 3, 1) is None


def test_resilient_falls_back_to_the_priority_encoder():
    members, active = [10, 20, 30], [True, False, True]
    tries_miss = 1 | 1 << 14 | 1 << 28                # three tries at position 1
    assert resilient(members, active, tries_miss) == 10          # head 0: wraps to 0
    assert resilient(members, active, tries_miss | 1 << 46) == 30  # head 2: position 2

"""The table match index (p4sim.runtime.Table._match: entries grouped by mask, one dict per
group) answers exactly as the linear scan in priority order (Table._scan), for exact,
ternary, lpm and range keys, across entry add / modify / delete / clear, and through the
data path (tables.p4: priorities, default actions)."""
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import p4sim

from p4sim_helpers import eth

P = struct.Struct(">IHBBIIIIB")
ETYPE = 0x1234


def _probe(sw, addr, port, flags, c, et=ETYPE):
    out = sw.inject(0, eth(0, 0, et) + P.pack(addr, port, flags, c, 0, 0, 0, 0, 0))
    assert len(out) == 1
    return P.unpack(out[0][1][14:])[4:]


# ---------------------------------------------------------------- through the data path
def test_priority_wins_across_mask_groups_and_delete_uncovers_the_next(switch_for):
    sw = switch_for("tables.p4")
    add = sw.table_add
    # three mask groups; the most specific one holds the *least* urgent entry
    add("Ingress.classify", {"hdr.probe.flags": (0x81, 0xFF), "etype": ETYPE}, "set_tern",
        {"v": 3, "sw": 30}, priority=9)
    add("Ingress.classify", {"hdr.probe.flags": (0x80, 0x80), "etype": ETYPE}, "set_tern",
        {"v": 1, "sw": 10}, priority=5)
    add("Ingress.classify", {"hdr.probe.flags": (0x01, 0x01), "etype": ETYPE}, "set_tern",
        {"v": 2, "sw": 20}, priority=2)
    # 0x81 matches all three: priority 2 wins (its out_sw is 20 + 1 from the switch block)
    assert _probe(sw, 0, 0, 0x81, 0)[2:5:2] == (2, 21)
    sw.table_delete("Ingress.classify", {"hdr.probe.flags": (0x01, 0x01), "etype": ETYPE})
    assert _probe(sw, 0, 0, 0x81, 0)[2:5:2] == (1, 11)
    sw.table_delete("Ingress.classify", {"hdr.probe.flags": (0x80, 0x80), "etype": ETYPE})
    assert _probe(sw, 0, 0, 0x81, 0)[2:5:2] == (3, 31)
    # modify: same key, new data, the index follows
    sw.table_modify("Ingress.classify", {"hdr.probe.flags": (0x81, 0xFF), "etype": ETYPE},
                    "set_tern", {"v": 4, "sw": 40})
    assert _probe(sw, 0, 0, 0x81, 0)[2:5:2] == (4, 41)
    # the exact part of the key still has to match
    assert _probe(sw, 0, 0, 0x81, 0, et=ETYPE + 1)[2:5:2] == (0xDEAD, 0xEE)
    # clear: every lookup misses, the default action (miss_marker) runs again
    sw.table_clear("Ingress.classify")
    assert _probe(sw, 0, 0, 0x81, 0)[2:5:2] == (0xDEAD, 0xEE)
    add("Ingress.classify", {"hdr.probe.flags": (0, 0), "etype": ETYPE}, "set_tern",
        {"v": 7, "sw": 70}, priority=1)
    assert _probe(sw, 0, 0, 0x81, 0)[2:5:2] == (7, 71)


def test_a_later_mask_group_can_hold_the_more_urgent_match(switch_for):
    """The group of the most urgent entry is looked up first, but its match may be one of
    its less urgent entries: the other groups still decide."""
    sw = switch_for("tables.p4")
    for flags, mask, prio in ((0x0E, 0x0F, 1), (0x01, 0x0F, 9), (0x80, 0xF0, 5)):
        sw.table_add("Ingress.classify", {"hdr.probe.flags": (flags, mask), "etype": ETYPE},
                     "set_tern", {"v": prio, "sw": 0}, priority=prio)
    assert _probe(sw, 0, 0, 0x81, 0)[2] == 5
    assert _probe(sw, 0, 0, 0x8E, 0)[2] == 1
    assert _probe(sw, 0, 0, 0x01, 0)[2] == 9


def test_equal_priorities_keep_insertion_order(switch_for):
    sw = switch_for("tables.p4")
    sw.table_add("Ingress.classify", {"hdr.probe.flags": (0x00, 0x00), "etype": ETYPE},
                 "set_tern", {"v": 1, "sw": 10}, priority=3)
    sw.table_add("Ingress.classify", {"hdr.probe.flags": (0x80, 0x80), "etype": ETYPE},
                 "set_tern", {"v": 2, "sw": 20}, priority=3)
    assert _probe(sw, 0, 0, 0x80, 0)[2] == 1       # added first, same priority: first
    # a modify keeps the entry's place among equal priorities
    sw.table_modify("Ingress.classify", {"hdr.probe.flags": (0x00, 0x00), "etype": ETYPE},
                    "set_tern", {"v": 5, "sw": 50})
    assert _probe(sw, 0, 0, 0x80, 0)[2] == 5


def test_lpm_longest_prefix_and_range_table(switch_for):
    sw = switch_for("tables.p4")
    sw.table_add("Ingress.routes", {"hdr.probe.addr": (0x0A010000, 16)}, "set_lpm", {"v": 16})
    sw.table_add("Ingress.routes", {"hdr.probe.addr": (0x0A000000, 8)}, "set_lpm", {"v": 8})
    sw.table_add("Ingress.routes", {"hdr.probe.addr": (0, 0)}, "set_lpm", {"v": 0})
    sw.table_add("Ingress.ranges", {"hdr.probe.port": (10, 20)}, "set_range", {"v": 1})
    sw.table_add("Ingress.ranges", {"hdr.probe.port": (15, 30)}, "set_range", {"v": 2})
    # /16 first whatever the insertion order; lpm hit adds 1
    assert _probe(sw, 0x0A010203, 15, 0, 0)[:2] == (17, 1)
    assert _probe(sw, 0x0A020203, 25, 0, 0)[:2] == (9, 2)
    assert _probe(sw, 0x0B020203, 31, 0, 0)[:2] == (1, 0x1FFFF)   # /0; range miss
    sw.table_delete("Ingress.routes", {"hdr.probe.addr": (0x0A010000, 16)})
    sw.table_delete("Ingress.ranges", {"hdr.probe.port": (10, 20)})
    assert _probe(sw, 0x0A010203, 15, 0, 0)[:2] == (9, 2)


def test_const_entries_first_match_wins(switch_for):
    sw = switch_for("tables.p4")
    # fixed: 0x01 -> 100; 0x0X -> 200; _ -> 300 (0x01 also matches 0x0X and _)
    assert [_probe(sw, 0, 0, 0, c)[3] for c in (0x01, 0x00, 0x0F, 0x10, 0xFF)] == \
        [100, 200, 200, 300, 300]


# ---------------------------------------------------------------- index == scan
FLAGS = st.sampled_from([0x00, 0x01, 0x80, 0x81, 0xF0, 0xFF, 0x7E])
MASKS = st.sampled_from([0x00, 0x01, 0x80, 0x81, 0xF0, 0xFF])
ETYPES = st.sampled_from([ETYPE, 0x0800])
OPS = st.lists(st.tuples(st.sampled_from(["add", "add", "add", "modify", "delete", "clear"]),
                         FLAGS, MASKS, ETYPES, st.integers(0, 3)), max_size=25)


def _same_as_scan(table, keys):
    for key in keys:
        assert table._match(key) is table._scan(key), f"{table.name} key {key}"


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_ternary_index_equals_scan_through_changes(ops):
    from p4sim_helpers import compiled
    sw = p4sim.Switch(compiled("tables.p4"))
    table = sw.table("Ingress.classify")
    keys = [(f, e) for f in range(256) for e in (ETYPE, 0x0800, 1)]
    for op, value, mask, etype, prio in ops:
        key = {"hdr.probe.flags": (value, mask), "etype": etype}
        present = any(k == ((value & mask, mask), etype) for k in table.entries)
        if op == "add" and not present:
            table.add(key, "set_tern", {"v": 1, "sw": prio}, priority=prio)
        elif op == "modify" and present:
            table.modify(key, "set_tern", {"v": 2, "sw": prio}, priority=prio)
        elif op == "delete" and present:
            table.delete(key)
        elif op == "clear":
            table.clear()
        _same_as_scan(table, keys[::7])
    _same_as_scan(table, keys)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 0xFFFFFFFF), st.integers(0, 32)), max_size=12),
       st.lists(st.integers(0, 0xFFFFFFFF), min_size=1, max_size=40))
def test_lpm_index_equals_scan(prefixes, addrs):
    from p4sim_helpers import compiled
    sw = p4sim.Switch(compiled("tables.p4"))
    table = sw.table("Ingress.routes")
    for value, plen in prefixes:
        try:
            table.add({"hdr.probe.addr": (value, plen)}, "set_lpm", {"v": plen})
        except p4sim.ControlPlaneError:
            pass                          # the same prefix twice
    probes = addrs + [v for v, _ in prefixes]
    _same_as_scan(table, [(a,) for a in probes])
    for value, plen in prefixes[::2]:
        try:
            table.delete({"hdr.probe.addr": (value, plen)})
        except p4sim.ControlPlaneError:
            pass
    _same_as_scan(table, [(a,) for a in probes])


def test_range_table_keeps_the_scan(switch_for):
    sw = switch_for("tables.p4")
    table = sw.table("Ingress.ranges")
    table.add({"hdr.probe.port": (10, 20)}, "set_range", {"v": 1})
    assert table._match((15,)) is table._scan((15,)) is not None
    assert table._index is False
    assert table._match((21,)) is None


def test_index_is_built_once_and_rebuilt_after_a_change():
    """The const tables of a loaded program are indexed on first use and keep it."""
    from p4sim_helpers import compiled
    sw = p4sim.Switch(compiled("tables.p4"))
    fixed = sw.table("Ingress.fixed")
    assert fixed._match((0x01,)).result[3] == (100,)
    index = fixed._index
    assert index and len(index) == 3       # masks 0xFF, 0xF0, 0x00
    fixed._match((0x02,))
    assert fixed._index is index
    classify = sw.table("Ingress.classify")
    classify.add({"hdr.probe.flags": (1, 1), "etype": 5}, "set_tern", {"v": 1, "sw": 1},
                 priority=1)
    classify._match((1, 5))
    built = classify._index
    classify.add({"hdr.probe.flags": (2, 2), "etype": 5}, "set_tern", {"v": 1, "sw": 1},
                 priority=1)
    assert classify._index is None
    assert classify._match((3, 5)) is classify._scan((3, 5))
    assert classify._index is not built


@pytest.mark.parametrize("key", [(0x01,), (0x00,), (0x0F,), (0x10,), (0xFF,)])
def test_const_index_equals_scan(switch_for, key):
    table = switch_for("tables.p4").table("Ingress.fixed")
    assert table._match(key) is table._scan(key) is not None


# ---------------------------------------------------------------- const tables: if-chains
def _const_tables(sw):
    return [t for name, t in sw.tables.items() if name == t.name and "run" in vars(t)]


def _check_chain(pair, name, key):
    """On one switch table.run (the if-chain), on its twin (same program, same packets
    so far) the generic path (index or scan): same entry, same action on the same slots
    and registers, the same entry left in the context (direct counters count it)."""
    from p4sim.runtime import Table
    (sw, twin) = pair
    table, other = sw.tables[name], twin.tables[name]
    assert "run" in vars(table)
    S, S_twin = sw._template[:], twin._template[:]
    got = table.run(S, key)
    expected = Table.run(other, S_twin, key)
    assert got[:2] + got[3:] == expected[:2] + expected[3:], f"{name} key {key}"
    position = {id(e): i for i, e in enumerate(table.sorted)}
    position_twin = {id(e): i for i, e in enumerate(other.sorted)}
    assert position.get(id(sw.ctx.entry)) == position_twin.get(id(twin.ctx.entry))
    assert S == S_twin
    e = table._scan(key)
    assert got is (e.result if e is not None else table.default_result)


def _keys_near_entries(table, rnd, n):
    """Keys made of the entries' own values (so every entry is hit), some bits flipped."""
    widths = [k.width for k in table.spec.keys]
    keys = []
    for _ in range(n):
        e = rnd.choice(table.sorted)
        key = []
        for (kind, a, b), w in zip(e.match, widths):
            v = a if kind == 0 else (a | (rnd.getrandbits(w) & ~b & ((1 << w) - 1)))
            if rnd.random() < 0.2:
                v ^= 1 << rnd.randrange(w)
            key.append(v)
        keys.append(tuple(key))
    return keys


def test_const_tables_of_atp_p4_run_as_chains_equal_to_the_scan():
    import random
    from atp_fixtures.targets.p4sim import compiled_program
    for release in (False, True):
        program = compiled_program(release, 16)
        pair = (p4sim.Switch(program), p4sim.Switch(program))
        tables = _const_tables(pair[0])
        assert len(tables) >= 35, [t.name for t in tables]     # values, output, ownership...
        rnd = random.Random(9)
        for table in tables:
            for key in _keys_near_entries(table, rnd, 200):
                _check_chain(pair, table.name, key)


def test_const_table_chain_counts_and_default(switch_for):
    sw = switch_for("tables.p4")
    pair = (sw, switch_for("tables.p4"))
    for c in range(256):
        _check_chain(pair, "Ingress.fixed", (c,))
    assert "run" not in vars(sw.table("Ingress.classify"))     # entries may change


# ---------------------------------------------------------------- applies compiled inline
def _atp_program(release, inline, monkeypatch):
    from atp_fixtures.targets.p4sim import P4SRC, PROGRAM, POOL_MAX
    from p4sim.compiler import calls
    monkeypatch.setattr(calls, "INLINE_CONST_APPLY", inline)
    defines = {"ATP_POOL_MAX": str(POOL_MAX)}
    if release:
        defines["ATP_RELEASE"] = None
    return p4sim.compile_file(str(PROGRAM), include_dirs=[str(P4SRC)], defines=defines)


@pytest.mark.parametrize("profile", ["spec", "atp-release"])
def test_inline_const_applies_run_atp_p4_exactly_as_table_run(profile, monkeypatch):
    """atp.p4 compiled with small const tables inline and compiled with every apply
    through Table.run: the frames of a whole closed-loop scenario (collisions, resends,
    faults, ECN depths) give the same output frames, drops and register cells."""
    from pathlib import Path

    from atp_fixtures.running.closed_loop import run_on_target
    from reference.scenario import load_scenario
    from atp_fixtures.targets import p4sim as driver
    from p4src.control import AtpControlPlane, P4simFacade

    release = profile == "atp-release"
    inline = _atp_program(release, True, monkeypatch)
    called = _atp_program(release, False, monkeypatch)
    assert "_E[" in inline.python_source and "_E[" not in called.python_source
    monkeypatch.setitem(driver._programs, (release, driver.POOL_MAX, True), inline)

    seen = []          # (config, [(port, frame, time, depth)]) per switch instance

    class Recording(driver.P4simTarget):
        def setup(self, config, profile="spec"):
            super().setup(config, profile)
            self.frames = []
            seen.append((config, self.frames))

        def inject(self, port, frame, *, time_ns=0, queue_depth=0):
            self.frames.append((port, frame, time_ns, queue_depth))
            super().inject(port, frame, time_ns=time_ns, queue_depth=queue_depth)

    scenario = load_scenario(Path(__file__).resolve().parents[2] / "fixtures" / "corpus" /
                             "scenarios" / "collisions-small-pool.json", profile)
    assert run_on_target(scenario, Recording).completed
    frames = sum(len(f) for _, f in seen)
    assert frames > 150       # a whole closed-loop run (194 frames since rev. 3's window)

    def replay(program, config, stream):
        sw = p4sim.Switch(program, recirculation_port=driver.RECIRCULATION_PORT,
                          max_passes=driver.MAX_PASSES)
        AtpControlPlane(P4simFacade(sw), driver.POOL_MAX).configure(config)
        out = []
        for port, frame, time_ns, depth in stream:
            out.append((sw.inject(port, frame, timestamp_ns=time_ns,
                                  queue_depth=min(depth, driver.QUEUE_DEPTH_MAX)),
                        list(sw.drops)))
        cells = {name: [{i: v for i, v in d.cells.items() if v != d.init} for d in r.data]
                 for name, r in sw.registers.items()}
        return out, cells

    inline.coverage_reset()
    for config, stream in seen:
        if not stream:
            continue
        out_inline, cells_inline = replay(inline, config, stream)
        out_called, cells_called = replay(called, config, stream)
        assert out_inline == out_called, config.name
        assert cells_inline == cells_called, config.name
    # coverage counted in the inline if-chains is what Table.run's applies count
    assert [p.id for p in inline.coverage_points] == [p.id for p in called.coverage_points]
    assert inline.coverage().hits == called.coverage().hits
    assert sum(1 for _, n in inline.coverage() if n) > 300

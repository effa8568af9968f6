"""Replaying P4Testgen's generated tests on p4sim, in process, through BfRuntime.

Each test's control-plane calls go where a Tofino user's would: a BfRuntime client
(``bfruntime/client.py``) that names tables, keys, actions and data fields as bf-p4c's
``bfrt.json`` for the program spells them, over gRPC to the softswitch's server in front
of a p4sim device (``p4sim/switchd``), here on a localhost port in this process. The
client resolves names through **bf-p4c's** bfrt.json (kept beside the generated tests),
not the one the softswitch serves: if the two disagree on a name or an id, the entry
fails here. The frame is then injected straight into the device (no veths) and what
comes out is compared with P4Testgen's expectation the way its PTF test compares it:
``ptf.mask.Mask`` with P4Testgen's don't-care bit ranges, and nothing else anywhere
(``verify_no_other_packets``). The device is reset before each test, so no state leaks
from one test to the next.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ptf.mask import Mask

import p4sim
from bfruntime.client import BfRuntimeClient, BfRuntimeError
from bfruntime.info import BfrtInfo, SchemaError
from p4sim.switchd.bfrt_schema import dumps
from p4sim.switchd.device import SoftDevice
from p4sim.switchd.server import BfRuntimeServer

from ptf_format import (DefaultSet, DirectRegisterSet, EntryAdd, GeneratedTest,
                        RegisterParamSet, RegisterSet)


@dataclass(frozen=True)
class ModelChanges:
    """Simplifications of P4Testgen's Tofino model that a triage entry names as the whole
    cause of a disagreement (``triage.yaml``, ``confirm``). Replayed with them, p4sim must
    agree: the entry's claim, checked, so that an entry cannot hide a second difference.

    ``no_recirculation``: a frame sent to the recirculation port leaves on it (P4Testgen
    has no recirculation, ``tofino/cmd_stepper.cpp``).
    ``register_cells_as_read``: each register cell the test sets is moved to the index
    the packet's RegisterAction reads on p4sim (found by runs of the same frame: the
    cell it stored into). It cannot see an index p4sim computes wrongly: the suite's
    lockstep runs check those (register reads at each aggregator's index against the
    reference). P4Testgen prints the index of a cell read at a hash's
    result (``Hash.get``, a concolic variable) before it resolves the hash, so it always
    writes index 0 (``REGISTER_ACTION_EXECUTE`` keeps the unresolved index expression).
    """
    no_recirculation: bool = False
    register_cells_as_read: bool = False

    @classmethod
    def named(cls, names) -> ModelChanges:
        known = {"no-recirculation": "no_recirculation",
                 "register-cells-as-read": "register_cells_as_read"}
        unknown = sorted(set(names) - set(known))
        if unknown:
            raise ValueError(f"unknown model change(s) {unknown}; known: {sorted(known)}")
        return cls(**{known[n]: True for n in names})


# why each model change is P4Testgen's and not the chip's: (reason, evidence), the text
# of a triage entry that names it (summary.py --propose writes them)
CHANGE_REASONS = {
    "no-recirculation": (
        "P4Testgen does not recirculate: a frame the program sends to the recirculation "
        "port (68 in pipe 0) is its output on port 68, where a Tofino (and p4sim) runs it "
        "through ingress again and sends the second pass's frame elsewhere or drops it.",
        "p4c backends/p4tools/modules/testgen/targets/tofino/tofino/cmd_stepper.cpp "
        "(its note that a port in loopback mode should restart ingress, not done); "
        "docs/p4testgen.md, P4Testgen's Tofino model; confirmed: with recirculation off "
        "p4sim agrees (confirm: no-recirculation)."),
    "register-cells-as-read": (
        "P4Testgen sets a register cell that the path reads at a hash's result at index "
        "0: it writes the index before it resolves the hash (a concolic variable), so its "
        "expected frame assumes cell 0 holds the value while the packet reads the cell "
        "the hash names (atp.p4 indexes every aggregator register so, by {second, level, "
        "agtr}: never cell 0 in a second pass).",
        "the hash_index set (tests/p4sim/programs/hash_index.p4): the smallest program "
        "that reads a register at an identity hash whose top bit is 1; P4Testgen sets "
        "cell 0 and expects the value read; p4c backends/p4tools/modules/testgen/targets/"
        "tofino/shared_expr_stepper.cpp REGISTER_ACTION_EXECUTE (the TofinoRegisterValue "
        "keeps the unresolved index expression); confirmed: with each cell moved to the "
        "index the packet reads, p4sim agrees (confirm: register-cells-as-read)."),
}


@dataclass
class Outcome:
    passed: bool
    detail: str          # what differed (or what matched), for the failure message


def _hex(frame: bytes, width: int = 32) -> str:
    return "\n".join(f"  {i:04x}  {frame[i:i + width].hex(' ')}"
                     for i in range(0, len(frame), width))


def _first_difference(mask: Mask, frame: bytes) -> str:
    if len(frame) != mask.size:
        return f"length {len(frame)} bytes, expected {mask.size}"
    for i in range(mask.size):
        if (mask.exp_pkt[i] ^ frame[i]) & mask.mask[i]:
            return (f"first difference at byte {i}: got 0x{frame[i]:02x}, expected "
                    f"0x{mask.exp_pkt[i]:02x} (cared bits 0x{mask.mask[i]:02x})")
    return "matches"


def compare(test: GeneratedTest, sent: list[tuple[int, bytes]], drops: list) -> Outcome:
    """P4Testgen's verdict on what the switch sent for ``test``'s frame."""
    exp = test.expected
    if exp is None:
        if not sent:
            return Outcome(True, f"dropped, as expected ({drops})")
        return Outcome(False, "P4Testgen expects the packet dropped; p4sim sent "
                       + "; ".join(f"{len(f)} bytes to port {p}:\n{_hex(f)}" for p, f in sent))
    mask = Mask(exp.frame)
    for offset, bits in exp.dont_care:
        mask.set_do_not_care(offset, bits)
    want = f"{len(exp.frame)} bytes on port {exp.port}:\n{_hex(exp.frame)}"
    if not sent:
        return Outcome(False, f"p4sim dropped the packet ({drops}); P4Testgen expects {want}")
    if len(sent) > 1:
        return Outcome(False, f"p4sim sent {len(sent)} packets (to ports "
                       f"{[p for p, _ in sent]}); P4Testgen expects one, {want}")
    port, frame = sent[0]
    if port != exp.port:
        return Outcome(False, f"p4sim sent to port {port}; P4Testgen expects port "
                       f"{exp.port}:\n got {_hex(frame)}\n want {want}")
    if not mask.pkt_match(frame):
        return Outcome(False, f"{_first_difference(mask, frame)}\n got {len(frame)} bytes:\n"
                       f"{_hex(frame)}\n want {want}\n don't-care bits {list(exp.dont_care)}")
    return Outcome(True, f"{len(frame)} bytes on port {port}, as expected")


class P4simReplay:
    """One program on a p4sim device behind a BfRuntime server on localhost, and a
    client that names objects by ``bfrt_json`` (bf-p4c's, as bf_switchd would serve
    it). ``close()`` (or ``with``) stops both."""

    def __init__(self, program: p4sim.Program, p4_name: str, bfrt_json: Path | None):
        self.device = SoftDevice(program, p4_name)
        self.server = BfRuntimeServer(self.device, "127.0.0.1:0", max_workers=4)
        self.server.start()
        self.client: BfRuntimeClient | None = None
        try:
            self.client = BfRuntimeClient(f"127.0.0.1:{self.server.port}", p4_name=p4_name)
            if bfrt_json is not None:
                self.client.info = BfrtInfo(p4_name, bfrt_json.read_text(),
                                            dumps(self.device.fixed))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        self.server.stop(0)

    def __enter__(self) -> P4simReplay:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _apply(self, call) -> None:
        c = self.client
        if isinstance(call, EntryAdd):
            key = {k.name: k.as_key_value() for k in call.keys}
            c.entry_add(call.table, key, call.action, dict(call.data))
        elif isinstance(call, DefaultSet):
            c.default_entry_set(call.table, call.action, dict(call.data))
        elif isinstance(call, RegisterSet):
            value = dict(call.value) if isinstance(call.value, tuple) else call.value
            c.register_write(call.register, call.index, value)
        elif isinstance(call, RegisterParamSet):
            c.default_entry_set(call.register_param, None, {"value": call.value})
        elif isinstance(call, DirectRegisterSet):
            self._direct_register(call)
        else:
            raise TypeError(f"unknown control-plane call {call!r}")

    def _direct_register(self, call: DirectRegisterSet) -> None:
        """What P4Testgen's ``setDirectRegisterValue`` means: the direct register cell of
        the one entry of ``call.table``, through p4sim's control plane (its PTF helper
        rewrites that entry's data; the softswitch serves it the same way)."""
        sw = self.device.switch
        table = self.client.table(call.table).name.split(".", 1)[1]
        entries = sw.table_entries(table)
        if len(entries) != 1:
            raise BfRuntimeError(f"setDirectRegisterValue on {call.table}: the table has "
                                 f"{len(entries)} entries, the PTF helper writes the first")
        value = dict(call.value) if isinstance(call.value, tuple) else call.value
        sw.direct_register_write(table, entries[0][0], value)

    def run(self, test: GeneratedTest, changes: ModelChanges = ModelChanges()) -> Outcome:
        """Fresh device, ``test``'s control-plane calls, its frame; P4Testgen's verdict
        (with ``changes``: as if p4sim had those simplifications of P4Testgen's model)."""
        calls = list(test.calls)
        if changes.register_cells_as_read:
            calls = self._cells_where_read(test, calls, changes)
            if isinstance(calls, Outcome):
                return calls
        failed = self._setup(calls, changes)
        if failed:
            return failed
        try:
            sent = self.device.inject(test.ingress_port, test.frame, timestamp_ns=0)
        except p4sim.P4SimError as e:
            return Outcome(False, f"p4sim raised {type(e).__name__}: {e}")
        return compare(test, sent, list(self.device.switch.drops))

    def _setup(self, calls, changes: ModelChanges) -> Outcome | None:
        self.device.reset()
        if changes.no_recirculation:
            self.device.switch.recirculation_ports = ()
        for call in calls:
            try:
                self._apply(call)
            except (BfRuntimeError, SchemaError) as e:
                return Outcome(False, f"control-plane call {call} failed: {e}")
        return None

    def _cells_where_read(self, test: GeneratedTest, calls, changes: ModelChanges):
        """``calls`` with each RegisterSet moved to the index the packet reads. A run
        finds, per register, the one cell the packet stored into besides those set;
        moving a cell can open a path to registers the run before did not reach (an
        owner that now matches), so runs repeat until nothing moves."""
        sets = [c for c in calls if isinstance(c, RegisterSet)]
        names = {c.register: self.client.table(c.register).name.split(".", 1)[1]
                 for c in sets}
        for _ in range(len(sets) + 1):
            failed = self._setup(calls, changes)
            if failed:
                return failed
            sw = self.device.switch
            before = {n: set(sw.register(n).data[0].cells) for n in names.values()}
            try:
                self.device.inject(test.ingress_port, test.frame, timestamp_ns=0)
            except p4sim.P4SimError as e:
                return Outcome(False, f"p4sim raised {type(e).__name__}: {e}")
            moved, changed = [], False
            for c in calls:
                if isinstance(c, RegisterSet):
                    name = names[c.register]
                    new = set(sw.register(name).data[0].cells) - before[name]
                    if len(new) == 1:
                        c, changed = RegisterSet(c.register, new.pop(), c.value), True
                moved.append(c)
            calls = moved
            if not changed:
                break
        return calls


def replay_for_set(test_set) -> P4simReplay:
    """A P4simReplay of a committed set's program build (testgen_sets.GeneratedSet)."""
    program = p4sim.compile_file(test_set.program, include_dirs=test_set.include_dirs,
                                 defines=test_set.defines)
    return P4simReplay(program, test_set.p4_name, test_set.bfrt_json)

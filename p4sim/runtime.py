"""Run-time objects behind the generated code: tables, registers, counters, hashes."""
from operator import and_

import numpy as np

from .errors import ControlPlaneError, P4RuntimeError, RegisterConflictError


class Reject(Exception):
    """The parser reached reject (explicitly or through a parser error)."""

    def __init__(self, error_name):
        super().__init__(error_name)
        self.error_name = error_name


class ExitBlock(Exception):
    """`exit` statement: leave the enclosing top-level control."""


def check_fit(value, width, signed, what):
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, int):
        raise ControlPlaneError(f"{what}: expected an integer, got {type(value).__name__}")
    if signed:
        lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
    else:
        lo, hi = 0, (1 << width) - 1
    if not lo <= value <= hi:
        raise ControlPlaneError(f"{what}: value {value} does not fit in "
                                f"{'int' if signed else 'bit'}<{width}> (range {lo}..{hi})")
    return value


# ---------------------------------------------------------------- tables
class ActionSpec:
    def __init__(self, name, short, fn_name, params, defaultonly=False, tableonly=False):
        self.name = name            # fully qualified P4 name
        self.short = short
        self.fn_name = fn_name      # name of the generated Python function (per Switch)
        self.params = params        # list of (name, width, signed)
        self.defaultonly = defaultonly
        self.tableonly = tableonly


class KeySpec:
    def __init__(self, name, match, width, signed, aliases=()):
        self.name = name
        self.match = match
        self.width = width
        self.signed = signed
        self.aliases = tuple(aliases)   # other accepted names (BfRt's "hdr.h.$valid")


class TableSpec:
    def __init__(self, name, keys, actions, default, default_const, const_entries, size,
                 has_direct_counter=False, loc=None, direct_register=None, direct_meter=None):
        self.name = name
        self.keys = keys
        self.actions = actions            # list of ActionSpec
        self.default = default            # (action index, args tuple)
        self.default_const = default_const
        self.const_entries = const_entries  # list of (key tuple of match specs, aidx, args, prio)
        self.size = size
        self.has_direct_counter = has_direct_counter
        self.loc = loc
        # (fields, initial values, the DirectRegister's qualified name) or None
        self.direct_register = direct_register
        self.direct_meter = direct_meter         # MeterSpec or None


class Entry:
    __slots__ = ("key", "match", "prio", "seq", "result", "packets", "bytes", "dreg", "meter",
                 "filter", "cov")

    def __init__(self, key, match, prio, seq, result):
        self.key = key          # normalised key tuple (identity of the entry)
        self.match = match      # per field: (kind, a, b)
        self.prio = prio
        self.seq = seq
        self.result = result
        self.packets = 0
        self.bytes = 0
        self.dreg = None        # the DirectRegister cell (one value per field)
        self.meter = None       # the DirectMeter's MeterBucket once configured
        self.filter = None      # the DirectLpf's/DirectWred's cell once configured
        self.cov = None         # a const entry's coverage counter (p4sim.coverage)


class Table:
    def __init__(self, spec, ctx):
        self.spec = spec
        self.name = spec.name
        self.ctx = ctx
        self.exact_only = all(k.match == "exact" for k in spec.keys)
        self.entries = {}
        self._sorted = []       # the entries in priority order (``sorted``), None: stale
        self._index = None      # the match index of ``sorted``; None: build it when needed
        self.seq = 0
        self.const = bool(spec.const_entries)
        self.by_name = {}
        for i, a in enumerate(spec.actions):
            self.by_name[a.name] = i
            self.by_name.setdefault(a.short, i)
        self.default_result = None
        self.initial_default = spec.default

    def bind(self, ns):
        # per-switch functions: the spec is shared by every Switch of one Program
        self.fns = [ns[a.fn_name] for a in self.spec.actions]
        self._set_default_raw(*self.initial_default)
        counters = getattr(self.spec, "cov_entries", None) or [None] * len(self.spec.const_entries)
        for (key, aidx, args, prio), counter in zip(self.spec.const_entries, counters):
            self._insert(key, aidx, args, prio, resort=False).cov = counter
        self._resort()
        if self.const and not self.exact_only and len(self.sorted) <= CHAIN_MAX \
                and not any(kind == 2 for e in self.sorted for kind, _, _ in e.match):
            self.run = self._chain_run()

    def _chain_run(self):
        """``run`` of a small const table as straight-line Python: one ``if`` per entry in
        priority order on the key fields (no index, no loop, the action's constant
        arguments inlined). Its entries can never change; the source is generated once
        per program (cached on the spec) and bound to this switch's entries here."""
        make = getattr(self.spec, "chain_make", None)
        if make is None:
            ns = {}
            exec(compile(_chain_source(self.spec, self.sorted), f"<p4sim table {self.name}>",
                         "exec"), ns)  # p4sim's own generated code (never the P4 text)
            make = self.spec.chain_make = ns["make"]
        return make(self, self.ctx, self.sorted)

    # ---- data path
    def run(self, S, key):
        if self.exact_only:
            e = self.entries.get(key)
        else:
            e = self._match(key)
        if e is None:
            r = self.default_result
            self.ctx.entry = None
        else:
            r = e.result
            self.ctx.entry = e
        r[2](S, *r[3])
        return r

    def _match(self, key):
        """The first entry in priority order that matches ``key``, or None.

        Entries are grouped by their per-field masks (exact fields mask -1, ternary and lpm
        fields their mask); within a group a dict maps the masked key to the position of
        the entry in priority order (keys are unique, so one entry per masked key). A
        lookup masks the key once per group, in the order of each group's most urgent
        entry, and stops as soon as no later group can hold a more urgent one. Same
        answer as :meth:`_scan` (tests/p4sim/test_p4sim_table_index.py); tables with a
        range field keep the scan."""
        index = self._index
        if index is None:
            index = self._build_index()
        if index is False:
            return self._scan(key)
        best = None
        for first, mask, found in index:
            if best is not None and best < first:
                break
            pos = found.get(key if mask is None else tuple(map(and_, key, mask)))
            if pos is not None and (best is None or pos < best):
                best = pos
        return None if best is None else self.sorted[best]

    def _build_index(self):
        """[(position of the group's first entry, mask or None for all-exact, {masked key:
        position in ``sorted``})] ordered by that first position; False when an entry has
        a range field."""
        groups = {}
        for pos, e in enumerate(self.sorted):
            if any(kind == 2 for kind, _, _ in e.match):
                self._index = False
                return False
            mask = tuple(-1 if kind == 0 else b for kind, _, b in e.match)
            found = groups.get(mask)
            if found is None:
                found = groups[mask] = (pos, {})
            found[1].setdefault(tuple(a for _, a, _ in e.match), pos)
        self._index = sorted(((first, None if all(m == -1 for m in mask) else mask, found)
                              for mask, (first, found) in groups.items()),
                             key=lambda g: g[0])
        return self._index

    def _scan(self, key):
        """Linear scan in priority order: the definition of a match."""
        for e in self.sorted:
            for (kind, a, b), v in zip(e.match, key):
                if kind == 0:      # exact
                    if v != a:
                        break
                elif kind == 1:    # value/mask
                    if (v & b) != a:
                        break
                else:              # range
                    if not a <= v <= b:
                        break
            else:
                return e
        return None

    # ---- control plane
    def _action_index(self, action):
        if action not in self.by_name:
            raise ControlPlaneError(
                f"table '{self.name}': no action '{action}' (actions: "
                f"{', '.join(a.name for a in self.spec.actions)})")
        return self.by_name[action]

    def _args(self, aidx, params):
        a = self.spec.actions[aidx]
        params = dict(params or {})
        args = []
        for pname, w, sg in a.params:
            if pname not in params:
                raise ControlPlaneError(f"table '{self.name}' action '{a.name}': missing "
                                        f"parameter '{pname}' (bit<{w}>)")
            args.append(check_fit(params.pop(pname), w, sg,
                                   f"table '{self.name}' action '{a.name}' parameter '{pname}'"))
        if params:
            raise ControlPlaneError(f"table '{self.name}' action '{a.name}': unknown "
                                    f"parameter(s) {sorted(params)}")
        return tuple(args)

    def _normalise_key(self, key):
        if not isinstance(key, dict):
            raise ControlPlaneError(f"table '{self.name}': key must be a dict of field name -> value")
        key = dict(key)
        norm = []
        match = []
        for ks in self.spec.keys:
            kname = next((n for n in (ks.name,) + ks.aliases if n in key), None)
            if kname is None:
                raise ControlPlaneError(f"table '{self.name}': missing key field '{ks.name}' "
                                        f"({ks.match}, bit<{ks.width}>); fields: "
                                        f"{[k.name for k in self.spec.keys]}")
            v = key.pop(kname)
            what = f"table '{self.name}' key field '{ks.name}'"
            w = ks.width
            full = (1 << w) - 1
            if ks.match == "exact":
                v = check_fit(v, w, ks.signed, what)
                norm.append(v)
                match.append((0, v, None))
            elif ks.match == "ternary":
                if not (isinstance(v, tuple) and len(v) == 2):
                    raise ControlPlaneError(f"{what}: ternary key needs (value, mask)")
                val = check_fit(v[0], w, ks.signed, what + " value") & full
                m = check_fit(v[1], w, False, what + " mask")
                norm.append((val & m, m))
                match.append((1, val & m, m))
            elif ks.match == "lpm":
                if not (isinstance(v, tuple) and len(v) == 2):
                    raise ControlPlaneError(f"{what}: lpm key needs (value, prefix_len)")
                val = check_fit(v[0], w, ks.signed, what + " value") & full
                pl = v[1]
                if not isinstance(pl, int) or not 0 <= pl <= w:
                    raise ControlPlaneError(f"{what}: prefix length {pl} out of range 0..{w}")
                m = (full >> (w - pl)) << (w - pl) if pl else 0
                norm.append((val & m, pl))
                match.append((1, val & m, m))
            elif ks.match == "range":
                if not (isinstance(v, tuple) and len(v) == 2):
                    raise ControlPlaneError(f"{what}: range key needs (low, high)")
                lo = check_fit(v[0], w, ks.signed, what + " low")
                hi = check_fit(v[1], w, ks.signed, what + " high")
                norm.append((lo, hi))
                match.append((2, lo, hi))
            else:
                raise ControlPlaneError(f"{what}: match kind '{ks.match}' not supported")
        if key:
            raise ControlPlaneError(f"table '{self.name}': unknown key field(s) {sorted(key)}; "
                                    f"fields: {[k.name for k in self.spec.keys]}")
        # ternary entries with masked-off key bits: the signed/unsigned mixing is normalised above
        return tuple(norm), match

    def _prio_of(self, match, priority):
        if self.exact_only:
            return 0
        if any(k.match == "lpm" for k in self.spec.keys) and priority is None:
            # longest prefix first: sort key uses negative prefix length
            plen = sum(bin(m[2]).count("1") for m, k in zip(match, self.spec.keys) if k.match == "lpm")
            return -plen
        return priority if priority is not None else 0

    def _insert(self, key_norm_match, aidx, args, prio, replace=False, resort=True):
        key, match = key_norm_match
        if key in self.entries and not replace:
            raise ControlPlaneError(f"table '{self.name}': entry with key {key} already exists")
        e = Entry(key, match, prio, self.seq, (True, aidx, self.fns[aidx], args))
        if self.spec.direct_register is not None:
            e.dreg = list(self.spec.direct_register[1])
        self.seq += 1
        if self.spec.size and len(self.entries) >= self.spec.size and key not in self.entries:
            raise ControlPlaneError(f"table '{self.name}' is full (size {self.spec.size})")
        self.entries[key] = e
        if resort:
            self._resort()
        return e

    @property
    def sorted(self):
        """The entries in priority order, sorted again after a change when first needed
        (a batch of 200,000 adds sorted once, not once per add)."""
        if self._sorted is None:
            self._sorted = sorted(self.entries.values(), key=lambda e: (e.prio, e.seq))
        return self._sorted

    def _resort(self):
        """Every change of the entries ends here: the order and the match index are
        rebuilt lazily."""
        self._sorted = None
        self._index = None

    def add(self, key, action, params=None, priority=None, counters=None):
        """Add an entry; ``counters`` = (packets, bytes) initial direct-counter values."""
        if self.const:
            raise ControlPlaneError(f"table '{self.name}' has const entries; it cannot be modified")
        aidx = self._action_index(action)
        if self.spec.actions[aidx].defaultonly:
            raise ControlPlaneError(f"table '{self.name}': action '{action}' is @defaultonly")
        args = self._args(aidx, params)
        km = self._normalise_key(key)
        init = self._counter_values(counters) if counters is not None else (0, 0)
        e = self._insert(km, aidx, args, self._prio_of(km[1], priority))
        e.packets, e.bytes = init

    def _counter_values(self, counters):
        if not self.spec.has_direct_counter:
            raise ControlPlaneError(f"table '{self.name}' has no direct counter")
        try:
            packets, nbytes = counters
        except (TypeError, ValueError):
            raise ControlPlaneError(f"table '{self.name}': counters must be (packets, bytes)") from None
        return (check_fit(packets, 64, False, f"table '{self.name}' counter packets"),
                check_fit(nbytes, 64, False, f"table '{self.name}' counter bytes"))

    def entry(self, key):
        k, _ = self._normalise_key(key)
        if k not in self.entries:
            raise ControlPlaneError(f"table '{self.name}': no entry with key {k}")
        return self.entries[k]

    def counter_write(self, key, counters):
        e = self.entry(key)
        e.packets, e.bytes = self._counter_values(counters)

    def counter_clear(self):
        for e in self.entries.values():
            e.packets = e.bytes = 0

    def modify(self, key, action, params=None, priority=None, reset_counters=False):
        """Change an entry's action/data; its direct counter is kept unless
        ``reset_counters`` (BfRt's modify keeps counter data that is not given)."""
        if self.const:
            raise ControlPlaneError(f"table '{self.name}' has const entries; it cannot be modified")
        km = self._normalise_key(key)
        if km[0] not in self.entries:
            raise ControlPlaneError(f"table '{self.name}': no entry with key {km[0]}")
        aidx = self._action_index(action)
        args = self._args(aidx, params)
        old = self.entries[km[0]]
        prio = old.prio if priority is None else self._prio_of(km[1], priority)
        new = self._insert(km, aidx, args, prio, replace=True)
        new.seq = old.seq          # keeps its place among equal priorities
        self._resort()
        new.dreg = old.dreg
        new.meter = old.meter
        new.filter = old.filter
        if not reset_counters:
            new.packets, new.bytes = old.packets, old.bytes

    def delete(self, key):
        if self.const:
            raise ControlPlaneError(f"table '{self.name}' has const entries; it cannot be modified")
        km = self._normalise_key(key)
        if km[0] not in self.entries:
            raise ControlPlaneError(f"table '{self.name}': no entry with key {km[0]}")
        del self.entries[km[0]]
        self._resort()

    def clear(self):
        if self.const:
            raise ControlPlaneError(f"table '{self.name}' has const entries; it cannot be cleared")
        self.entries.clear()
        self._resort()

    def _set_default_raw(self, aidx, args):
        self.default_result = (False, aidx, self.fns[aidx], tuple(args))

    def set_default(self, action, params=None):
        if self.spec.default_const:
            raise ControlPlaneError(f"table '{self.name}': default action is const")
        aidx = self._action_index(action)
        if self.spec.actions[aidx].tableonly:
            raise ControlPlaneError(f"table '{self.name}': action '{action}' is @tableonly")
        self._set_default_raw(aidx, self._args(aidx, params))

    def reset_default(self):
        self._set_default_raw(*self.initial_default)


CHAIN_MAX = 16      # const tables up to this many entries run as an if-chain


def _chain_source(spec, entries):
    """Source of ``make(T, CTX, E) -> run(S, key)`` for a const table whose entries, in
    priority order, are ``entries`` (exact and value/mask fields only): what
    Table.run + Table._match do, unrolled."""
    n = len(spec.keys)
    keys = ", ".join(f"k{j}" for j in range(n)) + ","
    lines = ["def make(T, CTX, E):"]
    for i in range(len(entries)):
        lines.append(f"    E{i} = E[{i}]; R{i} = E{i}.result; F{i} = R{i}[2]")
    lines += ["    def run(S, key):", f"        {keys} = key"]
    for i, e in enumerate(entries):
        conds = []
        for j, (kind, a, b) in enumerate(e.match):
            if kind == 0:
                conds.append(f"k{j} == {a!r}")
            elif b:                                   # a mask of 0 matches anything
                conds.append(f"(k{j} & {b!r}) == {a!r}")
        args = "".join(f", {a!r}" for a in e.result[3])
        lines += [f"        if {' and '.join(conds) or 'True'}:",
                  f"            CTX.entry = E{i}",
                  f"            F{i}(S{args})",
                  f"            return R{i}"]
    lines += ["        r = T.default_result",
              "        CTX.entry = None",
              "        r[2](S, *r[3])",
              "        return r",
              "    return run"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- registers
class RegisterSpec:
    def __init__(self, name, size, fields, init, loc=None):
        self.name = name
        self.size = size
        self.fields = fields  # list of (field name or None, width, signed)
        self.init = init      # tuple of initial values, one per field
        self.loc = loc


class RegisterCells:
    """One field of a register's cells, stored sparsely: only cells that differ from the
    initial value take memory. A Tofino register of a few 100k cells is common (the ATP
    program's value registers hold 4 x pool cells each); dense Python lists of that size
    per switch exhaust memory when a test keeps many switches alive. Behaves as the list
    the generated code indexes (``d[i]``, ``d[i] = v``), plus slices, ``len`` and
    ``count``. The generated RegisterActions read and write ``cells`` directly (an index
    already in range): they may store a cell equal to the initial value, so only cells
    a packet touched take memory, and every reader here treats such a cell as absent."""

    __slots__ = ("size", "init", "cells")

    def __init__(self, size, init):
        self.size = size
        self.init = init
        self.cells = {}

    def __len__(self):
        return self.size

    def _check(self, i):
        if i < 0:
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError("register cell index out of range")
        return i

    def __getitem__(self, i):
        if i.__class__ is int and 0 <= i < self.size:     # the control plane's reads
            return self.cells.get(i, self.init)
        if isinstance(i, slice):
            get, init = self.cells.get, self.init
            return [get(j, init) for j in range(*i.indices(self.size))]
        return self.cells.get(self._check(i), self.init)

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            indices = range(*i.indices(self.size))
            values = list(value)
            if len(values) != len(indices):
                raise ValueError("register cells: slice assignment cannot resize")
            for j, v in zip(indices, values):
                self[j] = v
            return
        i = self._check(i)
        if value == self.init:
            self.cells.pop(i, None)
        else:
            self.cells[i] = value

    def __iter__(self):
        get, init = self.cells.get, self.init
        return (get(j, init) for j in range(self.size))

    def count(self, value):
        if value == self.init:
            return self.size - sum(1 for v in self.cells.values() if v != value)
        return sum(1 for v in self.cells.values() if v == value)

    def clear(self):
        """Every cell back to the initial value."""
        self.cells.clear()


class Register:
    def __init__(self, spec):
        self.spec = spec
        self.name = spec.name
        self.size = spec.size
        self.data = [RegisterCells(spec.size, v) for v in spec.init]
        self.last = None

    def conflict(self):
        raise RegisterConflictError(
            f"register '{self.name}' accessed twice in one pass (Tofino allows one "
            f"RegisterAction execution per register per packet pass)")

    def reset(self):
        for d in self.data:
            d.clear()

    def _index(self, index):
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise ControlPlaneError(f"register '{self.name}': index {index} out of range "
                                    f"0..{self.size - 1}")
        return index

    def read(self, index):
        index = self._index(index)
        if len(self.data) == 1:
            return self.data[0][index]
        return {f[0]: d[index] for f, d in zip(self.spec.fields, self.data)}

    def read_many(self, indices):
        """{index: what :meth:`read` gives} for several cells in one call: the control
        plane reads an aggregator's ~35 registers after every packet in lockstep runs."""
        size = self.size
        for index in indices:
            if not isinstance(index, int) or not 0 <= index < size:
                self._index(index)
        if len(self.data) == 1:
            cells = self.data[0]
            get, init = cells.cells.get, cells.init
            return {index: get(index, init) for index in indices}
        names = [f[0] for f in self.spec.fields]
        columns = [(d.cells.get, d.init) for d in self.data]
        return {index: {n: get(index, init) for n, (get, init) in zip(names, columns)}
                for index in indices}

    def write(self, index, value):
        index = self._index(index)
        if len(self.data) == 1:
            _, w, sg = self.spec.fields[0]
            self.data[0][index] = check_fit(value, w, sg, f"register '{self.name}' value")
            return
        if isinstance(value, dict):
            vals = []
            for f in self.spec.fields:
                if f[0] not in value:
                    raise ControlPlaneError(f"register '{self.name}': missing field '{f[0]}'")
                vals.append(value[f[0]])
        else:
            vals = list(value)
            if len(vals) != len(self.data):
                raise ControlPlaneError(f"register '{self.name}': expected {len(self.data)} values")
        for (fname, w, sg), d, v in zip(self.spec.fields, self.data, vals):
            d[index] = check_fit(v, w, sg, f"register '{self.name}' field '{fname}'")

    def read_all(self):
        def dt(w, sg):
            for n in (8, 16, 32, 64):
                if w <= n:
                    return np.dtype(f"{'i' if sg else 'u'}{n // 8}")
            return object
        if len(self.data) == 1:
            _, w, sg = self.spec.fields[0]
            return np.array(list(self.data[0]), dtype=dt(w, sg))
        dtype = np.dtype([(f, dt(w, sg)) for f, w, sg in self.spec.fields])
        arr = np.zeros(self.size, dtype=dtype)
        for (f, _, _), d in zip(self.spec.fields, self.data):
            arr[f] = list(d)
        return arr


class CounterSpec:
    def __init__(self, name, size, kind):
        self.name = name
        self.size = size
        self.kind = kind


class Counter:
    """Counter<W, I>: packets and bytes per index (bytes include the FCS)."""

    def __init__(self, spec, ctx):
        self.name = spec.name
        self.size = spec.size
        self.ctx = ctx
        self.packets = [0] * spec.size
        self.bytes = [0] * spec.size

    def _index(self, index):
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise ControlPlaneError(f"counter '{self.name}': index {index!r} out of range "
                                    f"0..{self.size - 1}")
        return index

    def read(self, index):
        index = self._index(index)
        return self.packets[index], self.bytes[index]

    def write(self, index, packets=0, nbytes=0):
        index = self._index(index)
        self.packets[index] = check_fit(packets, 64, False, f"counter '{self.name}' packets")
        self.bytes[index] = check_fit(nbytes, 64, False, f"counter '{self.name}' bytes")

    def clear(self):
        self.packets[:] = [0] * self.size
        self.bytes[:] = [0] * self.size

    def count(self, index, adjust=0):
        if 0 <= index < self.size:
            self.packets[index] += 1
            self.bytes[index] += self.ctx.pkt_len + adjust


class MeterSpec:
    def __init__(self, name, size, kind, colors):
        self.name = name
        self.size = size          # 0 for a DirectMeter
        self.kind = kind          # "PACKETS" or "BYTES"
        self.colors = colors      # values returned for (GREEN, YELLOW, RED)


class MeterBucket:
    """One meter cell: a two-rate three-colour marker (RFC 2698) on the injection
    timestamps.  Rates/bursts as BfRt gives them: PACKETS meters in packets/s and
    packets, BYTES meters in kbit/s and kbit.  Tokens are integers (1e-9 packet or
    1e-6 bit per unit), both buckets start full; no floating point, so runs repeat."""
    __slots__ = ("cir", "cbs", "pir", "pbs", "tc", "tp", "last", "per_byte", "adjust")

    def __init__(self, kind, cir, cbs, pir, pbs):
        for what, v in (("cir", cir), ("cbs", cbs), ("pir", pir), ("pbs", pbs)):
            check_fit(v, 64, False, f"meter {what}")
        # per ns a rate adds `rate` units: 1e-9 packet (pps) or 1e-6 bit (kbit/s); a burst
        # of n packets or n kbit is n * 1e9 units
        self.cir, self.pir = cir, pir
        self.cbs, self.pbs = cbs * 10**9, pbs * 10**9
        self.tc, self.tp, self.last = self.cbs, self.pbs, None
        self.per_byte = kind == "BYTES"
        self.adjust = 0         # bytes added to every frame (BfRt's MeterByteCountAdjust)

    def color(self, ts, nbytes, color_in):
        """0 green, 1 yellow, 3 red (MeterColor_t); color_in as for a colour-aware meter."""
        if self.last is not None and ts > self.last:
            dt = ts - self.last
            self.tc = min(self.cbs, self.tc + self.cir * dt)
            self.tp = min(self.pbs, self.tp + self.pir * dt)
        self.last = ts if self.last is None else max(self.last, ts)
        need = 8 * 10**6 * nbytes if self.per_byte else 10**9
        if color_in == 3 or self.tp < need:
            return 3
        self.tp -= need
        if color_in == 1 or self.tc < need:
            return 1
        self.tc -= need
        return 0


class Meter:
    """Meter<I>: a MeterBucket per configured index; an unconfigured index is GREEN."""

    def __init__(self, spec, ctx):
        self.spec = spec
        self.name = spec.name
        self.size = spec.size
        self.ctx = ctx
        self.cells = {}

    def execute(self, index, color_in=0, adjust=0):
        b = self.cells.get(index % self.size)
        return meter_result(self.spec, b, self.ctx, color_in, adjust)


def meter_result(spec, bucket, ctx, color_in, adjust):
    if bucket is None:
        c = 0
    else:
        c = bucket.color(ctx.ts, ctx.pkt_len + adjust + bucket.adjust, color_in)
    return spec.colors[0 if c == 0 else (1 if c == 1 else 2)]


def direct_meter(spec, ctx, color_in=0, adjust=0):
    e = ctx.entry
    return meter_result(spec, e.meter if e is not None else None, ctx, color_in, adjust)


class ValueSetSpec:
    def __init__(self, name, size, width):
        self.name = name
        self.size = size
        self.width = width


class ValueSet:
    """A parser value_set: the control plane's (value, mask) members; select matches any."""

    def __init__(self, spec):
        self.spec = spec
        self.name = spec.name
        self.members = []

    def match(self, v):
        for val, mask in self.members:
            if v & mask == val:
                return True
        return False

    def _member(self, value, mask):
        w = self.spec.width
        full = (1 << w) - 1
        mask = full if mask is None else check_fit(mask, w, False, f"value_set '{self.name}' mask")
        value = check_fit(value, w, False, f"value_set '{self.name}' value")
        return value & mask, mask

    def add(self, value, mask=None):
        m = self._member(value, mask)
        if m in self.members:
            raise ControlPlaneError(f"value_set '{self.name}': {m} is already a member")
        if len(self.members) >= self.spec.size:
            raise ControlPlaneError(f"value_set '{self.name}' is full (size {self.spec.size})")
        self.members.append(m)

    def delete(self, value, mask=None):
        m = self._member(value, mask)
        if m not in self.members:
            raise ControlPlaneError(f"value_set '{self.name}': {m} is not a member")
        self.members.remove(m)


class DigestUnit:
    """Digest<T>.pack(): records (digest name, {field: value}) for the control plane."""

    def __init__(self, name, fields, sink):
        self.name = name
        self.fields = fields
        self.sink = sink

    def pack(self, values):
        self.sink.append((self.name, dict(zip(self.fields, values))))


class PassContext:
    """Per-packet-pass state shared with generated code."""

    def __init__(self):
        self.entry = None
        self.pkt_len = 0
        self.resubmit = None
        self.mirrors = []
        self.ts = 0


def count_direct(ctx, adjust=0):
    e = ctx.entry
    if e is not None:
        e.packets += 1
        e.bytes += ctx.pkt_len + adjust


# ---------------------------------------------------------------- hashing / checksums
def _reflect(v, w):
    r = 0
    for _ in range(w):
        r = (r << 1) | (v & 1)
        v >>= 1
    return r


class CRC:
    """Generic CRC over a bit string, Rocksoft model (width, poly, init, refin/out, xorout)."""

    def __init__(self, width, poly, init, reflect, xorout):
        self.width = width
        self.poly = poly
        self.init = init
        self.reflect = reflect
        self.xorout = xorout
        self.mask = (1 << width) - 1

    def compute(self, value, nbits):
        """CRC of the nbits-long big-endian bit string `value`."""
        w = self.width
        crc = self.init
        top = 1 << (w - 1)
        poly = self.poly
        mask = self.mask
        if self.reflect:
            # process bits of each byte LSB first, bytes in order
            if nbits % 8:
                raise P4RuntimeError("reflected CRC over a field list that is not a whole "
                                     f"number of bytes ({nbits} bits)")
            data = value.to_bytes(nbits // 8, "big")
            rpoly = _reflect(poly, w)
            crc = _reflect(crc, w)
            for byte in data:
                crc ^= byte
                for _ in range(8):
                    crc = (crc >> 1) ^ rpoly if crc & 1 else crc >> 1
            crc = crc & mask
            # refout=True: result stays reflected
        else:
            for i in range(nbits - 1, -1, -1):
                bit = (value >> i) & 1
                fb = ((crc & top) != 0) ^ bit
                crc = (crc << 1) & mask
                if fb:
                    crc ^= poly
        return (crc ^ self.xorout) & mask


STD_CRCS = {
    "CRC8": (8, 0x07, 0, False, 0),
    "CRC16": (16, 0x8005, 0, True, 0),
    "CRC32": (32, 0x04C11DB7, 0xFFFFFFFF, True, 0xFFFFFFFF),
    "CRC64": (64, 0x42F0E1EBA9EA3693, 0, False, 0),
}


class HashUnit:
    def __init__(self, out_width, algo, custom=None):
        self.out_mask = (1 << out_width) - 1
        self.algo = algo
        if algo == "IDENTITY":
            self.crc = None
        elif algo == "CUSTOM":
            w, poly, init, reflect, xorout = custom
            self.crc = CRC(w, poly, init, reflect, xorout)
        else:
            self.crc = CRC(*STD_CRCS[algo])

    def get(self, value, nbits):
        if self.crc is None:
            return value & self.out_mask
        return self.crc.compute(value, nbits) & self.out_mask


def ones_complement_sum(value, nbits):
    if nbits % 16:
        value <<= 16 - nbits % 16
        nbits += 16 - nbits % 16
    s = 0
    for i in range(nbits // 16):
        s += (value >> (16 * i)) & 0xFFFF
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


class ChecksumUnit:
    """TNA ``Checksum``: a 16-bit ones'-complement sum (tofino1_base.p4).

    In a parser, ``verify()`` is what bf-p4c writes into the destination: the checksum
    *error* bit (true when the sum of what was added is not 0xFFFF, i.e. the checksum is
    wrong), and ``get()`` is the plain ones'-complement sum of what was added/subtracted
    (the residual that a deparser ``update`` later folds in).  ``update`` in a deparser is
    the complement of the sum; ``zeros_as_ones`` turns a 0x0000 result into 0xFFFF (UDP).
    """

    def __init__(self):
        self.sum = 0

    def clear(self):
        self.sum = 0

    def add(self, value, nbits):
        s = self.sum + ones_complement_sum(value, nbits)
        while s >> 16:
            s = (s & 0xFFFF) + (s >> 16)
        self.sum = s

    def subtract(self, value, nbits):
        self.add((~ones_complement_sum(value, nbits)) & 0xFFFF, 16)

    def verify(self):
        return self.sum != 0xFFFF

    def get(self):
        return self.sum

    @staticmethod
    def update(value, nbits, zeros_as_ones=False):
        r = (~ones_complement_sum(value, nbits)) & 0xFFFF
        if r == 0 and zeros_as_ones:
            return 0xFFFF
        return r


def _register_dp_read(self, S, idx):
    if self.last is S:
        self.conflict()
    self.last = S
    return self.data[0][idx % self.size]


def _register_dp_write(self, S, idx, value):
    if self.last is S:
        self.conflict()
    self.last = S
    self.data[0][idx % self.size] = value


Register.dp_read = _register_dp_read
Register.dp_write = _register_dp_write


# ---------------------------------------------------------------- helpers of generated code
def STK(i, size):
    if not 0 <= i < size:
        raise P4RuntimeError(f"header stack index {i} out of bounds (size {size})")
    return i


def ADV(bits):
    if bits % 8:
        raise P4RuntimeError(f"advance by {bits} bits: not a multiple of 8")
    return bits // 8


def LOOK(B, off, nb, sh, m):
    if off + nb > len(B):
        raise Reject("PacketTooShort")
    return (int.from_bytes(B[off:off + nb], "big") >> sh) & m


def DIV(a, b):
    if b == 0:
        raise P4RuntimeError("division by zero")
    return a // b


def MOD(a, b):
    if b == 0:
        raise P4RuntimeError("modulo by zero")
    return a % b


def STACK_SHIFT(S, base, size, esz, n):
    lo = base + 1
    hi = lo + size * esz
    region = S[lo:hi]
    if n > 0:
        n = min(n, size)
        S[lo:hi] = [0] * (n * esz) + region[:(size - n) * esz]
        S[base] = min(size, S[base] + n)
    elif n < 0:
        n = min(-n, size)
        S[lo:hi] = region[n * esz:] + [0] * (n * esz)
        S[base] = max(0, S[base] - n)


def TABLE_COV(C, r, hit, default, ctx):
    """Count a table apply's outcome for coverage: the const entry hit (its counter),
    another hit (``hit``) or a miss (the counter of the default action that ran);
    returns the apply result."""
    if r[0]:
        e = ctx.entry
        C[hit if e.cov is None else e.cov] += 1
    else:
        C[default[r[1]]] += 1
    return r


def NOOP(S):
    pass

"""Reading the PTF tests P4Testgen's Tofino target writes, without running them.

P4Testgen (p4lang/p4c ``backends/p4tools/modules/testgen/targets/tofino``,
``test_backend/ptf.cpp``) renders each test from a fixed template: a class ``Test<N>``
whose ``setupCtrlPlane`` makes BfRuntime calls through the SDE client (``bfrt_grpc``),
whose ``sendPacket`` sends one frame and whose ``verifyPackets`` expects one frame
(with don't-care bit ranges, ``Mask.set_do_not_care(bit offset, bit count)``) or nothing.
This module parses that Python with :mod:`ast` into :class:`GeneratedTest` records, so
that a runner can replay them on a switch that is not behind gRPC (p4sim in process).
Only the statement forms of the template are accepted; anything else is a
:class:`FormatError` naming the file and line, never silently skipped: a newer P4Testgen
that writes a form we do not know must fail here, not pass.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class FormatError(ValueError):
    """The file is not in the format P4Testgen's Tofino PTF back end writes."""


@dataclass(frozen=True)
class KeyField:
    """``gc.KeyTuple(name, value[, mask], prefix_len=, low=, high=)``."""
    name: str
    value: int | None = None
    mask: int | None = None
    prefix_len: int | None = None
    low: int | None = None
    high: int | None = None

    def as_key_value(self) -> Any:
        """The value in the form our BfRuntime client takes (bfruntime/client.py)."""
        if self.low is not None or self.high is not None:
            return (self.low, self.high)
        if self.prefix_len is not None:
            return (self.value, self.prefix_len)
        if self.mask is not None:
            return (self.value, self.mask)
        return self.value


@dataclass(frozen=True)
class EntryAdd:
    """``insertTableEntry(table, keys, action, data)``: a match entry, or a member of an
    action profile (key ``$ACTION_MEMBER_ID``), or an entry naming a member (action None,
    data ``$ACTION_MEMBER_ID``)."""
    table: str
    keys: tuple[KeyField, ...]
    action: str | None
    data: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class DefaultSet:
    """``overrideDefaultEntry(table, action, data)``."""
    table: str
    action: str
    data: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class RegisterSet:
    """``setRegisterValue(register, value, index)``: one cell; ``value`` an int (data field
    ``f1``) or ``((field, value), ...)`` for a pair register."""
    register: str
    index: int
    value: int | tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class RegisterParamSet:
    """``table_get(name).default_entry_set(..., make_data([DataTuple('value', v)]))``."""
    register_param: str
    value: int


@dataclass(frozen=True)
class DirectRegisterSet:
    """``setDirectRegisterValue(table, value)``: the direct register cell of the table's
    (only) entry."""
    table: str
    value: int | tuple[tuple[str, int], ...]


ControlPlaneCall = EntryAdd | DefaultSet | RegisterSet | RegisterParamSet | DirectRegisterSet


@dataclass(frozen=True)
class ExpectedPacket:
    port: int
    frame: bytes
    dont_care: tuple[tuple[int, int], ...]     # (bit offset, bit count), as Mask takes them


@dataclass
class GeneratedTest:
    name: str                                   # the class name, e.g. "Test3"
    line: int
    calls: list[ControlPlaneCall]
    ingress_port: int
    frame: bytes
    expected: ExpectedPacket | None             # None: P4Testgen expects the packet dropped
    coverage: float | None                      # P4Testgen's statement coverage so far
    trace: str = ""
    selected_branches: str = ""


@dataclass
class GeneratedFile:
    path: Path
    program_name: str                           # BfRuntimeTest.setUp's p4 name
    seed: str | None
    tests: list[GeneratedTest] = field(default_factory=list)


_SEED = re.compile(r"^# p4testgen seed: (\S+)", re.M)
_COVERAGE = re.compile(r"^\s*# Current statement coverage: (\S+)", re.M)
_CLASS = re.compile(r"^Test(\d+)$")


class _Reader:
    def __init__(self, path: Path, text: str):
        self.path = path
        self.lines = text.splitlines()

    def fail(self, node: ast.AST | None, what: str) -> FormatError:
        line = getattr(node, "lineno", 0)
        return FormatError(f"{self.path}:{line}: {what} (not P4Testgen's Tofino PTF format)")

    # ----------------------------------------------------------------- literals
    def value(self, node: ast.AST) -> Any:
        """A literal, or a gc.KeyTuple / gc.DataTuple call."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "gc":
            args = [self.value(a) for a in node.args]
            kwargs = {k.arg: self.value(k.value) for k in node.keywords}
            if node.func.attr == "KeyTuple":
                return self.key_tuple(node, args, kwargs)
            if node.func.attr == "DataTuple" and len(args) == 2 and not kwargs:
                return (self.name(node, args[0]), self.int(node, args[1]))
            raise self.fail(node, f"unknown call gc.{node.func.attr}")
        if isinstance(node, ast.List | ast.Tuple):
            return [self.value(e) for e in node.elts]
        try:
            return ast.literal_eval(node)
        except ValueError:
            raise self.fail(node, f"not a literal: {ast.unparse(node)}") from None

    def int(self, node: ast.AST, v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(node, f"expected an integer, got {v!r}")
        return v

    def name(self, node: ast.AST, v: Any) -> str:
        if not isinstance(v, str):
            raise self.fail(node, f"expected a name, got {v!r}")
        return v

    def key_tuple(self, node: ast.AST, args: list, kwargs: dict) -> KeyField:
        if not args or len(args) > 3 or set(kwargs) - {"prefix_len", "low", "high"}:
            raise self.fail(node, "gc.KeyTuple takes (name, value[, mask]) or prefix_len=, "
                                  "low=, high=")
        ints = [self.int(node, a) for a in args[1:]]
        kw = {k: self.int(node, v) for k, v in kwargs.items()}
        return KeyField(self.name(node, args[0]), value=ints[0] if ints else None,
                        mask=ints[1] if len(ints) > 1 else None, **kw)

    def data(self, node: ast.AST) -> tuple[tuple[str, int], ...]:
        v = self.value(node)
        if not isinstance(v, list) or not all(isinstance(d, tuple) for d in v):
            raise self.fail(node, "expected a list of gc.DataTuple")
        return tuple(v)

    def register_value(self, node: ast.AST) -> int | tuple[tuple[str, int], ...]:
        v = self.value(node)
        if isinstance(v, list):
            if not all(isinstance(e, list | tuple) and len(e) == 2 for e in v):
                raise self.fail(node, "a register value list holds (field, value) pairs")
            return tuple((self.name(node, a), self.int(node, b)) for a, b in v)
        return self.int(node, v)

    # ----------------------------------------------------------------- methods
    @staticmethod
    def method_call(stmt: ast.stmt) -> tuple[str, str, list[ast.expr]] | None:
        """(receiver, method, args) of ``receiver.method(args)`` as a statement."""
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                and isinstance(stmt.value.func, ast.Attribute) \
                and isinstance(stmt.value.func.value, ast.Name):
            call = stmt.value
            return call.func.value.id, call.func.attr, list(call.args)
        return None

    def control_plane(self, body: list[ast.stmt]) -> list[ControlPlaneCall]:
        calls: list[ControlPlaneCall] = []
        params: dict[str, str] = {}      # local name -> register param table
        for stmt in body:
            if isinstance(stmt, ast.Pass):
                continue
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                    and isinstance(stmt.targets[0], ast.Name) \
                    and isinstance(stmt.value, ast.Call) \
                    and ast.unparse(stmt.value.func) == "self.bfrt_info.table_get":
                params[stmt.targets[0].id] = self.name(stmt, self.value(stmt.value.args[0]))
                continue
            mc = self.method_call(stmt)
            if mc is None:
                raise self.fail(stmt, f"unexpected statement: {ast.unparse(stmt)}")
            recv, meth, args = mc
            if recv == "self" and meth == "insertTableEntry" and len(args) == 4:
                keys = self.value(args[1])
                if not isinstance(keys, list) or not all(isinstance(k, KeyField) for k in keys):
                    raise self.fail(stmt, "insertTableEntry's keys must be gc.KeyTuples")
                action = self.value(args[2])
                if action is not None:
                    action = self.name(stmt, action)
                calls.append(EntryAdd(self.name(stmt, self.value(args[0])), tuple(keys),
                                      action, self.data(args[3])))
            elif recv == "self" and meth == "overrideDefaultEntry" and len(args) == 3:
                calls.append(DefaultSet(self.name(stmt, self.value(args[0])),
                                        self.name(stmt, self.value(args[1])),
                                        self.data(args[2])))
            elif recv == "self" and meth == "setRegisterValue" and len(args) == 3:
                calls.append(RegisterSet(self.name(stmt, self.value(args[0])),
                                         self.int(stmt, self.value(args[2])),
                                         self.register_value(args[1])))
            elif recv == "self" and meth == "setDirectRegisterValue" and len(args) == 2:
                calls.append(DirectRegisterSet(self.name(stmt, self.value(args[0])),
                                               self.register_value(args[1])))
            elif recv in params and meth == "default_entry_set" and len(args) == 2:
                make = args[1]
                if not (isinstance(make, ast.Call) and ast.unparse(make.func) ==
                        f"{recv}.make_data" and len(make.args) == 1):
                    raise self.fail(stmt, "default_entry_set of a RegisterParam takes "
                                          "make_data([gc.DataTuple('value', v)])")
                data = self.data(make.args[0])
                if len(data) != 1 or data[0][0] != "value":
                    raise self.fail(stmt, "a RegisterParam's data is one 'value' field")
                calls.append(RegisterParamSet(params[recv], data[0][1]))
            else:
                raise self.fail(stmt, f"unexpected call: {ast.unparse(stmt)}")
        return calls

    def assignments(self, body: list[ast.stmt]) -> tuple[dict[str, Any], list[ast.stmt]]:
        """Leading ``name = literal`` statements (the template's ig_port/pkt/eg_port/
        exp_pkt) and the statements after them."""
        values: dict[str, Any] = {}
        rest = []
        for stmt in body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                    and isinstance(stmt.targets[0], ast.Name) and not rest:
                if ast.unparse(stmt.value) == "Mask(exp_pkt)":
                    values["masked"] = True
                else:
                    values[stmt.targets[0].id] = self.value(stmt.value)
            else:
                rest.append(stmt)
        return values, rest

    def send(self, fn: ast.FunctionDef) -> tuple[int, bytes]:
        values, rest = self.assignments(fn.body)
        if [ast.unparse(s) for s in rest] != ["send_packet(self, ig_port, pkt)"] \
                or not isinstance(values.get("pkt"), bytes):
            raise self.fail(fn, "sendPacket must set ig_port and pkt and call send_packet")
        return self.int(fn, values.get("ig_port")), values["pkt"]

    def verify(self, fn: ast.FunctionDef) -> ExpectedPacket | None:
        if [type(s) for s in fn.body] == [ast.Pass]:
            return None
        values, rest = self.assignments(fn.body)
        if not values.get("masked") or not isinstance(values.get("exp_pkt"), bytes) \
                or not rest or ast.unparse(rest[-1]) != "verify_packet(self, exp_pkt, eg_port)":
            raise self.fail(fn, "verifyPackets must build Mask(exp_pkt) and call "
                                "verify_packet(self, exp_pkt, eg_port)")
        dont_care = []
        for stmt in rest[:-1]:
            mc = self.method_call(stmt)
            if mc is None or mc[:2] != ("exp_pkt", "set_do_not_care") or len(mc[2]) != 2:
                raise self.fail(stmt, f"unexpected statement: {ast.unparse(stmt)}")
            dont_care.append((self.int(stmt, self.value(mc[2][0])),
                              self.int(stmt, self.value(mc[2][1]))))
        return ExpectedPacket(self.int(fn, values.get("eg_port")), values["exp_pkt"],
                              tuple(dont_care))

    def test_class(self, cls: ast.ClassDef) -> GeneratedTest:
        methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
        for required in ("setupCtrlPlane", "sendPacket", "verifyPackets"):
            if required not in methods:
                raise self.fail(cls, f"class {cls.name} has no {required}")
        end = getattr(cls, "end_lineno", cls.lineno)
        text = "\n".join(self.lines[cls.lineno - 1:end])
        cov = _COVERAGE.search(text)
        header = text.split("'''", 1)[0]
        branches = [ln.strip()[2:] for ln in header.splitlines()[1:]
                    if ln.strip().startswith("# ") and "Date generated" not in ln
                    and "statement coverage" not in ln]
        port, frame = self.send(methods["sendPacket"])
        return GeneratedTest(
            name=cls.name, line=cls.lineno,
            calls=self.control_plane(methods["setupCtrlPlane"].body),
            ingress_port=port, frame=frame, expected=self.verify(methods["verifyPackets"]),
            coverage=float(cov.group(1)) if cov else None,
            trace=ast.get_docstring(cls) or "", selected_branches="\n".join(branches))


def program_name(tree: ast.Module, path: Path) -> str:
    """The p4 name ``AbstractTest.setUp`` hands to ``BfRuntimeTest.setUp``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "BfRuntimeTest.setUp" \
                and len(node.args) == 3 and isinstance(node.args[2], ast.Constant):
            return str(node.args[2].value)
    raise FormatError(f"{path}: no BfRuntimeTest.setUp(self, 0, '<p4 name>') in AbstractTest")


def read(path: Path) -> GeneratedFile:
    """Every ``Test<N>`` class of one P4Testgen PTF file, in file order."""
    text = path.read_text(encoding="utf-8")
    try:
        tree = ast.parse(text, str(path))
    except SyntaxError as e:
        raise FormatError(f"{path}:{e.lineno}: not Python: {e.msg}") from None
    seed = _SEED.search(text)
    out = GeneratedFile(path, program_name(tree, path),
                        seed.group(1) if seed and seed.group(1) != "none" else None)
    reader = _Reader(path, text)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and _CLASS.match(node.name):
            if [ast.unparse(b) for b in node.bases] != ["AbstractTest"]:
                raise reader.fail(node, f"{node.name} does not derive from AbstractTest")
            out.tests.append(reader.test_class(node))
    if not out.tests:
        raise FormatError(f"{path}: no Test<N>(AbstractTest) classes")
    return out

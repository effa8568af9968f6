"""TNA's ``RegisterParam<T>``: a run-time constant of the stateful ALU. RegisterActions
read it (``read()``); the control plane sets it (BfRt's ``RegisterParam`` table, one
data field ``value``; its default entry is the initial value given in the program)."""
from __future__ import annotations

from .control_plane import _find
from .runtime import check_fit


class RegisterParamSpec:
    def __init__(self, name: str, width: int, signed: bool, init: int, loc=None):
        self.name = name
        self.width = width
        self.signed = signed
        self.init = init
        self.loc = loc
        self.registers: list[str] = []   # the registers whose RegisterActions read it


class RegisterParam:
    """The value the generated code reads (``.value``)."""

    def __init__(self, spec: RegisterParamSpec):
        self.spec = spec
        self.name = spec.name
        self.value = spec.init

    def set(self, value: int) -> None:
        self.value = check_fit(value, self.spec.width, self.spec.signed,
                               f"register param '{self.name}'")

    def reset(self) -> None:
        self.value = self.spec.init


class RegisterParamControlMixin:
    """Mixed into :class:`p4sim.Switch` (``self.register_params``: name -> RegisterParam)."""

    def register_param(self, name: str) -> RegisterParam:
        return _find(self.register_params, name, "register param")

    def register_param_set(self, name: str, value: int) -> None:
        self.register_param(name).set(value)

    def register_param_read(self, name: str) -> int:
        return self.register_param(name).value

    def register_param_reset(self, name: str) -> None:
        self.register_param(name).reset()

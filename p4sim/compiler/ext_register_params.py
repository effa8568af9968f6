"""RegisterParam<T>(initial value) and its read(), which only a RegisterAction may call
(tofino1_base.p4: "can only be used by RegisterAction")."""
from ..register_params import RegisterParamSpec
from ..types import Bits, wrap_value
from .base import Val, serr, tdesc


class RegisterParamsMixin:
    """RegisterParam instances and their reads in RegisterAction bodies."""

    def inst_RegisterParam(self, d, t, args, inst, scope, qual, fc):
        if len(t.targs) != 1 or not isinstance(t.targs[0], Bits):
            raise serr(d.loc, f"RegisterParam '{qual}' needs a bit<W> or int<W> type argument, "
                              f"not {tdesc(t.targs[0]) if t.targs else 'none'}")
        if len(args) != 1:
            raise serr(d.loc, f"RegisterParam '{qual}' takes one argument (the initial value)")
        et = t.targs[0]
        init = wrap_value(self.const_in(args[0], scope, fc, "register param initial value"), et)
        spec = RegisterParamSpec(qual, et.width, et.signed, init, d.loc)
        inst.info.update(spec=spec, elem=et)
        inst.pyname = self.add_object("register_param", spec, "RP")

    def call_RegisterParam(self, inst, m, e, args, sc, fc, em, loc):
        if m != "read":
            raise serr(loc, f"RegisterParam '{inst.qual}' has no method '{m}' (only read)")
        self.need_args(inst, m, args, loc, 0)
        if fc.kind != "ra":
            raise serr(loc, f"RegisterParam '{inst.qual}'.read() outside a RegisterAction "
                            f"(TNA allows it only there)")
        spec = inst.info["spec"]
        register = getattr(fc, "register", None)
        if register and register not in spec.registers:
            spec.registers.append(register)
        return Val(code=f"{inst.pyname}.value", t=inst.info["elem"])

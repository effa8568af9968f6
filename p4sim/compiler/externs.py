"""Extern instances and method calls: checks, then the family's inst_X/call_X (ext_*.py)."""
from ..errors import UnsupportedError
from ..types import BlockT, ExternT
from .base import Inst, Val, serr, tdesc

# extern type -> the family method that instantiates it / lowers its method calls
INSTANTIATE = {"Meter": "inst_Meter", "DirectMeter": "inst_DirectMeter", "Alpm": "inst_Alpm", "Atcam": "inst_Atcam", "DirectRegister": "inst_DirectRegister",
               "DirectRegisterAction": "inst_DirectRegisterAction", "CRCPolynomial": "inst_CRCPolynomial", "Checksum": "inst_Checksum", "Counter":
               "inst_Counter", "Digest": "inst_Digest", "DirectCounter": "inst_DirectCounter",
               "Hash": "inst_Hash", "Mirror": "inst_Resubmit", "Random": "inst_Random",
               "Register": "inst_Register", "RegisterAction": "inst_RegisterAction",
               "Resubmit": "inst_Resubmit"}
CALL = {"Meter": "call_Meter", "DirectMeter": "call_DirectMeter", "DirectRegister": "call_DirectRegister",
        "DirectRegisterAction": "call_DirectRegisterAction", "Checksum": "call_Checksum", "Counter": "call_Counter", "Digest": "call_Digest",
        "DirectCounter": "call_DirectCounter", "Hash": "call_Hash", "Mirror": "call_Mirror",
        "Random": "call_Random", "Register": "call_Register", "RegisterAction":
        "call_RegisterAction", "Resubmit": "call_Resubmit"}
INSTANTIATE.update({"Lpf": "inst_Lpf", "Wred": "inst_Wred",      # ext_filters.py
                    "DirectLpf": "inst_DirectLpf", "DirectWred": "inst_DirectWred"})
CALL.update({"Lpf": "call_Lpf", "Wred": "call_Wred", "DirectLpf": "call_DirectLpf",
             "DirectWred": "call_DirectWred"})
INSTANTIATE.update(ActionProfile="inst_ActionProfile", ActionSelector="inst_ActionSelector",
                   RegisterParam="inst_RegisterParam")
CALL.update(RegisterParam="call_RegisterParam")


class ExternsMixin:
    """Extern instances and method calls: checks, then the family's inst_X/call_X (ext_*.py)."""

    def instantiate(self, d, scope, qual, fc):
        t = self.resolve_type(d.type)
        name = d.name
        if isinstance(t, BlockT):
            if t.kind not in ("control", "parser"):
                raise UnsupportedError(d.loc, f"unsupported instantiation of {t.kind} '{t.name}'")
            if d.args:
                raise UnsupportedError(d.loc, f"{t.kind} constructor arguments are not supported")
            inst = Inst(t.kind, qual, t.decl, t)
            scope[name] = Val(extra=("control_inst", inst))
            return
        if not isinstance(t, ExternT):
            raise serr(d.loc, f"cannot instantiate {tdesc(t) if t else '_'}")
        if t.name not in INSTANTIATE:
            raise UnsupportedError(d.loc, f"unsupported extern '{t.name}'")
        args = [a.value for a in d.args]
        inst = Inst(t.name, qual, d, t)
        v = Val(t=t, extra=("extern", inst))
        getattr(self, INSTANTIATE[t.name])(d, t, args, inst, scope, qual, fc)
        scope[name] = v

    def extern_method(self, inst, m, e, sc, fc, em, stmt):
        k = inst.kind
        args = [a.value for a in e.args]
        loc = e.loc
        if fc is None:
            raise serr(loc, f"{k}.{m} outside a block")
        if k not in CALL:
            raise UnsupportedError(loc, f"unsupported extern method {k}.{m}")
        lower = getattr(self, CALL[k])
        if (k, m) in self.SELECTORS:
            return self.selected(inst, m, em, lambda: lower(inst, m, e, args, sc, fc, em, loc))
        return lower(inst, m, e, args, sc, fc, em, loc)

    def need_args(self, inst, m, args, loc, n):
        if len(args) != n:
            raise serr(loc, f"{inst.kind}.{m} of '{inst.qual}' takes {n} argument(s)")

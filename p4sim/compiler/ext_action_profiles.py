"""ActionProfile and ActionSelector (tofino1_base.p4's signatures) and the tables whose
``implementation`` names one: the compile-time half of p4sim/action_profiles.py."""
from ..action_profiles import ActionProfileSpec, ActionSelectorSpec
from ..errors import UnsupportedError
from ..types import Bits, EnumT
from .base import serr


class ActionProfilesMixin:
    """ActionProfile/ActionSelector instances and the indirect tables that use them."""

    def inst_ActionProfile(self, d, t, args, inst, scope, qual, fc):
        if len(args) != 1:
            raise serr(d.loc, f"ActionProfile '{qual}' takes one argument (size)")
        size = self.const_in(args[0], scope, fc, "action profile size")
        if size <= 0:
            raise serr(args[0].loc, f"ActionProfile '{qual}' size must be positive")
        spec = ActionProfileSpec(qual, size, d.loc)
        inst.info["spec"] = spec
        inst.pyname = spec.pyname = self.add_object("action_profile", spec, "AP")

    def inst_ActionSelector(self, d, t, args, inst, scope, qual, fc):
        """ActionSelector(profile, hash, mode, max_group_size, num_groups), or the form
        deprecated in tofino1_base.p4, ActionSelector(size, hash, mode): bf-p4c then
        makes a profile of ``size`` members named as the selector, names the selector
        ``<name>_sel`` and gives it 4 groups of at most 120 members (its bfrt.json for
        such a program). The stateful forms, with a Register<bit<1>, _> for
        SelectorAction, are refused by name."""
        if not args:
            raise serr(d.loc, f"ActionSelector '{qual}' needs arguments")
        first = self.expr(args[0], scope, fc, None)
        implicit = not (first.extra and first.extra[0] == "extern"
                        and first.extra[1].kind == "ActionProfile")
        if len(args) == (4 if implicit else 6):
            raise UnsupportedError(args[3].loc, f"stateful ActionSelector '{qual}' (with a "
                                                f"Register for SelectorAction) is not supported")
        if len(args) != (3 if implicit else 5):
            raise serr(d.loc, f"ActionSelector '{qual}' takes (ActionProfile, Hash, "
                              f"SelectorMode_t, max_group_size, num_groups) or (size, Hash, "
                              f"SelectorMode_t)")
        if implicit:
            size = self.const_in(args[0], scope, fc, "action selector size")
            if size <= 0:
                raise serr(args[0].loc, f"ActionSelector '{qual}' size must be positive")
            profile = ActionProfileSpec(qual, size, d.loc)
            profile.pyname = self.add_object("action_profile", profile, "AP")
        else:
            profile = first.extra[1].info["spec"]
        hv = self.expr(args[1], scope, fc, None)
        if not (hv.extra and hv.extra[0] == "extern" and hv.extra[1].kind == "Hash"):
            raise serr(args[1].loc, f"ActionSelector '{qual}': the second argument must be a "
                                    f"Hash")
        mv = self.expr(args[2], scope, fc, None)
        if not isinstance(mv.t, EnumT) or mv.t.name != "SelectorMode_t" or mv.const is None:
            raise serr(args[2].loc, f"ActionSelector '{qual}': expected SelectorMode_t.FAIR "
                                    f"or .RESILIENT")
        mode = [k for k, v in mv.t.members.items() if v == mv.const][0]
        if implicit:
            name, max_group, num_groups = f"{qual}_sel", 120, 4
        else:
            name = qual
            max_group = self.const_in(args[3], scope, fc, "max_group_size")
            num_groups = self.const_in(args[4], scope, fc, "num_groups")
        if max_group <= 0 or num_groups <= 0:
            raise serr(d.loc, f"ActionSelector '{qual}': max_group_size and num_groups must "
                              f"be positive")
        spec = ActionSelectorSpec(name, profile, hv.extra[1].pyname, mode, max_group,
                                  num_groups, d.loc)
        inst.info["spec"] = spec
        inst.pyname = spec.pyname = self.add_object("action_selector", spec, "AS")

    def table_implementation(self, props, qname, actions, selector_keys, sc, fc):
        """The ActionProfileSpec/ActionSelectorSpec of a table's ``implementation``
        (None without one), checked against the table's actions and selector keys."""
        if "implementation" not in props:
            if selector_keys:
                raise serr(selector_keys[0].loc, f"table '{qname}': a selector key needs "
                                                 f"implementation = an ActionSelector")
            return None
        prop = props["implementation"]
        v = self.expr(prop.value, sc, fc, None)
        if not (v.extra and v.extra[0] == "extern"
                and v.extra[1].kind in ("ActionProfile", "ActionSelector")):
            raise serr(prop.loc, f"table '{qname}': implementation must be an ActionProfile or "
                                 f"an ActionSelector")
        impl = v.extra[1].info["spec"]
        selector = isinstance(impl, ActionSelectorSpec)
        if selector and not selector_keys:
            raise serr(prop.loc, f"table '{qname}': an ActionSelector needs selector keys")
        if not selector and selector_keys:
            raise serr(selector_keys[0].loc, f"table '{qname}': selector keys need an "
                                             f"ActionSelector implementation")
        profile = impl.profile if selector else impl
        names = [a.name for a in actions]
        if profile.actions is None:
            profile.actions = actions
        elif [a.name for a in profile.actions] != names:
            raise serr(prop.loc, f"table '{qname}': shares action profile '{profile.name}' "
                                 f"with table '{profile.tables[0]}' but lists other actions")
        profile.tables.append(qname)
        return impl

    def selector_code(self, selector_keys, sc, fc):
        """Python code of ``(value, nbits)``: the selector key fields concatenated in key
        order, the data the selector's Hash reduces."""
        terms, total = [], 0
        for kd in reversed(selector_keys):
            kv = self.expr(kd.expr, sc, fc, None)
            kt = self.scalar_t(kv.t)
            if not isinstance(kt, Bits):
                raise serr(kd.loc, "a selector key must be a bit<W> or int<W> value")
            c = f"({kv.code} & {(1 << kt.width) - 1})" if kt.signed else kv.code
            terms.append(f"({c} << {total})" if total else c)
            total += kt.width
        return f"({' | '.join(terms)}, {total})"


def check_no_const_entries(props, qname):
    """bf-p4c's indirect tables take their entries from the control plane."""
    if "entries" in props:
        raise UnsupportedError(props["entries"].loc, f"table '{qname}': const entries on a "
                                                     f"table with an action profile")

"""Match-action tables: keys, actions lists, default and const entries, direct counters -> a
TableSpec."""
from ..errors import UnsupportedError
from ..runtime import ActionSpec, KeySpec, TableSpec
from ..types import Bits, BoolT, EnumT, ErrorT, wrap_value
from .base import expr_text, serr
from .ext_action_profiles import check_no_const_entries


class TablesMixin:
    """Match-action tables: keys, actions lists, default and const entries, direct counters ->
    a TableSpec."""

    def prop_instance(self, props, pname, kind, sc, fc, qname):
        prop = props[pname]
        v = self.expr(prop.value, sc, fc, None)
        if not v.extra or v.extra[0] != "extern" or v.extra[1].kind != kind:
            raise serr(prop.loc, f"table '{qname}': {pname} must be a {kind}")
        return v.extra[1]

    def inst_Alpm(self, d, t, args, inst, scope, qual, fc):
        """Alpm/Atcam: how Tofino stores an lpm/ternary table; the lookup is the same."""
        inst.pyname = None

    inst_Atcam = inst_Alpm

    def compile_table(self, d, sc, fc, qual):
        qname = f"{qual}.{d.name}"
        props = d.props
        for p in props:
            if p not in ("key", "actions", "default_action", "size", "entries", "counters",
                         "registers", "meters", "alpm", "atcam", "idle_timeout",
                         "implementation", "filters"):
                raise UnsupportedError(props[p].loc, f"table '{qname}': unsupported property '{p}'")
        keys = []
        keycode = []
        selector_keys = []
        for kd in (props["key"].value if "key" in props else []):
            if kd.match == "selector":       # hashed to choose a group's member
                selector_keys.append(kd)
                continue
            kv = self.expr(kd.expr, sc, fc, None)
            kt = self.scalar_t(kv.t)
            if not isinstance(kt, (Bits, BoolT, ErrorT, EnumT)):
                raise serr(kd.loc, f"table '{qname}': key '{expr_text(kd.expr)}' is not a scalar")
            match = kd.match
            if match == "atcam_partition_index":
                match = "exact"          # the partition index selects a partition: exact
            if match not in ("exact", "ternary", "lpm", "range"):
                raise UnsupportedError(kd.loc, f"table '{qname}': unsupported match kind '{kd.match}'")
            kname = kd.pname or expr_text(kd.expr)
            aliases = []
            ke = kd.expr
            if (ke.k == "call" and ke.fn.k == "member" and ke.fn.name == "isValid"
                    and not ke.args):
                aliases.append(f"{expr_text(ke.fn.expr)}.$valid")   # BfRt's key name
            keys.append(KeySpec(kname, match, kt.width, getattr(kt, "signed", False), aliases))
            keycode.append(kv.code)
        if sum(1 for k in keys if k.match == "lpm") > 1:
            raise serr(d.loc, f"table '{qname}': at most one lpm key")
        if "actions" not in props:
            raise serr(d.loc, f"table '{qname}' has no actions")
        actions = []
        for ar in props["actions"].value:
            e = ar.expr
            if e.k == "call":
                if e.args:
                    raise UnsupportedError(ar.loc, f"table '{qname}': action arguments in the "
                                                   f"actions list are not supported")
                e = e.fn
            av = self.expr(e, sc, fc, None)
            if not av.extra or av.extra[0] != "action":
                raise serr(ar.loc, f"table '{qname}': '{expr_text(e)}' is not an action")
            cal = av.extra[1]
            self.ensure_callable(cal)
            if any(p[1] for p in cal.params):
                raise UnsupportedError(ar.loc, f"table '{qname}': action '{cal.qual}' has directional "
                                               f"parameters")
            actions.append(ActionSpec(cal.qual, cal.short, cal.pyname, cal.cp_params,
                                      ar.defaultonly, ar.tableonly))

        def find_action(node, what):
            e = node
            args = []
            if e.k == "call":
                args = e.args
                e = e.fn
            text = expr_text(e)
            av = self.expr(e, sc, fc, None)
            if not av.extra or av.extra[0] != "action":
                raise serr(node.loc, f"table '{qname}': {what} '{text}' is not an action")
            cal = av.extra[1]
            idx = [i for i, a in enumerate(actions) if a.name == cal.qual]
            if not idx:
                raise serr(node.loc, f"table '{qname}': {what} '{text}' is not in its actions list")
            i = idx[0]
            if len(args) != len(cal.cp_params):
                raise serr(node.loc, f"table '{qname}': {what} '{text}' needs {len(cal.cp_params)} "
                                     f"arguments")
            vals = []
            for a, (pn, w, sg) in zip(args, cal.cp_params):
                v = self.expr(a.value, sc, fc, None)
                if v.const is None:
                    raise serr(a.loc, f"table '{qname}': argument '{pn}' must be constant")
                vals.append(wrap_value(int(v.const), Bits(w, sg)))
            return i, tuple(vals)

        if "default_action" in props:
            dprop = props["default_action"]
            default = find_action(dprop.value, "default action")
            dconst = dprop.const
        else:
            noop = [i for i, a in enumerate(actions) if a.short == "NoAction"]
            if noop:
                default = (noop[0], ())
            else:
                actions.append(ActionSpec("NoAction", "NoAction", "NOOP", [], True, False))
                default = (len(actions) - 1, ())
            dconst = False
        size = self.const_in(props["size"].value, sc, fc, "table size") if "size" in props else 0
        has_dc = False
        dc_type = None
        if "counters" in props:
            cv = self.expr(props["counters"].value, sc, fc, None)
            if not cv.extra or cv.extra[0] != "extern" or cv.extra[1].kind != "DirectCounter":
                raise serr(props["counters"].loc, f"table '{qname}': counters must be a DirectCounter")
            has_dc = True
            dc_type = cv.extra[1].info["counter_type"]
        for prop, kind in (("alpm", "Alpm"), ("atcam", "Atcam")):
            if prop in props:    # algorithmic lpm/tcam: same lookup result, partitions ignored
                self.prop_instance(props, prop, kind, sc, fc, qname)
        direct_register = None
        if "registers" in props:
            dr = self.prop_instance(props, "registers", "DirectRegister", sc, fc, qname)
            direct_register = (dr.info["fields"], dr.info["init"], dr.qual)
        direct_meter = None
        if "meters" in props:
            direct_meter = self.prop_instance(props, "meters", "DirectMeter", sc, fc, qname).info["spec"]
        const_entries = []
        if "entries" in props:
            for prio, ent in enumerate(props["entries"].value):
                if len(ent.keys) != len(keys):
                    raise serr(ent.loc, f"table '{qname}': entry has {len(ent.keys)} keys, "
                                        f"table has {len(keys)}")
                norm = []
                for kn, ks in zip(ent.keys, keys):
                    t = Bits(ks.width, ks.signed)
                    full = (1 << ks.width) - 1
                    if kn.k == "ks_default":
                        norm.append((1, 0, 0) if ks.match != "range" else (2, -(1 << 64), 1 << 64))
                    elif kn.k == "ks_expr":
                        v = self.const_of(kn.value, sc, fc, t, "entry key")
                        norm.append((0, v, None) if ks.match == "exact" else
                                    ((2, v, v) if ks.match == "range" else (1, v & full, full)))
                    elif kn.k == "ks_mask":
                        v = self.const_of(kn.value, sc, fc, t, "entry key")
                        m = self.const_of(kn.mask, sc, fc, t, "entry mask") & full
                        if ks.match not in ("ternary", "lpm"):
                            raise serr(kn.loc, f"table '{qname}': mask on {ks.match} key '{ks.name}'")
                        norm.append((1, v & m, m))
                    elif kn.k == "ks_range":
                        if ks.match != "range":
                            raise serr(kn.loc, f"table '{qname}': range on {ks.match} key '{ks.name}'")
                        norm.append((2, self.const_of(kn.low, sc, fc, t, "range"),
                                     self.const_of(kn.high, sc, fc, t, "range")))
                aidx, args = find_action(ent.action, "entry action")
                if all(k.match == "exact" for k in keys):
                    key = tuple(n[1] for n in norm)
                else:
                    key = tuple(norm)
                const_entries.append(((key, norm), aidx, args, prio))
        implementation = self.table_implementation(props, qname, actions, selector_keys, sc, fc)
        if implementation is not None:
            check_no_const_entries(props, qname)
        spec = TableSpec(qname, keys, actions, default, dconst, const_entries, size, has_dc, d.loc,
                         direct_register, direct_meter)
        spec.implementation = implementation   # ActionProfileSpec/ActionSelectorSpec or None
        spec.aliases = self.aliases(d.pname, qual)
        spec.direct_counter_type = dc_type     # CounterType_t member name, or None
        spec.direct_filter = None              # (kind "lpf"/"wred", FilterSpec) or None
        if "filters" in props:
            fv = self.expr(props["filters"].value, sc, fc, None)
            if not fv.extra or fv.extra[0] != "extern" or fv.extra[1].kind not in (
                    "DirectLpf", "DirectWred"):
                raise serr(props["filters"].loc, f"table '{qname}': filters must be a "
                                                 f"DirectLpf or DirectWred")
            inst = fv.extra[1]
            spec.direct_filter = ("lpf" if inst.kind == "DirectLpf" else "wred",
                                  inst.info["spec"])
        if qname in self.tables:
            raise serr(d.loc, f"duplicate table '{qname}'")
        self.tables[qname] = spec
        cov = self.table_points(qname, d, props, const_entries, len(actions))
        spec.cov_entries = cov["entries"]
        pyname = self.add_object("table", spec, "T")
        kc = "(" + "".join(f"{c}, " for c in keycode) + ")"
        selcode = f", {self.selector_code(selector_keys, sc, fc)}" if selector_keys else ""
        return {"pyname": pyname, "spec": spec, "keycode": kc + selcode, "keycodes": list(keycode),
                "qual": qname, "cov": cov}

    def table_points(self, qname, d, props, const_entries, nactions):
        """The counters of a table's coverage points: {"entries": one per const entry,
        "hit": a non-const table's hits, "default": one per action, a miss that ran it
        (None when an entry matches every key)}. The points: hit (a const table's: the
        sum of its entries), miss (the sum of the defaults), each const entry. Counting
        a miss per default action lets the action's own count be derived."""
        cov = {"entries": [], "hit": None, "default": None}
        if not self.cov_here(d.loc):
            return cov
        if const_entries:
            cov["entries"] = [self.cov_point("entry", qname, ent.loc)[0]
                              for ent in props["entries"].value]
            hits = tuple(cov["entries"])
        else:
            cov["hit"] = self.cov.counter()
            hits = (cov["hit"],)
        self.cov_point("table", qname, d.loc, "hit", counters=hits)
        catch_all = any(all(kind == 1 and not b or kind == 2 and a <= -(1 << 64)
                            for kind, a, b in norm) for (_, norm), _, _, _ in const_entries)
        if not catch_all:
            cov["default"] = tuple(self.cov.counter() for _ in range(nactions))
            self.cov_point("table", qname, d.loc, "miss", counters=cov["default"])
        return cov

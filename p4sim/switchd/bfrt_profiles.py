"""bfrt.json objects of action profiles and selectors, as bf-p4c writes them.

Facts taken from bf-p4c's bfrt.json for tests/sde_ptf/ptf/action_selector (golden in
tests/softswitch/data/bf-p4c/action_selector.bfrt.json):

- a table with ``implementation = <ActionProfile>`` is ``MatchAction_Indirect``: no
  ``action_specs``, one mandatory data field ``$ACTION_MEMBER_ID`` (65539); with an
  ``ActionSelector`` it is ``MatchAction_Indirect_Selector`` and that field is a
  ``oneof`` of ``$ACTION_MEMBER_ID`` and ``$SELECTOR_GROUP_ID`` (65540). Selector keys
  are not keys of the table. ``depends_on`` names the selector (if any), then the profile.
- the profile is a table of type ``Action`` (id prefix 0x81), key ``$ACTION_MEMBER_ID``,
  the actions of the tables using it, size the profile's size;
- the selector is a table of type ``Selector`` (prefix 0x82), key
  ``$SELECTOR_GROUP_ID``, size ``num_groups``, data ``$ACTION_MEMBER_ID`` and
  ``$ACTION_MEMBER_STATUS`` (repeated, 65539 and 65564), ``$MAX_GROUP_SIZE`` (65565,
  default ``max_group_size``) and ``$ADT_OFFSET`` (65566, default 0xDEADBEEF: a driver
  field with no meaning here, stored and read back);
- ``<selector>_get_member`` (type ``SelectorGetMember``, prefix 0x9a, the selector's
  low id bits, size 1): keys ``$SELECTOR_GROUP_ID`` (65563) and ``hash_value`` (65583),
  data ``$ACTION_MEMBER_ID`` (65562), all uint64: which member a hash value takes.
"""
from __future__ import annotations

from p4sim.action_profiles import ActionSelectorSpec

PREFIX_ACTION_PROFILE = 0x81
PREFIX_SELECTOR = 0x82
PREFIX_SELECTOR_GET_MEMBER = 0x9A

ACTION_MEMBER_ID = 65539
SELECTOR_GROUP_ID = 65540
ACTION_MEMBER_STATUS = 65564
MAX_GROUP_SIZE = 65565
ADT_OFFSET = 65566
ADT_OFFSET_DEFAULT = 0xDEADBEEF
GET_MEMBER_GROUP_ID = 65563
GET_MEMBER_HASH = 65583
GET_MEMBER_MEMBER_ID = 65562

_U32 = {"type": "uint32"}
_U64 = {"type": "uint64"}


def _field(fid: int, name: str, typ: dict, repeated: bool = False) -> dict:
    return {"id": fid, "name": name, "repeated": repeated, "annotations": [], "type": typ}


def _key(fid: int, name: str, typ: dict) -> dict:
    return dict(_field(fid, name, typ), mandatory=True, match_type="Exact")


def _data(fid: int, name: str, typ: dict, *, mandatory=False, repeated=False) -> dict:
    return {"mandatory": mandatory, "read_only": False,
            "singleton": _field(fid, name, typ, repeated)}


def _table(name: str, tid: int, typ: str, size: int, depends: list, keys: list,
           data: list, actions=None) -> dict:
    t = {"name": name, "id": tid, "table_type": typ, "size": size, "annotations": [],
         "depends_on": depends, "key": keys}
    if actions is not None:
        t["action_specs"] = actions
    t.update(data=data, supported_operations=[], attributes=[])
    return t


def make_indirect(table: dict, spec, pipe: str, ids) -> None:
    """Turn a match table's bfrt.json (from bfrt_schema) into its indirect form."""
    impl = spec.implementation
    selector = isinstance(impl, ActionSelectorSpec)
    profile = impl.profile if selector else impl
    table.pop("action_specs", None)
    depends = [ids.get(PREFIX_SELECTOR, f"{pipe}.{impl.name}")] if selector else []
    table["depends_on"] = depends + [ids.get(PREFIX_ACTION_PROFILE, f"{pipe}.{profile.name}")]
    member = _field(ACTION_MEMBER_ID, "$ACTION_MEMBER_ID", _U32)
    if selector:
        table["table_type"] = "MatchAction_Indirect_Selector"
        group = _field(SELECTOR_GROUP_ID, "$SELECTOR_GROUP_ID", _U32)
        ref = {"mandatory": True, "read_only": False, "oneof": [member, group]}
    else:
        table["table_type"] = "MatchAction_Indirect"
        ref = {"mandatory": True, "read_only": False, "singleton": member}
    table["data"] = [ref] + table["data"]


def profile_tables(program, pipe: str, ids, action_specs) -> list[dict]:
    """The ``Action``, ``Selector`` and ``SelectorGetMember`` tables of ``program``;
    ``action_specs(actions)`` is bfrt_schema's writer of a table's action list."""
    impls = {}
    for name in sorted(program.tables):
        impl = getattr(program.tables[name], "implementation", None)
        if impl is not None:
            if isinstance(impl, ActionSelectorSpec):
                impls.setdefault(impl.profile.name, impl.profile)
            impls.setdefault(impl.name, impl)
    out = []
    for impl in impls.values():
        name = f"{pipe}.{impl.name}"
        if not isinstance(impl, ActionSelectorSpec):
            out.append(_table(name, ids.get(PREFIX_ACTION_PROFILE, name), "Action", impl.size,
                              [], [_key(ACTION_MEMBER_ID, "$ACTION_MEMBER_ID", _U32)], [],
                              action_specs(impl.actions)))
            continue
        sid = ids.get(PREFIX_SELECTOR, name)
        pid = ids.get(PREFIX_ACTION_PROFILE, f"{pipe}.{impl.profile.name}")
        out.append(_table(name, sid, "Selector", impl.num_groups, [pid],
                          [_key(SELECTOR_GROUP_ID, "$SELECTOR_GROUP_ID", _U32)], [
                              _data(ACTION_MEMBER_ID, "$ACTION_MEMBER_ID", _U32, repeated=True),
                              _data(ACTION_MEMBER_STATUS, "$ACTION_MEMBER_STATUS",
                                    {"type": "bool"}, repeated=True),
                              _data(MAX_GROUP_SIZE, "$MAX_GROUP_SIZE",
                                    dict(_U32, default_value=impl.max_group_size)),
                              _data(ADT_OFFSET, "$ADT_OFFSET",
                                    dict(_U32, default_value=ADT_OFFSET_DEFAULT))]))
        out.append(_table(f"{name}_get_member", PREFIX_SELECTOR_GET_MEMBER << 24 | sid & 0xFFFFFF,
                          "SelectorGetMember", 1, [sid],
                          [_key(GET_MEMBER_GROUP_ID, "$SELECTOR_GROUP_ID", _U64),
                           _key(GET_MEMBER_HASH, "hash_value", _U64)],
                          [_data(GET_MEMBER_MEMBER_ID, "$ACTION_MEMBER_ID", _U64)]))
    return out

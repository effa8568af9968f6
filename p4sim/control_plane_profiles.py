"""The control-plane API of action profiles and selectors (p4sim/action_profiles.py):
members, groups, and the entries of indirect tables that name them -- what BfRuntime's
``Action``, ``Selector`` and ``MatchAction_Indirect[_Selector]`` tables expose."""
from __future__ import annotations

from .action_profiles import ActionProfile, ActionSelector, IndirectTable
from .control_plane import _find
from .errors import ControlPlaneError


class ActionProfileControlMixin:
    """Mixed into :class:`p4sim.Switch`; names are fully qualified P4 names
    (``SwitchIngress.port_profile``) or a unique suffix."""

    def _profiles(self) -> dict:
        out = {}
        for t in self.tables.values():
            if isinstance(t, IndirectTable):
                out[t.profile.name] = t.profile
                if t.selector is not None:
                    out[t.selector.name] = t.selector
        return out

    def action_profile(self, name: str) -> ActionProfile:
        p = _find(self._profiles(), name, "action profile")
        if not isinstance(p, ActionProfile):
            raise ControlPlaneError(f"'{name}' is an action selector, not an action profile")
        return p

    def action_selector(self, name: str) -> ActionSelector:
        s = _find(self._profiles(), name, "action selector")
        if not isinstance(s, ActionSelector):
            raise ControlPlaneError(f"'{name}' is an action profile, not an action selector")
        return s

    def indirect_table(self, name: str) -> IndirectTable:
        t = self.table(name)
        if not isinstance(t, IndirectTable):
            raise ControlPlaneError(f"table '{t.name}' has no action profile")
        return t

    # ---- members (BfRt: the profile's table, key $ACTION_MEMBER_ID)
    def action_member_add(self, profile: str, member_id: int, action: str, params=None):
        self.action_profile(profile).add(member_id, action, params)

    def action_member_modify(self, profile: str, member_id: int, action: str, params=None):
        self.action_profile(profile).modify(member_id, action, params)

    def action_member_delete(self, profile: str, member_id: int):
        self.action_profile(profile).delete(member_id)

    def action_members(self, profile: str) -> dict:
        """{member id: (action name, {param: value})}."""
        p = self.action_profile(profile)
        return {mid: (p.spec.actions[a].name,
                      {pn: v for (pn, _w, _s), v in zip(p.spec.actions[a].params, args)})
                for mid, (a, args) in sorted(p.members.items())}

    # ---- groups (BfRt: the selector's table, key $SELECTOR_GROUP_ID)
    def selector_group_add(self, selector: str, group_id: int, members=(), statuses=None,
                           max_group_size: int | None = None):
        self.action_selector(selector).add(group_id, members, statuses, max_group_size)

    def selector_group_modify(self, selector: str, group_id: int, members=None, statuses=None):
        self.action_selector(selector).modify(group_id, members, statuses)

    def selector_group_delete(self, selector: str, group_id: int):
        self.action_selector(selector).delete(group_id)

    def selector_groups(self, selector: str) -> dict:
        """{group id: (members, statuses, max group size)}."""
        return {gid: (list(m), list(st), mx) for gid, (m, st, mx)
                in sorted(self.action_selector(selector).groups.items())}

    def selector_member_for(self, selector: str, group_id: int, hash_value: int) -> int | None:
        """The member a packet whose selector hash is ``hash_value`` takes (BfRt's
        ``<selector>_get_member`` table)."""
        s = self.action_selector(selector)
        s.get(group_id)
        return s.member_for(group_id, hash_value)

    # ---- entries of indirect tables
    def table_add_member(self, table: str, key: dict, member_id: int, priority=None):
        self.indirect_table(table).add_reference(key, member_id=member_id, priority=priority)

    def table_add_group(self, table: str, key: dict, group_id: int, priority=None):
        self.indirect_table(table).add_reference(key, group_id=group_id, priority=priority)

    def table_modify_reference(self, table: str, key: dict, *, member_id=None, group_id=None):
        self.indirect_table(table).modify_reference(key, member_id=member_id,
                                                    group_id=group_id)

"""TNA's ``ActionProfile`` and ``ActionSelector`` at run time: members, groups and the
indirect tables whose entries name one of them.

An entry of an indirect table holds no action: it names a *member* of the table's action
profile (an action with its data, ``$ACTION_MEMBER_ID``) or, on a selector table, a
*group* of members (``$SELECTOR_GROUP_ID``); changing a member changes every entry that
names it. Decisions:

- the selector's hash is the program's ``Hash`` over the table's ``selector`` key fields
  concatenated in key order (as ``Hash.get({f1, f2, ...})`` would compute it);
- the member that hash picks in a group is the driver's choice (selector_choice.py:
  FAIR, ``hash[13:0] % active`` over the active members; RESILIENT, tries and a
  fallback), the group's members in the order the control plane listed them;
- an entry whose group has no active member runs the table's default action, as a miss
  (``hit`` is false; the driver's ``get_member`` finds no member either);
- a member named by an entry or a group, and a group named by an entry, cannot be
  deleted (BfRt's driver refuses it too); a group holds at most its ``$MAX_GROUP_SIZE``
  members (the selector's ``max_group_size`` by default), the selector at most
  ``num_groups`` groups and the profile at most ``size`` members.
"""
from __future__ import annotations

from . import selector_choice
from .errors import ControlPlaneError
from .runtime import Table, check_fit


class ActionProfileSpec:
    """``ActionProfile(size)``: the action list is the first table's (tables sharing a
    profile must list the same actions, as bf-p4c requires)."""

    def __init__(self, name: str, size: int, loc=None):
        self.name = name
        self.size = size
        self.loc = loc
        self.actions = None       # list of ActionSpec, set by the first table using it
        self.tables: list[str] = []


class ActionSelectorSpec:
    """``ActionSelector(profile, hash, mode, max_group_size, num_groups)``."""

    def __init__(self, name: str, profile: ActionProfileSpec, hash_pyname: str, mode: str,
                 max_group_size: int, num_groups: int, loc=None):
        self.name = name
        self.profile = profile
        self.hash_pyname = hash_pyname
        self.mode = mode
        self.max_group_size = max_group_size
        self.num_groups = num_groups
        self.loc = loc


class _IdTable:
    """Members or groups by a 32-bit id, which the ``users`` (tables, selectors) may
    name: ``user.names(kind, id)`` says where, and an id still named is not deleted."""

    kind = ""          # "member" / "group"
    owner = ""         # "action profile" / "selector"

    def __init__(self, name: str):
        self.name = name
        self.items: dict[int, object] = {}
        self.users: list = []

    def _id(self, value) -> int:
        return check_fit(value, 32, False, f"{self.owner} '{self.name}' {self.kind} id")

    def get(self, value):
        i = self._id(value)
        if i not in self.items:
            raise ControlPlaneError(f"{self.owner} '{self.name}': no entry with {self.kind} "
                                    f"id {i}")
        return self.items[i]

    def delete(self, value) -> None:
        i = self._id(value)
        self.get(i)
        for user in self.users:
            where = user.names(self.kind, i)
            if where:
                raise ControlPlaneError(f"{self.owner} '{self.name}': {self.kind} {i} is in "
                                        f"use by {where}; delete that first")
        del self.items[i]

    def clear(self) -> None:
        for i in list(self.items):
            self.delete(i)


class ActionProfile(_IdTable):
    """The members of one profile: member id -> (action index, args)."""

    kind, owner = "member", "action profile"
    # an action and its data, checked as a direct table checks them
    _action = Table._action_index
    _args = Table._args

    def __init__(self, spec: ActionProfileSpec):
        super().__init__(spec.name)
        self.spec = spec
        self.members = self.items
        self.by_name = {}
        for i, a in enumerate(spec.actions or ()):
            self.by_name[a.name] = i
            self.by_name.setdefault(a.short, i)
        self.fns = None            # bound by the first table (per Switch)

    def add(self, member_id: int, action: str, params=None) -> None:
        mid = self._id(member_id)
        if mid in self.members:
            raise ControlPlaneError(f"action profile '{self.name}': member {mid} already exists")
        if len(self.members) >= self.spec.size:
            raise ControlPlaneError(f"action profile '{self.name}' is full (size {self.spec.size})")
        aidx = self._action(action)
        if self.spec.actions[aidx].defaultonly:
            raise ControlPlaneError(f"action profile '{self.name}': action '{action}' is "
                                    f"@defaultonly")
        self.members[mid] = (aidx, self._args(aidx, params))

    def modify(self, member_id: int, action: str, params=None) -> None:
        mid = self._id(member_id)
        self.get(mid)
        aidx = self._action(action)
        self.members[mid] = (aidx, self._args(aidx, params))

    def result(self, mid: int):
        """The (hit, action index, function, args) a packet that takes member ``mid``
        runs, as Table.run returns it; None when the member is gone."""
        m = self.members.get(mid)
        if m is None:
            return None
        return (True, m[0], self.fns[m[0]], m[1])


class ActionSelector(_IdTable):
    """The groups of one selector: group id -> [members, statuses, max size]."""

    kind, owner = "group", "selector"

    def __init__(self, spec: ActionSelectorSpec, profile: ActionProfile, hash_unit):
        super().__init__(spec.name)
        self.spec = spec
        self.profile = profile
        self.hash = hash_unit
        self.groups = self.items
        profile.users.append(self)

    def names(self, kind: str, mid: int) -> str | None:
        for gid, (members, _st, _mx) in self.groups.items():
            if mid in members:
                return f"group {gid} of selector '{self.name}'"
        return None

    def _members(self, gid: int, members, statuses, max_size: int):
        members = [self.profile._id(m) for m in members]
        statuses = [True] * len(members) if statuses is None else [bool(s) for s in statuses]
        if len(statuses) != len(members):
            raise ControlPlaneError(f"selector '{self.name}' group {gid}: "
                                    f"{len(statuses)} member statuses for {len(members)} members")
        if len(set(members)) != len(members):
            raise ControlPlaneError(f"selector '{self.name}' group {gid}: a member is listed "
                                    f"twice")
        if len(members) > max_size:
            raise ControlPlaneError(f"selector '{self.name}' group {gid}: {len(members)} "
                                    f"members exceed its max group size {max_size}")
        for m in members:
            self.profile.get(m)
        return [members, statuses, max_size]

    def add(self, group_id: int, members=(), statuses=None, max_size: int | None = None) -> None:
        gid = self._id(group_id)
        if gid in self.groups:
            raise ControlPlaneError(f"selector '{self.name}': group {gid} already exists")
        if len(self.groups) >= self.spec.num_groups:
            raise ControlPlaneError(f"selector '{self.name}' is full ({self.spec.num_groups} "
                                    f"groups)")
        mx = self.spec.max_group_size if max_size is None else max_size
        if not 0 < mx <= self.spec.max_group_size:
            raise ControlPlaneError(f"selector '{self.name}' group {gid}: max group size {mx} "
                                    f"outside 1..{self.spec.max_group_size}")
        self.groups[gid] = self._members(gid, members, statuses, mx)

    def modify(self, group_id: int, members=None, statuses=None) -> None:
        """New members (and statuses); ``members=None`` keeps the members and sets only
        their statuses. The group keeps its max size (fixed when it was added)."""
        members_now, _st, mx = self.get(group_id)
        gid = self._id(group_id)
        self.groups[gid] = self._members(gid, members_now if members is None else members,
                                         statuses, mx)

    def member_for(self, gid: int, hash_value: int) -> int | None:
        """The member a packet whose selector hash is ``hash_value`` takes in group
        ``gid`` (the rule in the module docstring); None without an active member."""
        g = self.groups.get(gid)
        if g is None:
            return None
        choose = selector_choice.resilient if self.spec.mode == "RESILIENT" else \
            selector_choice.fair
        return choose(g[0], g[1], hash_value)

    def select(self, gid: int, value: int, nbits: int):
        mid = self.member_for(gid, self.hash.get(value, nbits))
        return None if mid is None else self.profile.result(mid)


class IndirectTable(Table):
    """A match table whose entries name a member (``("member", id)``) or a group
    (``("group", id)``) instead of an action; its default action is the program's, as a
    direct table's."""

    def bind(self, ns):
        super().bind(ns)
        spec = self.spec.implementation
        self.selector = ns[spec.pyname] if isinstance(spec, ActionSelectorSpec) else None
        self.profile = self.selector.profile if self.selector else ns[spec.pyname]
        if self.profile.fns is None:
            self.profile.fns = self.fns
        self.profile.users.append(self)
        if self.selector is not None:
            self.selector.users.append(self)

    def run(self, S, key, sel=(0, 0)):
        e = self.entries.get(key) if self.exact_only else self._match(key)
        r = None
        if e is not None:
            kind, ref = e.result
            r = self.profile.result(ref) if kind == "member" else self.selector.select(ref, *sel)
        if r is None:
            r = self.default_result
            self.ctx.entry = None
        else:
            self.ctx.entry = e
        r[2](S, *r[3])
        return r

    def names(self, kind: str, ref: int) -> str | None:
        n = sum(1 for e in self.entries.values() if e.result == (kind, ref))
        return f"{n} entries of table '{self.name}'" if n else None

    def _reference(self, member_id, group_id) -> tuple:
        if (member_id is None) == (group_id is None):
            raise ControlPlaneError(f"table '{self.name}': an entry names either a member id "
                                    f"or a group id")
        if group_id is not None:
            if self.selector is None:
                raise ControlPlaneError(f"table '{self.name}' has no action selector; its "
                                        f"entries name a member id")
            self.selector.get(group_id)
            return ("group", group_id)
        self.profile.get(member_id)
        return ("member", member_id)

    def add_reference(self, key, *, member_id=None, group_id=None, priority=None) -> None:
        ref = self._reference(member_id, group_id)
        km = self._normalise_key(key)
        self._insert(km, 0, (), self._prio_of(km[1], priority)).result = ref

    def modify_reference(self, key, *, member_id=None, group_id=None) -> None:
        ref = self._reference(member_id, group_id)
        self.entry(key).result = ref

    def add(self, key, action, params=None, priority=None, counters=None):
        raise ControlPlaneError(f"table '{self.name}' is indirect (action profile "
                                f"'{self.profile.name}'): add a member, then an entry naming "
                                f"it (table_add_member / table_add_group)")

    def modify(self, key, action, params=None, priority=None, reset_counters=False):
        self.add(key, action)


PROFILE_KINDS = ("action_profile", "action_selector")


def profile_object(kind: str, spec, ns: dict):
    """A Switch's ActionProfile or ActionSelector for a compiled ``spec`` (the profile
    and the Hash a selector names are built before it: they are declared before it)."""
    if kind == "action_profile":
        return ActionProfile(spec)
    return ActionSelector(spec, ns[spec.profile.pyname], ns[spec.hash_pyname])

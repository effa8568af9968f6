"""``Ingress.two_level``: the switch's role in each job (spec sections 4, 5 and 8) as
entries of the ``role`` table, keyed by the job and by what the parser found in the
packet (``md.kind``, ``md.rack_key``; the KIND_* constants of ``p4src/headers.p4``)."""

from __future__ import annotations

from reference.control_plane import JobRoute, SwitchConfig

from p4src.control.facade import SwitchFacade

ROLE = "pipe.Ingress.two_level.role"
ACTION = "Ingress.two_level."

# KIND_* in p4src/headers.p4
KIND_GRADIENT = 1
KIND_GRADIENT_L0 = 2
KIND_GRADIENT_L1 = 3
KIND_PARAM = 4
KIND_PARAM_SHIM = 5
KIND_PARAM_L0 = 6


def role_entries(route: JobRoute) -> list[tuple[int, int, str, dict[str, int]]]:
    """(kind, rack_key, action, data) of one route; a packet kind without an entry
    passes unaggregated (to the PS, or to the workers for a parameter packet)."""
    local = route.local_rack_id
    has_local = local is not None
    entries = []
    if has_local:
        entries.append((KIND_GRADIENT, 0, "aggregate_level0", {"two_level": 0}))
        entries.append((KIND_GRADIENT_L0, local, "aggregate_level0", {"two_level": 1}))
        entries.append((KIND_PARAM, 0, "release_level0", {}))
        entries.append((KIND_PARAM_L0, 0, "release_level0", {}))
    else:
        entries.append((KIND_GRADIENT, 0, "unserved", {}))   # no workers of it here
    if route.is_upper:
        entries.append((KIND_GRADIENT_L1, 0, "aggregate_level1", {}))
        entries.append((KIND_PARAM_SHIM, 0, "release_level1",
                        {"param_again": int(has_local)}))
    elif has_local:
        entries.append((KIND_PARAM_SHIM, 0, "release_level0", {}))
    return entries


class TwoLevel:
    """Owns ``role``: per route, what each kind of packet does at this switch."""

    def __init__(self, facade: SwitchFacade):
        self.facade = facade
        self._keys: dict[tuple[int, int], list[dict[str, int]]] = {}

    def configure(self, config: SwitchConfig) -> None:
        for (app_id, ps_index), route in config.routes.items():
            keys = []
            for kind, rack_key, action, data in role_entries(route):
                key = {"hdr.atp.app_id": app_id, "hdr.atp.ps_index": ps_index,
                       "md.kind": kind, "md.rack_key": rack_key}
                self.facade.table_add(ROLE, key, ACTION + action, data)
                keys.append(key)
            self._keys[(app_id, ps_index)] = keys

    def remove_job(self, app_id: int) -> None:
        for job in [k for k in self._keys if k[0] == app_id]:
            for key in self._keys.pop(job):
                self.facade.table_delete(ROLE, key)

    def clear(self) -> None:
        self.facade.table_clear(ROLE)
        self._keys.clear()

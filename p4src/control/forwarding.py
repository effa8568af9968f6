"""``Ingress.forwarding``: the L2 table, the job routes and the jobs' multicast groups."""

from __future__ import annotations

from reference.control_plane import JobRoute, SwitchConfig
from reference.profiles import SPEC, Profile

from p4src.control.facade import SwitchFacade

L2 = "pipe.Ingress.forwarding.l2"
JOB_ROUTE = "pipe.Ingress.forwarding.job_route"
ROUTE = "Ingress.forwarding.route"
SET_PORT = "Ingress.forwarding.set_port"
# the release build only (9.12): the ports a job's parameter packets must enter on
PS_PORT = "pipe.Ingress.parameter_source.ps_port"
FROM_PS = "Ingress.parameter_source.from_ps"


class Forwarding:
    """Owns ``l2``, ``job_route``, the ``$pre`` groups (one node per group, node id =
    mgid, the ports in the reference's order so copies leave in the same order) and, in
    the release build, ``ps_port``: a parameter packet is multicast only from a port of
    one of its job's PSes, whatever its ps_index (9.12, rev. 4; the ports are the
    reference's ``SwitchConfig.ps_ports``)."""

    def __init__(self, facade: SwitchFacade, profile: Profile = SPEC):
        self.facade = facade
        self.profile = profile
        self._routes: dict[tuple[int, int], int] = {}   # (app_id, ps_index) -> mgid
        self._ps_ports: set[tuple[int, int]] = set()      # (app_id, port) entries

    def configure(self, config: SwitchConfig) -> None:
        for mac, port in config.l2.items():
            self.facade.table_add(L2, {"hdr.ethernet.dst_addr": int.from_bytes(mac, "big")},
                                  SET_PORT, {"port": port})
        for key, route in config.routes.items():
            mgid = config.mgid[key]
            ports = config.multicast.get(key, ())
            self.facade.multicast_node_add(mgid, 0, ports)
            self.facade.multicast_group_add(mgid, [mgid])
            self.facade.table_add(JOB_ROUTE, _route_key(*key), ROUTE,
                                  route_data(route, mgid))
            self._routes[key] = mgid
        if not self.profile.multicast_from_any_port:
            for app_id in sorted({app for app, _ in config.routes}):
                for port in config.ps_ports(app_id):
                    self.facade.table_add(PS_PORT, _ps_port_key(app_id, port), FROM_PS)
                    self._ps_ports.add((app_id, port))

    def remove_job(self, app_id: int) -> None:
        """Teardown, first step: the job's frames become an unknown job's (dropped)."""
        for key in [k for k in self._routes if k[0] == app_id]:
            mgid = self._routes.pop(key)
            self.facade.table_delete(JOB_ROUTE, _route_key(*key))
            self.facade.multicast_group_delete(mgid)
            self.facade.multicast_node_delete(mgid)
        for entry in sorted(e for e in self._ps_ports if e[0] == app_id):
            self.facade.table_delete(PS_PORT, _ps_port_key(*entry))
            self._ps_ports.discard(entry)

    def clear(self) -> None:
        self.facade.table_clear(L2)
        self.facade.table_clear(JOB_ROUTE)
        if not self.profile.multicast_from_any_port:
            self.facade.table_clear(PS_PORT)
        self._ps_ports.clear()
        for mgid in self._routes.values():
            self.facade.multicast_group_delete(mgid)
            self.facade.multicast_node_delete(mgid)
        self._routes.clear()


def _route_key(app_id: int, ps_index: int) -> dict[str, int]:
    return {"hdr.atp.app_id": app_id, "hdr.atp.ps_index": ps_index}


def _ps_port_key(app_id: int, port: int) -> dict[str, int]:
    return {"hdr.atp.app_id": app_id, "ig_intr_md.ingress_port": port}


def route_data(route: JobRoute, mgid: int) -> dict[str, int]:
    """The ``route`` action's data (the role itself is ``two_level.role``'s)."""
    return {"to_ps": route.to_ps_port, "mgid": mgid, "is_upper": int(route.is_upper)}

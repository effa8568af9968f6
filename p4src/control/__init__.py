"""Control plane of p4src/atp.p4: one class per P4 control, all writing through the
BfRuntime-shaped :class:`~p4src.control.facade.SwitchFacade`, every entry derived from
:class:`reference.control_plane.SwitchConfig`."""

from p4src.control.facade import FacadeError, P4simFacade, SwitchFacade
from p4src.control.switch import AtpControlPlane, ControlPlaneConfigError

__all__ = ["AtpControlPlane", "ControlPlaneConfigError", "FacadeError", "P4simFacade",
           "SwitchFacade"]

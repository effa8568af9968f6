"""Compile a parsed P4-16/TNA program into Python source, one function per block,
table action and RegisterAction.

Only the compiler writes the generated text: P4 names never reach it (every generated
identifier is a prefix plus a counter), so the user's P4 text is never evaluated.
All packet state (headers, metadata, locals of controls) lives in one flat list ``S`` of
Python ints; every field has a slot index fixed at compile time.  ``bit<W>`` values are
kept in ``0..2**W-1`` and ``int<W>`` values in ``-2**(W-1)..2**(W-1)-1``; every operation
that can leave that range is followed by masking.

Where a construct is lowered: declarations.py (types, constants, the pipeline),
controls.py (controls, actions, functions), tables.py, parsers.py (state machines),
packet_io.py (extract/emit), statements.py, calls.py, expressions.py, operators.py,
externs.py (dispatch) and one ext_*.py module per extern family.
"""

from .declarations import DeclarationsMixin
from .controls import ControlsMixin
from .tables import TablesMixin
from .parsers import ParsersMixin
from .packet_io import PacketIOMixin
from .statements import StatementsMixin
from .calls import CallsMixin
from .expressions import ExpressionsMixin
from .operators import OperatorsMixin
from .externs import ExternsMixin
from .ext_registers import RegistersMixin
from .ext_hashes import HashesMixin
from .ext_counters import CountersMixin
from .ext_deparser import DeparserExternsMixin
from .ext_filters import FiltersMixin
from .ext_action_profiles import ActionProfilesMixin
from .ext_register_params import RegisterParamsMixin
from .core import CompilerCore


class Compiler(DeclarationsMixin, ControlsMixin, TablesMixin, ParsersMixin, PacketIOMixin,
               StatementsMixin, CallsMixin, ExpressionsMixin, OperatorsMixin, ExternsMixin,
               RegistersMixin, HashesMixin, CountersMixin, DeparserExternsMixin, FiltersMixin,
               ActionProfilesMixin, RegisterParamsMixin, CompilerCore):
    """P4 declarations -> generated Python source + the specs of tables, registers, ..."""

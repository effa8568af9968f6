"""`python -m p4sim check|run ...` (see p4sim/cli.py)."""
import sys

from .cli import main

sys.exit(main())

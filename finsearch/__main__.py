"""`python -m finsearch`: the command line (`cli`)."""

import sys

from .cli import main

sys.exit(main())

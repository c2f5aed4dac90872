"""`python -m finsearch.bench`: the latency benchmark (`bench.cli`)."""

import sys

from .cli import main

sys.exit(main())

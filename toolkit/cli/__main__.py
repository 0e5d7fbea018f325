"""``python -m toolkit.cli ...``: the same as the ``migrate-check`` command."""
import sys

from toolkit.cli import main

sys.exit(main())

"""`python -m attention_explorer` is the same as the `attention-explorer` command."""

import sys

from attention_explorer.cli import main

sys.exit(main())

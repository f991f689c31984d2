"""``python -m patience.web serve …``: the command line with the web commands registered."""

from patience.web.cli import main

raise SystemExit(main())

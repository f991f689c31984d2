from patience.cli import main

raise SystemExit(main())

from vital_core.cli.main import main

raise SystemExit(main())

import sys

from pytest_coldstart.cli.main import main

sys.exit(main())

import sys

from station.cli import main

sys.exit(main())

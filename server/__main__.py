"""`python -m server`: serve gardens.v1 until SIGTERM/SIGINT."""
import sys

from server.app import main

if __name__ == "__main__":
    sys.exit(main())

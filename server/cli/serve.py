"""`gardens serve`: run the gardens.v1 gRPC server (the same as `python -m server`)."""
from __future__ import annotations

import logging
import sys

from server import config as config_mod


def _run(args) -> int:
    from server.app import serve  # grpc server machinery only when serving

    config = config_mod.from_args(args)
    logging.basicConfig(level=config.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    return serve(config)


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help="serve the gardens.v1 gRPC API",
                              description="Serve gardens.v1. Every flag also reads GARDENS_<NAME> from the "
                                          "environment; flags win.")
    config_mod.add_arguments(p)
    p.set_defaults(func=_run)

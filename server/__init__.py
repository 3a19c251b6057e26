"""Thin gRPC adapters over the domain: the gardens.v1 server, its services, conversion, errors and limits."""

"""Gardeners: 36 garden tiles, constraint cards, and the king's wishes as rules and CP-SAT models."""

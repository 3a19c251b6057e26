"""Tests of the Gartenbau engine."""

"""server.web without a browser: the Envoy config it writes is valid, and a missing build is named."""
from __future__ import annotations

import subprocess

import pytest

from server import web


def test_envoy_config_gets_both_ports_and_envoy_accepts_it(tmp_path):
    text = web.envoy_config(18123, 50123)
    assert "port_value: 18123 }  # listener port" in text and "port_value: 50123 }  # grpc port" in text
    assert "port_value: 8080" not in text and "port_value: 50051" not in text
    config = tmp_path / "envoy.yaml"
    config.write_text(text)
    out = subprocess.run([web.envoy_binary(), "--mode", "validate", "-c", str(config), "--disable-hot-restart"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]


def test_a_stack_without_a_built_page_says_how_to_build_it(tmp_path):
    stack = web.Stack("localhost:0", 0, 0, dist=tmp_path / "dist")
    with pytest.raises(OSError, match="make web"):
        stack.start()
    stack.stop()
    assert stack.grpc is None and stack.envoy is None

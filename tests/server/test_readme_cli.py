"""The README's "Gardeners from the command line" block, run as written: every command, and every `# ` output line
under a command found in what it prints (`...` ends an abridged line; text after two spaces is a comment)."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from server.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def readme_commands() -> list[tuple[list[str], str | None, list[str]]]:
    """(argv, file its output is redirected to or None, documented output lines) per command of the block."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## Gardeners from the command line", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    out: list[tuple[list[str], str | None, list[str]]] = []
    for line in block.strip().splitlines():
        if line.startswith("# "):
            out[-1][2].append(line[2:])
            continue
        words = shlex.split(line, comments=True)
        assert words[0] == ".venv/bin/gardens", line
        target = None
        if ">" in words:
            at = words.index(">")
            words, target = words[:at], words[at + 1]
        out.append((words[1:], target, []))
    return out


def _normal(line: str) -> str:
    line = re.split(r"\s{2,}#\s", line, maxsplit=1)[0]  # an inline comment
    return " ".join(re.sub(r"\(\d+ ms\)", "(N ms)", line).split())


def test_the_readme_command_line_block_runs_as_documented(capsys, monkeypatch, tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    commands = readme_commands()
    assert len(commands) >= 8 and sum(bool(lines) for _, _, lines in commands) >= 6
    for argv, target, documented in commands:
        code = main(argv)
        printed = capsys.readouterr().out
        assert code in (0, 1), (argv, code)  # 1: an answer that says no (unsolvable, His Majesty angry)
        if target is not None:
            (tmp_path / target).write_text(printed)
        got = [_normal(x) for x in printed.splitlines() if x.strip()]
        for line in documented:
            want = _normal(line)
            if want.startswith("..."):
                continue  # the rest of an output, abridged
            if "..." in want:
                prefix = want.split("...", 1)[0].rstrip()
                assert any(g.startswith(prefix) for g in got), (argv, line, got)
            else:  # the line itself, or it followed by a comment (the README's notes beside the output)
                assert any(want == g or want.startswith(g + " ") for g in got), (argv, line, got)

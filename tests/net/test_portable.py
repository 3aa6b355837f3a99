"""Without ``fcntl`` and ``termios`` (as on Windows) every module imports and a match is played.

A ``sitecustomize`` makes both modules unimportable in every child: one imports the whole
package; a host and two bots of the same name play a match over loopback TLS, so the bots hold
their homes with the stand-in lock (the second gets its own identity) and the transport reads
without the FIONREAD ioctl.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.net.procs import ROOT, cli_args, cli_env, finish

LO = ("--interfaces", "127.0.0.1")

BLOCK = "import sys\nfor _name in ('fcntl', 'termios'):\n    sys.modules[_name] = None\n"
IMPORT_ALL = """
import importlib, json, pkgutil, sys
import briscola_lan
names = [m.name for m in pkgutil.walk_packages(briscola_lan.__path__, "briscola_lan.")]
names = [n for n in names if not n.endswith(".__main__")]  # the entry script runs the command
for name in names:
    importlib.import_module(name)
try:
    import fcntl
except ImportError:
    blocked = True
else:
    blocked = False
print(json.dumps({"modules": names, "blocked": blocked}))
"""


def _env(tmp_path: Path, config: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCK, encoding="utf-8")
    env = cli_env(config)
    env["PYTHONPATH"] = str(site) + os.pathsep + env["PYTHONPATH"]
    return env


def _spawn(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        cli_args(*args),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def test_every_module_imports_without_fcntl_and_termios(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL],
        env=_env(tmp_path, tmp_path / "c"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert found["blocked"]
    assert "briscola_lan.net.transport" in found["modules"]
    assert "briscola_lan.tui.app" in found["modules"]


def test_a_match_without_fcntl_and_termios(tmp_path: Path) -> None:
    host_env = _env(tmp_path, tmp_path / "h")
    host = _spawn(host_env, "host", "--players", "2", "--hands-to-win", "1", "--no-mdns", *LO)
    bots: list[subprocess.Popen[str]] = []
    try:
        assert host.stdout is not None
        lines = []
        for line in host.stdout:
            lines.append(line)
            if line.startswith("ready"):
                break
        table = next((x for x in lines if x.startswith("table ")), None)
        assert table is not None, "".join(lines)
        where = table.split(" on ")[1].split()[0].rstrip(",")
        port = where.rpartition(":")[2]
        fingerprint = table.split()[-1]
        bot_env = _env(tmp_path, tmp_path / "b")  # one config: both bots are called bot-rules
        bots = [
            _spawn(bot_env, "bot", f"127.0.0.1:{port}", "--fingerprint", fingerprint)
            for _ in range(2)
        ]
        results = [finish(b, 120) for b in bots]
        for code, out in results:
            assert code == 0, out
            assert "match over" in out, out
        homes = sorted(p.name for p in (tmp_path / "b" / "briscola-lan" / "bots").iterdir())
        assert homes == ["bot-rules", "bot-rules.2"]  # the stand-in lock kept them apart
        for home in homes:  # and was released
            assert not (tmp_path / "b" / "briscola-lan" / "bots" / home / "lock.pid").exists()
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
                b.communicate()
        host.terminate()
        host.communicate(timeout=10)

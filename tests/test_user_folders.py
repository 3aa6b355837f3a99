"""The tests never touch the player's own folders: every path the game uses is in the test's
temporary home, and a session that changes the real folders fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from briscola_lan.fairness import identity
from briscola_lan.net import files, tls

from .conftest import REAL_DIRS

HERE = Path(__file__).parent


def test_every_user_folder_is_in_the_temporary_home(_user_folders_in_tmp: Path) -> None:
    home = _user_folders_in_tmp
    assert Path(os.environ["HOME"]) == home  # the home every user folder derives from
    for folder in (
        files.config_dir(),
        files.data_dir(),
        files.games_dir(),
        identity.config_dir(),
        tls.config_dir(),
    ):
        assert home in folder.parents, folder
        assert all(real not in (folder, *folder.parents) for real in REAL_DIRS), folder


def test_a_session_that_writes_the_real_folders_fails(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "tests").mkdir(parents=True)
    shutil.copy(HERE / "conftest.py", project / "tests" / "conftest.py")
    (project / "tests" / "test_careless.py").write_text(
        "import os\n"
        "from tests.conftest import REAL_DIRS\n"
        "def test_writes_real_data():\n"
        "    os.makedirs(REAL_DIRS[1] / 'games', exist_ok=True)\n"
        "    (REAL_DIRS[1] / 'games' / 'mine.bgame').write_bytes(b'x')\n"
    )
    (project / "tests" / "test_careful.py").write_text(
        "import os\n"
        "from pathlib import Path\n"
        "def test_writes_tmp_home():\n"
        "    (Path(os.environ['HOME']) / 'x').write_bytes(b'x')\n"
    )
    real_home = tmp_path / "real-home"
    real_home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env["HOME"] = str(real_home)
    env["PYTHONPATH"] = str(project)

    def run(test: str) -> int:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"tests/{test}"],
            check=False,
            cwd=project,
            env=env,
            capture_output=True,
            timeout=120,
        ).returncode

    assert run("test_careful.py") == 0
    assert not (real_home / ".local").exists()
    assert run("test_careless.py") == 1
    assert (real_home / ".local" / "share" / "briscola-lan" / "games" / "mine.bgame").exists()

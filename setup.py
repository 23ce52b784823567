"""Build step: copy the top-level data folders into the package as synth/_data/, where synth/core/paths.py looks
first (the folders stay at the top of the repository; a checkout reads them there)."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DATA = ("templates", "assets", "backgrounds")
# the scripts that generated the data are not needed to run
NOT_SHIPPED = shutil.ignore_patterns("*.py", "__pycache__")


class BuildPyWithData(build_py):
    def run(self):
        super().run()
        for name in DATA:
            target = Path(self.build_lib, "synth", "_data", name)
            shutil.rmtree(target, ignore_errors=True)   # a reused build/ folder must not keep deleted files
            shutil.copytree(ROOT / name, target, ignore=NOT_SHIPPED)


setup(cmdclass={"build_py": BuildPyWithData})

"""Package list for setuptools (everything else is in pyproject.toml).

The top-level ``assets/`` folder (fonts and their licences) ships as the package
``game.assets``, so an installed copy finds it with ``importlib.resources`` from any folder.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["game", "game.*", "net", "net.*", "bench", "bench.*"]),
        "game.assets",
    ],
    package_dir={"game.assets": "assets"},
)

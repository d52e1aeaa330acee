"""This platform's wheels made from what is installed (``net/install/collect.py``), and the
catalogue the host serves (``net/install/service.py``)."""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.metadata as md
import io
import zipfile
from pathlib import Path

import pytest

from game import __version__
from net.install import collect, service
from net.install.collect import CollectError, dependencies, repack, requirements
from net.install.wheelhouse import scan
from tests.install.conftest import make_wheel


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def fake_install(site: Path, name: str = "demo", version: str = "1.0") -> md.Distribution:
    """An installed distribution as pip leaves it: package files, a dist-info with RECORD
    (hashes), INSTALLER, a console script outside site-packages, __pycache__."""
    pkg = site / name
    pkg.mkdir(parents=True)
    files = {
        f"{name}/__init__.py": b"X = 1\n",
        f"{name}/data.bin": bytes(range(256)),
        f"{name}-{version}.dist-info/METADATA": (
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
            'Requires-Dist: other-dep>=1\nRequires-Dist: docs-only; extra == "docs"\n'
        ).encode(),
        f"{name}-{version}.dist-info/WHEEL": (
            b"Wheel-Version: 1.0\nRoot-Is-Purelib: false\n"
            b"Tag: cp311-cp311-manylinux_2_17_x86_64\nTag: cp311-cp311-manylinux2014_x86_64\n"
        ),
        f"{name}-{version}.dist-info/entry_points.txt": b"[console_scripts]\ndemo = demo:main\n",
        f"{name}-{version}.dist-info/INSTALLER": b"pip\n",
    }
    for rel, data in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_bytes(data)
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"compiled")
    rows = [[rel, f"sha256={_digest(data)}", str(len(data))] for rel, data in files.items()]
    rows.append(["../../../bin/demo", f"sha256={_digest(b'#!python')}", "8"])
    rows.append([f"{name}/__pycache__/__init__.cpython-311.pyc", "", ""])
    rows.append([f"{name}-{version}.dist-info/RECORD", "", ""])
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    (site / f"{name}-{version}.dist-info/RECORD").write_text(out.getvalue())
    return md.PathDistribution(site / f"{name}-{version}.dist-info")


def test_an_installed_distribution_becomes_its_wheel_again(tmp_path: Path) -> None:
    dist = fake_install(tmp_path / "site")
    wheel = repack(dist, tmp_path / "out")
    assert wheel.name == "demo-1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert names == [
            "demo/__init__.py",
            "demo/data.bin",
            "demo-1.0.dist-info/METADATA",
            "demo-1.0.dist-info/WHEEL",
            "demo-1.0.dist-info/entry_points.txt",
            "demo-1.0.dist-info/RECORD",
        ]  # no INSTALLER, no __pycache__, no generated script; RECORD last
        assert z.read("demo/data.bin") == bytes(range(256))
        record = list(csv.reader(io.StringIO(z.read("demo-1.0.dist-info/RECORD").decode())))
    for rel, digest, size in record[:-1]:
        with zipfile.ZipFile(wheel) as z:
            data = z.read(rel)
        assert digest == f"sha256={_digest(data)}" and int(size) == len(data)
    assert record[-1] == ["demo-1.0.dist-info/RECORD", "", ""]
    first = wheel.read_bytes()
    assert repack(dist, tmp_path / "out").read_bytes() == first  # cached, and the same bytes
    (tmp_path / "out" / ".made" / (wheel.name + ".record-sha256")).unlink()
    assert repack(dist, tmp_path / "out").read_bytes() == first  # made again: identical


def test_a_modified_installation_is_refused(tmp_path: Path) -> None:
    dist = fake_install(tmp_path / "site")
    (tmp_path / "site" / "demo" / "__init__.py").write_bytes(b"X = 2  # patched\n")
    with pytest.raises(CollectError, match="changed after it was installed"):
        repack(dist, tmp_path / "out")


def test_files_outside_the_package_folder_are_refused(tmp_path: Path) -> None:
    dist = fake_install(tmp_path / "site")
    record = tmp_path / "site" / "demo-1.0.dist-info" / "RECORD"
    record.write_text(record.read_text() + "../../../share/demo/icon.png,sha256=x,1\n")
    with pytest.raises(CollectError, match="outside its package folder"):
        repack(dist, tmp_path / "out")


def test_the_dependencies_are_those_installed_here() -> None:
    wanted = requirements()
    assert {r.split(">")[0] for r in wanted} == {"pygame-ce", "msgpack", "platformdirs"}
    found, missing = dependencies(wanted)
    assert sorted(d.metadata["Name"].lower() for d in found) == [
        "msgpack",
        "platformdirs",
        "pygame-ce",
    ]
    assert missing == []
    assert dependencies(["no-such-project-here>=1"])[1] == ["no-such-project-here"]


def test_the_host_serves_its_own_version_and_prefers_prepared_files(
    tmp_path: Path, wheel_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catalogue: the prepared folder first; a made wheel that the folder already has
    under another spelling of its tags is left out; only this version of Lantern Table."""
    monkeypatch.setenv("LANTERN_CACHE_DIR", str(wheel_cache))
    prepared = tmp_path / "prepared"
    prepared.mkdir()
    made = collect.collect([prepared])
    assert made.notes == []
    pygame = next(p for p in made.files if p.name.startswith("pygame_ce-"))
    stem, _, tags = pygame.name.removesuffix(".whl").partition("-cp")
    python, abi, platforms = ("cp" + tags).split("-")
    swapped = f"{stem}-{python}-{abi}-{'.'.join(reversed(platforms.split('.')))}.whl"
    (prepared / swapped).write_bytes(pygame.read_bytes())
    make_wheel(prepared, "lantern-table", "0.0.1")  # an older release left in the folder
    house, notes = service.gather([prepared])
    assert notes == []
    names = set(house.entries)
    assert swapped in names and pygame.name not in names
    assert f"lantern_table-{__version__}-py3-none-any.whl" in names
    assert f"lantern_table-{__version__}.tar.gz" in names
    assert "lantern_table-0.0.1-py3-none-any.whl" not in names
    assert {e.project for e in house.entries.values()} == {
        "lantern-table",
        "pygame-ce",
        "msgpack",
        "platformdirs",
    }
    assert scan([prepared]).entries[swapped].sha256 == house.entries[swapped].sha256

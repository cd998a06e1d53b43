"""The archive's adapters keep one contract (``service.ports.Archive``): a local
directory and a real S3 server (SeaweedFS) answer alike; an archive that does not
answer is an ``ArchiveUnavailable`` (a 503 to retry), never a missing object."""

import itertools

import pytest

from service.archive import open_archive
from service.archive.directory import DirectoryArchive
from service.archive.s3 import S3Archive
from service.config import SettingsError
from service.errors import ArchiveUnavailable
from service.http.problems import problem
from tests.support.processes import free_port

_n = itertools.count()


@pytest.fixture(params=["directory", "s3"])
def archive(request, tmp_path):
    if request.param == "directory":
        return DirectoryArchive(tmp_path / "a")
    server = request.getfixturevalue("s3_server")
    server.bucket("adapters")
    return S3Archive("adapters", f"t{next(_n)}/x", client=server.client())


def test_an_archive_stores_reads_and_lists_objects(archive):
    assert archive.get("ids/g_1") is None
    assert list(archive.keys("games/")) == []
    archive.put("games/2026/11/g_2.json", b"{}")
    archive.put("games/2026/11/g_1.ndjson.zst", b"\x28\xb5\x2f\xfd" + bytes(range(256)))
    archive.put("games/2026/12/g_3.json", b"[]")
    archive.put("ids/g_1", b"games/2026/11/g_1.json")
    assert archive.get("games/2026/11/g_1.ndjson.zst")[4:] == bytes(range(256))
    assert list(archive.keys("games/2026/11/")) == ["games/2026/11/g_1.ndjson.zst",
                                                    "games/2026/11/g_2.json"]  # fmt: skip
    assert len(list(archive.keys(""))) == 4 and list(archive.keys("nothing/")) == []
    archive.put("ids/g_1", b"games/2026/12/g_1.json")  # a put replaces, whole
    assert archive.get("ids/g_1") == b"games/2026/12/g_1.json"


def test_an_archive_that_does_not_answer_is_unavailable_not_empty(tmp_path):
    import boto3

    down = S3Archive("b", "p", client=boto3.client(
        "s3", endpoint_url=f"http://127.0.0.1:{free_port()}", aws_access_key_id="k",
        aws_secret_access_key="s", region_name="us-east-1"))  # fmt: skip
    for call in (lambda: down.get("ids/g_1"), lambda: down.put("ids/g_1", b"x"),
                 lambda: list(down.keys("games/"))):  # fmt: skip
        with pytest.raises(ArchiveUnavailable) as e:
            call()
        status, _body, headers = problem(e.value)
        assert status == 503 and headers["Retry-After"] == "5"
    blocked = tmp_path / "file"
    blocked.write_text("a file where the archive's directory should be")
    with pytest.raises(ArchiveUnavailable):
        DirectoryArchive(blocked).put("ids/g_1", b"x")


def test_an_archive_url_names_its_kind():
    assert isinstance(open_archive("spitlog-archive"), DirectoryArchive)
    assert str(open_archive("file:///var/lib/spitlog").root) == "/var/lib/spitlog"
    s3 = open_archive("s3://bucket/some/prefix/", s3_endpoint_url="http://127.0.0.1:9")
    assert isinstance(s3, S3Archive) and s3.url == "s3://bucket/some/prefix/"
    for bad in ("s3://", "ftp://host/x"):
        with pytest.raises(SettingsError):
            open_archive(bad)
    with pytest.raises(ValueError):
        DirectoryArchive("/tmp").get("../etc/passwd")

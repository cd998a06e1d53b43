"""The archive of finished games (``service.ports.Archive``): what is written there and
how it is read back (``games``), on an object store, a local directory (``directory``) or
any S3 endpoint (``s3``). ``open_archive`` picks one by URL."""

from .. import extras
from ..config import SettingsError
from .directory import DirectoryArchive


def open_archive(url: str, *, s3_endpoint_url: str | None = None):
    """The archive at ``url``: ``s3://bucket/prefix`` (on ``s3_endpoint_url``, else AWS),
    ``file:///abs/path`` or a plain path (a directory, made when first written)."""
    if url.startswith("s3://"):
        if extras.missing("s3"):
            raise SettingsError(f"{url!r}: an s3:// archive needs boto3: {extras.hint('s3')}")
        from .s3 import S3Archive

        bucket, _, prefix = url[5:].partition("/")
        if not bucket:
            raise SettingsError(f"{url!r}: an s3:// archive URL names a bucket")
        return S3Archive(bucket, prefix, endpoint_url=s3_endpoint_url)
    if url.startswith("file://"):
        url = url[7:]
    elif "://" in url:
        raise SettingsError(f"{url!r}: an archive is a directory, file:// or s3:// URL")
    return DirectoryArchive(url)

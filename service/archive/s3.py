"""An archive in an S3 bucket (AWS, or any S3-compatible server: SeaweedFS, MinIO, ...)
through boto3. A PUT is atomic on S3: a reader sees the whole object or none."""

from collections.abc import Iterator

import boto3
import botocore.exceptions
from botocore.config import Config

from ..errors import ArchiveUnavailable
from .games import GameArchive

_CONFIG = Config(
    connect_timeout=3, read_timeout=20, retries={"max_attempts": 3, "mode": "standard"}
)


class S3Archive(GameArchive):
    def __init__(self, bucket: str, prefix: str = "", *, endpoint_url: str | None = None,
                 client=None):  # fmt: skip
        self.bucket = bucket
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        self.url = f"s3://{bucket}/{self.prefix}"
        self.s3 = client or boto3.client("s3", endpoint_url=endpoint_url, config=_CONFIG)

    def ensure(self) -> bool:
        """Make the bucket if there is none (in the client's region): whether it was made.
        ArchiveUnavailable if the endpoint does not answer or refuses."""
        try:
            self.s3.head_bucket(Bucket=self.bucket)
            return False
        except botocore.exceptions.ClientError as e:
            if e.response.get("Error", {}).get("Code") not in ("404", "NoSuchBucket", "NotFound"):
                raise ArchiveUnavailable(f"cannot reach the bucket of {self.url}: {e}") from None
        except botocore.exceptions.BotoCoreError as e:
            raise ArchiveUnavailable(f"cannot reach the bucket of {self.url}: {e}") from None
        region = self.s3.meta.region_name
        where = {"CreateBucketConfiguration": {"LocationConstraint": region}}
        try:
            self.s3.create_bucket(
                Bucket=self.bucket, **(where if region not in (None, "us-east-1") else {})
            )
        except botocore.exceptions.ClientError as e:
            if e.response.get("Error", {}).get("Code") == "BucketAlreadyOwnedByYou":
                return False  # made meanwhile
            raise ArchiveUnavailable(f"cannot make the bucket of {self.url}: {e}") from None
        except botocore.exceptions.BotoCoreError as e:
            raise ArchiveUnavailable(f"cannot make the bucket of {self.url}: {e}") from None
        return True

    def put(self, key: str, data: bytes) -> None:
        try:
            self.s3.put_object(Bucket=self.bucket, Key=self.prefix + key, Body=data)
        except (botocore.exceptions.BotoCoreError, botocore.exceptions.ClientError) as e:
            raise ArchiveUnavailable(f"cannot write {key} in {self.url}: {e}") from None

    def get(self, key: str) -> bytes | None:
        try:
            return self.s3.get_object(Bucket=self.bucket, Key=self.prefix + key)["Body"].read()
        except botocore.exceptions.ClientError as e:
            if e.response.get("Error", {}).get("Code") in ("NoSuchKey", "404"):
                return None
            raise ArchiveUnavailable(f"cannot read {key} in {self.url}: {e}") from None
        except botocore.exceptions.BotoCoreError as e:
            raise ArchiveUnavailable(f"cannot read {key} in {self.url}: {e}") from None

    def keys(self, prefix: str = "") -> Iterator[str]:
        """Every key under ``prefix``, in S3's order (sorted)."""
        pages = self.s3.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self.prefix + prefix
        )
        try:
            for page in pages:
                for obj in page.get("Contents", ()):
                    yield obj["Key"][len(self.prefix) :]
        except (botocore.exceptions.BotoCoreError, botocore.exceptions.ClientError) as e:
            raise ArchiveUnavailable(f"cannot list {prefix} in {self.url}: {e}") from None
